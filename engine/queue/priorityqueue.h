// SPDX-License-Identifier: Apache-2.0
#pragma once
// PriorityQueue: controller-runtime's priority queue (the default since v0.23), on one event loop.
//
// - Each key is kept once, with the higher of its priorities and the earlier of its ready times
//   (addWithOpts: `after`, `rateLimited` — the smaller delay wins — and `priority`).
// - Ready keys go out highest priority first, then in the order they became ready; raising a
//   ready key's priority puts it last within its new level.
// - A key handed out stays locked until done(): a re-add is kept (with its causes) and held back,
//   and goes out after done() in its turn.
// - shutDown() does not drain: tryGet() gives nothing from then on.
// - len() counts ready keys (including held ones), not delayed ones.
// - The default limiter is exponential 5 ms → 1000 s without a bucket; workqueue_retries_total
//   counts delays > 0 only; workqueue_depth carries a priority label.
//
// Use makeWorkQueue(WorkQueue::Kind::Priority, options) or construct it directly.

#include "engine/queue/delayheap_p.h"
#include "engine/queue/keytable_p.h"
#include "engine/queue/queuemetrics.h"
#include "engine/queue/workqueue.h"

#include <deque>

namespace opbench {

class PriorityQueue final : public WorkQueue
{
    Q_OBJECT
public:
    explicit PriorityQueue(WorkQueueOptions options = {}, QObject *parent = nullptr);
    ~PriorityQueue() override;

    Kind kind() const override { return Kind::Priority; }
    void add(const QueueKey &key, Cause cause = {}) override;
    void addAfter(const QueueKey &key, Clock::Duration delay, Cause cause = {}) override;
    void addRateLimited(const QueueKey &key, Cause cause = {}) override;
    void addWithOpts(const QueueKey &key, const AddOpts &opts, Cause cause = {}) override;
    std::optional<Item> tryGet() override;
    std::optional<Item> tryGetKey(const QueueKey &key) override;
    std::optional<QueueKey> peek() const override;
    void done(const QueueKey &key) override;
    void forget(const QueueKey &key) override;
    int len() const override { return m_ready; }
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
        bool live = false;   // owned by m_keys
        bool parked = false; // idle(): released by a later m_keys.sweep()
        bool locked = false; // handed out, done() not yet called; startedAt valid
        // pending: an item for the next round exists (priority, causes). It is either ready
        // (counted in len() and depth; `order` valid) or waiting (readyAt, waitSeq valid).
        // Invariant: a valid level node {order, id} exists ⇔ pending ∧ ready ∧ ¬locked.
        bool pending = false;
        bool ready = false;
        int priority = 0;
        int retries = 0;
        quint64 order = 0;   // FIFO position within the priority level (unique, increasing)
        quint64 waitSeq = 0; // identifies the live delay-heap node
        Clock::TimePoint readyAt{};
        Clock::TimePoint queuedAt{}; // valid when ready: when it became ready (queue duration start)
        Clock::TimePoint startedAt{};
        CauseList causes;
    };
    struct LevelNode
    {
        quint64 order;
        quint32 id;
    };
    // One priority level: nodes in `order`. Orders are handed out increasing, so almost every
    // push goes to the tail of `fifo` (O(1)); the exception, a held key released by done() with
    // its earlier order, goes to the min-heap `late`. Stale nodes are skipped lazily.
    struct Level
    {
        int priority;
        std::deque<LevelNode> fifo;  // increasing order
        std::vector<LevelNode> late; // min-heap on order
        [[nodiscard]] bool empty() const { return fifo.empty() && late.empty(); }
        void push(LevelNode n);
        [[nodiscard]] const LevelNode &front() const;
        void pop();
    };

    static bool idle(const Entry &e) { return !e.locked && !e.pending && e.retries == 0; }
    bool nodeValid(const LevelNode &n) const;
    void becomeReady(quint32 id, Clock::TimePoint now, bool newTurn);
    void mergeIntoPending(quint32 id, int priority, Clock::TimePoint readyAt, bool delayed, Clock::TimePoint now);
    void pushLevel(quint32 id);
    void makeAvailable(quint32 id);
    void waitUntil(quint32 id, Clock::TimePoint at);
    Item handOut(quint32 id);
    void fireDue();
    void refreshUnfinishedWork();
    void finishOperation(quint32 id);
    KeyState stateOf(const Entry &e) const;

    detail::KeyTable<Entry> m_keys;
    mutable std::vector<Level> m_levels; // by priority, highest first; peek() drops stale tops
    detail::DelayHeap m_delays;
    detail::WakeUp m_delayWake;
    detail::WakeUp m_metricsWake;
    QueueMetrics m_metrics;
    quint64 m_seq = 0;
    int m_ready = 0;      // entries pending ∧ ready (len())
    int m_available = 0;  // entries pending ∧ ready ∧ ¬locked (what tryGet() can hand out)
    int m_processing = 0; // entries locked
    int m_waiting = 0;    // entries pending ∧ ¬ready
    bool m_becameAvailable = false;
};

} // namespace opbench
