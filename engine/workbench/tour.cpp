// SPDX-License-Identifier: Apache-2.0
#include "engine/workbench/tour.h"

namespace opbench::workbench {

namespace {

bool hasCall(const ReconcileTrace &t, const QString &verb, const QString &kind = {})
{
    for (const TraceCall &c : t.calls)
        if (c.verb == verb && (kind.isEmpty() || c.gvk.kind == kind) && c.ok())
            return true;
    return false;
}

bool causedByDeletedChild(const ReconcileTrace &t)
{
    for (const Cause &c : t.causes)
        if (c.kind == Cause::Kind::OwnerMapping && c.event == Cause::EventType::Deleted)
            return true;
    return false;
}

} // namespace

Tour::Tour(QObject *parent)
    : QObject(parent)
    , m_lessons(lessons())
{
    qRegisterMetaType<TourState>();
    m_state.count = int(m_lessons.size());
}

QList<TourLesson> Tour::lessons()
{
    return {
        {QStringLiteral("sync"), tr("The informer fills the cache"),
            tr("Watch the Cache panel and the status bar until every kind says synced."),
            tr("An informer LISTs each kind once, then WATCHes for changes; the reconciler only ever reads this local "
               "cache. People expect a read right after their own write to see it — it may not yet: the cache is "
               "eventually consistent."),
            QStringLiteral("cacheDock")},
        {QStringLiteral("follow-key"), tr("One key, from watch event to write"),
            tr("Create an app with the Children panel's form (any name, image nginx:1.25)."),
            tr("The watch event becomes a queue item (namespace/name only — never the object), a worker hands it to "
               "Reconcile, which reads the app from the cache and creates its Deployment. Reconcile gets a key, not an "
               "event: it must look at the world, not at what changed."),
            QStringLiteral("reconcilesDock")},
        {QStringLiteral("level-triggered"), tr("Level-triggered: the child comes back"),
            tr("In the Children panel, delete an app's Deployment."),
            tr("The Deployment's DELETE event is mapped to its owner (Owns), the owner is reconciled, and the "
               "Deployment "
               "is created again. The reconciler never handled \"a delete\": it compared desired with actual state."),
            QStringLiteral("childrenDock")},
        {QStringLiteral("dedup"), tr("The queue de-duplicates"),
            tr("Pause (F6), then change one app twice (kubectl edit or kubectl patch, File ▸ Write kubeconfig… gives "
               "the "
               "command); look at the Queue panel."),
            tr("Both changes wait as ONE queue item with both causes merged: a key is never queued twice. So Reconcile "
               "may run once for many events — counting reconciles to count events is a classic mistake."),
            QStringLiteral("queueDock")},
        {QStringLiteral("step"), tr("Step through one reconcile"), tr("While paused, press Step (F10)."),
            tr("Exactly one queued key is reconciled and the workers stay paused. The trace shows why it ran (its "
               "causes), what it read and what it wrote."),
            QStringLiteral("reconcilesDock")},
        {QStringLiteral("step-into"), tr("Step into the client calls"),
            tr("Press Step into (F11): the reconcile halts before each client call; Step lets one call go out."),
            tr("Reads come from the cache (instant), writes go to the API server. Each write changes the object and "
               "triggers new watch events — for your own status writes too, unless a predicate filters them."),
            QStringLiteral("reconcilesDock")},
        {QStringLiteral("backoff"), tr("Errors and backoff"),
            tr("Resume (F5), then in the Faults panel turn on API errors and create or change an app."),
            tr("A failed reconcile is requeued with exponential backoff (5 ms, 10 ms, … up to 1000 s per item, and a "
               "10 qps bucket overall). Returning an error is how you ask for a retry; looping inside Reconcile is "
               "not."),
            QStringLiteral("queueDock")},
        {QStringLiteral("relist"), tr("A dropped watch and a relist"),
            tr("Turn the API errors off, then press \"Compact history\" and \"Drop watches\" in the Faults panel."),
            tr("The reflector resumes its watch from the last resourceVersion; when that is too old (410 Gone) it "
               "LISTs "
               "everything again. Anything missed is still reconciled, because the controller is level-triggered."),
            QStringLiteral("cacheDock")},
        {QStringLiteral("time-travel"), tr("Time travel"), tr("Drag the Cache panel's history slider to the left."),
            tr("The cache is rebuilt as it was at an earlier resourceVersion from the informers' histories: what the "
               "reconciler could have seen then."),
            QStringLiteral("cacheDock")},
        {QStringLiteral("hand-off"), tr("Leader election and hand-off"),
            tr("Hand off (Ctrl+H) to the headless build, then Take back."),
            tr("Only the Lease holder reconciles; the others wait with warm caches. A leader that cannot renew within "
               "the renew deadline must stop at once, or two replicas write at the same time."),
            QStringLiteral("leadershipDock")},
    };
}

void Tour::start(int index)
{
    m_state.finished = false;
    enter(qBound(0, index, int(m_lessons.size()) - 1));
}

void Tour::next()
{
    if (m_state.index < 0)
        return;
    if (m_state.index + 1 >= m_lessons.size()) {
        m_state.finished = true;
        Q_EMIT stateChanged(m_state);
        return;
    }
    enter(m_state.index + 1);
}

void Tour::back()
{
    if (m_state.index > 0)
        enter(m_state.index - 1);
}

void Tour::stop()
{
    m_state.index = -1;
    m_state.lesson = {};
    m_state.done = false;
    Q_EMIT stateChanged(m_state);
}

void Tour::enter(int index)
{
    m_state.index = index;
    m_state.lesson = m_lessons.at(index);
    m_state.done = m_state.completed.contains(m_state.lesson.id);
    m_sawHandedOff = false;
    m_sawBackoff = false;
    m_syncRvAtStart.clear();
    Q_EMIT stateChanged(m_state);
}

void Tour::complete()
{
    if (m_state.index < 0 || m_state.done)
        return;
    m_state.done = true;
    if (!m_state.completed.contains(currentId()))
        m_state.completed.append(currentId());
    Q_EMIT stateChanged(m_state);
}

void Tour::observeCache(const CacheBatch &batch)
{
    if (m_state.index < 0 || batch.informers.isEmpty())
        return;
    if (currentId() == u"sync") {
        bool all = true;
        for (const InformerState &s : batch.informers)
            all = all && s.synced;
        if (all)
            complete();
    } else if (currentId() == u"relist") {
        for (const InformerState &s : batch.informers) {
            auto it = m_syncRvAtStart.find(s.kind);
            if (it == m_syncRvAtStart.end())
                m_syncRvAtStart.insert(s.kind, s.lastSyncRv);
            else if (!s.lastSyncRv.isEmpty() && s.lastSyncRv != *it)
                complete(); // a new LIST: the informer relisted
        }
    }
}

void Tour::observeTraces(const QList<ReconcileTrace> &traces)
{
    if (m_state.index < 0)
        return;
    for (const ReconcileTrace &t : traces) {
        if (currentId() == u"follow-key" && hasCall(t, QStringLiteral("create")))
            complete();
        else if (currentId() == u"level-triggered" && causedByDeletedChild(t) && hasCall(t, QStringLiteral("create")))
            complete();
        else if (currentId() == u"step" && m_paused)
            complete();
        else if (currentId() == u"backoff" && t.result == ReconcileTrace::Result::Error && t.retries >= 1)
            m_sawBackoff = true;
    }
    if (m_sawBackoff && currentId() == u"backoff")
        complete();
}

void Tour::observeControl(const ControlState &state)
{
    m_paused = state.paused;
    if (m_state.index >= 0 && currentId() == u"step-into" && !state.pendingCalls.isEmpty())
        complete();
}

void Tour::observeQueue(const QueueSample &sample)
{
    if (m_state.index < 0 || currentId() != u"dedup" || !m_paused)
        return;
    for (const QueueRow &r : sample.rows) {
        int changes = 0;
        for (const QString &c : r.causes)
            changes += c.startsWith(QLatin1String("watch")) ? 1 : 0;
        if (changes >= 2) {
            complete();
            return;
        }
    }
}

void Tour::observeLeadership(const LeadershipState &state)
{
    if (m_state.index < 0 || currentId() != u"hand-off")
        return;
    if (state.role == LeadershipState::Role::HandedOff)
        m_sawHandedOff = true;
    else if (m_sawHandedOff && state.role == LeadershipState::Role::Leader)
        complete();
}

void Tour::observeTimeTravel(const CachePast &past)
{
    if (m_state.index >= 0 && currentId() == u"time-travel" && past.error.isEmpty())
        complete();
}

} // namespace opbench::workbench
