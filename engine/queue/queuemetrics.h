// SPDX-License-Identifier: Apache-2.0
#pragma once
// QueueMetrics: the workqueue_* metric children of one named queue, resolved once at construction
// so the hot path is a few relaxed atomic updates. Semantics follow client-go / controller-runtime:
//
// - workqueue_depth{name,controller,priority}: +1 on every non-duplicate add (also while the key is
//   being processed), −1 on hand-out. The plain queue uses priority="" ; the priority queue the
//   entry's priority, "exceeded_cardinality_limit" after 25 distinct values.
// - workqueue_adds_total{name,controller}: non-duplicate adds.
// - workqueue_queue_duration_seconds / workqueue_work_duration_seconds: first add → hand-out, and
//   hand-out → done; buckets ExponentialBuckets(10e-9, 10, 12).
// - workqueue_unfinished_work_seconds / workqueue_longest_running_processor_seconds: sum and max
//   of the ages of the keys being processed, refreshed every 500 ms by the queue.
// - workqueue_retries_total: delayed adds (plain queue: every addAfter; priority queue: delays > 0).
//
// A queue is the only writer of its children (queue names are unique, like controller names), so
// updates use the single-writer forms: no locked read-modify-write on the hot path.

#include "engine/base/clock.h"
#include "engine/base/metrics.h"

#include <QString>

#include <vector>

namespace opbench {

class QueueMetrics
{
public:
    /// No metrics at all when `name` is empty or `registry` is null (every call is then a no-op).
    QueueMetrics(MetricsRegistry *registry, const QString &name, bool withPriority);

    [[nodiscard]] bool enabled() const { return m_adds != nullptr; }

    /// A non-duplicate add of a ready key with this priority.
    void added(int priority)
    {
        if (m_adds) {
            m_adds->incSingleWriter();
            depth(priority)->addSingleWriter(1);
        }
    }
    /// A key left the ready set by being handed out after `waited`.
    void handedOut(int priority, Clock::Duration waited)
    {
        if (m_adds) {
            depth(priority)->addSingleWriter(-1);
            m_latency->observeSingleWriter(seconds(waited));
        }
    }
    /// A queued key's priority changed from `from` to `to`.
    void priorityChanged(int from, int to)
    {
        if (m_adds && from != to) {
            depth(from)->addSingleWriter(-1);
            depth(to)->addSingleWriter(1);
        }
    }
    void finished(Clock::Duration worked)
    {
        if (m_adds)
            m_work->observeSingleWriter(seconds(worked));
    }
    void retried()
    {
        if (m_adds)
            m_retries->incSingleWriter();
    }
    /// Sets the unfinished-work gauges (sum and max age of in-flight keys).
    void setUnfinished(Clock::Duration total, Clock::Duration longest)
    {
        if (m_adds) {
            m_unfinished->set(seconds(total));
            m_longest->set(seconds(longest));
        }
    }

    /// How often the queue refreshes the unfinished-work gauges.
    static constexpr std::chrono::milliseconds UnfinishedWorkPeriod{500};
    /// Distinct priority label values before the rest share "exceeded_cardinality_limit".
    static constexpr int PriorityCardinalityLimit = 25;

private:
    static double seconds(Clock::Duration d) { return std::chrono::duration<double>(d).count(); }
    Gauge *depth(int priority)
    {
        if (!m_withPriority)
            return m_depthPlain;
        // Priorities are few; a short linear scan beats hashing.
        for (const auto &[p, g] : m_depthByPriority) {
            if (p == priority)
                return g;
        }
        return depthSlow(priority);
    }
    Gauge *depthSlow(int priority);

    GaugeFamily *m_depthFamily = nullptr;
    QString m_name;
    bool m_withPriority;
    Gauge *m_depthPlain = nullptr;                          // plain queue: priority=""
    std::vector<std::pair<int, Gauge *>> m_depthByPriority; // priority queue: resolved children
    Gauge *m_depthOverflow = nullptr;                       // "exceeded_cardinality_limit"
    Counter *m_adds = nullptr;                              // null ⇔ metrics disabled
    Histogram *m_latency = nullptr;
    Histogram *m_work = nullptr;
    Gauge *m_unfinished = nullptr;
    Gauge *m_longest = nullptr;
    Counter *m_retries = nullptr;
};

} // namespace opbench
