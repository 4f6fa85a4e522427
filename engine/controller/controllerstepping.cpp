// SPDX-License-Identifier: Apache-2.0
// Controller: the stepping hooks (pause, step, step into, breakpoints).
#include "engine/controller/controller.h"

#include "engine/controller/reconcilecontext.h"

namespace opbench {

void Controller::pause()
{
    m_runTo.reset();
    if (m_paused)
        return;
    m_paused = true;
    m_logger.v(1, QStringLiteral("Controller paused"));
    Q_EMIT pausedChanged(true);
}

void Controller::resume()
{
    if (m_paused) {
        m_paused = false;
        m_logger.v(1, QStringLiteral("Controller resumed"));
        Q_EMIT pausedChanged(false);
    }
    pump();
}

bool Controller::step(std::optional<QueueKey> key) { return stepImpl(std::move(key), false); }

bool Controller::stepInto(std::optional<QueueKey> key) { return stepImpl(std::move(key), true); }

bool Controller::stepImpl(std::optional<QueueKey> key, bool into)
{
    if (!m_running || m_active >= m_maxConcurrent)
        return false;
    pause();
    std::optional<Item> item = key ? m_queue->tryGetKey(*key) : m_queue->tryGet();
    if (!item)
        return false;
    if (m_passBreakpoint == item->key)
        m_passBreakpoint.reset();
    launch(std::move(*item), true, into);
    return true;
}

void Controller::callHalted(const std::shared_ptr<detail::ReconcileScope> &scope)
{
    m_haltedOrder.append(scope->trace.id);
    scope->pending.fillRequest();
    scope->logger.v(1, QStringLiteral("Halted before client call"),
        {{QStringLiteral("verb"), scope->pending.verb}, {QStringLiteral("target"), scope->pending.key}});
    Q_EMIT callPending(scope->pending);
}

bool Controller::release(const QString &reconcileId, bool toEnd)
{
    const QString id = reconcileId.isEmpty() ? m_haltedOrder.value(0) : reconcileId;
    const auto it = m_inflight.constFind(id);
    if (it == m_inflight.constEnd())
        return false;
    const std::shared_ptr<detail::ReconcileScope> scope = it->scope;
    if (toEnd)
        scope->haltBeforeCalls = false;
    if (!scope->halted)
        return toEnd;
    const std::coroutine_handle<> h = scope->halted;
    scope->halted = {};
    m_haltedOrder.removeAll(id);
    Q_EMIT callResumed(id, scope->pending.index);
    // Resumed from the event loop, never from inside the caller (who may be a slot connected to
    // callPending, i.e. still inside the reconcile's suspension).
    QMetaObject::invokeMethod(
        this, [h]() { h.resume(); }, Qt::QueuedConnection);
    return true;
}

bool Controller::continueCall(const QString &reconcileId) { return release(reconcileId, false); }

bool Controller::continueToEnd(const QString &reconcileId) { return release(reconcileId, true); }

QList<PendingCall> Controller::pendingCalls() const
{
    QList<PendingCall> out;
    for (const QString &id : m_haltedOrder) {
        const auto it = m_inflight.constFind(id);
        if (it != m_inflight.constEnd() && it->scope->halted)
            out.append(it->scope->pending);
    }
    return out;
}

void Controller::continueAll()
{
    const QList<QString> ids = m_inflight.keys();
    for (const QString &id : ids)
        release(id, true);
    resume();
}

bool Controller::runTo(const QueueKey &key)
{
    if (!m_running)
        return false;
    m_logger.v(1, QStringLiteral("Running to the next reconcile"), {{QStringLiteral("key"), key.toString()}});
    if (m_passBreakpoint == key)
        m_passBreakpoint.reset();
    const QList<QString> ids = m_inflight.keys();
    for (const QString &id : ids)
        release(id, true);
    if (m_paused) {
        m_paused = false;
        Q_EMIT pausedChanged(false);
    }
    m_runTo = key; // after the resume: pause() clears it
    pump();
    return true;
}

bool Controller::reachRunTo(const QueueKey &next)
{
    if (next != *m_runTo)
        return false;
    pause(); // clears m_runTo
    std::optional<Item> item = m_queue->tryGet();
    if (!item)
        return true;
    if (m_passBreakpoint == item->key)
        m_passBreakpoint.reset();
    launch(std::move(*item), true, true);
    return true;
}

int Controller::takeWorkerSlot()
{
    for (size_t i = 0; i < m_workerBusy.size(); ++i) {
        if (!m_workerBusy[i]) {
            m_workerBusy[i] = true;
            return int(i) + 1;
        }
    }
    return 0; // more in flight than slots (cannot happen: pump() and step() check m_active)
}

void Controller::callRecorded(const detail::ReconcileScope &scope) { Q_EMIT reconcileProgress(scope.trace); }

void Controller::addBreakpoint(const QueueKey &key)
{
    if (!breakpoints().contains(key))
        addBreakpoint(Breakpoint(Breakpoint::Type::Key, key.toString()));
}

void Controller::removeBreakpoint(const QueueKey &key)
{
    const QString k = key.toString();
    m_breakpointList.removeIf([&k](const Breakpoint &b) { return b.type == Breakpoint::Type::Key && b.key == k; });
}

QList<QueueKey> Controller::breakpoints() const
{
    QList<QueueKey> out;
    for (const Breakpoint &b : m_breakpointList)
        if (b.type == Breakpoint::Type::Key && b.enabled)
            out.append(QueueKey::fromString(b.key));
    std::sort(out.begin(), out.end());
    return out;
}

int Controller::addBreakpoint(Breakpoint bp)
{
    bp.id = m_nextBreakpointId++;
    m_breakpointList.append(std::move(bp));
    syncBreakOnError();
    return m_breakpointList.last().id;
}

bool Controller::removeBreakpoint(int id)
{
    const bool removed = m_breakpointList.removeIf([id](const Breakpoint &b) { return b.id == id; }) > 0;
    syncBreakOnError();
    return removed;
}

bool Controller::setBreakpointEnabled(int id, bool on)
{
    for (Breakpoint &b : m_breakpointList) {
        if (b.id == id) {
            b.enabled = on;
            syncBreakOnError();
            return true;
        }
    }
    return false;
}

void Controller::syncBreakOnError()
{
    m_breakOnError = m_breakOnErrorFlag;
    for (const Breakpoint &b : std::as_const(m_breakpointList)) {
        if (b.type == Breakpoint::Type::Error && b.enabled) {
            m_breakOnError = true;
            break;
        }
    }
}

bool Controller::breakBefore(const QueueKey &key)
{
    QJsonObject object; // read only when a condition needs it
    bool objectRead = false;
    for (const Breakpoint &b : std::as_const(m_breakpointList)) {
        if (b.type == Breakpoint::Type::Condition && b.enabled && !objectRead) {
            objectRead = true;
            if (m_forInformer)
                object = m_forInformer->store().get(key.toString()).json();
        }
        if (!b.stopsBefore(key, m_forKind.kind, object))
            continue;
        m_lastBreakpointHit = b.id;
        hitKeyBreakpoint(key, Breakpoint::typeName(b.type));
        return true;
    }
    return false;
}

bool Controller::breakBeforeCall(detail::ReconcileScope &scope, const PendingCall &call)
{
    for (const Breakpoint &b : std::as_const(m_breakpointList)) {
        if (!b.stopsCall(scope.trace.request, call))
            continue;
        m_lastBreakpointHit = b.id;
        scope.haltBeforeCalls = true; // stepped into from here on
        pause();
        scope.logger.info(QStringLiteral("Breakpoint hit"),
            {{QStringLiteral("breakpoint"), b.describe()}, {QStringLiteral("verb"), call.verb}});
        if (m_progressObserved && !scope.observed) {
            scope.observed = true;
            Q_EMIT reconcileProgress(scope.trace);
        }
        Q_EMIT breakpointHit(QStringLiteral("call"), scope.trace.request.toString(), scope.trace.id);
        return true;
    }
    return false;
}

void Controller::hitKeyBreakpoint(const QueueKey &key, const QString &reason)
{
    pause();
    m_passBreakpoint = key; // resume() or step() lets it through once
    m_logger.info(QStringLiteral("Breakpoint hit"), {{QStringLiteral("key"), key.toString()}});
    Q_EMIT breakpointHit(reason, key.toString(), QString());
}

} // namespace opbench
