// SPDX-License-Identifier: Apache-2.0
#pragma once
// RateLimitingQueue: client-go's work queue, in its three layers, on one event loop:
//
// - basic queue: a FIFO plus a dirty set and a processing set. add() of a dirty key is a no-op
//   (its cause is merged); add() while the key is processing marks it dirty, and done() puts it
//   back at the tail. len() excludes keys being processed.
// - delaying: addAfter() keeps a min-heap of deadlines with one entry per key (a duplicate keeps
//   the earlier time) and one Clock wake-up. A plain add() does not cancel a waiting entry: the
//   key runs now and again later (kubernetes#112325). shutDown() discards waiting entries.
// - rate limiting: addRateLimited() = addAfter(key, limiter.when(key)); forget(); numRequeues().
//
// Use makeWorkQueue(WorkQueue::Kind::Plain, options) or construct it directly.

#include "engine/queue/delayheap_p.h"
#include "engine/queue/keytable_p.h"
#include "engine/queue/queuemetrics.h"
#include "engine/queue/workqueue.h"

#include <deque>

namespace opbench {

class RateLimitingQueue final : public WorkQueue
{
    Q_OBJECT
public:
    explicit RateLimitingQueue(WorkQueueOptions options = {}, QObject *parent = nullptr);
    ~RateLimitingQueue() override;

    Kind kind() const override { return Kind::Plain; }
    void add(const QueueKey &key, Cause cause = {}) override;
    void addAfter(const QueueKey &key, Clock::Duration delay, Cause cause = {}) override;
    void addRateLimited(const QueueKey &key, Cause cause = {}) override;
    void addWithOpts(const QueueKey &key, const AddOpts &opts, Cause cause = {}) override;
    std::optional<Item> tryGet() override;
    std::optional<Item> tryGetKey(const QueueKey &key) override;
    std::optional<QueueKey> peek() const override;
    void done(const QueueKey &key) override;
    void forget(const QueueKey &key) override;
    int len() const override { return m_queued; }
    int processingCount() const override { return m_processing; }
    int waitingCount() const override { return m_waiting; }
    void shutDown() override;
    void shutDownWithDrain() override;
    std::vector<KeyState> snapshot() const override;
    KeyState state(const QueueKey &key) const override;

private:
    struct Entry
    {
        QueueKey key;
        bool live = false; // owned by m_keys: false for free slots
        // dirty: the key must be handed out again. Invariant: queued ⇔ dirty ∧ ¬processing, and
        // then fifoSeq identifies its node in m_fifo. dirty ∧ processing: re-added while being
        // processed; done() queues it.
        bool dirty = false;
        bool processing = false; // handed out, done() not yet called; startedAt is valid
        bool waiting = false;    // a delayed add is pending: its heap node has seq == waitSeq
        bool parked = false;     // idle(): released by a later m_keys.sweep()
        int retries = 0;         // limiter's numRequeues after the last addRateLimited; 0 after forget
        quint64 fifoSeq = 0;     // != 0 exactly while queued
        quint64 waitSeq = 0;
        Clock::TimePoint queuedAt{};  // valid while dirty: first add of this round
        Clock::TimePoint startedAt{}; // valid while processing
        Clock::TimePoint readyAt{};   // valid while waiting
        CauseList causes;             // for the next hand-out (ready adds and fired delayed adds)
        CauseList delayedCauses;      // causes of the pending delayed add, merged in when it fires
    };
    struct FifoNode
    {
        quint32 id;
        quint64 seq; // stale unless m_keys[id].fifoSeq == seq (skipped lazily)
    };

    static bool idle(const Entry &e) { return !e.dirty && !e.processing && !e.waiting && e.retries == 0; }
    Cause stamped(Cause c, Clock::TimePoint now) const;
    void addInternal(const QueueKey &key, Cause &&cause, Clock::TimePoint now);
    void addAfterInternal(const QueueKey &key, Clock::Duration delay, Cause &&cause, int retries);
    void markReady(quint32 id, Clock::TimePoint now);
    void pushFifo(quint32 id);
    Item handOut(quint32 id);
    void fireDue();
    void refreshUnfinishedWork();
    void discardWaiting();
    void finishOperation(quint32 id);
    KeyState stateOf(const Entry &e) const;

    detail::KeyTable<Entry> m_keys;
    std::deque<FifoNode> m_fifo;  // queued keys in order, plus stale nodes
    detail::DelayHeap m_delays;   // one live node per waiting key, plus stale ones
    detail::WakeUp m_delayWake;   // for m_delays.top()
    detail::WakeUp m_metricsWake; // unfinished-work refresh while something is processing
    QueueMetrics m_metrics;
    quint64 m_seq = 0;              // source of fifoSeq / waitSeq values
    int m_queued = 0;               // entries with fifoSeq != 0
    int m_processing = 0;           // entries with processing
    int m_waiting = 0;              // entries with waiting
    bool m_draining = false;        // shutDownWithDrain() waits for m_processing == 0
    bool m_becameAvailable = false; // emit itemsAvailable() at the end of the operation
};

} // namespace opbench
