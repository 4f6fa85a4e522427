// SPDX-License-Identifier: Apache-2.0
#include "engine/queue/queuemetrics.h"

namespace opbench {

QueueMetrics::QueueMetrics(MetricsRegistry *registry, const QString &name, bool withPriority)
    : m_name(name)
    , m_withPriority(withPriority)
{
    if (name.isEmpty() || !registry)
        return;
    const QStringList names{QStringLiteral("name"), QStringLiteral("controller")};
    const QStringList values{name, name};
    const auto buckets = MetricsRegistry::exponentialBuckets(10e-9, 10, 12);
    m_depthFamily = registry->gauge(QStringLiteral("workqueue_depth"),
        QStringLiteral("Current depth of workqueue by workqueue and priority"),
        names + QStringList{QStringLiteral("priority")});
    if (!withPriority)
        m_depthPlain = m_depthFamily->labels(values + QStringList{QString()});
    m_adds = registry
                 ->counter(QStringLiteral("workqueue_adds_total"),
                     QStringLiteral("Total number of adds handled by workqueue"), names)
                 ->labels(values);
    m_latency = registry
                    ->histogram(QStringLiteral("workqueue_queue_duration_seconds"),
                        QStringLiteral("How long in seconds an item stays in workqueue before being requested"), names,
                        buckets)
                    ->labels(values);
    m_work = registry
                 ->histogram(QStringLiteral("workqueue_work_duration_seconds"),
                     QStringLiteral("How long in seconds processing an item from workqueue takes"), names, buckets)
                 ->labels(values);
    m_unfinished = registry
                       ->gauge(QStringLiteral("workqueue_unfinished_work_seconds"),
                           QStringLiteral("How many seconds of work has been done that is in progress and hasn't "
                                          "been observed by work_duration. Large values indicate stuck threads."),
                           names)
                       ->labels(values);
    m_longest = registry
                    ->gauge(QStringLiteral("workqueue_longest_running_processor_seconds"),
                        QStringLiteral("How many seconds has the longest running processor for workqueue been running"),
                        names)
                    ->labels(values);
    m_retries = registry
                    ->counter(QStringLiteral("workqueue_retries_total"),
                        QStringLiteral("Total number of retries handled by workqueue"), names)
                    ->labels(values);
}

Gauge *QueueMetrics::depthSlow(int priority)
{
    if (int(m_depthByPriority.size()) >= PriorityCardinalityLimit) {
        if (!m_depthOverflow)
            m_depthOverflow = m_depthFamily->labels({m_name, m_name, QStringLiteral("exceeded_cardinality_limit")});
        return m_depthOverflow;
    }
    Gauge *g = m_depthFamily->labels({m_name, m_name, QString::number(priority)});
    m_depthByPriority.emplace_back(priority, g);
    return g;
}

} // namespace opbench
