// SPDX-License-Identifier: Apache-2.0
#include "engine/controller/reconcilecontext.h"

#include "engine/controller/controller.h"

namespace opbench {

namespace detail {

bool CallGate::await_ready() const noexcept
{
    if (!m_scope || m_scope->cancelled)
        return true;
    if (m_scope->controller.isNull()) // a replay (engine/recording) halts through its hook
        return !m_scope->haltBeforeCalls || !m_scope->haltHook;
    // Stepping into this reconcile, or a call breakpoint stops this call (Controller::breakBeforeCall).
    return !m_scope->haltBeforeCalls && !m_scope->controller->breakBeforeCall(*m_scope, m_call);
}

void CallGate::await_suspend(std::coroutine_handle<> h)
{
    m_scope->halted = h;
    m_scope->pending = m_call;
    // The controller resumes the handle through a queued call, never from inside this function.
    if (m_scope->controller.isNull())
        m_scope->haltHook(m_scope); // a replay (engine/recording)
    else
        m_scope->controller->callHalted(m_scope);
}

} // namespace detail

QString ReconcileContext::reconcileId() const { return d ? d->trace.id : QString(); }

QString ReconcileContext::controllerName() const { return d ? d->trace.controller : QString(); }

detail::CallGate ReconcileContext::beforeCall(PendingCall call) const
{
    if (d) {
        call.reconcileId = d->trace.id;
        call.controller = d->trace.controller;
        call.index = d->nextCallIndex++;
    }
    return detail::CallGate(d, std::move(call));
}

void ReconcileContext::record(TraceCall call) const
{
    if (!d)
        return;
    d->trace.calls.append(std::move(call));
    if (d->observed && d->controller)
        d->controller->callRecorded(*d);
}

} // namespace opbench
