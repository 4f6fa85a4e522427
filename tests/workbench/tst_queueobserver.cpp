// SPDX-License-Identifier: Apache-2.0
// QueueObserver (engine/workbench/queueobserver.h): the Queue panel's samples of a work queue on
// a FakeClock — depth, processing, waiting, one row per key with its state, causes and the time
// until a delayed add is due (on the queue's clock: exact), and the causes counted by origin
// (For, Owns, requeues). Samples come every 500 ms of real time: the test waits for the next one
// after each change, never for a time.
#include "engine/base/metrics.h"
#include "engine/queue/ratelimitingqueue.h"
#include "engine/testing/fakeclock.h"
#include "engine/workbench/queueobserver.h"
#include "tests/workbench/headless.h"

#include <QSignalSpy>
#include <QTest>

using namespace opbench;
using namespace opbench::workbench;
using namespace std::chrono_literals;

namespace {

QueueRow rowOf(const QueueSample &s, const QString &key)
{
    for (const QueueRow &r : s.rows)
        if (r.key == key)
            return r;
    return {};
}

} // namespace

class tst_QueueObserver : public QObject
{
    Q_OBJECT

    struct Fixture
    {
        Q_DISABLE_COPY_MOVE(Fixture)
        testing::FakeClock clock;
        MetricsRegistry metrics;
        std::unique_ptr<RateLimitingQueue> queue;
        QueueObserver observer;
        QSignalSpy samples{&observer, &QueueObserver::sample};
        QSignalSpy available{&observer, &QueueObserver::available};
        Fixture()
        {
            WorkQueueOptions o;
            o.clock = &clock;
            o.metrics = &metrics;
            queue = std::make_unique<RateLimitingQueue>(std::move(o));
        }
        ~Fixture() { observer.observe(nullptr); }
        /// The first sample taken after everything done so far.
        QueueSample next()
        {
            const qsizetype seen = samples.size();
            if (!QTest::qWaitFor([&] { return samples.size() > seen; }, 10000))
                return {};
            return samples.at(seen).at(0).value<QueueSample>();
        }
    };

private Q_SLOTS:
    void initTestCase() { testing::verifyNoGuiLibrariesLoaded(); }

    void shouldSampleEveryKeyWithItsStateAndCauses()
    {
        Fixture f;
        f.observer.observe(f.queue.get());
        QCOMPARE(f.available.size(), 1);
        QCOMPARE(f.available.at(0).at(0).toBool(), true);
        const QueueKey a{QStringLiteral("default"), QStringLiteral("a")};
        const QueueKey b{QStringLiteral("default"), QStringLiteral("b")};
        const QueueKey c{QStringLiteral("default"), QStringLiteral("c")};
        f.queue->add(a,
            Cause::watchEvent(Cause::EventType::Added, QStringLiteral("MyApplication.v1alpha1.example.com"),
                QStringLiteral("default/a"), QStringLiteral("5")));
        f.queue->add(a,
            Cause::watchEvent(Cause::EventType::Modified, QStringLiteral("MyApplication.v1alpha1.example.com"),
                QStringLiteral("default/a"), QStringLiteral("6")));
        f.queue->add(b,
            Cause::ownerMapping(Cause::EventType::Deleted, QStringLiteral("Deployment.v1.apps"),
                QStringLiteral("default/b"), QStringLiteral("7")));
        f.queue->addAfter(c, 5s, Cause::requeueAfter(5s));
        QueueSample s = f.next();
        QCOMPARE(s.depth, 2);
        QCOMPARE(s.processing, 0);
        QCOMPARE(s.waiting, 1);
        QCOMPARE(s.rows.size(), 3);
        QCOMPARE(rowOf(s, QStringLiteral("default/a")).state, QStringLiteral("queued"));
        QCOMPARE(rowOf(s, QStringLiteral("default/a")).causes.size(), 2); // de-duplicated: one item, both causes
        QVERIFY2(rowOf(s, QStringLiteral("default/a")).causes.first().startsWith(QLatin1String("watch")),
            qPrintable(rowOf(s, QStringLiteral("default/a")).causes.join(u',')));
        QCOMPARE(rowOf(s, QStringLiteral("default/b")).state, QStringLiteral("queued"));
        QCOMPARE(rowOf(s, QStringLiteral("default/c")).state, QStringLiteral("waiting"));
        QCOMPARE(rowOf(s, QStringLiteral("default/c")).readyInMs, 5000);
        QCOMPARE(rowOf(s, QStringLiteral("default/a")).readyInMs, -1);
        // Origins: two For (a's watch events), one Owns (b), one requeue (c)
        QCOMPARE(s.causesFor, 2);
        QCOMPARE(s.causesOwns, 1);
        QCOMPARE(s.causesRequeue, 1);

        // The fake clock moves 2 s: c is due in 3 s. a is handed out: processing.
        f.clock.advance(2s);
        const std::optional<Item> item = f.queue->tryGet();
        QVERIFY(item.has_value());
        QCOMPARE(item->key, a);
        s = f.next();
        QCOMPARE(rowOf(s, QStringLiteral("default/c")).readyInMs, 3000);
        QCOMPARE(rowOf(s, QStringLiteral("default/a")).state, QStringLiteral("processing"));
        QCOMPARE(s.processing, 1);
        QCOMPARE(s.depth, 1);
        // c's time comes: ready; a done: gone from the rows
        f.clock.advance(3s);
        f.queue->done(a);
        f.queue->forget(a);
        s = f.next();
        QCOMPARE(rowOf(s, QStringLiteral("default/c")).state, QStringLiteral("queued"));
        QCOMPARE(s.waiting, 0);
        QCOMPARE(s.depth, 2);
        QVERIFY(rowOf(s, QStringLiteral("default/a")).key.isEmpty());
        QCOMPARE(s.causesRequeue, 1); // counted once, when added
    }

    void shouldCountRetriesAndStopWhenTheQueueGoes()
    {
        Fixture f;
        f.observer.observe(f.queue.get());
        const QueueKey k{QStringLiteral("default"), QStringLiteral("flaky")};
        f.queue->addRateLimited(k, Cause::rateLimitedRetry(0, QStringLiteral("boom")));
        QueueSample s = f.next();
        QCOMPARE(rowOf(s, QStringLiteral("default/flaky")).state, QStringLiteral("waiting"));
        QVERIFY(rowOf(s, QStringLiteral("default/flaky")).readyInMs >= 0);
        QVERIFY2(rowOf(s, QStringLiteral("default/flaky")).causes.value(0).startsWith(QLatin1String("retry #1")),
            qPrintable(rowOf(s, QStringLiteral("default/flaky")).causes.join(u',')));
        QCOMPARE(rowOf(s, QStringLiteral("default/flaky")).retries, 1);
        QVERIFY(s.retriesPerSec > 0);
        QCOMPARE(s.causesRequeue, 1);
        // Observing nothing: unavailable, and no more samples (the queue may go now)
        f.observer.observe(nullptr);
        QCOMPARE(f.available.last().at(0).toBool(), false);
        f.queue.reset();
        const qsizetype seen = f.samples.size();
        // A later sample would come within 500 ms; several intervals of a restarted observer
        // on another queue pass first (the positive signal), and none came from this one.
        WorkQueueOptions o;
        o.clock = &f.clock;
        o.metrics = &f.metrics;
        RateLimitingQueue other(std::move(o));
        QueueObserver second;
        QSignalSpy secondSamples(&second, &QueueObserver::sample);
        second.observe(&other);
        QTRY_VERIFY_WITH_TIMEOUT(secondSamples.size() >= 2, 10000);
        second.observe(nullptr);
        QCOMPARE(f.samples.size(), seen);
    }
};

QTEST_GUILESS_MAIN(tst_QueueObserver)
#include "tst_queueobserver.moc"
