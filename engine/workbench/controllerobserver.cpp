// SPDX-License-Identifier: Apache-2.0
#include "engine/workbench/controllerobserver.h"

#include "engine/controller/controller.h"
#include "engine/webhook/webhookgate.h"

#include <QTimer>

namespace opbench::workbench {

namespace {

constexpr int FlushIntervalMs = 100;

std::optional<QueueKey> keyOrNext(const QString &key)
{
    return key.isEmpty() ? std::nullopt : std::optional(QueueKey::fromString(key));
}

} // namespace

ControllerObserver::ControllerObserver(QObject *parent)
    : QObject(parent)
    , m_flushTimer(new QTimer(this))
{
    connect(m_flushTimer, &QTimer::timeout, this, &ControllerObserver::flush);
}

ControllerObserver::~ControllerObserver() = default;

void ControllerObserver::setWebhookGate(WebhookGate *gate)
{
    if (m_webhookGate)
        disconnect(m_webhookGate, nullptr, this, nullptr);
    m_webhookGate = gate;
    if (gate) // its breakpoints' hits are listed with the controller's
        connect(gate, &WebhookGate::stateChanged, this, &ControllerObserver::emitControlState);
}

void ControllerObserver::observe(Controller *controller)
{
    if (m_controller) {
        disconnect(m_controller, nullptr, this, nullptr);
        m_controller->setProgressObserved(false);
    }
    m_controller = controller;
    if (!m_frame.reconcileId.isEmpty()) { // another controller: its frame is not this one's
        m_frame = {};
        Q_EMIT currentReconcile(m_frame);
    }
    if (controller) {
        controller->setProgressObserved(true);
        connect(controller, &Controller::reconcileFinished, this, &ControllerObserver::onFinished);
        connect(controller, &Controller::reconcileProgress, this, &ControllerObserver::onProgress);
        connect(controller, &Controller::pausedChanged, this, &ControllerObserver::emitControlState);
        connect(controller, &Controller::callPending, this, &ControllerObserver::onCallPending);
        connect(controller, &Controller::callResumed, this, &ControllerObserver::onCallResumed);
        connect(controller, &Controller::workersIdle, this, &ControllerObserver::emitControlState);
        connect(controller, &Controller::breakpointHit, this,
            [this](const QString &reason, const QString &key, const QString &) { onBreakpointHit(reason, key); });
        m_flushTimer->start(FlushIntervalMs);
    } else {
        flush();
        m_flushTimer->stop();
    }
    emitControlState();
}

void ControllerObserver::flush()
{
    if (m_pending.isEmpty())
        return;
    Q_EMIT reconcilesFinished(m_pending);
    m_pending.clear();
}

void ControllerObserver::onProgress(const ReconcileTrace &t)
{
    if (t.id != m_frame.reconcileId) {
        m_frame = {};
        m_frame.reconcileId = t.id;
        m_frame.controller = t.controller;
        m_frame.key = t.request.toString();
        m_frame.worker = t.worker;
        m_frame.cacheResourceVersion = t.cacheResourceVersion;
        for (const Cause &c : t.causes)
            m_frame.causes.append(c.describe());
    }
    m_frame.calls = t.calls;
    Q_EMIT currentReconcile(m_frame);
}

void ControllerObserver::onCallPending(const PendingCall &call)
{
    if (call.reconcileId == m_frame.reconcileId) {
        m_frame.halted = true;
        m_frame.pending = call;
        Q_EMIT currentReconcile(m_frame);
    }
    emitControlState();
}

void ControllerObserver::onCallResumed(const QString &reconcileId)
{
    if (reconcileId == m_frame.reconcileId && m_frame.halted) {
        m_frame.halted = false;
        m_frame.pending = {};
        Q_EMIT currentReconcile(m_frame);
    }
    emitControlState();
}

void ControllerObserver::onFinished(const ReconcileTrace &t)
{
    m_pending.append(t);
    if (t.id != m_frame.reconcileId)
        return;
    m_frame.calls = t.calls;
    m_frame.halted = false;
    m_frame.pending = {};
    m_frame.finished = true;
    m_frame.result = ReconcileTrace::resultName(t.result);
    m_frame.error = t.error;
    Q_EMIT currentReconcile(m_frame);
}

void ControllerObserver::onBreakpointHit(const QString &reason, const QString &key)
{
    int id = 0;
    if (reason == QLatin1String("error")) {
        for (const Breakpoint &b : m_controller->breakpointList()) {
            if (b.type == Breakpoint::Type::Error && b.enabled) {
                id = b.id;
                break;
            }
        }
    } else {
        id = m_controller->lastBreakpointHit();
    }
    noteBreakpointHit(id, reason, key);
}

void ControllerObserver::replayBreakpointHit(
    const QString &controller, int id, const QString &reason, const QString &key)
{
    if (m_controller && m_controller->name() == controller)
        noteBreakpointHit(id, reason, key);
}

void ControllerObserver::noteBreakpointHit(int id, const QString &reason, const QString &key)
{
    m_lastBreakId = id;
    QString what = reason == QLatin1String("error") ? QStringLiteral("on error") : reason;
    for (const Breakpoint &b : m_controller->breakpointList())
        if (b.id == m_lastBreakId)
            what = b.describe();
    if (m_lastBreakId)
        ++m_hits[m_lastBreakId];
    m_lastBreak = what == QStringLiteral("key ") + key ? what : QStringLiteral("%1 at %2").arg(what, key);
    if (reason == QLatin1String("call") && !m_frame.reconcileId.isEmpty()) {
        m_frame.breakpoint = m_lastBreak;
        Q_EMIT currentReconcile(m_frame);
    }
    emitControlState();
}

void ControllerObserver::emitControlState()
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
        s.lastBreakId = m_lastBreakId;
        s.breakpointError = m_breakpointError;
        for (const Breakpoint &b : m_controller->breakpointList())
            s.breakpointList.append({b.id, Breakpoint::typeName(b.type), b.describe(), b.enabled, m_hits.value(b.id)});
        if (const auto &to = m_controller->runToKey())
            s.runTo = to->toString();
    }
    s.breakpointNote = m_breakpointNote;
    if (m_webhookGate)
        addWebhookState(s, m_webhookGate->state());
    Q_EMIT controlState(s);
}

void ControllerObserver::addWebhookState(ControlState &s, const WebhookGateState &gate)
{
    for (const WebhookBreakpointRow &b : gate.breakpoints)
        s.breakpointList.append({b.id, QStringLiteral("webhook"), b.description, b.enabled, b.hits, gate.neverHits});
    for (const HeldWebhookRequest &h : gate.held) {
        const WebhookRequestInfo &i = h.info;
        const QString object = i.namespaceName.isEmpty() ? i.name : i.namespaceName + u'/' + i.name;
        s.heldWebhookCalls.append(QStringLiteral("%1 %2 %3 at %4 held by %5")
                                      .arg(i.operation, i.objectKind, object, i.path, h.reason)
                                      .simplified());
    }
}

void ControllerObserver::pause()
{
    if (m_controller)
        m_controller->pause();
    emitControlState();
}

void ControllerObserver::resume()
{
    m_lastBreak.clear();
    m_lastBreakId = 0;
    if (m_controller)
        m_controller->resume();
    emitControlState();
}

void ControllerObserver::step(const QString &key)
{
    if (m_controller && !m_controller->pendingCalls().isEmpty())
        m_controller->continueCall();
    else if (m_controller)
        m_controller->step(keyOrNext(key));
    emitControlState();
}

void ControllerObserver::stepInto(const QString &key)
{
    if (m_controller && !m_controller->pendingCalls().isEmpty())
        m_controller->continueCall();
    else if (m_controller)
        m_controller->stepInto(keyOrNext(key));
    emitControlState();
}

void ControllerObserver::continueCall()
{
    if (m_controller)
        m_controller->continueCall();
    emitControlState();
}

void ControllerObserver::continueToEnd()
{
    if (m_controller)
        m_controller->continueToEnd();
    emitControlState();
}

void ControllerObserver::continueRunning()
{
    if (m_webhookGate) // a debugger's Continue lets every held webhook call go on too
        m_webhookGate->continueAll();
    if (m_controller && !m_controller->pendingCalls().isEmpty()) {
        continueToEnd();
        return;
    }
    resume();
}

void ControllerObserver::stepOver() { continueCall(); }

void ControllerObserver::stepOut() { continueToEnd(); }

void ControllerObserver::continueAll()
{
    m_lastBreak.clear();
    m_lastBreakId = 0;
    if (m_controller)
        m_controller->continueAll();
    emitControlState();
}

void ControllerObserver::runToKey(const QString &key)
{
    m_lastBreak.clear();
    m_lastBreakId = 0;
    if (m_controller && !key.isEmpty())
        m_controller->runTo(QueueKey::fromString(key));
    emitControlState();
}

void ControllerObserver::toggleBreakpoint(const QString &key)
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

void ControllerObserver::setBreakOnError(bool on)
{
    if (m_controller)
        m_controller->setBreakOnError(on);
    emitControlState();
}

} // namespace opbench::workbench

namespace opbench::workbench {

void ControllerObserver::addBreakpoint(const QString &spec)
{
    m_breakpointNote.clear();
    if (m_webhookGate && WebhookBreakpoint::isWebhookSpec(spec)) {
        m_webhookGate->addBreakpoint(spec);
        const WebhookGateState gate = m_webhookGate->state();
        m_breakpointError = gate.error;
        if (gate.error.isEmpty() && !gate.neverHits.isEmpty() && !gate.breakpoints.isEmpty())
            m_breakpointNote
                = QStringLiteral("%1 added, but it %2").arg(gate.breakpoints.last().description, gate.neverHits);
        emitControlState();
        return;
    }
    if (!m_controller)
        return;
    const Expected<Breakpoint> b = Breakpoint::parse(spec);
    m_breakpointError = b.ok() ? QString() : b.error().message();
    if (b.ok())
        m_controller->addBreakpoint(*b);
    emitControlState();
}

void ControllerObserver::removeBreakpoint(int id)
{
    m_breakpointNote.clear();
    if (m_webhookGate && m_webhookGate->hasBreakpoint(id))
        m_webhookGate->removeBreakpoint(id);
    else if (m_controller)
        m_controller->removeBreakpoint(id);
    m_hits.remove(id);
    emitControlState();
}

void ControllerObserver::setBreakpointEnabled(int id, bool on)
{
    if (m_webhookGate && m_webhookGate->hasBreakpoint(id))
        m_webhookGate->setBreakpointEnabled(id, on);
    else if (m_controller)
        m_controller->setBreakpointEnabled(id, on);
    emitControlState();
}

} // namespace opbench::workbench
