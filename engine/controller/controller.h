// SPDX-License-Identifier: Apache-2.0
#pragma once
// Controller: takes requests from a work queue and runs a Reconciler on them (controller-runtime's
// internal controller), with tracing and stepping hooks for the workbench.
//
// - Workers: up to maxConcurrentReconciles reconcile coroutines in flight, never two of the same
//   key (the queue guarantees it). Each reconcile gets a new reconcileID, a logger carrying
//   controller / controllerGroup / controllerKind / namespace / name / reconcileID, and a trace.
// - Outcomes follow controller-runtime's table exactly (see reconciler.h) and update
//   controller_runtime_reconcile_total{controller,result} and friends.
// - Exceptions thrown by a reconcile are recovered by default (recoverPanic): counted in
//   controller_runtime_reconcile_panics_total and retried with backoff as "panic: … [recovered]".
// - Stepping (the GUI's debugger; the headless build drives the same methods):
//   pause() stops taking items (informers and the queue keep going; reconciles in flight finish);
//   step() hands exactly one item to a worker and stays paused; stepInto() does the same but the
//   reconcile halts before each client call until continueCall() / continueToEnd();
//   breakpoints (breakpoint.h: on a key, a kind, an object's condition, a kind of call, any
//   error) pause before the item is taken, before the call, or after the failed reconcile;
//   resume() runs normally again.
// Lives on the engine thread; not thread-safe.

#include "engine/api/expected.h"
#include "engine/api/gvk.h"
#include "engine/base/logger.h"
#include "engine/cache/informer.h"
#include "engine/controller/breakpoint.h"
#include "engine/controller/controllermetrics.h"
#include "engine/controller/handlers.h"
#include "engine/controller/reconciler.h"
#include "engine/controller/reconciletrace.h"
#include "engine/queue/workqueue.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>

#include <chrono>
#include <memory>
#include <optional>
#include <vector>

namespace opbench {

struct ControllerOptions
{
    /// Required; unique in the process unless skipNameValidation (a duplicate is an error).
    QString name;
    /// The reconciled kind (log fields controllerGroup/controllerKind). Set by the builder.
    GroupVersionKind forKind;
    /// Reconciles in flight at once. Defaults to 1; values < 1 mean 1.
    int maxConcurrentReconciles = 1;
    /// The queue's limiter. Defaults to the queue kind's default (see WorkQueueOptions).
    std::unique_ptr<RateLimiter> rateLimiter;
    /// Turn a C++ exception from reconcile into an error with backoff. Defaults to true; when
    /// false an exception aborts the process (as an unrecovered Go panic does).
    bool recoverPanic = true;
    /// When > 0, a reconcile running longer is cancelled (client calls fail fast), counted in
    /// controller_runtime_reconcile_timeouts_total and treated as an error. Defaults to none.
    /// Reconciles being stepped into have no timeout.
    Clock::Duration reconcileTimeout{0};
    /// How long start() waits for its sources to sync, on `clock`. Defaults to 2 minutes.
    std::chrono::milliseconds cacheSyncTimeout{std::chrono::minutes(2)};
    /// Start the sources (create, list and watch the informers, queue requests) before this
    /// replica leads, so a standby holds synced caches and takes over faster; nothing is
    /// reconciled until it leads (controller-runtime's EnableWarmup). Defaults to false: the
    /// informers start with the controller, after the lease is won. Unset: the manager's
    /// default (ManagerOptions::controllerWarmup), which is false unless set.
    std::optional<bool> enableWarmup;
    /// Priority queue by default (controller-runtime ≥ v0.23); Plain = client-go's queue.
    WorkQueue::Kind queueKind = WorkQueue::Kind::Priority;
    /// Skip the unique-name check (tests that build the same controller twice).
    bool skipNameValidation = false;
    /// Defaults to Clock::system() / MetricsRegistry::global() / the default log sink.
    Clock *clock = nullptr;
    MetricsRegistry *metrics = nullptr;
    Logger logger;
};

class Controller : public QObject
{
    Q_OBJECT
public:
    /// Builds a controller. Errors: empty name, or a name already used by a live controller.
    static Expected<Controller *> create(
        ControllerOptions options, std::shared_ptr<Reconciler> reconciler, QObject *parent = nullptr);
    ~Controller() override;

    [[nodiscard]] const QString &name() const { return m_name; }
    [[nodiscard]] WorkQueue *queue() const { return m_queue.get(); }
    [[nodiscard]] int maxConcurrentReconciles() const { return m_maxConcurrent; }
    [[nodiscard]] const ControllerMetrics *metrics() const { return m_metrics.get(); }
    /// The reconciler it runs (engine/recording replays a recording through it).
    [[nodiscard]] std::shared_ptr<Reconciler> reconciler() const { return m_reconciler; }
    /// The reconciled kind (empty for a controller with watches only).
    [[nodiscard]] const GroupVersionKind &forKind() const { return m_forKind; }
    /// Every kind the controller watches, each once: the For kind first, then in watch order.
    [[nodiscard]] QList<GroupVersionKind> watchedKinds() const;

    /// Watches `informer` (of kind `gvk`): events passing every predicate go to `handler`.
    /// The handler is registered on the informer when the controller starts (at once if started).
    void watch(Informer *informer, const GroupVersionKind &gvk, std::unique_ptr<EventHandler> handler,
        QList<Predicate> predicates = {});
    /// The informer of a watch, looked up (created, started) only when the controller starts or
    /// warms up, as controller-runtime's Kind source calls GetInformer in Start.
    using InformerSource = std::function<Expected<Informer *>()>;
    void watch(InformerSource source, const GroupVersionKind &gvk, std::unique_ptr<EventHandler> handler,
        QList<Predicate> predicates = {});
    /// The informer of the reconciled kind: its lastSyncResourceVersion goes into each trace.
    void setForInformer(Informer *informer) { m_forInformer = informer; }

    /// Registers the handlers, waits for every source to sync (cacheSyncTimeout), then starts the
    /// workers. Errors: already started; a source did not sync in time (the message names the kind).
    QCoro::Task<Expected<void>> start();
    /// With enableWarmup: starts the sources now (informers created and started, handlers
    /// registered, requests queued) without starting the workers; start() later finds them
    /// running. Without it: nothing. Errors: a source's informer cannot be created.
    Expected<void> warmup();
    [[nodiscard]] bool warmupEnabled() const { return m_enableWarmup.value_or(false); }
    /// Sets enableWarmup unless the options set it (the manager's default for its controllers).
    void setDefaultWarmup(bool on)
    {
        if (!m_enableWarmup)
            m_enableWarmup = on;
    }
    [[nodiscard]] bool isRunning() const { return m_running; }
    /// Stops taking items, shuts the queue down, cancels reconciles in flight (their client calls
    /// fail fast, halted calls are released) and waits until every reconcile returned.
    QCoro::Task<void> shutdown();
    [[nodiscard]] int activeWorkers() const { return m_active; }

    // Stepping.
    void pause();
    /// Runs normally again (a breakpoint just hit is passed once).
    void resume();
    [[nodiscard]] bool isPaused() const { return m_paused; }
    /// Pauses (if running) and hands one item — `key` when given (it must be ready), else the next —
    /// to a worker; the controller stays paused. False when nothing (or not that key) is ready, a
    /// worker is not free, or the controller is not running.
    bool step(std::optional<QueueKey> key = std::nullopt);
    /// step(), halting the reconcile before each client call (callPending is emitted).
    bool stepInto(std::optional<QueueKey> key = std::nullopt);
    /// Lets the halted call of reconcile `reconcileId` (empty: the oldest halted call) go out.
    bool continueCall(const QString &reconcileId = {});
    /// Like continueCall(), and the reconcile no longer halts.
    bool continueToEnd(const QString &reconcileId = {});
    /// Calls currently halted, oldest first.
    [[nodiscard]] QList<PendingCall> pendingCalls() const;
    /// Continue: lets every reconcile in flight run to its end without further stops, then
    /// runs normally again (resume()).
    void continueAll();
    /// Run to the next reconcile of `key`: finishes the reconciles in flight without stops and
    /// runs normally until the queue hands out `key`; then pauses and steps into that reconcile
    /// (halting before its first client call). False when the controller is not running.
    bool runTo(const QueueKey &key);
    /// The key runTo() waits for, if any (cleared when it is reached, by pause() and by step()).
    [[nodiscard]] const std::optional<QueueKey> &runToKey() const { return m_runTo; }

    /// A debugger is attached (the workbench's ControllerObserver): reconciles started by
    /// step(), stepInto() and runTo() keep the objects their calls read and wrote and publish
    /// their trace as they advance (reconcileProgress). Off by default: then nothing is copied.
    void setProgressObserved(bool on) { m_progressObserved = on; }
    [[nodiscard]] bool progressObserved() const { return m_progressObserved; }

    // Breakpoints (see breakpoint.h). Key, kind and condition breakpoints pause before the item
    // is taken (breakpointHit "key"/"kind"/"condition", no reconcile id); a call breakpoint
    // halts the reconcile before the call, steps into it from there and pauses ("call"); an
    // error breakpoint pauses after a failed reconcile ("error").
    /// A key breakpoint (one per key).
    void addBreakpoint(const QueueKey &key);
    /// Removes the key breakpoints on `key`.
    void removeBreakpoint(const QueueKey &key);
    /// The keys of the enabled key breakpoints, sorted.
    [[nodiscard]] QList<QueueKey> breakpoints() const;
    /// Adds `bp` and returns its id (> 0).
    int addBreakpoint(Breakpoint bp);
    bool removeBreakpoint(int id);
    bool setBreakpointEnabled(int id, bool on);
    /// Every breakpoint, in the order added.
    [[nodiscard]] const QList<Breakpoint> &breakpointList() const { return m_breakpointList; }
    /// The key, kind, condition or call breakpoint that paused the controller last (its id; 0:
    /// none yet). An error stop is any enabled Error breakpoint's (or the breakOnError flag's).
    [[nodiscard]] int lastBreakpointHit() const { return m_lastBreakpointHit; }
    /// Pause after any reconcile that ends in an error. Default off. Same as an Error breakpoint.
    void setBreakOnError(bool on)
    {
        m_breakOnErrorFlag = on;
        syncBreakOnError();
    }
    [[nodiscard]] bool breakOnError() const { return m_breakOnErrorFlag; }
    /// Internal (ReconcileContext::beforeCall()): a call breakpoint stops `call` of `scope`'s
    /// reconcile. Then the reconcile halts before it (and each later call) and the controller pauses.
    bool breakBeforeCall(detail::ReconcileScope &scope, const PendingCall &call);

    /// Internal: a reconcile halted in ReconcileContext::beforeCall().
    void callHalted(const std::shared_ptr<detail::ReconcileScope> &scope);
    /// Internal: an observed reconcile recorded a call (ReconcileContext::record()).
    void callRecorded(const detail::ReconcileScope &scope);

Q_SIGNALS:
    void reconcileStarted(const QString &reconcileId, const QString &key);
    void reconcileFinished(const opbench::ReconcileTrace &trace);
    /// An observed reconcile (see setProgressObserved) as it stands: once when it starts (no
    /// calls yet), then after every client call it made. reconcileFinished() ends it.
    void reconcileProgress(const opbench::ReconcileTrace &trace);
    /// After a step()/stepInto() reconcile finished (also reconcileFinished).
    void stepFinished(const opbench::ReconcileTrace &trace);
    void pausedChanged(bool paused);
    void callPending(const opbench::PendingCall &call);
    void callResumed(const QString &reconcileId, int index);
    /// `reason`: "key" (before the key was taken) or "error" (after a failed reconcile).
    void breakpointHit(const QString &reason, const QString &key, const QString &reconcileId);
    /// No reconcile is in flight any more.
    void workersIdle();

private:
    struct Source;
    struct InFlight
    {
        std::shared_ptr<detail::ReconcileScope> scope;
        bool step = false;
        quint64 timeoutId = 0;
    };
    struct Finish
    {
        ReconcileOutcome outcome;
        QString panic; // non-empty: the reconcile threw
        Clock::Duration elapsed{0};
    };

    Controller(ControllerOptions &options, std::shared_ptr<Reconciler> reconciler, QObject *parent);

    Expected<void> registerSources();
    [[nodiscard]] bool sourcesSynced() const;
    void pump();
    void launch(Item item, bool step, bool stepInto);
    QCoro::Task<void> runReconcile(QueueKey key, int priority, std::shared_ptr<detail::ReconcileScope> scope);
    void finish(const QueueKey &key, int priority, const std::shared_ptr<detail::ReconcileScope> &scope, Finish f);
    void applyOutcome(const QueueKey &key, int priority, const ReconcileOutcome &outcome, ReconcileTrace &trace);
    void logError(const detail::ReconcileScope &scope, const Status &error) const;
    void requeue(const QueueKey &key, const AddOpts &opts, Cause cause);
    bool stepImpl(std::optional<QueueKey> key, bool into);
    bool release(const QString &reconcileId, bool toEnd);
    void hitKeyBreakpoint(const QueueKey &key, const QString &reason);
    bool breakBefore(const QueueKey &key);
    void syncBreakOnError();
    bool reachRunTo(const QueueKey &next);
    int takeWorkerSlot();

    QString m_name;
    GroupVersionKind m_forKind;
    std::shared_ptr<Reconciler> m_reconciler;
    std::unique_ptr<WorkQueue> m_queue;
    Clock *m_clock;
    MetricsRegistry *m_registry;
    std::unique_ptr<ControllerMetrics> m_metrics;
    Logger m_logger;
    int m_maxConcurrent;
    bool m_recoverPanic;
    Clock::Duration m_reconcileTimeout;
    std::chrono::milliseconds m_cacheSyncTimeout;
    std::optional<bool> m_enableWarmup;
    bool m_registeredName;

    std::vector<std::unique_ptr<Source>> m_sources;
    QPointer<Informer> m_forInformer;
    QHash<QString, InFlight> m_inflight; // reconcileId -> reconcile in flight
    QStringList m_haltedOrder;           // reconcile ids halted at a call, oldest first
    int m_active = 0;
    bool m_started = false;
    bool m_running = false;
    std::shared_ptr<bool> m_alive = std::make_shared<bool>(true); // false once ~Controller begins
    bool m_inPump = false;

    bool m_paused = false;
    bool m_breakOnError = false; // effective: the flag or an enabled Error breakpoint
    bool m_breakOnErrorFlag = false;
    QList<Breakpoint> m_breakpointList;
    int m_nextBreakpointId = 1;
    int m_lastBreakpointHit = 0;
    std::optional<QueueKey> m_passBreakpoint; // the breakpoint just hit: let it through once
    std::optional<QueueKey> m_runTo;          // runTo(): step into this key when it comes
    bool m_progressObserved = false;
    std::vector<bool> m_workerBusy; // worker slots (ReconcileTrace::worker - 1)
};

} // namespace opbench
