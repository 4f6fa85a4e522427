// SPDX-License-Identifier: Apache-2.0
#include "ui/session/enginesession.h"

#include "ui/session/hostedoperator.h"

#include "engine/api/status.h"
#include "engine/apiserver/apiserver.h"
#include "engine/apiserver/tls.h"
#include "engine/client/kubeconfig.h"
#include "engine/manager/leaderelector.h"
#include "engine/webhook/webhookgate.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QSemaphore>

#include <memory>

namespace opbench::ui {

namespace {
constexpr int kEngineStopWaitMs = 10000;
}

EngineSession::EngineSession(SessionOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
{
    m_serverThread.setObjectName(QStringLiteral("opbench-apiserver"));
    m_engineThread.setObjectName(QStringLiteral("opbench-engine"));
    OperatorDefinition def = hostedOperator();
    if (!m_options.createSamples)
        def.samples.clear();
    m_engine = new WorkbenchEngine(std::move(def)); // deleted on its thread when it finishes
    m_engine->setWebhookTlsGenerator([]() -> Expected<WebhookTls> {
        Expected<apiserver::TlsMaterial> tls = apiserver::TlsMaterial::generate();
        if (!tls)
            return tls.error();
        return WebhookTls{tls->caCert, tls->serverCert, tls->serverKey};
    });
    m_engine->moveToThread(&m_engineThread);
    connect(&m_engineThread, &QThread::finished, m_engine, &QObject::deleteLater);
    m_admission = new AdmissionLog; // fed by the embedded server's webhookCalled (queued)
    m_admission->moveToThread(&m_engineThread);
    connect(&m_engineThread, &QThread::finished, m_admission, &QObject::deleteLater);
    connect(m_engine, &WorkbenchEngine::failed, this, &EngineSession::failed);
    connect(m_engine, &WorkbenchEngine::connected, this, [this](const QUrl &url) {
        m_cluster.server = url;
        Q_EMIT started(m_cluster);
    });
    m_engineThread.start();
}

EngineSession::~EngineSession()
{
    // Let the manager finish stopping (runnables, caches, lease release) before the engine
    // thread ends: a thread ended mid-shutdown strands the coroutines still waiting in it.
    // Bounded, so a reconcile that never returns cannot hold the window open.
    auto stopped = std::make_shared<QSemaphore>();
    WorkbenchEngine *engine = m_engine;
    QMetaObject::invokeMethod(
        engine,
        [engine, stopped] {
            connect(engine, &WorkbenchEngine::stopped, engine, [stopped] { stopped->release(); });
            engine->shutdown();
        },
        Qt::BlockingQueuedConnection);
    if (!stopped->tryAcquire(1, kEngineStopWaitMs))
        qWarning("opbench: the operator did not finish stopping within %d ms; closing anyway", kEngineStopWaitMs);
    m_engineThread.quit();
    m_engineThread.wait();
    if (m_server)
        QMetaObject::invokeMethod(m_server.data(), &apiserver::ApiServer::stop, Qt::BlockingQueuedConnection);
    m_serverThread.quit();
    m_serverThread.wait();
}

void EngineSession::start()
{
    if (isReplay()) {
        m_cluster.name = QStringLiteral("replay");
        post(&WorkbenchEngine::openRecording, m_options.replay);
        return;
    }
    if (!isEmbedded()) {
        m_cluster.name = m_options.context.isEmpty() ? QStringLiteral("kubeconfig") : m_options.context;
        startEngine(m_options.kubeconfig, m_options.context);
        return;
    }
    m_cluster.name = QStringLiteral("embedded");
    m_cluster.embedded = true;
    apiserver::ApiServerOptions o;
    o.podReadyDelayMs = m_options.podReadyDelayMs;
    o.auditLog = m_options.auditLog;
    o.webhookHeld = m_engine->webhookGate()->heldPredicate(); // held calls wait (docs/webhooks.md)
    auto *server = new apiserver::ApiServer(o);               // deleted on its own thread when that thread finishes
    server->moveToThread(&m_serverThread);
    connect(&m_serverThread, &QThread::finished, server, &QObject::deleteLater);
    connect(server, &apiserver::ApiServer::webhookCalled, m_admission, &AdmissionLog::record);
    m_server = server;
    m_serverThread.start();
    // Start on the server's thread (TLS key generation must not block the window).
    QMetaObject::invokeMethod(server, [this, server] {
        auto ok = server->start();
        if (!ok) {
            const QString message = tr("The embedded API server did not start: %1").arg(ok.error().message());
            QMetaObject::invokeMethod(this, [this, message] { Q_EMIT failed(message); });
            return;
        }
        const QByteArray kubeconfig = server->kubeconfig();
        const QUrl url = server->url();
        QMetaObject::invokeMethod(this, [this, kubeconfig, url] { onServerStarted(kubeconfig, url); });
    });
}

void EngineSession::onServerStarted(const QByteArray &kubeconfig, const QUrl &url)
{
    m_kubeconfig = kubeconfig;
    m_cluster.server = url;
    const QString path = m_tempDir.filePath(QStringLiteral("kubeconfig"));
    if (auto ok = writeKubeconfig(path); !ok) {
        Q_EMIT failed(ok.error().message());
        return;
    }
    m_cluster.kubeconfigPath = path;
    startEngine(path, {});
}

HandOffOptions EngineSession::handOffOptions() const
{
    HandOffOptions h;
    h.embedded = isEmbedded();
    if (!h.embedded) {
        // packaging/manifests deploy opbench-operator: only its operator can hand off in-cluster.
        if (hostedOperator().headlessProgram == QLatin1String("opbench-operator"))
            h.clusterCrds = hostedOperator().crds;
        return h;
    }
    h.launch.program = operatorProgram();
    h.launch.server = m_cluster.server;
    h.launch.identity = QStringLiteral("headless-") + defaultLeaderIdentity();
    // The service-account token and CA are the embedded cluster's admin credentials.
    if (auto kc = Kubeconfig::parse(m_kubeconfig, QStringLiteral("embedded kubeconfig"), QString());
        kc && !kc->users.isEmpty() && !kc->clusters.isEmpty()) {
        h.launch.token = kc->users.first().token.toUtf8();
        h.launch.caPem = kc->clusters.first().certificateAuthorityData;
    }
    return h;
}

void EngineSession::startEngine(const QString &kubeconfigPath, const QString &context)
{
    post(&WorkbenchEngine::connectTo, kubeconfigPath, context, isEmbedded(), handOffOptions());
}

Expected<void> EngineSession::writeKubeconfig(const QString &path) const
{
    if (m_kubeconfig.isEmpty())
        return Status::badRequest(tr("There is no embedded cluster kubeconfig to write (not started yet, or "
                                     "connected to a real cluster)."));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        return Status::badRequest(tr("Cannot write the kubeconfig to %1: %2").arg(path, file.errorString()));
    }
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (file.write(m_kubeconfig) != m_kubeconfig.size())
        return Status::badRequest(tr("Cannot write the kubeconfig to %1: %2").arg(path, file.errorString()));
    return {};
}

void EngineSession::setFaults(const QStringList &specs)
{
    if (m_server)
        QMetaObject::invokeMethod(m_server.data(), "setFaults", Q_ARG(QStringList, specs));
}

void EngineSession::dropWatches()
{
    if (m_server)
        QMetaObject::invokeMethod(m_server.data(), "dropWatches");
}

void EngineSession::compactHistory()
{
    if (m_server)
        QMetaObject::invokeMethod(m_server.data(), "compactHistory");
}

void EngineSession::createObject(const Object &object) { post(&WorkbenchEngine::createObject, object); }

QString EngineSession::operatorProgram() const
{
    if (!m_options.operatorProgram.isEmpty())
        return m_options.operatorProgram;
    const OperatorDefinition &def = hostedOperator();
    const QString program
        = def.headlessProgram.isEmpty() ? def.name + QStringLiteral("-operator") : def.headlessProgram;
    return QDir(QCoreApplication::applicationDirPath()).filePath(program);
}

} // namespace opbench::ui
