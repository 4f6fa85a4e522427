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

/// A write that went through: what "one key, from event to write" waits for on any operator.
bool hasWrite(const ReconcileTrace &t)
{
    for (const TraceCall &c : t.calls)
        if (c.ok() && c.verb != u"get" && c.verb != u"list")
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

bool hasConflict(const ReconcileTrace &t)
{
    for (const TraceCall &c : t.calls)
        if (c.code == 409)
            return true;
    return false;
}

int relists(const QList<InformerState> &informers)
{
    int n = 0;
    for (const InformerState &s : informers)
        n += s.relists;
    return n;
}

/// `request` with {name} replaced by `name`.
TourRequest resolved(TourRequest request, const QString &name)
{
    const QString placeholder = QStringLiteral("{name}");
    request.name.replace(placeholder, name);
    request.command.replace(placeholder, name);
    return request;
}

/// `lesson` with {name} replaced by the app the tour follows.
TourLesson resolved(TourLesson lesson, const QString &name)
{
    const QString placeholder = QStringLiteral("{name}");
    lesson.task.replace(placeholder, name);
    lesson.lesson.replace(placeholder, name);
    lesson.action.replace(placeholder, name);
    lesson.fault.replace(placeholder, name);
    lesson.request = resolved(lesson.request, name);
    lesson.thenAction.replace(placeholder, name);
    lesson.thenRequest = resolved(lesson.thenRequest, name);
    return lesson;
}

/// The request an admission call was about: "CREATE default/web".
QString requestOf(const apiserver::WebhookCallRecord &call)
{
    return call.operation + u' ' + call.namespaceName + u'/' + call.name;
}

bool allSynced(const QList<InformerState> &informers)
{
    if (informers.isEmpty())
        return false;
    for (const InformerState &s : informers)
        if (!s.synced)
            return false;
    return true;
}

} // namespace

Tour::Tour(TourSubject subject, QObject *parent)
    : QObject(parent)
    , m_subject(std::move(subject))
    , m_lessons(lessons(m_subject))
{
    qRegisterMetaType<TourState>();
    m_state.count = int(m_lessons.size());
}

void Tour::setSubject(TourSubject subject)
{
    m_subject = std::move(subject);
    m_lessons = lessons(m_subject);
    m_state.count = int(m_lessons.size());
    if (m_state.index >= 0)
        enter(qMin(m_state.index, int(m_lessons.size()) - 1));
    else
        Q_EMIT stateChanged(m_state);
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
    m_state.lesson = resolved(m_lessons.at(index), m_appName);
    m_state.done = m_state.completed.contains(m_state.lesson.id);
    m_sawHandedOff = false;
    m_conflicted.clear();
    m_sawDenial = false;
    m_sawPatchAdmitted = false;
    m_patched.clear();
    m_relistsAtStart = m_informers.isEmpty() ? -1 : relists(m_informers);
    Q_EMIT stateChanged(m_state);
    // The cache may have synced long before the lesson began: no new batch would say so.
    if (currentId() == u"sync" && !m_state.done && allSynced(m_informers))
        complete();
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
    if (batch.informers.isEmpty())
        return;
    m_informers = batch.informers;
    if (m_state.index < 0)
        return;
    if (currentId() == u"sync") {
        if (allSynced(batch.informers))
            complete();
    } else if (currentId() == u"relist") {
        if (m_relistsAtStart < 0)
            m_relistsAtStart = relists(batch.informers);
        else if (relists(batch.informers) > m_relistsAtStart)
            complete(); // a new LIST: the informer relisted
    }
}

void Tour::observeTraces(const QList<ReconcileTrace> &traces)
{
    for (const ReconcileTrace &t : traces) // the app lesson 2 created: the faults' target
        if (m_subject.sampleOperator && hasCall(t, QStringLiteral("create"), QStringLiteral("Deployment")))
            m_appName = t.request.name;
    if (m_state.index < 0)
        return;
    for (const ReconcileTrace &t : traces) {
        const bool followed = currentId() == u"follow-key"
            && (m_subject.sampleOperator ? hasCall(t, QStringLiteral("create")) : hasWrite(t));
        const bool recreated
            = currentId() == u"level-triggered" && causedByDeletedChild(t) && hasCall(t, QStringLiteral("create"));
        const bool stepped = currentId() == u"step" && m_paused;
        // A failed reconcile handed out again after its backoff, and failing again.
        const bool backedOff = currentId() == u"backoff" && t.result == ReconcileTrace::Result::Error && t.retries >= 1;
        // The 409, the requeue, then the retry of the same key that succeeds.
        const bool absorbed = currentId() == u"conflict" && !m_conflicted.isEmpty()
            && t.request.toString() == m_conflicted && t.result == ReconcileTrace::Result::Success;
        if (followed || recreated || stepped || backedOff || absorbed)
            complete();
        else if (currentId() == u"conflict" && hasConflict(t) && t.result == ReconcileTrace::Result::Requeue)
            m_conflicted = t.request.toString();
    }
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

void Tour::observeAdmission(const AdmissionSnapshot &snapshot)
{
    // Each snapshot holds the whole ring: only the calls not seen before are new, and only the
    // ones made while the lesson runs count (those before were seen, whatever the lesson).
    const bool watching = m_state.index >= 0 && (currentId() == u"admission" || currentId() == u"conversion");
    for (const WebhookCall &c : snapshot.calls) {
        if (c.seq > m_webhookCallsSeen && watching && !c.record.failed() && c.record.objectKind == m_subject.kind)
            observeWebhookCall(c.record);
    }
    m_webhookCallsSeen = qMax(m_webhookCallsSeen, snapshot.total);
}

void Tour::observeWebhookCall(const apiserver::WebhookCallRecord &call)
{
    using Kind = apiserver::WebhookCallRecord::Kind;
    if (currentId() == u"conversion") {
        // A read at the spoke version: the stored (hub) object converted by the webhook.
        if (call.kind == Kind::Conversion && call.allowed && call.version == u"v1beta1")
            complete();
        return;
    }
    if (call.kind != Kind::Admission)
        return;
    if (call.mutating) {
        if (call.allowed && !call.patch.isEmpty())
            m_patched.insert(requestOf(call));
    } else if (!call.allowed && !m_sawDenial) {
        m_sawDenial = true; // the button now creates an app that passes
        if (!m_state.lesson.thenAction.isEmpty()) {
            m_state.lesson.action = m_state.lesson.thenAction;
            m_state.lesson.request = m_state.lesson.thenRequest;
            m_state.lesson.thenAction.clear();
            m_state.lesson.thenRequest = {};
            Q_EMIT stateChanged(m_state);
        }
    } else if (call.allowed && m_patched.contains(requestOf(call))) {
        m_sawPatchAdmitted = true; // defaulted by the mutating webhook, then let through
    }
    if (m_sawDenial && m_sawPatchAdmitted)
        complete();
}

} // namespace opbench::workbench
