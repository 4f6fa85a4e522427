// SPDX-License-Identifier: Apache-2.0
#include "engine/recording/recordedqueue.h"

#include "engine/recording/recordingformat.h"

#include <algorithm>

namespace opbench {

namespace {

QString str(const QJsonObject &o, const char *key) { return o.value(QLatin1String(key)).toString(); }

KeyState::State stateOf(const KeyState &k)
{
    if (k.processing) // added again meanwhile: held until it ends
        return k.requeued || k.queued || k.waiting ? KeyState::State::Held : KeyState::State::Processing;
    if (k.queued)
        return KeyState::State::Queued;
    return k.waiting ? KeyState::State::Waiting : KeyState::State::Idle;
}

void countOrigin(RecordedQueueCounts &n, const Cause &c)
{
    ++n.adds;
    switch (c.kind) {
    case Cause::Kind::WatchEvent:
    case Cause::Kind::InitialList:
        ++n.causesFor;
        break;
    case Cause::Kind::OwnerMapping:
        ++n.causesOwns;
        break;
    case Cause::Kind::RateLimitedRetry:
        ++n.retries;
        ++n.causesRequeue;
        break;
    default:
        ++n.causesRequeue;
        break;
    }
}

} // namespace

RecordedQueue::RecordedQueue(int maxCausesPerKey)
    : m_limit(maxCausesPerKey)
{ }

void RecordedQueue::clockFrom(const QJsonObject &rec)
{
    const QJsonValue mono = rec.value(QLatin1String("mono"));
    if (!mono.isDouble())
        return;
    const Clock::TimePoint t{std::chrono::nanoseconds(qint64(mono.toDouble()))};
    if (!m_hasClock || t > m_now)
        m_now = t;
    m_hasClock = true;
}

RecordedQueue::Entry &RecordedQueue::entry(const QJsonObject &rec)
{
    const QString ctl = str(rec, "ctl");
    if (!m_queues.contains(ctl))
        m_order.append(ctl);
    Queue &q = m_queues[ctl];
    fireDue(q);
    const QString key = str(rec, "key");
    auto it = q.keys.find(key);
    if (it == q.keys.end()) {
        it = q.keys.insert(key, Entry());
        it->state.key = QueueKey::fromString(key);
        it->order = ++m_arrivals;
    }
    return *it;
}

void RecordedQueue::queueNow(KeyState &k)
{
    if (k.processing) {
        k.requeued = true; // held: queued again when its reconcile ends
        return;
    }
    if (!k.queued)
        k.queuedAt = m_now;
    k.queued = true;
}

void RecordedQueue::fireDue(Queue &q)
{
    for (Entry &e : q.keys) {
        KeyState &k = e.state;
        if (!k.waiting || k.readyAt > m_now)
            continue;
        k.waiting = false;
        k.causes.mergeAll(std::move(k.delayedCauses), m_limit);
        queueNow(k);
    }
}

void RecordedQueue::add(const QJsonObject &qa)
{
    clockFrom(qa);
    Entry &e = entry(qa);
    KeyState &k = e.state;
    Cause cause = recording::causeFromText(str(qa, "cause"));
    cause.at = m_now;
    countOrigin(m_queues[str(qa, "ctl")].counts, cause);
    k.priority = std::max(k.priority, qa.value(QLatin1String("prio")).toInt());
    const qint64 afterMs = qint64(qa.value(QLatin1String("afterMs")).toDouble());
    if (qa.value(QLatin1String("rl")).toBool()) { // the limiter's count, as the queue keeps it
        k.retries = cause.kind == Cause::Kind::RateLimitedRetry && cause.attempt > 0 ? cause.attempt : k.retries + 1;
        e.backoffMs = afterMs;
    }
    if (isPriority(str(qa, "ctl"))) {
        // One entry per key: every cause joins it; the earlier ready time wins.
        k.causes.merge(std::move(cause), m_limit);
        const Clock::TimePoint ready = m_now + std::chrono::milliseconds(std::max<qint64>(0, afterMs));
        if (afterMs <= 0) {
            k.waiting = false;
            k.queued = true;
            k.queuedAt = m_now;
        } else if (!k.queued && (!k.waiting || ready < k.readyAt)) {
            k.waiting = true;
            k.readyAt = ready;
        }
    } else if (afterMs <= 0) {
        k.causes.merge(std::move(cause), m_limit);
        queueNow(k);
    } else {
        const Clock::TimePoint ready = m_now + std::chrono::milliseconds(afterMs);
        if (!k.waiting || ready < k.readyAt)
            k.readyAt = ready; // a pending delayed add keeps the earlier time
        k.waiting = true;
        k.delayedCauses.merge(std::move(cause), m_limit);
    }
    k.state = stateOf(k);
}

Item RecordedQueue::take(const QJsonObject &rs)
{
    clockFrom(rs);
    KeyState &k = entry(rs).state;
    if (!k.queued && k.causes.isEmpty() && k.waiting) { // handed out: it was ready (the recorded clock lags)
        k.waiting = false;
        k.causes.mergeAll(std::move(k.delayedCauses), m_limit);
    }
    Item item;
    item.key = k.key;
    item.causes = std::move(k.causes);
    item.priority = k.priority;
    item.retries = k.retries;
    item.queuedAt = k.queuedAt;
    k.causes = CauseList();
    k.queued = false;
    k.requeued = false;
    if (isPriority(str(rs, "ctl")))
        k.waiting = false; // its one entry went out
    k.processing = true;
    k.startedAt = m_now;
    k.state = stateOf(k);
    return item;
}

void RecordedQueue::finish(const QJsonObject &re)
{
    clockFrom(re);
    Entry &e = entry(re);
    KeyState &k = e.state;
    k.processing = false;
    if (k.requeued) {
        k.requeued = false;
        queueNow(k);
    }
    const QString result = str(re, "result");
    if (result == QLatin1String("success") || result == QLatin1String("requeue_after")) {
        k.retries = 0; // the controller forgets the key's failures
        e.backoffMs = -1;
    }
    k.state = stateOf(k);
    dropIfIdle(m_queues[str(re, "ctl")], str(re, "key"));
}

void RecordedQueue::dropIfIdle(Queue &q, const QString &key)
{
    const auto it = q.keys.find(key);
    if (it != q.keys.end() && !it->state.queued && !it->state.processing && !it->state.waiting
        && it->state.retries == 0)
        q.keys.erase(it);
}

QList<KeyState> RecordedQueue::snapshot(const QString &controller) const
{
    QList<KeyState> out;
    const auto it = m_queues.constFind(controller);
    if (it == m_queues.constEnd())
        return out;
    QList<const Entry *> entries;
    for (const Entry &e : it->keys)
        entries.append(&e);
    std::sort(entries.begin(), entries.end(), [](const Entry *a, const Entry *b) { return a->order < b->order; });
    for (const Entry *entry : std::as_const(entries)) {
        const Entry &e = *entry;
        KeyState k = e.state;
        if (k.waiting && k.readyAt <= m_now) { // due: as the next add or hand-out will find it
            k.waiting = false;
            k.causes.mergeAll(CauseList(k.delayedCauses), m_limit);
            k.delayedCauses = CauseList();
            k.requeued = k.requeued || k.processing;
            k.queued = k.queued || !k.processing;
        }
        k.state = stateOf(k);
        if (k.state != KeyState::State::Idle)
            out.append(std::move(k));
    }
    return out;
}

int RecordedQueue::len(const QString &controller) const
{
    int n = 0;
    for (const KeyState &k : snapshot(controller))
        n += k.state == KeyState::State::Queued ? 1 : 0;
    return n;
}

int RecordedQueue::processingCount(const QString &controller) const
{
    int n = 0;
    for (const KeyState &k : snapshot(controller))
        n += k.processing ? 1 : 0;
    return n;
}

int RecordedQueue::waitingCount(const QString &controller) const
{
    int n = 0;
    for (const KeyState &k : snapshot(controller))
        n += k.waiting ? 1 : 0;
    return n;
}

qint64 RecordedQueue::backoffMs(const QString &controller, const QString &key) const
{
    const auto it = m_queues.constFind(controller);
    if (it == m_queues.constEnd())
        return -1;
    const auto e = it->keys.constFind(key);
    return e == it->keys.constEnd() ? -1 : e->backoffMs;
}

const RecordedQueueCounts &RecordedQueue::counts(const QString &controller) const
{
    static const RecordedQueueCounts kNone;
    const auto it = m_queues.constFind(controller);
    return it == m_queues.constEnd() ? kNone : it->counts;
}

} // namespace opbench
