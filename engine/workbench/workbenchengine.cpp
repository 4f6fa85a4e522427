// SPDX-License-Identifier: Apache-2.0
#include "engine/workbench/workbenchengine.h"

#include "engine/api/status.h"
#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"
#include "engine/controller/controller.h"
#include "engine/manager/leaderelector.h"
#include "engine/manager/manager.h"
#include "engine/webhook/webhookgate.h"
#include "engine/workbench/cachefeed.h"
#include "engine/workbench/controllerobserver.h"
#include "engine/workbench/queueobserver.h"
#include "engine/workbench/replaysession.h"

namespace opbench::workbench {

namespace {

/// Changes kept per kind for time travel and the object history.
constexpr int HistoryPerKind = 2000;

} // namespace

void registerWorkbenchTypes()
{
    qRegisterMetaType<CacheBatch>();
    qRegisterMetaType<CachePast>();
    qRegisterMetaType<QueueSample>();
    qRegisterMetaType<ObjectVersions>();
    qRegisterMetaType<ClusterInfo>();
    qRegisterMetaType<ControlState>();
    qRegisterMetaType<CurrentReconcile>();
    qRegisterMetaType<LeadershipState>();
    qRegisterMetaType<HandOffOptions>();
    qRegisterMetaType<QList<ReconcileTrace>>();
    qRegisterMetaType<Object>();
}

WorkbenchEngine::WorkbenchEngine(OperatorDefinition def, QObject *parent)
    : QObject(parent)
    , m_def(std::move(def))
    , m_cacheFeed(new CacheFeed(this))
    , m_queue(new QueueObserver(this))
    , m_controller(new ControllerObserver(this))
    , m_leadership(new Leadership(this))
    , m_replay(new ReplaySession(this))
    , m_webhookGate(new WebhookGate(this))
{
    registerWorkbenchTypes();
    m_controller->setWebhookGate(m_webhookGate);
    connect(m_cacheFeed, &CacheFeed::failed, this, &WorkbenchEngine::failed);
    connect(m_leadership, &Leadership::actionFailed, this, &WorkbenchEngine::actionFailed);
    // Before a seek starts a replay again, the observer publishes what it holds (in order).
    connect(m_replay, &ReplaySession::aboutToRestart, this, [this] {
        Controller *c = m_controller->controller();
        m_controller->observe(nullptr);
        m_controller->observe(c);
    });
}

WorkbenchEngine::~WorkbenchEngine() { shutdown(); }

void WorkbenchEngine::connectTo(
    const QString &kubeconfigPath, const QString &context, bool embedded, const HandOffOptions &handOff)
{
    auto config = loadConfig(kubeconfigPath, context);
    if (!config) {
        Q_EMIT failed(tr("Cannot use the cluster configuration: %1").arg(config.error().message()));
        return;
    }
    const QUrl server = config->server;
    ManagerOptions options;
    options.restConfig = config.value();
    options.leaderElection = true;
    options.leaderElectionId = m_def.leaseName;
    options.leaderElectionNamespace = config->namespaceName;
    options.identity = QStringLiteral("workbench-") + defaultLeaderIdentity();
    options.cacheHistory = HistoryPerKind;
    m_localWebhooks.reset();
    if (embedded && m_webhookTls) {
        m_localWebhooks = std::make_unique<LocalWebhooks>(m_webhookTls);
        m_localWebhooks->configure(options);
    }
    auto manager = Manager::create(std::move(options));
    if (!manager) {
        Q_EMIT failed(tr("The operator's manager could not be created: %1").arg(manager.error().message()));
        return;
    }
    m_manager = std::move(manager.value());
    m_managerFinished = false;
    connect(m_manager.get(), &Manager::finished, this, [this] {
        m_managerFinished = true;
        if (m_stopRequested)
            emitStopped();
    });
    if (auto mapped = registerCrds(m_manager->cache()->mapper(), m_def.crds); !mapped) {
        Q_EMIT failed(tr("The operator's CRDs cannot be read: %1").arg(mapped.error().message()));
        m_manager.reset();
        return;
    }
    if (!m_def.setup) {
        Q_EMIT failed(tr("The operator could not be set up: no operator setup given"));
        m_manager.reset();
        return;
    }
    auto controller = runSetup(m_def, m_manager.get()); // fills m_def.kinds when the definition left them out
    if (!controller) {
        Q_EMIT failed(tr("The operator could not be set up: %1").arg(controller.error().message()));
        m_manager.reset();
        return;
    }
    if (m_localWebhooks) {
        Expected<void> served = runWebhookSetup(m_def, m_manager.get());
        if (served)
            served = m_localWebhooks->prepare(m_manager.get());
        if (!served) {
            Q_EMIT failed(tr("The operator's webhooks could not be set up: %1").arg(served.error().message()));
            m_manager.reset();
            return;
        }
        m_webhookGate->attach(m_manager->existingWebhookServer());
    }
    m_webhookGate->setNeverHits(webhookNeverHits(embedded));
    collectControllers(controller.value());
    QStringList kinds;
    for (const GroupVersionKind &gvk : std::as_const(m_def.kinds))
        kinds.append(gvk.group + u'/' + gvk.version + u'/' + gvk.kind);
    Q_EMIT kindsResolved(kinds);
    m_cacheFeed->observe(m_manager->cache(), m_def.kinds);
    m_leadership->attach(m_manager.get(), m_def.leaseName, handOff);
    runManager(embedded);
    Q_EMIT connected(server);
}

QCoro::Task<void> WorkbenchEngine::runManager(bool embedded)
{
    QPointer<WorkbenchEngine> self(this);
    const BusyScope busy(this);
    if (embedded) {
        // The embedded cluster starts empty: the operator's CRDs first, then the samples.
        Expected<void> installed = co_await opbench::installCrds(m_manager->restClient(), m_def.crds);
        if (!self || !m_manager)
            co_return;
        if (!installed) {
            Q_EMIT failed(tr("The operator's CRDs could not be installed: %1").arg(installed.error().message()));
            co_return;
        }
    }
    auto started = co_await m_manager->start();
    if (!self)
        co_return;
    if (!started && !m_stopRequested) {
        Q_EMIT failed(tr("The operator did not start: %1").arg(started.error().message()));
        co_return;
    }
    if (embedded && m_localWebhooks) {
        Expected<WebhookRegistration> reg = m_localWebhooks->registration(m_manager.get(), m_def.name);
        Expected<void> registered = reg ? Expected<void>() : Expected<void>(reg.error());
        if (reg && !reg->isEmpty())
            registered = co_await applyWebhookRegistration(m_manager->restClient(), std::move(*reg));
        if (!self)
            co_return;
        if (!registered)
            Q_EMIT failed(tr("The operator's webhooks could not be registered: %1").arg(registered.error().message()));
    }
    if (embedded)
        createSamples();
}

void WorkbenchEngine::openRecording(const QString &path)
{
    if (auto opened = m_replay->open(path, m_def, HistoryPerKind); !opened) {
        Q_EMIT failed(tr("Cannot replay %1: %2").arg(path, opened.error().message()));
        return;
    }
    m_webhookGate->setNeverHits(tr("never hits: a replay does not call the operator's webhooks"));
    collectControllers(nullptr);
    emitKinds();
    m_cacheFeed->observe(m_replay->manager()->cache(), m_def.kinds);
    Q_EMIT connected(QUrl());
}

QString WorkbenchEngine::webhookNeverHits(bool embedded) const
{
    if (!embedded)
        return tr("never hits: on a real cluster the workbench does not serve the operator's webhooks; use the "
                  "embedded cluster");
    if (!m_localWebhooks)
        return tr("never hits: this session does not serve the operator's webhooks");
    if (!m_manager->existingWebhookServer())
        return tr("never hits: the operator serves no webhooks");
    return {};
}

void WorkbenchEngine::emitKinds()
{
    QStringList kinds;
    for (const GroupVersionKind &gvk : std::as_const(m_def.kinds))
        kinds.append(gvk.group + u'/' + gvk.version + u'/' + gvk.kind);
    Q_EMIT kindsResolved(kinds);
}

void WorkbenchEngine::collectControllers(Controller *returned)
{
    // Every controller added to the manager (the replay's when replaying), in the order setup added them.
    m_controllers.clear();
    const QList<Controller *> children = (m_manager ? m_manager.get() : m_replay->manager())->controllers();
    for (Controller *c : children)
        m_controllers.append(c);
    if (returned && !children.contains(returned))
        m_controllers.prepend(returned);
    m_current = nullptr;
    if (!m_controllers.isEmpty())
        selectController(returned ? returned->name() : m_controllers.first()->name());
}

QStringList WorkbenchEngine::controllerNames() const
{
    QStringList names;
    for (const QPointer<Controller> &c : m_controllers)
        if (c)
            names.append(c->name());
    return names;
}

QString WorkbenchEngine::currentController() const { return m_current ? m_current->name() : QString(); }

void WorkbenchEngine::selectController(const QString &name)
{
    for (const QPointer<Controller> &c : std::as_const(m_controllers)) {
        if (!c || c->name() != name)
            continue;
        if (c.data() != m_current.data()) {
            m_current = c;
            m_controller->observe(c);
            m_queue->observe(c->queue());
        }
        Q_EMIT controllersChanged(controllerNames(), name);
        return;
    }
    Q_EMIT actionFailed(tr("There is no controller named %1.").arg(name));
}

void WorkbenchEngine::shutdown()
{
    m_leadership->attach(nullptr, {}, {});
    m_queue->observe(nullptr);
    m_controller->observe(nullptr);
    m_current = nullptr;
    m_controllers.clear();
    m_cacheFeed->stop();
    m_replay->close();
    m_stopRequested = true;
    if (!managerDone())
        m_manager->stop(); // finished() follows: emitStopped()
    emitStopped();         // once the manager finished and no intent is still running
}

WorkbenchEngine::BusyScope::BusyScope(WorkbenchEngine *engine)
    : m_engine(engine)
{
    ++engine->m_busy;
}

WorkbenchEngine::BusyScope::~BusyScope()
{
    if (m_engine && --m_engine->m_busy == 0 && m_engine->m_stopRequested && m_engine->managerDone())
        m_engine->emitStopped();
}

bool WorkbenchEngine::managerDone() const { return !m_manager || m_managerFinished; }

void WorkbenchEngine::emitStopped()
{
    if (m_stoppedSent || m_busy > 0 || !managerDone())
        return;
    m_stoppedSent = true;
    Q_EMIT stopped();
}

QCoro::Task<void> WorkbenchEngine::createSamples()
{
    QPointer<WorkbenchEngine> self(this);
    const BusyScope busy(this);
    int created = 0;
    QStringList errors;
    for (const Object &sample : std::as_const(m_def.samples)) {
        if (!self || !m_manager)
            co_return;
        const auto mapping = m_manager->cache()->mapper().forKind(sample.gvk());
        if (!mapping) {
            errors.append(tr("%1 is not a known kind").arg(sample.gvk().toString()));
            continue;
        }
        const QString ns = !mapping->namespaced ? QString()
            : sample.namespaceName().isEmpty()  ? QStringLiteral("default")
                                                : sample.namespaceName();
        auto result = co_await m_manager->restClient()->create(mapping->gvr, ns, sample);
        if (!self)
            co_return;
        if (result)
            ++created;
        else if (!isAlreadyExists(result.error()))
            errors.append(result.error().message());
    }
    Q_EMIT samplesCreated(created, errors);
}

void WorkbenchEngine::deleteObject(const QString &kind, const QString &key)
{
    for (const GroupVersionKind &gvk : std::as_const(m_def.kinds)) {
        if (gvk.kind == kind) {
            runDelete(gvk, key);
            return;
        }
    }
    Q_EMIT actionFailed(tr("Cannot delete %1 %2: the workbench does not show that kind.").arg(kind, key));
}

QCoro::Task<void> WorkbenchEngine::runDelete(GroupVersionKind gvk, QString key)
{
    QPointer<WorkbenchEngine> self(this);
    const BusyScope busy(this);
    const auto mapping = m_manager ? m_manager->cache()->mapper().forKind(gvk) : std::nullopt;
    if (!mapping) {
        Q_EMIT actionFailed(tr("Cannot delete %1 %2: not connected, or the kind is unknown.").arg(gvk.kind, key));
        co_return;
    }
    const QueueKey k = QueueKey::fromString(key);
    auto result = co_await m_manager->restClient()->remove(mapping->gvr, k.ns, k.name);
    if (self && !result)
        Q_EMIT actionFailed(tr("Deleting %1 %2 failed: %3").arg(gvk.kind, key, result.error().message()));
}

void WorkbenchEngine::createObject(const Object &object) { runCreate(object); }

QCoro::Task<void> WorkbenchEngine::runCreate(Object object)
{
    QPointer<WorkbenchEngine> self(this);
    const BusyScope busy(this);
    const auto mapping = m_manager ? m_manager->cache()->mapper().forKind(object.gvk()) : std::nullopt;
    if (!mapping) {
        Q_EMIT createFailed(
            QString(), tr("Cannot create %1: not connected, or the kind is unknown.").arg(object.gvk().toString()));
        co_return;
    }
    const QString ns = !mapping->namespaced ? QString()
        : object.namespaceName().isEmpty()  ? QStringLiteral("default")
                                            : object.namespaceName();
    auto result = co_await m_manager->restClient()->create(mapping->gvr, ns, object);
    if (!self)
        co_return;
    if (result) {
        Q_EMIT created(result->key());
        co_return;
    }
    const Status &error = result.error();
    const QString field = error.details().causes.isEmpty() ? QString() : error.details().causes.first().field;
    Q_EMIT createFailed(field, error.message());
}

} // namespace opbench::workbench
