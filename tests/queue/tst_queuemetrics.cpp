// SPDX-License-Identifier: Apache-2.0
// workqueue_* metrics after scripted sequences, read from the Prometheus exposition text.
#include "engine/base/metrics.h"
#include "engine/queue/workqueue.h"
#include "engine/testing/fakeclock.h"

#include <QTest>

using namespace opbench;
using namespace std::chrono_literals;

namespace {
QueueKey key(const char *name) { return {QStringLiteral("default"), QString::fromLatin1(name)}; }

std::unique_ptr<WorkQueue> makeQueue(WorkQueue::Kind kind, testing::FakeClock &clock, MetricsRegistry &registry,
    const QString &name = QStringLiteral("myapp"))
{
    WorkQueueOptions o;
    o.clock = &clock;
    o.metrics = &registry;
    o.name = name;
    return makeWorkQueue(kind, std::move(o));
}

/// The value of the exposition line that starts with `series` followed by a space.
QString sample(const MetricsRegistry &registry, const QString &series)
{
    const QString text = QString::fromUtf8(registry.exposition());
    for (const QString &line : text.split(u'\n')) {
        if (line.startsWith(series + u' '))
            return line.mid(series.size() + 1);
    }
    return QStringLiteral("<missing>");
}

const QString L = QStringLiteral("{name=\"myapp\",controller=\"myapp\"}");

/// The cumulative count of `histogram`'s bucket whose upper bound is (numerically) `le`.
QString bucket(const MetricsRegistry &registry, const QString &histogram, double le)
{
    const QString prefix = histogram + QLatin1String("_bucket{name=\"myapp\",controller=\"myapp\",le=\"");
    const QString text = QString::fromUtf8(registry.exposition());
    for (const QString &line : text.split(u'\n')) {
        if (!line.startsWith(prefix))
            continue;
        const qsizetype end = line.indexOf(u'"', prefix.size());
        if (qFuzzyCompare(line.mid(prefix.size(), end - prefix.size()).toDouble(), le))
            return line.mid(line.lastIndexOf(u' ') + 1);
    }
    return QStringLiteral("<missing>");
}
} // namespace

class tst_QueueMetrics : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldRecordAScriptedSequenceOnThePlainQueue()
    {
        testing::FakeClock clock;
        MetricsRegistry registry;
        auto q = makeQueue(WorkQueue::Kind::Plain, clock, registry);
        const QString depth = QStringLiteral("workqueue_depth{name=\"myapp\",controller=\"myapp\",priority=\"\"}");

        q->add(key("a"));
        q->add(key("a")); // duplicate: not counted
        q->add(key("b"));
        QCOMPARE(sample(registry, QStringLiteral("workqueue_adds_total") + L), QStringLiteral("2"));
        QCOMPARE(sample(registry, depth), QStringLiteral("2"));

        clock.advance(1s);
        (void)q->tryGet(); // a waited 1 s
        QCOMPARE(sample(registry, depth), QStringLiteral("1"));
        QCOMPARE(sample(registry, QStringLiteral("workqueue_queue_duration_seconds_count") + L), QStringLiteral("1"));
        QCOMPARE(sample(registry, QStringLiteral("workqueue_queue_duration_seconds_sum") + L), QStringLiteral("1"));
        const QString latency = QStringLiteral("workqueue_queue_duration_seconds");
        QCOMPARE(bucket(registry, latency, 0.1), QStringLiteral("0"));
        QCOMPARE(bucket(registry, latency, 1.0), QStringLiteral("1"));
        QCOMPARE(bucket(registry, latency, 1000.0), QStringLiteral("1"));

        // a is re-added while processing: counted again (depth includes it)
        q->add(key("a"));
        QCOMPARE(sample(registry, QStringLiteral("workqueue_adds_total") + L), QStringLiteral("3"));
        QCOMPARE(sample(registry, depth), QStringLiteral("2"));

        // Unfinished work is refreshed every 500 ms while a is processing
        clock.advance(500ms);
        QCOMPARE(sample(registry, QStringLiteral("workqueue_unfinished_work_seconds") + L), QStringLiteral("0.5"));
        QCOMPARE(
            sample(registry, QStringLiteral("workqueue_longest_running_processor_seconds") + L), QStringLiteral("0.5"));
        (void)q->tryGet(); // b waited 1.5 s
        clock.advance(500ms);
        QCOMPARE(sample(registry, QStringLiteral("workqueue_unfinished_work_seconds") + L), QStringLiteral("1.5"));
        QCOMPARE(
            sample(registry, QStringLiteral("workqueue_longest_running_processor_seconds") + L), QStringLiteral("1"));

        q->done(key("a")); // worked 1 s; requeued without a new add
        q->done(key("b")); // worked 0.5 s
        QCOMPARE(sample(registry, QStringLiteral("workqueue_work_duration_seconds_count") + L), QStringLiteral("2"));
        QCOMPARE(sample(registry, QStringLiteral("workqueue_work_duration_seconds_sum") + L), QStringLiteral("1.5"));
        QCOMPARE(sample(registry, QStringLiteral("workqueue_adds_total") + L), QStringLiteral("3"));
        QCOMPARE(sample(registry, depth), QStringLiteral("1"));
        clock.advance(500ms);
        QCOMPARE(sample(registry, QStringLiteral("workqueue_unfinished_work_seconds") + L), QStringLiteral("0"));

        // Retries: every addAfter, even with a zero delay; rate-limited adds too
        q->addAfter(key("c"), 0ms);
        q->addAfter(key("d"), 1s);
        q->addRateLimited(key("e"));
        QCOMPARE(sample(registry, QStringLiteral("workqueue_retries_total") + L), QStringLiteral("3"));
        QCOMPARE(sample(registry, QStringLiteral("workqueue_adds_total") + L), QStringLiteral("4")); // c only so far
        clock.advance(1s);
        QCOMPARE(sample(registry, QStringLiteral("workqueue_adds_total") + L), QStringLiteral("6"));
        QCOMPARE(sample(registry, depth), QStringLiteral("4"));
    }

    void shouldCountOnlyPositiveDelaysAsRetriesInThePriorityQueue()
    {
        testing::FakeClock clock;
        MetricsRegistry registry;
        auto q = makeQueue(WorkQueue::Kind::Priority, clock, registry);
        q->addAfter(key("a"), 0ms);
        q->addAfter(key("b"), 1s);
        q->addRateLimited(key("c"));
        QCOMPARE(sample(registry, QStringLiteral("workqueue_retries_total") + L), QStringLiteral("2"));
        QCOMPARE(sample(registry, QStringLiteral("workqueue_adds_total") + L), QStringLiteral("1"));
        QCOMPARE(
            sample(registry, QStringLiteral("workqueue_depth{name=\"myapp\",controller=\"myapp\",priority=\"0\"}")),
            QStringLiteral("1"));
        clock.advance(1s);
        QCOMPARE(sample(registry, QStringLiteral("workqueue_adds_total") + L), QStringLiteral("3"));
        (void)q->tryGet();
        clock.advance(2s);
        q->done(key("a"));
        QCOMPARE(sample(registry, QStringLiteral("workqueue_work_duration_seconds_sum") + L), QStringLiteral("2"));
        QCOMPARE(sample(registry, QStringLiteral("workqueue_queue_duration_seconds_sum") + L), QStringLiteral("1"));
    }

    void shouldUseTheReferenceBuckets()
    {
        testing::FakeClock clock;
        MetricsRegistry registry;
        auto q = makeQueue(WorkQueue::Kind::Plain, clock, registry);
        const QString text = QString::fromUtf8(registry.exposition());
        QStringList les;
        for (const QString &line : text.split(u'\n')) {
            if (line.startsWith(QLatin1String("workqueue_work_duration_seconds_bucket"))) {
                const qsizetype at = line.indexOf(QLatin1String("le=\""));
                les << line.mid(at + 4, line.indexOf(u'"', at + 4) - at - 4);
            }
        }
        QCOMPARE(les.size(), 13);
        QCOMPARE(les.first().toDouble(), 1e-8);
        QCOMPARE(les[11].toDouble(), 1000.0);
        QCOMPARE(les.last(), QStringLiteral("+Inf"));
    }

    void shouldRegisterNothingForAnUnnamedQueue()
    {
        testing::FakeClock clock;
        MetricsRegistry registry;
        auto q = makeQueue(WorkQueue::Kind::Plain, clock, registry, QString());
        q->add(key("a"));
        (void)q->tryGet();
        q->done(key("a"));
        auto pq = makeQueue(WorkQueue::Kind::Priority, clock, registry, QString());
        pq->add(key("a"));
        QVERIFY(registry.exposition().isEmpty());
        QCOMPARE(clock.pending(), 0); // no unfinished-work refresh either
    }
};

QTEST_GUILESS_MAIN(tst_QueueMetrics)
#include "tst_queuemetrics.moc"
