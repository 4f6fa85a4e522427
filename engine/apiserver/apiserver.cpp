// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/apiserver.h"

#include "engine/api/yamlcodec.h"
#include "engine/apiserver/admission/admissionchain.h"
#include "engine/apiserver/admission/conversionwebhook.h"
#include "engine/apiserver/auth/auditlog.h"
#include "engine/apiserver/auth/auth.h"
#include "engine/apiserver/controllers/crdcontroller.h"
#include "engine/apiserver/controllers/garbagecollector.h"
#include "engine/apiserver/controllers/namespacecontroller.h"
#include "engine/apiserver/controllers/workloadsimulator.h"
#include "engine/apiserver/httpfront.h"
#include "engine/apiserver/storage/statefile.h"
#include "engine/apiserver/storage/store.h"
#include "engine/apiserver/storage/watchhub.h"
#include "engine/apiserver/validation/builtinvalidation.h"
#include "engine/apiserver/validation/schemavalidator.h"
#include "engine/apiserver/validation/webhookconfig.h"
#include "engine/base/clock.h"

#include <QFile>
#include <QPointer>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QSslServer>

namespace opbench::apiserver {

struct ApiServer::Parts
{
    // Declaration order = construction order; destruction runs backwards (store last).
    std::unique_ptr<Store> store;
    std::unique_ptr<WatchHub> watches;
    std::unique_ptr<CrdController> crds;
    std::unique_ptr<NamespaceController> namespaces;
    std::unique_ptr<GarbageCollector> gc;
    std::unique_ptr<WorkloadSimulator> simulator;
    std::unique_ptr<StateFile> state;
    Authorizer auth;
    AuditLog audit;
    std::unique_ptr<HttpFront> front;
    QPointer<ConversionWebhook> conversions; // owned by the front
};

namespace {

QString randomToken()
{
    static const char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    QString t;
    for (int i = 0; i < 40; ++i)
        t += QLatin1Char(chars[QRandomGenerator::system()->bounded(int(sizeof(chars) - 1))]);
    return t;
}

const GroupVersionResource kCrds{
    QStringLiteral("apiextensions.k8s.io"), QStringLiteral("v1"), QStringLiteral("customresourcedefinitions")};

} // namespace

ApiServer::ApiServer(ApiServerOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , d(std::make_unique<Parts>())
{
    Clock *clock = m_options.clock ? m_options.clock : Clock::system();
    d->store = std::make_unique<Store>(clock, this); // children of this: moveToThread() moves them
    d->store->setHistoryLimit(m_options.watchHistory);
    d->watches = std::make_unique<WatchHub>(d->store.get(), this);
    d->crds = std::make_unique<CrdController>(d->store.get(), this);
    d->namespaces = std::make_unique<NamespaceController>(d->store.get(), this);
    d->gc = std::make_unique<GarbageCollector>(d->store.get(), clock, this);
    d->simulator = std::make_unique<WorkloadSimulator>(
        d->store.get(), clock, std::chrono::milliseconds(m_options.podReadyDelayMs), this);
    d->simulator->events().setEnabled(m_options.simulatedEvents);
    m_faults = new FaultInjector(this);
    connect(m_faults, &FaultInjector::dropWatches, this, &ApiServer::dropWatches);
    addAdmission();
}

ApiServer::~ApiServer()
{
    stop();
    d.reset(); // parts go in reverse order (store last), before QObject deletes children
}

void ApiServer::addAdmission()
{
    d->store->addAdmissionHook([](const ResourceType &type, QJsonObject &object, const QJsonObject &old,
                                   const QString &sub) -> Expected<void> {
        if (!type.custom && type.gvr() == kCrds && sub.isEmpty())
            return checkCrd(object);
        if (bool mutating = false; isWebhookConfiguration(type, &mutating))
            defaultWebhookConfiguration(object, mutating);
        if (!type.custom && sub.isEmpty()) {
            if (const QList<StatusCause> causes = validateBuiltinObject(type, object, old); !causes.isEmpty()) {
                const QString name
                    = object.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
                return Status::invalid(type.gvr().group, type.kind(), name, causes);
            }
        }
        if (!type.custom || type.schema.isEmpty())
            return {};
        const SchemaValidator::Result r = SchemaValidator(type.schema).process(object);
        if (!r.causes.isEmpty()) {
            const QString name
                = object.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
            return Status::invalid(type.gvr().group, type.kind(), name, r.causes);
        }
        object = r.object;
        return {};
    });
}

Expected<void> ApiServer::loadState()
{
    if (m_options.stateFile.isEmpty())
        return {};
    d->state = std::make_unique<StateFile>(m_options.stateFile, this);
    auto loaded = d->state->load();
    if (!loaded)
        return loaded.error();
    if (loaded->has_value()) {
        const ServerState &s = **loaded;
        if (auto ok = d->store->restore(s.store); !ok) {
            return Status::internalError(
                QStringLiteral("state file %1 is corrupt: %2; refusing to start (the file was left untouched)")
                    .arg(m_options.stateFile, ok.error().message()));
        }
        if (m_options.token.isEmpty())
            m_token = s.token;
        if (!s.tls.isEmpty())
            m_tls = s.tls;
        d->crds->resyncAll(); // the GC and simulator resync in start()
    }
    d->state->setSnapshotFunction([this]() { return ServerState{m_token, m_tls, d->store->snapshot()}; });
    connect(d->store.get(), &Store::contentChanged, d->state.get(), &StateFile::markDirty);
    connect(d->state.get(), &StateFile::saveFailed, this, &ApiServer::stateSaveFailed);
    return {};
}

Expected<void> ApiServer::installCrd(const QByteArray &yaml)
{
    auto docs = yamlToJson(yaml);
    if (!docs)
        return Status::badRequest(QStringLiteral("the CRD does not parse: %1").arg(docs.error().message()));
    if (docs->isEmpty())
        return Status::badRequest(QStringLiteral("the CRD document is empty"));
    for (const QJsonObject &crd : *docs) {
        const QString name = crd.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
        if (d->store->get(kCrds, QString(), name))
            continue; // kept from the state file (maybe edited): leave it
        if (auto created = d->store->create(kCrds, QString(), crd); !created)
            return created.error();
    }
    return {};
}

Expected<void> ApiServer::startFront()
{
    d->front = std::make_unique<HttpFront>(d->store.get(), d->watches.get(), &d->auth, m_faults, &d->audit, this);
    auto *caller = new WebhookCaller(m_options.webhookServices, m_options.webhookMsPerSecond, d->front.get());
    caller->setHeldPredicate(m_options.webhookHeld); // the workbench's debugger only
    auto *admission = new AdmissionChain(d->store.get(), caller, d->front.get());
    connect(admission, &AdmissionChain::called, this, &ApiServer::webhookCalled);
    d->front->resources().setAdmission(admission);
    d->conversions = new ConversionWebhook(caller, d->store->clock(), d->front.get());
    d->front->resources().setConverter(d->conversions->converter());
    d->watches->setConverter(d->conversions->converter());
    connect(d->conversions, &ConversionWebhook::callFinished, this,
        [this](const ConversionCall &call) { Q_EMIT webhookCalled(callRecordOf(call)); });
    d->front->resources().setFreshnessWait(std::chrono::milliseconds(m_options.freshnessWaitMs));
    d->watches->setFreshnessWait(std::chrono::milliseconds(m_options.freshnessWaitMs));
    d->watches->setSendBufferLimit(m_options.watchBufferLimitBytes);
    std::unique_ptr<QTcpServer> listener;
    if (!m_options.plainHttp) {
        auto conf = m_tls.serverConfiguration();
        if (!conf)
            return conf.error();
        auto ssl = std::make_unique<QSslServer>(); // our own listener: QAbstractHttpServer::listen() allows no tuning
        ssl->setSslConfiguration(*conf);
        ssl->setHandshakeTimeout(30000);
        listener = std::move(ssl);
    } else {
        listener = std::make_unique<QTcpServer>();
    }
    const QHostAddress address(
        m_options.host == QLatin1String("localhost") ? QStringLiteral("127.0.0.1") : m_options.host);
    if (address.isNull())
        return Status::badRequest(QStringLiteral("cannot listen on \"%1\": not an IP address").arg(m_options.host));
    // Qt's defaults (kernel backlog 50, accepting paused at 30 pending connections) make a burst
    // of 1,000 connects wait for SYN retransmissions (seconds): room for bursts instead.
    listener->setListenBacklogSize(4096);
    listener->setMaxPendingConnections(4096);
    m_port = listener->listen(address, m_options.port) ? listener->serverPort() : 0;
    if (m_port != 0)
        d->front->bind(listener.release()); // the front takes it as a child
    if (m_port == 0) {
        d->front.reset();
        return Status::internalError(QStringLiteral("cannot listen on %1:%2 (address in use or not available)")
                                         .arg(m_options.host)
                                         .arg(m_options.port));
    }
    return {};
}

Expected<void> ApiServer::start()
{
    if (auto ok = loadState(); !ok)
        return ok;
    d->gc->resyncAll(); // objects restored from a state file emit no events
    d->simulator->resyncAll();
    if (m_token.isEmpty())
        m_token = m_options.token.isEmpty() ? randomToken() : m_options.token;
    if (!m_options.plainHttp && m_tls.isEmpty()) {
        if (m_options.tls) {
            m_tls = *m_options.tls;
        } else {
            auto generated = TlsMaterial::generate();
            if (!generated)
                return generated.error();
            m_tls = *generated;
        }
    }
    for (const QByteArray &crd : std::as_const(m_options.crds))
        if (auto ok = installCrd(crd); !ok)
            return ok;
    d->auth.setAdminToken(m_token);
    d->auth.setAllowAnonymous(m_options.plainHttp && m_options.anonymousOnPlainHttp);
    if (!m_options.rulesFile.isEmpty())
        if (auto ok = d->auth.loadRules(m_options.rulesFile); !ok)
            return ok;
    if (!m_options.auditLog.isEmpty())
        if (auto ok = d->audit.open(m_options.auditLog); !ok)
            return ok;
    m_faults->setFaults(m_options.faults);
    if (auto ok = startFront(); !ok)
        return ok;
    d->front->discovery().setServerAddress(QStringLiteral("%1:%2").arg(url().host()).arg(m_port));
    if (d->state)
        d->state->markDirty(); // the first save records the token and certificates at once
    return {};
}

void ApiServer::stop()
{
    if (d->watches)
        d->watches->closeAll();
    if (d->front) {
        for (QTcpServer *s : d->front->servers())
            s->close();
        d->front.reset();
    }
    m_port = 0;
    if (d->state) {
        if (auto ok = d->state->flush(); !ok)
            Q_EMIT stateSaveFailed(ok.error().message());
    }
}

QUrl ApiServer::url() const
{
    QUrl u;
    u.setScheme(m_options.plainHttp ? QStringLiteral("http") : QStringLiteral("https"));
    QString host = m_options.host;
    if (host == QLatin1String("0.0.0.0") || host.isEmpty())
        host = QStringLiteral("127.0.0.1");
    else if (host == QLatin1String("::"))
        host = QStringLiteral("::1");
    u.setHost(host);
    u.setPort(m_port);
    return u;
}

QByteArray ApiServer::caPem() const { return m_options.plainHttp ? QByteArray() : m_tls.caCert; }

QByteArray ApiServer::kubeconfig() const
{
    QByteArray cluster = "    server: " + url().toString().toUtf8() + "\n";
    if (!m_options.plainHttp)
        cluster += "    certificate-authority-data: " + m_tls.caCert.toBase64() + "\n";
    return "apiVersion: v1\nkind: Config\nclusters:\n- name: opbench\n  cluster:\n" + cluster
        + "contexts:\n- name: opbench\n  context:\n    cluster: opbench\n    user: opbench-admin\n    namespace: "
          "default\n"
          "current-context: opbench\npreferences: {}\nusers:\n- name: opbench-admin\n  user:\n    token: "
        + m_token.toUtf8() + "\n";
}

Expected<void> ApiServer::writeKubeconfig(const QString &path) const
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return Status::internalError(QStringLiteral("cannot write kubeconfig %1: %2").arg(path, f.errorString()));
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    f.write(kubeconfig());
    if (!f.commit())
        return Status::internalError(QStringLiteral("cannot write kubeconfig %1: %2").arg(path, f.errorString()));
    return {};
}

Store *ApiServer::store() const { return d->store.get(); }
WatchHub *ApiServer::watches() const { return d->watches.get(); }

ConversionWebhook *ApiServer::conversionWebhook() const { return d->conversions.data(); }
quint64 ApiServer::requestCount() const { return d->front ? d->front->requestCount() : 0; }

bool ApiServer::setFaults(const QStringList &specs)
{
    QList<FaultSpec> faults;
    for (const QString &s : specs) {
        auto f = FaultSpec::parse(s);
        if (!f)
            return false;
        faults << *f;
    }
    m_faults->setFaults(faults);
    return true;
}

void ApiServer::clearFaults() { m_faults->clear(); }
void ApiServer::dropWatches() { d->watches->dropAll(); }
void ApiServer::compactHistory() { d->store->compact(); }

} // namespace opbench::apiserver
