// SPDX-License-Identifier: Apache-2.0
#pragma once
// ReconcileContext: the per-reconcile handle a reconciler passes to every Client call (the
// role of Go's ctx in controller-runtime: `client.Get(ctx, …)`).
//
// Through it the Client records each call into the reconcile's trace and, when the controller
// is stepping into the reconcile, halts before each call until the user continues. Several
// reconciles interleave on the engine thread; each has its own context, so calls never land in
// the wrong trace. A default-constructed context is the "background" context: nothing is
// recorded, nothing halts, it is never cancelled (for calls made outside a reconcile).

#include "engine/base/logger.h"
#include "engine/controller/reconciletrace.h"

#include <QPointer>

#include <coroutine>
#include <functional>
#include <memory>

namespace opbench {

class Controller;

namespace detail {

/// Internal state of one reconcile, shared by its context handles and the controller.
struct ReconcileScope
{
    ReconcileTrace trace;
    QPointer<Controller> controller;
    Logger logger;
    bool haltBeforeCalls = false; ///< step-into: halt before each client call
    /// A debugger watches this reconcile (a step with an observer attached): the client keeps
    /// the objects it read and wrote in the trace, and every recorded call is published
    /// (Controller::reconcileProgress). False on the hot path: nothing is copied then.
    bool observed = false;
    bool cancelled = false; ///< the reconcile timed out or the controller shut down
    QString cancelReason;
    std::coroutine_handle<> halted; ///< the reconcile waiting in beforeCall(), if any
    /// A reconcile run without a controller (engine/recording's replay) halts too when this is
    /// set: it is called instead of Controller::callHalted() and must not resume `halted` itself.
    std::function<void(const std::shared_ptr<ReconcileScope> &)> haltHook;
    PendingCall pending; ///< the call it waits to send
    int nextCallIndex = 0;
};

/// Awaitable returned by ReconcileContext::beforeCall().
class CallGate
{
public:
    CallGate(std::shared_ptr<ReconcileScope> scope, PendingCall call)
        : m_scope(std::move(scope))
        , m_call(std::move(call))
    { }
    [[nodiscard]] bool await_ready() const noexcept;
    void await_suspend(std::coroutine_handle<> h);
    void await_resume() const noexcept { }

private:
    std::shared_ptr<ReconcileScope> m_scope;
    PendingCall m_call;
};

} // namespace detail

class ReconcileContext
{
public:
    /// The background context.
    ReconcileContext() = default;
    explicit ReconcileContext(std::shared_ptr<detail::ReconcileScope> scope)
        : d(std::move(scope))
    { }

    [[nodiscard]] bool isBackground() const { return !d; }
    /// The reconcileID ("" for the background context).
    [[nodiscard]] QString reconcileId() const;
    [[nodiscard]] QString controllerName() const;
    /// True once the reconcile's timeout passed or its controller is shutting down: client calls
    /// then fail at once with a Timeout / Cancelled Status.
    [[nodiscard]] bool isCancelled() const { return d && d->cancelled; }
    [[nodiscard]] QString cancelReason() const { return d ? d->cancelReason : QString(); }
    /// The reconcile's logger (fields controller, controllerGroup, controllerKind, namespace, name,
    /// reconcileID); the default logger for the background context.
    [[nodiscard]] Logger logger() const { return d ? d->logger : Logger(); }

    /// `co_await ctx.beforeCall(call)`: halts while the controller steps into this reconcile,
    /// until continueCall()/continueToEnd(); returns at once otherwise. Fills the call's
    /// reconcile id, controller and index.
    [[nodiscard]] detail::CallGate beforeCall(PendingCall call) const;
    /// True while the controller steps into this reconcile (beforeCall() will halt): only then
    /// does the pending call need its body and diff.
    [[nodiscard]] bool haltsBeforeCalls() const { return d && d->haltBeforeCalls && !d->cancelled; }
    /// True while a debugger watches this reconcile: only then does a call keep the objects it
    /// read and wrote (TraceCall::object, sent).
    [[nodiscard]] bool isObserved() const { return d && d->observed; }
    /// Appends a finished call to the trace (no-op for the background context); an observed
    /// reconcile publishes its trace so far (Controller::reconcileProgress).
    void record(TraceCall call) const;
    /// Calls recorded so far.
    [[nodiscard]] QList<TraceCall> calls() const { return d ? d->trace.calls : QList<TraceCall>(); }

    [[nodiscard]] detail::ReconcileScope *scope() const { return d.get(); }

private:
    std::shared_ptr<detail::ReconcileScope> d;
};

} // namespace opbench
