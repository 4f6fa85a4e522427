// SPDX-License-Identifier: Apache-2.0
// ReplaySession (replaysession.h), the rest: the queues' samples rebuilt from the recording and
// the controllers' breakpoints stopping the play.
#include "engine/workbench/replaysession.h"

#include "engine/cache/informer.h"
#include "engine/cache/informercache.h"
#include "engine/controller/controller.h"
#include "engine/manager/manager.h"
#include "engine/recording/replayer.h"
#include "engine/workbench/queueobserver.h"

#include <QTimer>

namespace opbench::workbench {

namespace {

constexpr qint64 kSampleEveryNs = 100'000'000; // queue samples: at most one per 100 ms of recorded time

qint64 nanos(Clock::TimePoint t)
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

} // namespace

QueueSample ReplaySession::queueSampleOf(const QString &controller, qint64 nowNs) const
{
    const RecordedQueue &q = m_replayer->queue();
    QueueSample s;
    s.atMs = m_sampleBaseMs + (m_firstMonoNs >= 0 ? std::max<qint64>(0, nowNs - m_firstMonoNs) / 1'000'000 : 0);
    const QList<KeyState> keys = q.snapshot(controller);
    for (const KeyState &k : keys) {
        s.depth += k.state == KeyState::State::Queued ? 1 : 0;
        s.processing += k.processing ? 1 : 0;
        s.waiting += k.waiting ? 1 : 0;
        s.rows.append(queueRowOf(k, q.now(), q.backoffMs(controller, k.key.toString())));
    }
    const RecordedQueueCounts &n = q.counts(controller);
    const double seconds = m_lastSampleNs >= 0 ? std::max<double>(0.1, double(nowNs - m_lastSampleNs) / 1e9) : 1.0;
    s.addsPerSec = double(n.adds - m_lastAdds.value(controller)) / seconds;
    s.retriesPerSec = double(n.retries - m_lastRetries.value(controller)) / seconds;
    s.causesFor = n.causesFor;
    s.causesOwns = n.causesOwns;
    s.causesRequeue = n.causesRequeue;
    return s;
}

void ReplaySession::sampleQueues(bool always)
{
    if (!m_replayer || !m_manager || !m_queueChanged)
        return;
    const RecordedQueue &q = m_replayer->queue();
    const qint64 nowNs = q.hasClock() ? nanos(q.now()) : m_firstMonoNs;
    if (!always && m_lastSampleNs >= 0 && nowNs - m_lastSampleNs < kSampleEveryNs)
        return; // the next change (or the intent's end) publishes it
    for (Controller *c : m_manager->controllers()) {
        const QueueSample s = queueSampleOf(c->name(), nowNs);
        m_lastSampleAtMs = s.atMs;
        m_lastAdds.insert(c->name(), q.counts(c->name()).adds);
        m_lastRetries.insert(c->name(), q.counts(c->name()).retries);
        Q_EMIT queueSample(c->name(), s);
    }
    m_lastSampleNs = nowNs;
    m_queueChanged = false;
}

bool ReplaySession::breaksBefore(int pos)
{
    // As Controller::breakBefore does where its queue hands a key out.
    const RecordingRecord &rs = m_recording.records().at(pos);
    Controller *c = controllerNamed(rs.json.value(QLatin1String("ctl")).toString());
    if (!c || pos == m_passAt)
        return false;
    const QueueKey key = QueueKey::fromString(rs.json.value(QLatin1String("key")).toString());
    QJsonObject object; // read only when a condition needs it
    bool objectRead = false;
    for (const Breakpoint &b : c->breakpointList()) {
        if (b.type == Breakpoint::Type::Condition && b.enabled && !objectRead) {
            objectRead = true;
            if (auto inf = m_manager->cache()->informerFor(c->forKind()); inf.ok())
                object = (*inf)->store().get(key.toString()).json();
        }
        if (!b.stopsBefore(key, c->forKind().kind, object))
            continue;
        m_passAt = pos; // the next play lets it through once
        hitBreakpoint(c, b.id, Breakpoint::typeName(b.type), key.toString());
        return true;
    }
    return false;
}

void ReplaySession::checkCallBreakpoint(const PendingCall &call)
{
    Controller *c = m_state.playing ? controllerNamed(call.controller) : nullptr;
    if (!c)
        return;
    const QueueKey key = QueueKey::fromString(m_keys.value(call.reconcileId)); // the reconcile's
    for (const Breakpoint &b : c->breakpointList()) {
        if (!b.stopsCall(key, call))
            continue;
        m_into = call.reconcileId; // stepped into from here on, as live
        hitBreakpoint(c, b.id, Breakpoint::typeName(b.type), key.toString());
        return;
    }
}

void ReplaySession::checkErrorBreakpoint(const ReconcileTrace &t)
{
    Controller *c = m_state.playing ? controllerNamed(t.controller) : nullptr;
    if (!c || (t.result != ReconcileTrace::Result::Error && t.result != ReconcileTrace::Result::TerminalError))
        return;
    int id = -1;
    for (const Breakpoint &b : c->breakpointList()) {
        if (b.type == Breakpoint::Type::Error && b.enabled) {
            id = b.id;
            break;
        }
    }
    if (id < 0 && c->breakOnError())
        id = 0; // the flag, no breakpoint of its own
    if (id >= 0)
        hitBreakpoint(c, id, QStringLiteral("error"), t.request.toString());
}

void ReplaySession::hitBreakpoint(Controller *c, int id, const QString &reason, const QString &key)
{
    m_timer->stop();
    m_state.playing = false;
    QString what = reason == QLatin1String("error") ? tr("on error") : reason;
    for (const Breakpoint &b : c->breakpointList())
        if (b.id == id)
            what = b.describe();
    m_state.breakpoint = what == QStringLiteral("key ") + key ? what : tr("%1 at %2").arg(what, key);
    c->pause(); // the debugger's panels show the controller stopped, as live
    Q_EMIT breakpointHit(c->name(), id, reason, key);
}

void ReplaySession::resumeControllers()
{
    if (m_manager)
        for (Controller *c : m_manager->controllers())
            c->resume(); // never started: nothing runs, the panels show it going on
}

} // namespace opbench::workbench
