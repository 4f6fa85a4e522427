// SPDX-License-Identifier: Apache-2.0
#include "engine/controller/controller.h"

#include "engine/client/awaitsignal.h"

#include <QMutex>
#include <QTimer>
#include <QUuid>

#include <qcoro/qcorosignal.h>
#include <qcoro/qcorotimer.h>

namespace opbench {

namespace {

// Names of live controllers (controller-runtime validates uniqueness process-wide).
QMutex g_namesMutex;
QSet<QString> &usedNames()
{
    static QSet<QString> names;
    return names;
}

/// Launches per pump() call before yielding to the event loop (keeps the GUI and watches served).
constexpr int MaxLaunchesPerPump = 64;

} // namespace

/// One watched informer: the adapter that turns its events into filtered handler calls.
struct Controller::Source final : ResourceEventHandler
{
    QPointer<Informer> informer;
    InformerSource resolve; // set: the informer is looked up when the controller starts
    GroupVersionKind gvk;
    std::unique_ptr<EventHandler> handler;
    QList<Predicate> predicates;
    RequestQueue queue;
    Informer::HandlerId id = 0;

    Source(Informer *inf, GroupVersionKind k, std::unique_ptr<EventHandler> h, QList<Predicate> ps, WorkQueue *q)
        : informer(inf)
        , gvk(std::move(k))
        , handler(std::move(h))
        , predicates(std::move(ps))
        , queue(q)
    { }
    ~Source() override
    {
        if (informer && id != 0)
            informer->removeEventHandler(id);
    }
    void dispatch(const ObjectEvent &e)
    {
        for (const Predicate &p : std::as_const(predicates))
            if (!p(e))
                return;
        handler->handle(e, queue);
    }
    void onAdd(const Object &obj, bool initial) override
    {
        ObjectEvent e;
        e.type = ObjectEvent::Type::Create;
        e.object = obj;
        e.gvk = gvk;
        e.isInInitialList = initial;
        dispatch(e);
    }
    void onUpdate(const Object &oldObj, const Object &newObj) override
    {
        ObjectEvent e;
        e.type = ObjectEvent::Type::Update;
        e.object = newObj;
        e.oldObject = oldObj;
        e.gvk = gvk;
        dispatch(e);
    }
    void onDelete(const Object &obj, bool unknown) override
    {
        ObjectEvent e;
        e.type = ObjectEvent::Type::Delete;
        e.object = obj;
        e.gvk = gvk;
        e.deleteStateUnknown = unknown;
        dispatch(e);
    }
};

Expected<Controller *> Controller::create(
    ControllerOptions options, std::shared_ptr<Reconciler> reconciler, QObject *parent)
{
    if (options.name.isEmpty())
        return Status::badRequest(QStringLiteral("controller: a name is required (ControllerOptions::name)"));
    if (!reconciler)
        return Status::badRequest(QStringLiteral("controller %1: a reconciler is required").arg(options.name));
    if (!options.skipNameValidation) {
        QMutexLocker lock(&g_namesMutex);
        if (usedNames().contains(options.name))
            return Status::badRequest(
                QStringLiteral("controller with name %1 already exists. Controller names must be unique to avoid "
                               "multiple controllers reporting the same metric")
                    .arg(options.name));
        usedNames().insert(options.name);
    }
    return new Controller(options, std::move(reconciler), parent);
}

Controller::Controller(ControllerOptions &options, std::shared_ptr<Reconciler> reconciler, QObject *parent)
    : QObject(parent)
    , m_name(options.name)
    , m_forKind(options.forKind)
    , m_reconciler(std::move(reconciler))
    , m_clock(options.clock ? options.clock : Clock::system())
    , m_registry(options.metrics ? options.metrics : &MetricsRegistry::global())
    , m_maxConcurrent(std::max(1, options.maxConcurrentReconciles))
    , m_recoverPanic(options.recoverPanic)
    , m_reconcileTimeout(options.reconcileTimeout)
    , m_cacheSyncTimeout(options.cacheSyncTimeout)
    , m_enableWarmup(options.enableWarmup)
    , m_registeredName(!options.skipNameValidation)
{
    qRegisterMetaType<opbench::ReconcileTrace>();
    qRegisterMetaType<opbench::PendingCall>();
    m_workerBusy.assign(size_t(m_maxConcurrent), false);
    WorkQueueOptions qo;
    qo.name = m_name;
    qo.clock = m_clock;
    qo.metrics = m_registry;
    qo.rateLimiter = std::move(options.rateLimiter);
    m_queue = makeWorkQueue(options.queueKind, std::move(qo));
    // Queued: reconciles start from the event loop, never inside the handler that added the key.
    connect(m_queue.get(), &WorkQueue::itemsAvailable, this, &Controller::pump, Qt::QueuedConnection);
    m_logger = options.logger.withValues({{QStringLiteral("controller"), m_name},
        {QStringLiteral("controllerGroup"), m_forKind.group}, {QStringLiteral("controllerKind"), m_forKind.kind}});
}

Controller::~Controller()
{
    // Wake a shutdown() still waiting for the workers (a manager that lost its lease does not
    // wait for it): it returns at once instead of staying suspended on a destroyed object.
    *m_alive = false;
    Q_EMIT workersIdle();
    m_sources.clear(); // unregisters the handlers
    if (m_registeredName) {
        QMutexLocker lock(&g_namesMutex);
        usedNames().remove(m_name);
    }
}

void Controller::watch(
    Informer *informer, const GroupVersionKind &gvk, std::unique_ptr<EventHandler> handler, QList<Predicate> predicates)
{
    m_sources.push_back(
        std::make_unique<Source>(informer, gvk, std::move(handler), std::move(predicates), m_queue.get()));
    if (m_started)
        if (Expected<void> ok = registerSources(); !ok)
            m_logger.error(ok.error().message(), QStringLiteral("Could not start event source"));
}

void Controller::watch(InformerSource source, const GroupVersionKind &gvk, std::unique_ptr<EventHandler> handler,
    QList<Predicate> predicates)
{
    m_sources.push_back(
        std::make_unique<Source>(nullptr, gvk, std::move(handler), std::move(predicates), m_queue.get()));
    m_sources.back()->resolve = std::move(source);
    if (m_started)
        if (Expected<void> ok = registerSources(); !ok)
            m_logger.error(ok.error().message(), QStringLiteral("Could not start event source"));
}

QList<GroupVersionKind> Controller::watchedKinds() const
{
    QList<GroupVersionKind> out;
    if (!m_forKind.kind.isEmpty())
        out.append(m_forKind);
    for (const auto &source : m_sources)
        if (!out.contains(source->gvk))
            out.append(source->gvk);
    return out;
}

Expected<void> Controller::registerSources()
{
    for (auto &s : m_sources) {
        if (s->id != 0)
            continue;
        if (!s->informer && s->resolve) {
            Expected<Informer *> inf = s->resolve();
            if (!inf.ok())
                return Status(inf.error().code(), inf.error().reason(),
                    QStringLiteral("controller %1: kind source %2: %3")
                        .arg(m_name, s->gvk.toString(), inf.error().message()));
            s->informer = *inf;
            s->resolve = nullptr;
            if (!m_forInformer && s->gvk == m_forKind)
                m_forInformer = *inf;
        }
        if (!s->informer)
            continue;
        m_logger.info(QStringLiteral("Starting EventSource"),
            {{QStringLiteral("source"), QStringLiteral("kind source: ") + s->gvk.toString()}});
        s->id = s->informer->addEventHandler(s.get());
    }
    return {};
}

Expected<void> Controller::warmup()
{
    if (!warmupEnabled() || m_started)
        return {};
    m_logger.info(QStringLiteral("Warming up: starting event sources before leader election"));
    return registerSources();
}

bool Controller::sourcesSynced() const
{
    for (const auto &s : m_sources)
        if (!s->informer || !s->informer->hasSynced() || !s->informer->handlerHasSynced(s->id))
            return false;
    return true;
}

QCoro::Task<Expected<void>> Controller::start()
{
    if (m_started)
        co_return Status::badRequest(QStringLiteral("controller %1 was started more than once").arg(m_name));
    QPointer<Controller> self(this);
    const std::shared_ptr<bool> alive = m_alive; // false from the start of ~Controller
    m_started = true;
    m_metrics = std::make_unique<ControllerMetrics>(m_registry, m_name);
    m_metrics->maxConcurrent->set(m_maxConcurrent);
    m_metrics->activeWorkers->set(0);
    if (Expected<void> ok = registerSources(); !ok)
        co_return ok.error();
    m_logger.info(QStringLiteral("Starting Controller"));
    // Polls every 100 ms, as client-go's WaitForCacheSync does; the timeout runs on the
    // controller's clock (a FakeClock in tests).
    const Clock::TimePoint deadline = m_clock->now() + m_cacheSyncTimeout;
    while (!sourcesSynced()) {
        if (m_clock->now() >= deadline) {
            QString kind;
            for (const auto &s : m_sources)
                if (!s->informer || !s->informer->hasSynced() || !s->informer->handlerHasSynced(s->id))
                    kind = s->gvk.toString();
            co_return Status(504, QString::fromLatin1(StatusReason::Timeout),
                QStringLiteral("controller %1: failed to wait for caches to sync: timed out waiting for "
                               "cache to be synced for Kind %2")
                    .arg(m_name, kind));
        }
        // 100 ms, or at once when the controller is destroyed (~Controller emits workersIdle):
        // a frame left waiting on a plain timer is stranded when the loop or the object ends.
        co_await detail::SignalWait(this, &Controller::workersIdle, std::chrono::milliseconds(100));
        if (!self || !*alive)
            co_return Status::transport(
                QString::fromLatin1(StatusReason::Cancelled), QStringLiteral("controller destroyed"));
        if (m_queue->isShutDown())
            co_return Status::transport(QString::fromLatin1(StatusReason::Cancelled),
                QStringLiteral("controller %1 was stopped before its caches synced").arg(m_name));
    }
    m_logger.info(QStringLiteral("Starting workers"), {{QStringLiteral("worker count"), m_maxConcurrent}});
    m_running = true;
    pump();
    co_return Expected<void>();
}

QCoro::Task<void> Controller::shutdown()
{
    QPointer<Controller> self(this);
    const std::shared_ptr<bool> alive = m_alive; // false from the start of ~Controller
    m_logger.info(QStringLiteral("Shutdown signal received, waiting for all workers to finish"));
    m_running = false;
    m_queue->shutDown();
    for (auto it = m_inflight.begin(); it != m_inflight.end(); ++it) {
        it->scope->cancelled = true;
        it->scope->cancelReason = QStringLiteral("controller %1 is shutting down").arg(m_name);
    }
    const QStringList halted = m_haltedOrder;
    for (const QString &id : halted)
        release(id, true);
    while (self && *alive && m_active > 0)
        co_await detail::SignalWait(this, &Controller::workersIdle, std::chrono::milliseconds(-1));
    if (self && *alive)
        m_logger.info(QStringLiteral("All workers finished"));
}

void Controller::pump()
{
    if (m_inPump || !m_running)
        return;
    m_inPump = true;
    int launched = 0;
    while (!m_paused && m_active < m_maxConcurrent) {
        if (launched >= MaxLaunchesPerPump) {
            QMetaObject::invokeMethod(this, &Controller::pump, Qt::QueuedConnection);
            break;
        }
        const std::optional<QueueKey> next = m_queue->peek();
        if (!next)
            break;
        if (m_runTo && reachRunTo(*next))
            break;
        if (m_passBreakpoint != next && breakBefore(*next))
            break;
        std::optional<Item> item = m_queue->tryGet();
        if (!item)
            break;
        if (m_passBreakpoint == item->key)
            m_passBreakpoint.reset();
        launch(std::move(*item), false, false);
        ++launched;
    }
    m_inPump = false;
}

void Controller::launch(Item item, bool step, bool stepInto)
{
    auto scope = std::make_shared<detail::ReconcileScope>();
    ReconcileTrace &t = scope->trace;
    t.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    t.controller = m_name;
    t.request = item.key;
    t.causes = std::move(item.causes);
    t.priority = item.priority;
    t.retries = item.retries;
    t.cacheResourceVersion = m_forInformer ? m_forInformer->lastSyncResourceVersion() : QString();
    t.startedAt = m_clock->wallNow();
    t.worker = takeWorkerSlot();
    scope->controller = this;
    scope->haltBeforeCalls = stepInto;
    scope->observed = step && m_progressObserved;
    const QJsonObject objRef{{QStringLiteral("name"), item.key.name}, {QStringLiteral("namespace"), item.key.ns}};
    scope->logger = m_logger.withValues({{m_forKind.kind.isEmpty() ? QStringLiteral("object") : m_forKind.kind, objRef},
        {QStringLiteral("namespace"), item.key.ns}, {QStringLiteral("name"), item.key.name},
        {QStringLiteral("reconcileID"), t.id}});
    InFlight f{scope, step, 0};
    if (m_reconcileTimeout.count() > 0 && !stepInto) {
        std::weak_ptr<detail::ReconcileScope> weak = scope;
        const qint64 ms = std::chrono::duration_cast<std::chrono::milliseconds>(m_reconcileTimeout).count();
        f.timeoutId = m_clock->callAfter(m_reconcileTimeout, this, [weak, ms]() {
            if (auto s = weak.lock(); s && !s->trace.finished) {
                s->cancelled = true;
                s->trace.timedOut = true;
                s->cancelReason
                    = QStringLiteral("context deadline exceeded: reconcile timeout of %1 ms passed").arg(ms);
            }
        });
    }
    m_inflight.insert(t.id, f);
    ++m_active;
    m_metrics->activeWorkers->add(1);
    Q_EMIT reconcileStarted(t.id, item.key.toString());
    if (scope->observed)
        Q_EMIT reconcileProgress(t);
    runReconcile(item.key, item.priority, scope); // detached: finishes through finish()
}

} // namespace opbench
