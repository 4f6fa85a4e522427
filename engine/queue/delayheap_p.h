// SPDX-License-Identifier: Apache-2.0
#pragma once
// Delayed adds: a min-heap of deadlines (DelayHeap) and a single Clock wake-up for its earliest
// one (WakeUp). One timer per queue, whatever the number of waiting keys (Qt's timers do not scale
// past ~20k). Internal to engine/queue.

#include "engine/base/clock.h"

#include <functional>
#include <vector>

class QObject;

namespace opbench::detail {

class DelayHeap
{
public:
    struct Node
    {
        Clock::TimePoint at;
        quint64 seq; // identifies this push; an entry whose seq differs has moved on (lazy deletion)
        quint32 id;
    };

    void push(Node n);
    [[nodiscard]] const Node &top() const { return m_nodes.front(); }
    void pop();
    [[nodiscard]] bool empty() const { return m_nodes.empty(); }
    [[nodiscard]] size_t size() const { return m_nodes.size(); }
    void clear() { m_nodes.clear(); }

private:
    std::vector<Node> m_nodes; // binary min-heap on (at, seq)
};

/// At most one pending Clock::callAt at a time, re-armed only when a deadline moves earlier.
class WakeUp
{
public:
    WakeUp(Clock *clock, QObject *context, std::function<void()> fn);
    ~WakeUp();
    WakeUp(const WakeUp &) = delete;
    WakeUp &operator=(const WakeUp &) = delete;

    /// Ensures `fn` runs at or before `at` (keeps an earlier pending wake-up).
    void armAt(Clock::TimePoint at);
    void cancel();
    [[nodiscard]] bool armed() const { return m_id != 0; }

private:
    Clock *m_clock;
    QObject *m_context;
    std::function<void()> m_fn;
    quint64 m_id = 0;        // pending callAt id, 0 when none
    Clock::TimePoint m_at{}; // its deadline
};

} // namespace opbench::detail
