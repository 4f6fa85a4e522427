// SPDX-License-Identifier: Apache-2.0
#include "engine/queue/priorityqueue.h"

#include "engine/queue/keystates_p.h"

#include <algorithm>

namespace opbench {

namespace {
constexpr quint32 NoId = 0xffffffffu;

// std::*_heap build a max-heap: "less" means "goes out later".
struct LaterOrder
{
    template<typename N> bool operator()(const N &a, const N &b) const { return a.order > b.order; }
};
} // namespace

PriorityQueue::PriorityQueue(WorkQueueOptions options, QObject *parent)
    : WorkQueue(options, defaultPriorityQueueRateLimiter(), parent)
    , m_delayWake(m_clock, this, [this] { fireDue(); })
    , m_metricsWake(m_clock, this, [this] { refreshUnfinishedWork(); })
    , m_metrics(m_registry, m_name, true)
{ }

PriorityQueue::~PriorityQueue() = default;

void PriorityQueue::add(const QueueKey &key, Cause cause) { addWithOpts(key, AddOpts{}, std::move(cause)); }

void PriorityQueue::addAfter(const QueueKey &key, Clock::Duration delay, Cause cause)
{
    addWithOpts(key, AddOpts{.after = delay}, std::move(cause));
}

void PriorityQueue::addRateLimited(const QueueKey &key, Cause cause)
{
    addWithOpts(key, AddOpts{.rateLimited = true}, std::move(cause));
}

void PriorityQueue::addWithOpts(const QueueKey &key, const AddOpts &opts, Cause cause)
{
    if (m_shutDown)
        return;
    const Clock::TimePoint now = m_clock->now();
    Clock::Duration after = opts.after;
    int retries = -1;
    if (opts.rateLimited) {
        const Clock::Duration limited = m_limiter->when(key);
        if (after <= Clock::Duration::zero() || limited < after)
            after = limited;
        retries = m_limiter->numRequeues(key);
        if (cause.kind == Cause::Kind::RateLimitedRetry) {
            if (cause.attempt == 0)
                cause.attempt = retries;
            cause.delay = after;
        }
    }
    const bool delayed = after > Clock::Duration::zero();
    notifyAdded(key, cause, QueueAddInfo{delayed ? after : Clock::Duration::zero(), opts.rateLimited, opts.priority});
    if (delayed)
        m_metrics.retried(); // controller-runtime counts delays > 0 only
    if (cause.at == Cause::Unstamped)
        cause.at = now;

    const quint32 id = m_keys.intern(key);
    Entry &e = m_keys[id];
    m_keys.unpark(e);
    if (retries >= 0)
        e.retries = retries;
    e.causes.merge(std::move(cause), m_maxCauses);
    if (!e.pending) {
        e.pending = true;
        e.priority = opts.priority;
        e.order = ++m_seq; // controller-runtime's AddedCounter: taken when the key is added
        if (delayed) {
            ++m_waiting;
            waitUntil(id, now + after);
        } else {
            becomeReady(id, now, false);
        }
    } else {
        mergeIntoPending(id, opts.priority, delayed ? now + after : now, delayed, now);
    }
    finishOperation(id);
}

void PriorityQueue::mergeIntoPending(
    quint32 id, int priority, Clock::TimePoint readyAt, bool delayed, Clock::TimePoint now)
{
    Entry &e = m_keys[id];
    if (priority > e.priority) { // the higher priority wins, last within its new level
        if (e.ready)
            m_metrics.priorityChanged(e.priority, priority);
        e.priority = priority;
        e.order = ++m_seq;
        if (e.ready && !e.locked)
            pushLevel(id);
    }
    if (e.ready)
        return;
    if (!delayed) { // the earlier ready time wins; the key keeps its turn from when it was added
        --m_waiting;
        becomeReady(id, now, false);
    } else if (readyAt < e.readyAt) {
        waitUntil(id, readyAt);
    }
}

void PriorityQueue::waitUntil(quint32 id, Clock::TimePoint at)
{
    Entry &e = m_keys[id];
    e.readyAt = at;
    e.waitSeq = ++m_seq;
    m_delays.push({at, e.waitSeq, id});
    m_delayWake.armAt(at);
}

void PriorityQueue::becomeReady(quint32 id, Clock::TimePoint now, bool newTurn)
{
    Entry &e = m_keys[id];
    e.ready = true;
    e.waitSeq = 0;
    e.queuedAt = now;
    if (newTurn) // moved by the wait loop: a new turn, as controller-runtime bumps AddedCounter
        e.order = ++m_seq;
    ++m_ready;
    m_metrics.added(e.priority);
    if (!e.locked)
        makeAvailable(id);
}

void PriorityQueue::pushLevel(quint32 id)
{
    const Entry &e = m_keys[id];
    auto it = std::find_if(m_levels.begin(), m_levels.end(), [&](const Level &l) { return l.priority <= e.priority; });
    if (it == m_levels.end() || it->priority != e.priority)
        it = m_levels.insert(it, Level{e.priority, {}});
    it->push({e.order, id});
}

void PriorityQueue::Level::push(LevelNode n)
{
    if (fifo.empty() || fifo.back().order < n.order) {
        fifo.push_back(n);
    } else {
        late.push_back(n);
        std::push_heap(late.begin(), late.end(), LaterOrder());
    }
}

const PriorityQueue::LevelNode &PriorityQueue::Level::front() const
{
    if (late.empty())
        return fifo.front();
    if (fifo.empty())
        return late.front();
    return late.front().order < fifo.front().order ? late.front() : fifo.front();
}

void PriorityQueue::Level::pop()
{
    if (!late.empty() && (fifo.empty() || late.front().order < fifo.front().order)) {
        std::pop_heap(late.begin(), late.end(), LaterOrder());
        late.pop_back();
    } else {
        fifo.pop_front();
    }
}

void PriorityQueue::makeAvailable(quint32 id)
{
    pushLevel(id);
    if (m_available++ == 0)
        m_becameAvailable = true;
}

bool PriorityQueue::nodeValid(const LevelNode &n) const
{
    const Entry &e = m_keys[n.id];
    return e.live && e.pending && e.ready && !e.locked && e.order == n.order;
}

std::optional<Item> PriorityQueue::tryGet()
{
    if (m_shutDown)
        return std::nullopt;
    while (!m_levels.empty()) {
        Level &level = m_levels.front();
        if (level.empty()) {
            m_levels.erase(m_levels.begin());
            continue;
        }
        const LevelNode node = level.front();
        level.pop();
        if (!nodeValid(node) || m_keys[node.id].priority != level.priority)
            continue;
        Item item = handOut(node.id);
        finishOperation(node.id);
        return item;
    }
    return std::nullopt;
}

std::optional<Item> PriorityQueue::tryGetKey(const QueueKey &key)
{
    const quint32 id = m_keys.find(key);
    if (m_shutDown || id == NoId)
        return std::nullopt;
    const Entry &e = m_keys[id];
    if (!e.pending || !e.ready || e.locked)
        return std::nullopt;
    Item item = handOut(id); // its level node goes stale
    finishOperation(id);
    return item;
}

std::optional<QueueKey> PriorityQueue::peek() const
{
    if (m_shutDown)
        return std::nullopt;
    for (Level &level : m_levels) {
        while (!level.empty()) {
            const LevelNode &top = level.front();
            if (nodeValid(top) && m_keys[top.id].priority == level.priority)
                return m_keys[top.id].key;
            level.pop(); // stale: dropping it changes nothing observable
        }
    }
    return std::nullopt;
}

Item PriorityQueue::handOut(quint32 id)
{
    Entry &e = m_keys[id];
    const Clock::TimePoint now = m_clock->now();
    e.pending = false;
    e.ready = false;
    e.locked = true;
    --m_ready;
    --m_available;
    ++m_processing;
    e.startedAt = now;
    m_metrics.handedOut(e.priority, now - e.queuedAt);
    if (m_metrics.enabled() && !m_metricsWake.armed())
        m_metricsWake.armAt(now + QueueMetrics::UnfinishedWorkPeriod);
    return Item{e.key, std::move(e.causes), e.priority, e.retries, e.queuedAt}; // leaves e.causes empty
}

void PriorityQueue::done(const QueueKey &key)
{
    const quint32 id = m_keys.find(key);
    if (id == NoId || !m_keys[id].locked)
        return;
    Entry &e = m_keys[id];
    m_metrics.finished(m_clock->now() - e.startedAt);
    e.locked = false;
    --m_processing;
    if (e.pending && e.ready)
        makeAvailable(id); // held back while locked: goes out in its turn now
    else if (idle(e))
        m_keys.park(id);
    finishOperation(id);
}

void PriorityQueue::forget(const QueueKey &key)
{
    m_limiter->forget(key);
    const quint32 id = m_keys.find(key);
    if (id == NoId || m_keys[id].retries == 0)
        return;
    Entry &e = m_keys[id];
    e.retries = 0;
    if (idle(e))
        m_keys.park(id);
    finishOperation(id);
}

void PriorityQueue::fireDue()
{
    const Clock::TimePoint now = m_clock->now();
    while (!m_delays.empty() && m_delays.top().at <= now) {
        const detail::DelayHeap::Node node = m_delays.top();
        m_delays.pop();
        Entry &e = m_keys[node.id];
        if (!e.live || !e.pending || e.ready || e.waitSeq != node.seq)
            continue;
        --m_waiting;
        becomeReady(node.id, now, true);
        if (hasListeners())
            notifyChanged(stateOf(e));
    }
    if (!m_delays.empty())
        m_delayWake.armAt(m_delays.top().at);
    finishOperation(NoId);
}

void PriorityQueue::refreshUnfinishedWork()
{
    const Clock::TimePoint now = m_clock->now();
    Clock::Duration total{0};
    Clock::Duration longest{0};
    for (quint32 id = 0; id < m_keys.capacity() && m_processing > 0; ++id) {
        const Entry &e = m_keys[id];
        if (e.live && e.locked) {
            total += now - e.startedAt;
            longest = std::max(longest, now - e.startedAt);
        }
    }
    m_metrics.setUnfinished(total, longest);
    if (m_processing > 0)
        m_metricsWake.armAt(now + QueueMetrics::UnfinishedWorkPeriod);
}

void PriorityQueue::shutDown()
{
    if (m_shutDown)
        return;
    m_shutDown = true;
    m_delayWake.cancel(); // delayed items never become ready now
    Q_EMIT shutDownStarted();
}

void PriorityQueue::shutDownWithDrain()
{
    shutDown();
    Q_EMIT drained(); // controller-runtime does not drain its priority queue
}

void PriorityQueue::finishOperation(quint32 id)
{
    if (hasListeners() && id != NoId) {
        const Entry &e = m_keys[id];
        e.parked ? notifyRemoved(e.key) : notifyChanged(stateOf(e));
    }
    m_keys.sweep();
    if (m_becameAvailable) {
        m_becameAvailable = false;
        if (!m_shutDown)
            Q_EMIT itemsAvailable();
    }
}

KeyState PriorityQueue::stateOf(const Entry &e) const
{
    KeyState s;
    s.key = e.key;
    s.queued = e.pending && e.ready && !e.locked;
    s.processing = e.locked;
    s.requeued = e.locked && e.pending;
    s.waiting = e.pending && !e.ready;
    s.readyAt = s.waiting ? e.readyAt : Clock::TimePoint{};
    s.priority = e.priority;
    s.retries = e.retries;
    s.queuedAt = e.pending && e.ready ? e.queuedAt : Clock::TimePoint{};
    s.startedAt = e.locked ? e.startedAt : Clock::TimePoint{};
    s.causes = e.causes;
    s.state = (e.locked && e.pending && e.ready) ? KeyState::State::Held
        : e.locked                               ? KeyState::State::Processing
        : s.queued                               ? KeyState::State::Queued
        : s.waiting                              ? KeyState::State::Waiting
                                                 : KeyState::State::Idle;
    return s;
}

std::vector<KeyState> PriorityQueue::snapshot() const
{
    return detail::snapshotKeys(m_keys, [this](const Entry &e) { return stateOf(e); });
}

KeyState PriorityQueue::state(const QueueKey &key) const
{
    return detail::keyState(m_keys, key, [this](const Entry &e) { return stateOf(e); });
}

} // namespace opbench
