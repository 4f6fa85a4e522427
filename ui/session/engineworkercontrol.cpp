// SPDX-License-Identifier: Apache-2.0
// EngineWorker, second half: observing a controller (traces, stepping state) and the stepping
// intents the Control toolbar sends.
#include "ui/session/engineworker.h"

#include "engine/controller/controller.h"

namespace opbench::ui {

void EngineWorker::observeController(Controller *controller)
{
    if (m_controller)
        disconnect(m_controller, nullptr, this, nullptr);
    m_controller = controller;
    observeQueue(controller ? controller->queue() : nullptr);
    if (controller) {
        connect(controller, &Controller::reconcileFinished, this,
                [this](const ReconcileTrace &t) { m_pendingTraces.append(t); });
        connect(controller, &Controller::pausedChanged, this, &EngineWorker::emitControlState);
        connect(controller, &Controller::callPending, this, &EngineWorker::emitControlState);
        connect(controller, &Controller::callResumed, this, &EngineWorker::emitControlState);
        connect(controller, &Controller::workersIdle, this, &EngineWorker::emitControlState);
        connect(controller, &Controller::breakpointHit, this,
                [this](const QString &reason, const QString &key, const QString &) {
                    m_lastBreak = reason + u' ' + key;
                    emitControlState();
                });
    }
    emitControlState();
}

void EngineWorker::emitControlState()
{
    ControlState s;
    s.available = m_controller != nullptr;
    if (m_controller) {
        s.paused = m_controller->isPaused();
        s.activeWorkers = m_controller->activeWorkers();
        for (const PendingCall &c : m_controller->pendingCalls())
            s.pendingCalls.append(QStringLiteral("%1 %2 %3").arg(c.verb, c.gvk.kind, c.key));
        for (const QueueKey &k : m_controller->breakpoints())
            s.breakpoints.append(k.toString());
        s.breakOnError = m_controller->breakOnError();
        s.lastBreak = m_lastBreak;
    }
    Q_EMIT controlState(s);
}

void EngineWorker::pause()
{
    if (m_controller)
        m_controller->pause();
    emitControlState();
}

void EngineWorker::resume()
{
    m_lastBreak.clear();
    if (m_controller)
        m_controller->resume();
    emitControlState();
}

void EngineWorker::step(const QString &key)
{
    if (m_controller)
        m_controller->step(key.isEmpty() ? std::nullopt : std::optional(QueueKey::fromString(key)));
    emitControlState();
}

void EngineWorker::stepInto(const QString &key)
{
    if (m_controller)
        m_controller->stepInto(key.isEmpty() ? std::nullopt : std::optional(QueueKey::fromString(key)));
    emitControlState();
}

void EngineWorker::continueCall()
{
    if (m_controller)
        m_controller->continueCall();
    emitControlState();
}

void EngineWorker::continueToEnd()
{
    if (m_controller)
        m_controller->continueToEnd();
    emitControlState();
}

void EngineWorker::toggleBreakpoint(const QString &key)
{
    if (!m_controller)
        return;
    const QueueKey k = QueueKey::fromString(key);
    if (m_controller->breakpoints().contains(k))
        m_controller->removeBreakpoint(k);
    else
        m_controller->addBreakpoint(k);
    emitControlState();
}

void EngineWorker::setBreakOnError(bool on)
{
    if (m_controller)
        m_controller->setBreakOnError(on);
    emitControlState();
}

} // namespace opbench::ui
