// SPDX-License-Identifier: Apache-2.0
#include "ui/session/enginesession.h"

#include "ui/session/engineworker.h"
#include "ui/session/headlessoperator.h"

#include "engine/api/status.h"
#include "engine/apiserver/apiserver.h"
#include "engine/client/kubeconfig.h"
#include "engine/manager/leaderelector.h"

#include <QCoreApplication>
#include <QDir>

#include <QFile>

namespace opbench::ui {

void registerSnapshotTypes()
{
    qRegisterMetaType<CacheBatch>();
    qRegisterMetaType<CachePast>();
    qRegisterMetaType<QueueSample>();
    qRegisterMetaType<ObjectVersions>();
    qRegisterMetaType<ClusterInfo>();
    qRegisterMetaType<ControlState>();
    qRegisterMetaType<LeadershipState>();
    qRegisterMetaType<QList<ReconcileTrace>>();
}

EngineSession::EngineSession(SessionOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
{
    registerSnapshotTypes();
    m_serverThread.setObjectName(QStringLiteral("opbench-apiserver"));
    m_engineThread.setObjectName(QStringLiteral("opbench-engine"));

    auto *worker = new EngineWorker; // deleted on its own thread when that thread finishes
    worker->moveToThread(&m_engineThread);
    connect(&m_engineThread, &QThread::finished, worker, &QObject::deleteLater);
    m_worker = worker;
    connect(worker, &EngineWorker::failed, this, &EngineSession::failed);
    connect(worker, &EngineWorker::cacheBatch, this, &EngineSession::cacheBatch);
    connect(worker, &EngineWorker::queueAvailable, this, &EngineSession::queueAvailable);
    connect(worker, &EngineWorker::queueSample, this, &EngineSession::queueSample);
    connect(worker, &EngineWorker::versionsReady, this, &EngineSession::versionsReady);
    connect(worker, &EngineWorker::cacheAt, this, &EngineSession::cacheAt);
    connect(worker, &EngineWorker::samplesCreated, this, &EngineSession::samplesCreated);
    connect(worker, &EngineWorker::reconcilesFinished, this, &EngineSession::reconcilesFinished);
    connect(worker, &EngineWorker::controlState, this, &EngineSession::controlState);
    connect(worker, &EngineWorker::actionFailed, this, &EngineSession::actionFailed);
    connect(worker, &EngineWorker::createFailed, this, &EngineSession::createFailed);
    connect(worker, &EngineWorker::created, this, &EngineSession::created);
    connect(worker, &EngineWorker::leadershipState, this, &EngineSession::leadershipState);
    connect(worker, &EngineWorker::connected, this, [this](const QUrl &url) {
        m_cluster.server = url;
        Q_EMIT started(m_cluster);
    });
    m_engineThread.start();
}

EngineSession::~EngineSession()
{
    if (m_worker)
        QMetaObject::invokeMethod(m_worker.data(), &EngineWorker::shutdown, Qt::BlockingQueuedConnection);
    m_engineThread.quit();
    m_engineThread.wait();
    if (m_server)
        QMetaObject::invokeMethod(m_server.data(), &apiserver::ApiServer::stop, Qt::BlockingQueuedConnection);
    m_serverThread.quit();
    m_serverThread.wait();
}

void EngineSession::start()
{
    if (!isEmbedded()) {
        m_cluster.name = m_options.context.isEmpty() ? QStringLiteral("kubeconfig") : m_options.context;
        startEngine(m_options.kubeconfig, m_options.context);
        return;
    }
    m_cluster.name = QStringLiteral("embedded");
    m_cluster.embedded = true;
    apiserver::ApiServerOptions o;
    o.podReadyDelayMs = m_options.podReadyDelayMs;
    auto *server = new apiserver::ApiServer(o); // deleted on its own thread when that thread finishes
    server->moveToThread(&m_serverThread);
    connect(&m_serverThread, &QThread::finished, server, &QObject::deleteLater);
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

void EngineSession::startEngine(const QString &kubeconfigPath, const QString &context)
{
    const bool samples = isEmbedded() && m_options.createSamples;
    const bool embedded = isEmbedded();
    QMetaObject::invokeMethod(m_worker.data(), [worker = m_worker, kubeconfigPath, context, samples, embedded] {
        if (!worker)
            return;
        worker->setHandOffAvailability(true, {});
        worker->setClusterHandOff(!embedded);
        worker->connectTo(kubeconfigPath, context, samples);
    });
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

void EngineSession::requestVersions(const QString &kind, const QString &key)
{
    QMetaObject::invokeMethod(m_worker.data(), [worker = m_worker, kind, key] {
        if (worker)
            worker->requestVersions(kind, key);
    });
}

void EngineSession::requestCacheAt(const QString &rv)
{
    toWorker([rv](EngineWorker *w) { w->requestCacheAt(rv); });
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

template<typename Fn>
void EngineSession::toWorker(Fn fn)
{
    QMetaObject::invokeMethod(m_worker.data(), [worker = m_worker, fn] {
        if (worker)
            fn(worker.data());
    });
}

void EngineSession::pause()
{
    toWorker([](EngineWorker *w) { w->pause(); });
}

void EngineSession::resume()
{
    toWorker([](EngineWorker *w) { w->resume(); });
}

void EngineSession::step(const QString &key)
{
    toWorker([key](EngineWorker *w) { w->step(key); });
}

void EngineSession::stepInto(const QString &key)
{
    toWorker([key](EngineWorker *w) { w->stepInto(key); });
}

void EngineSession::continueCall()
{
    toWorker([](EngineWorker *w) { w->continueCall(); });
}

void EngineSession::continueToEnd()
{
    toWorker([](EngineWorker *w) { w->continueToEnd(); });
}

void EngineSession::toggleBreakpoint(const QString &key)
{
    toWorker([key](EngineWorker *w) { w->toggleBreakpoint(key); });
}

void EngineSession::setBreakOnError(bool on)
{
    toWorker([on](EngineWorker *w) { w->setBreakOnError(on); });
}

void EngineSession::deleteObject(const QString &kind, const QString &key)
{
    toWorker([kind, key](EngineWorker *w) { w->deleteObject(kind, key); });
}

void EngineSession::createApplication(const QString &name, const QString &image, int replicas)
{
    toWorker([name, image, replicas](EngineWorker *w) { w->createApplication(name, image, replicas); });
}

QString EngineSession::operatorProgram() const
{
    if (!m_options.operatorProgram.isEmpty())
        return m_options.operatorProgram;
    return QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("opbench-operator"));
}

void EngineSession::handOff()
{
    HeadlessLaunch launch;
    launch.program = operatorProgram();
    launch.server = m_cluster.server;
    launch.identity = QStringLiteral("headless-") + defaultLeaderIdentity();
    // The service-account token and CA are the embedded cluster's admin credentials.
    auto kc = Kubeconfig::parse(m_kubeconfig, QStringLiteral("embedded kubeconfig"), QString());
    if (!isEmbedded() || !kc || kc->users.isEmpty() || kc->clusters.isEmpty()) {
        Q_EMIT actionFailed(tr("Hand off needs the embedded cluster (started, with its credentials)."));
        return;
    }
    launch.token = kc->users.first().token.toUtf8();
    launch.caPem = kc->clusters.first().certificateAuthorityData;
    toWorker([launch](EngineWorker *w) { w->handOff(launch); });
}

void EngineSession::handOffToCluster(const QString &image)
{
    toWorker([image](EngineWorker *w) { w->handOffToCluster(image); });
}

void EngineSession::takeBack()
{
    toWorker([](EngineWorker *w) { w->takeBack(); });
}

} // namespace opbench::ui
