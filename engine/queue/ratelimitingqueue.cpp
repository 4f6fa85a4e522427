// SPDX-License-Identifier: Apache-2.0
#include "engine/queue/ratelimitingqueue.h"

#include "engine/queue/keystates_p.h"

#include <algorithm>

namespace opbench {

RateLimitingQueue::RateLimitingQueue(WorkQueueOptions options, QObject *parent)
    : WorkQueue(options, defaultControllerRateLimiter(options.clock), parent)
    , m_delayWake(m_clock, this, [this] { fireDue(); })
    , m_metricsWake(m_clock, this, [this] { refreshUnfinishedWork(); })
    , m_metrics(m_registry, m_name, false)
{ }

RateLimitingQueue::~RateLimitingQueue() = default;

Cause RateLimitingQueue::stamped(Cause c, Clock::TimePoint now) const
{
    if (c.at == Cause::Unstamped)
        c.at = now;
    return c;
}

void RateLimitingQueue::add(const QueueKey &key, Cause cause)
{
    if (m_shutDown)
        return;
    notifyAdded(key, cause, {});
    addInternal(key, std::move(cause), m_clock->now());
}

void RateLimitingQueue::addInternal(const QueueKey &key, Cause &&cause, Clock::TimePoint now)
{
    const quint32 id = m_keys.intern(key);
    Entry &e = m_keys[id];
    m_keys.unpark(e);
    e.causes.merge(stamped(std::move(cause), now), m_maxCauses);
    if (!e.dirty)
        markReady(id, now);
    finishOperation(id);
}

void RateLimitingQueue::markReady(quint32 id, Clock::TimePoint now)
{
    Entry &e = m_keys[id];
    e.dirty = true;
    e.queuedAt = now;
    m_metrics.added(0);
    if (!e.processing)
        pushFifo(id);
}

void RateLimitingQueue::pushFifo(quint32 id)
{
    Entry &e = m_keys[id];
    e.fifoSeq = ++m_seq;
    m_fifo.push_back({id, e.fifoSeq});
    if (m_queued++ == 0)
        m_becameAvailable = true;
}

void RateLimitingQueue::addAfter(const QueueKey &key, Clock::Duration delay, Cause cause)
{
    addAfterInternal(key, delay, std::move(cause), -1);
}

void RateLimitingQueue::addAfterInternal(const QueueKey &key, Clock::Duration delay, Cause &&cause, int retries)
{
    if (m_shutDown)
        return;
    notifyAdded(key, cause, QueueAddInfo{std::max(delay, Clock::Duration::zero()), retries >= 0, 0});
    m_metrics.retried(); // client-go counts every AddAfter, even a zero delay
    const Clock::TimePoint now = m_clock->now();
    if (delay <= Clock::Duration::zero()) {
        if (retries >= 0)
            m_keys[m_keys.intern(key)].retries = retries;
        addInternal(key, std::move(cause), now);
        return;
    }
    const quint32 id = m_keys.intern(key);
    Entry &e = m_keys[id];
    m_keys.unpark(e);
    if (retries >= 0)
        e.retries = retries;
    e.delayedCauses.merge(stamped(std::move(cause), now), m_maxCauses);
    const Clock::TimePoint at = now + delay;
    if (!e.waiting || at < e.readyAt) { // a duplicate keeps the earlier time
        if (!e.waiting)
            ++m_waiting;
        e.waiting = true;
        e.readyAt = at;
        e.waitSeq = ++m_seq;
        m_delays.push({at, e.waitSeq, id});
        m_delayWake.armAt(at);
    }
    finishOperation(id);
}

void RateLimitingQueue::addRateLimited(const QueueKey &key, Cause cause)
{
    addWithOpts(key, AddOpts{.rateLimited = true}, std::move(cause));
}

void RateLimitingQueue::addWithOpts(const QueueKey &key, const AddOpts &opts, Cause cause)
{
    if (!opts.rateLimited) {
        if (opts.after > Clock::Duration::zero())
            addAfterInternal(key, opts.after, std::move(cause), -1);
        else
            add(key, std::move(cause));
        return;
    }
    Clock::Duration delay = m_limiter->when(key); // called even when shut down, like client-go
    if (opts.after > Clock::Duration::zero() && opts.after < delay)
        delay = opts.after;
    if (m_shutDown)
        return;
    const int retries = m_limiter->numRequeues(key);
    if (cause.kind == Cause::Kind::RateLimitedRetry) {
        if (cause.attempt == 0)
            cause.attempt = retries;
        cause.delay = delay;
    }
    addAfterInternal(key, delay, std::move(cause), retries);
}

std::optional<Item> RateLimitingQueue::tryGet()
{
    while (!m_fifo.empty()) {
        const FifoNode node = m_fifo.front();
        m_fifo.pop_front();
        if (m_keys[node.id].fifoSeq != node.seq)
            continue; // handed out ahead of its turn by tryGetKey()
        Item item = handOut(node.id);
        finishOperation(node.id);
        return item;
    }
    return std::nullopt;
}

std::optional<Item> RateLimitingQueue::tryGetKey(const QueueKey &key)
{
    const quint32 id = m_keys.find(key);
    if (id == detail::KeyTable<Entry>::NoId || m_keys[id].fifoSeq == 0)
        return std::nullopt;
    Item item = handOut(id); // its FIFO node goes stale
    finishOperation(id);
    return item;
}

std::optional<QueueKey> RateLimitingQueue::peek() const
{
    for (const FifoNode &node : m_fifo) {
        if (m_keys[node.id].fifoSeq == node.seq)
            return m_keys[node.id].key;
    }
    return std::nullopt;
}

Item RateLimitingQueue::handOut(quint32 id)
{
    Entry &e = m_keys[id];
    const Clock::TimePoint now = m_clock->now();
    e.fifoSeq = 0;
    --m_queued;
    e.dirty = false;
    e.processing = true;
    ++m_processing;
    e.startedAt = now;
    m_metrics.handedOut(0, now - e.queuedAt);
    if (m_metrics.enabled() && !m_metricsWake.armed())
        m_metricsWake.armAt(now + QueueMetrics::UnfinishedWorkPeriod);
    return Item{e.key, std::move(e.causes), 0, e.retries, e.queuedAt}; // leaves e.causes empty
}

void RateLimitingQueue::done(const QueueKey &key)
{
    const quint32 id = m_keys.find(key);
    if (id == detail::KeyTable<Entry>::NoId || !m_keys[id].processing)
        return;
    Entry &e = m_keys[id];
    m_metrics.finished(m_clock->now() - e.startedAt);
    e.processing = false;
    --m_processing;
    if (e.dirty)
        pushFifo(id); // re-added while processing: back at the tail
    else if (idle(e))
        m_keys.park(id);
    const bool drainedNow = m_draining && m_processing == 0;
    if (drainedNow)
        m_draining = false;
    finishOperation(id);
    if (drainedNow)
        Q_EMIT drained();
}

void RateLimitingQueue::forget(const QueueKey &key)
{
    m_limiter->forget(key);
    const quint32 id = m_keys.find(key);
    if (id == detail::KeyTable<Entry>::NoId)
        return;
    Entry &e = m_keys[id];
    if (e.retries == 0)
        return;
    e.retries = 0;
    if (idle(e))
        m_keys.park(id);
    finishOperation(id);
}

void RateLimitingQueue::fireDue()
{
    const Clock::TimePoint now = m_clock->now();
    while (!m_delays.empty() && m_delays.top().at <= now) {
        const detail::DelayHeap::Node node = m_delays.top();
        m_delays.pop();
        Entry &e = m_keys[node.id];
        if (!e.live || !e.waiting || e.waitSeq != node.seq)
            continue; // superseded by an earlier deadline, or discarded
        e.waiting = false;
        --m_waiting;
        e.causes.mergeAll(std::move(e.delayedCauses), m_maxCauses);
        if (!e.dirty)
            markReady(node.id, now);
        if (hasListeners())
            notifyChanged(stateOf(e));
    }
    if (!m_delays.empty())
        m_delayWake.armAt(m_delays.top().at);
    finishOperation(detail::KeyTable<Entry>::NoId);
}

void RateLimitingQueue::refreshUnfinishedWork()
{
    const Clock::TimePoint now = m_clock->now();
    Clock::Duration total{0};
    Clock::Duration longest{0};
    for (quint32 id = 0; id < m_keys.capacity() && m_processing > 0; ++id) {
        const Entry &e = m_keys[id];
        if (e.live && e.processing) {
            const Clock::Duration age = now - e.startedAt;
            total += age;
            longest = std::max(longest, age);
        }
    }
    m_metrics.setUnfinished(total, longest);
    if (m_processing > 0)
        m_metricsWake.armAt(now + QueueMetrics::UnfinishedWorkPeriod);
}

void RateLimitingQueue::discardWaiting()
{
    while (!m_delays.empty()) {
        const detail::DelayHeap::Node node = m_delays.top();
        m_delays.pop();
        Entry &e = m_keys[node.id];
        if (!e.live || !e.waiting || e.waitSeq != node.seq)
            continue;
        e.waiting = false;
        e.delayedCauses.clear();
        if (idle(e))
            m_keys.park(node.id);
        if (hasListeners())
            idle(e) ? notifyRemoved(e.key) : notifyChanged(stateOf(e));
    }
    m_waiting = 0;
    m_delayWake.cancel();
}

void RateLimitingQueue::shutDown()
{
    if (m_shutDown) {
        if (m_draining) { // cuts a shutDownWithDrain() wait short
            m_draining = false;
            Q_EMIT drained();
        }
        return;
    }
    m_shutDown = true;
    discardWaiting();
    finishOperation(detail::KeyTable<Entry>::NoId);
    Q_EMIT shutDownStarted();
}

void RateLimitingQueue::shutDownWithDrain()
{
    const bool first = !m_shutDown;
    if (first) {
        m_shutDown = true;
        discardWaiting();
        finishOperation(detail::KeyTable<Entry>::NoId);
    }
    m_draining = true;
    if (first)
        Q_EMIT shutDownStarted(); // consumers may drain (and trigger drained()) right here
    if (m_draining && m_processing == 0) {
        m_draining = false;
        Q_EMIT drained();
    }
}

void RateLimitingQueue::finishOperation(quint32 id)
{
    if (hasListeners() && id != detail::KeyTable<Entry>::NoId) {
        const Entry &e = m_keys[id];
        e.parked ? notifyRemoved(e.key) : notifyChanged(stateOf(e));
    }
    m_keys.sweep();
    if (m_becameAvailable) {
        m_becameAvailable = false;
        Q_EMIT itemsAvailable();
    }
}

KeyState RateLimitingQueue::stateOf(const Entry &e) const
{
    KeyState s;
    s.key = e.key;
    s.queued = e.fifoSeq != 0;
    s.processing = e.processing;
    s.requeued = e.processing && e.dirty;
    s.waiting = e.waiting;
    s.readyAt = e.waiting ? e.readyAt : Clock::TimePoint{};
    s.retries = e.retries;
    s.queuedAt = e.dirty ? e.queuedAt : Clock::TimePoint{};
    s.startedAt = e.processing ? e.startedAt : Clock::TimePoint{};
    s.causes = e.causes;
    s.delayedCauses = e.delayedCauses;
    s.state = s.requeued ? KeyState::State::Held
        : s.processing   ? KeyState::State::Processing
        : s.queued       ? KeyState::State::Queued
        : s.waiting      ? KeyState::State::Waiting
                         : KeyState::State::Idle;
    return s;
}

std::vector<KeyState> RateLimitingQueue::snapshot() const
{
    return detail::snapshotKeys(m_keys, [this](const Entry &e) { return stateOf(e); });
}

KeyState RateLimitingQueue::state(const QueueKey &key) const
{
    return detail::keyState(m_keys, key, [this](const Entry &e) { return stateOf(e); });
}

} // namespace opbench
