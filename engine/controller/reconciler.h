// SPDX-License-Identifier: Apache-2.0
#pragma once
// The reconciler contract (controller-runtime's reconcile package).
//
// Reconcile is level-based, not edge-triggered: it is given the name of an object, not an event,
// and must drive the world towards the object's desired state from what it reads now. The
// request's causes say why it was queued (useful for logs and the GUI), but correct code never
// depends on them: several events are merged into one request, and a cause may be a resync.
//
// Return contract (Controller applies exactly controller-runtime's outcome table):
// - an error (a Status)        → retried with the rate limiter's backoff; given together with a
//                                Result, only the Result's priority is used (for that requeue),
//                                and a requeue/requeueAfter in it is ignored with a warning;
// - a TerminalError            → not retried, and the failure count is kept (no Forget);
// - Result{requeueAfter > 0}   → the failure count is forgotten and the request runs again after
//                                the delay (takes precedence over `requeue`);
// - Result{requeue = true}     → retried with backoff (deprecated: use requeueAfter);
// - Result{}                   → success: the failure count is forgotten.

#include "engine/api/status.h"
#include "engine/base/clock.h"
#include "engine/controller/reconcilecontext.h"
#include "engine/controller/recorder.h"
#include "engine/queue/cause.h"
#include "engine/queue/queuekey.h"

#include <qcoro/qcorotask.h>

#include <functional>
#include <memory>
#include <optional>

namespace opbench {

class Client;
class ControllerBuilder;

/// What to reconcile, and why. Not an aggregate (g++ 12 destroys aggregate temporaries built
/// inside co_await twice).
struct Request
{
    Request() = default;
    Request(QString ns, QString objectName)
        : namespaceName(std::move(ns))
        , name(std::move(objectName))
    { }
    QString namespaceName;
    QString name;
    CauseList causes;    ///< every cause merged into this hand-out, in arrival order
    QString reconcileId; ///< a new UUID per reconcile
    int priority = 0;    ///< the queue entry's priority (priority queue)
    int retries = 0;     ///< the queue's failure count for this key
    /// Pass to every Client call (tracing, step-into, cancellation on timeout).
    ReconcileContext ctx;

    [[nodiscard]] QueueKey key() const { return {namespaceName, name}; }
};

struct Result
{
    /// Run again after this delay (> 0), forgetting the failure count.
    Clock::Duration requeueAfter{0};
    /// Deprecated (controller-runtime ≥ v0.21): retry with backoff. Ignored when requeueAfter > 0.
    bool requeue = false;
    /// Priority of the requeue (priority queue); unset keeps the request's priority.
    std::optional<int> priority;

    [[nodiscard]] bool isZero() const { return requeueAfter.count() <= 0 && !requeue; }
};

/// An error that retrying cannot fix (controller-runtime's reconcile.TerminalError).
struct TerminalError
{
    Status status;
};

/// The outcome of a reconcile: a Result, an error, or a terminal error.
class ReconcileOutcome
{
public:
    ReconcileOutcome() = default;
    ReconcileOutcome(Result result)
        : m_result(result)
    { }
    /// An ordinary error: retried with backoff.
    ReconcileOutcome(Status error)
        : m_error(std::move(error))
        , m_isError(true)
    { }
    ReconcileOutcome(TerminalError error)
        : m_error(std::move(error.status))
        , m_isError(true)
        , m_terminal(true)
    { }
    /// A Result together with an error (controller-runtime's `return result, err`): the error
    /// decides (backoff); result.priority sets the requeue's priority.
    ReconcileOutcome(Result result, Status error)
        : m_result(result)
        , m_error(std::move(error))
        , m_isError(true)
    { }

    /// An ordinary error with only a message (reason InternalError, code 500).
    static ReconcileOutcome error(const QString &message)
    {
        return Status(500, QString::fromLatin1(StatusReason::InternalError), message);
    }

    [[nodiscard]] bool ok() const { return !m_isError; }
    [[nodiscard]] bool isError() const { return m_isError; }
    [[nodiscard]] bool isTerminal() const { return m_terminal; }
    [[nodiscard]] const Result &result() const { return m_result; }
    [[nodiscard]] const Status &error() const { return m_error; }

private:
    Result m_result;
    Status m_error;
    bool m_isError = false;
    bool m_terminal = false;
};

/// `return ignoreNotFound(got.error())`: success (Result{}) when the object is gone (NotFound),
/// the error otherwise (controller-runtime's client.IgnoreNotFound).
ReconcileOutcome ignoreNotFound(const Status &error);
/// `return requeueOnConflict(written.error())`: a rate-limited requeue without an error when the
/// write lost a race (409 Conflict, or AlreadyExists after a stale read), the error otherwise.
ReconcileOutcome requeueOnConflict(const Status &error);

/// The reconcile hook. Runs on the engine thread; several reconciles (of different keys) may be
/// in flight at once when maxConcurrentReconciles > 1, never two of the same key. An exception
/// thrown from reconcile is recovered by the controller (counted as a panic, retried with backoff).
///
/// ControllerBuilder(manager)…complete(reconciler) injects the manager's client and an event
/// recorder named after the controller: client() and recorder() inside reconcile().
class Reconciler
{
public:
    virtual ~Reconciler() = default;
    virtual QCoro::Task<ReconcileOutcome> reconcile(Request request) = 0;

    /// Injects the client and recorder (ControllerBuilder::complete() does; tests may).
    void inject(Client *client, Recorder recorder)
    {
        m_client = client;
        m_recorder = std::move(recorder);
    }

protected:
    Reconciler() = default;
    Reconciler(const Reconciler &) = default;
    Reconciler &operator=(const Reconciler &) = default;

    /// The manager's client. Fatal when nothing was injected (the reconciler was not given to
    /// ControllerBuilder::complete() nor inject()).
    [[nodiscard]] Client &client() const;
    /// Events about objects: recorder().normal(obj, reason, message) / warning(…).
    [[nodiscard]] const Recorder &recorder() const { return m_recorder; }
    [[nodiscard]] bool hasClient() const { return m_client != nullptr; }

private:
    Client *m_client = nullptr;
    Recorder m_recorder;
};

/// Adapter from a function returning a task. The function object lives as long as the adapter,
/// so a coroutine lambda's captures stay valid while its reconcile runs.
class ReconcilerFunc final : public Reconciler
{
public:
    using Fn = std::function<QCoro::Task<ReconcileOutcome>(Request)>;
    explicit ReconcilerFunc(Fn fn)
        : m_fn(std::move(fn))
    { }
    QCoro::Task<ReconcileOutcome> reconcile(Request request) override { return m_fn(std::move(request)); }

private:
    Fn m_fn;
};

inline std::shared_ptr<Reconciler> makeReconciler(ReconcilerFunc::Fn fn)
{
    return std::make_shared<ReconcilerFunc>(std::move(fn));
}

} // namespace opbench
