// SPDX-License-Identifier: Apache-2.0
// Controller: running one reconcile and applying its outcome (controller-runtime's
// reconcileHandler).
#include "engine/controller/controller.h"

#include <exception>

namespace opbench {

namespace {

double seconds(Clock::Duration d) { return std::chrono::duration<double>(d).count(); }

} // namespace

QCoro::Task<void> Controller::runReconcile(QueueKey key, int priority, std::shared_ptr<detail::ReconcileScope> scope)
{
    QPointer<Controller> self(this);
    std::shared_ptr<Reconciler> reconciler = m_reconciler; // keeps it alive while this runs
    Clock *clock = m_clock;
    const Clock::TimePoint t0 = clock->now();
    Request req;
    req.namespaceName = key.ns;
    req.name = key.name;
    req.causes = scope->trace.causes;
    req.reconcileId = scope->trace.id;
    req.priority = priority;
    req.retries = scope->trace.retries;
    req.ctx = ReconcileContext(scope);
    scope->logger.v(5, QStringLiteral("Reconciling"));
    Finish f;
    try {
        f.outcome = co_await reconciler->reconcile(std::move(req));
    } catch (const std::exception &e) {
        f.panic = QString::fromLocal8Bit(e.what());
    } catch (...) {
        f.panic = QStringLiteral("unknown exception");
    }
    if (!self)
        co_return;
    f.elapsed = clock->now() - t0;
    finish(key, priority, scope, std::move(f));
}

void Controller::finish(
    const QueueKey &key, int priority, const std::shared_ptr<detail::ReconcileScope> &scope, Finish f)
{
    ReconcileTrace &t = scope->trace;
    const InFlight flight = m_inflight.take(t.id);
    if (flight.timeoutId != 0)
        m_clock->cancel(flight.timeoutId);
    t.finished = true;
    if (!f.panic.isEmpty()) {
        if (!m_recoverPanic)
            qFatal("controller %s: reconcile of %s threw: %s", qPrintable(m_name), qPrintable(key.toString()),
                qPrintable(f.panic));
        m_metrics->panics->inc();
        t.panicked = true;
        scope->logger.error(f.panic, QStringLiteral("Observed a panic"));
        f.outcome = ReconcileOutcome::error(QStringLiteral("panic: %1 [recovered]").arg(f.panic));
    }
    // A timeout is counted, but the outcome is what the reconciler returned (controller-runtime):
    // a reconcile that finished its work late is a success, not an error retried forever. One cut
    // short by the timeout sees Cancelled from its client calls and returns that.
    if (t.timedOut)
        m_metrics->timeouts->inc();
    applyOutcome(key, priority, f.outcome, t);
    if (f.outcome.isError() && !f.outcome.result().isZero())
        scope->logger.info(QStringLiteral("Warning: the reconciler returned both an error and a result with requeue or "
                                          "requeueAfter set; with an error they are ignored (the request is retried "
                                          "with backoff)"));
    if (f.outcome.isError())
        logError(*scope, f.outcome.error());
    else
        scope->logger.v(5, QStringLiteral("Reconcile successful"));
    m_metrics->reconcileTime->observe(seconds(f.elapsed));
    t.duration = f.elapsed;
    m_queue->done(key);
    --m_active;
    if (t.worker > 0 && size_t(t.worker) <= m_workerBusy.size())
        m_workerBusy[size_t(t.worker - 1)] = false;
    m_metrics->activeWorkers->add(-1);
    m_haltedOrder.removeAll(t.id);
    const bool failed = f.outcome.isError();
    Q_EMIT reconcileFinished(t);
    if (flight.step)
        Q_EMIT stepFinished(t);
    if (failed && m_breakOnError) {
        pause();
        Q_EMIT breakpointHit(QStringLiteral("error"), key.toString(), t.id);
    }
    if (m_active == 0)
        Q_EMIT workersIdle();
    pump();
}

void Controller::applyOutcome(const QueueKey &key, int priority, const ReconcileOutcome &outcome, ReconcileTrace &t)
{
    if (outcome.isError()) {
        t.error = outcome.error().message().isEmpty() ? outcome.error().toString() : outcome.error().message();
        t.errorCode = outcome.error().code();
        m_metrics->error->inc();
        m_metrics->errors->inc();
        if (outcome.isTerminal()) {
            // No requeue and no forget: the failure count persists.
            t.result = ReconcileTrace::Result::TerminalError;
            m_metrics->terminalErrors->inc();
        } else {
            t.result = ReconcileTrace::Result::Error;
            AddOpts opts;
            opts.rateLimited = true;
            opts.priority = outcome.result().priority.value_or(priority); // as controller-runtime, errors too
            requeue(key, opts, Cause::rateLimitedRetry(m_queue->numRequeues(key) + 1, t.error));
        }
        return;
    }
    const Result &r = outcome.result();
    AddOpts opts;
    opts.priority = r.priority.value_or(priority);
    if (r.requeueAfter.count() > 0) {
        t.result = ReconcileTrace::Result::RequeueAfter;
        t.requeueAfter = r.requeueAfter;
        m_queue->forget(key);
        opts.after = r.requeueAfter;
        requeue(key, opts, Cause::requeueAfter(r.requeueAfter));
        m_metrics->requeueAfter->inc();
    } else if (r.requeue) {
        t.result = ReconcileTrace::Result::Requeue;
        opts.rateLimited = true;
        requeue(key, opts, Cause::requestedRequeue(m_queue->numRequeues(key) + 1));
        m_metrics->requeue->inc();
    } else {
        t.result = ReconcileTrace::Result::Success;
        m_queue->forget(key);
        m_metrics->success->inc();
    }
}

void Controller::requeue(const QueueKey &key, const AddOpts &opts, Cause cause)
{
    if (m_queue->kind() == WorkQueue::Kind::Priority) {
        m_queue->addWithOpts(key, opts, std::move(cause));
        return;
    }
    if (opts.rateLimited)
        m_queue->addRateLimited(key, std::move(cause));
    else
        m_queue->addAfter(key, opts.after, std::move(cause));
}

void Controller::logError(const detail::ReconcileScope &scope, const Status &error) const
{
    // Every error, 409 Conflicts included, is logged as "Reconciler error" at error level, as
    // controller-runtime does: the line users grep for and alert on.
    scope.logger.error(
        error.message().isEmpty() ? error.toString() : error.message(), QStringLiteral("Reconciler error"));
}

} // namespace opbench
