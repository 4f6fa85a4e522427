// SPDX-License-Identifier: Apache-2.0
// The delaying and rate-limiting layers of the plain (client-go) queue.
#include "engine/base/metrics.h"
#include "engine/queue/ratelimitingqueue.h"
#include "engine/testing/fakeclock.h"

#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTest>

using namespace opbench;
using namespace std::chrono_literals;

namespace {
QueueKey key(const char *name) { return {QStringLiteral("default"), QString::fromLatin1(name)}; }

struct Fixture
{
    testing::FakeClock clock;
    MetricsRegistry registry;
    std::unique_ptr<RateLimitingQueue> queue;
    explicit Fixture(std::unique_ptr<RateLimiter> limiter = nullptr)
    {
        WorkQueueOptions o;
        o.clock = &clock;
        o.metrics = &registry;
        o.rateLimiter = std::move(limiter);
        queue = std::make_unique<RateLimitingQueue>(std::move(o));
    }
    QStringList drainKeys()
    {
        QStringList out;
        while (auto item = queue->tryGet()) {
            out << item->key.name;
            queue->done(item->key);
        }
        return out;
    }
};
} // namespace

class tst_DelayingQueue : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldReleaseDelayedKeysInDeadlineOrder()
    {
        Fixture f;
        QSignalSpy available(f.queue.get(), &WorkQueue::itemsAvailable);
        f.queue->addAfter(key("a"), 30ms);
        f.queue->addAfter(key("b"), 10ms);
        f.queue->addAfter(key("c"), 20ms);
        QCOMPARE(f.queue->len(), 0);
        QCOMPARE(f.queue->waitingCount(), 3);
        QCOMPARE(f.clock.pending(), 1); // one wake-up, whatever the number of keys
        f.clock.advance(9ms);
        QCOMPARE(f.queue->len(), 0);
        f.clock.advance(1ms);
        QCOMPARE(available.count(), 1);
        QCOMPARE(f.drainKeys(), QStringList{QStringLiteral("b")});
        f.clock.advance(25ms);
        QCOMPARE(f.drainKeys(), (QStringList{QStringLiteral("c"), QStringLiteral("a")}));
        QCOMPARE(f.queue->waitingCount(), 0);
        QCOMPARE(f.clock.pending(), 0);
    }

    void shouldKeepTheEarlierTimeForADuplicate_data()
    {
        QTest::addColumn<int>("firstMs");
        QTest::addColumn<int>("secondMs");
        QTest::newRow("earlier second") << 50 << 10;
        QTest::newRow("later second") << 10 << 50;
    }
    void shouldKeepTheEarlierTimeForADuplicate()
    {
        QFETCH(int, firstMs);
        QFETCH(int, secondMs);
        Fixture f;
        f.queue->addAfter(
            key("a"), std::chrono::milliseconds(firstMs), Cause::requeueAfter(std::chrono::milliseconds(firstMs)));
        f.queue->addAfter(
            key("a"), std::chrono::milliseconds(secondMs), Cause::requeueAfter(std::chrono::milliseconds(secondMs)));
        QCOMPARE(f.queue->waitingCount(), 1);
        QCOMPARE(f.queue->state(key("a")).readyAt, Clock::TimePoint{10ms});
        f.clock.advance(10ms);
        auto item = f.queue->tryGet();
        QVERIFY(item);
        QCOMPARE(item->causes.total(), 2); // both requests are reported
        f.queue->done(key("a"));
        f.clock.advance(100ms);
        QVERIFY(!f.queue->tryGet()); // and it runs once
    }

    void shouldAddAtOnceForANonPositiveDelay()
    {
        Fixture f;
        f.queue->addAfter(key("a"), 0ms);
        f.queue->addAfter(key("b"), -5ms);
        QCOMPARE(f.queue->len(), 2);
        QCOMPARE(f.queue->waitingCount(), 0);
    }

    void shouldNotCancelAWaitingKeyOnAPlainAdd()
    {
        // kubernetes#112325: the key runs now and again later
        Fixture f;
        f.queue->addAfter(key("a"), 10ms, Cause::requeueAfter(10ms));
        f.queue->add(key("a"), Cause::manual());
        auto now = f.queue->tryGet();
        QCOMPARE(now->causes[0].kind, Cause::Kind::Manual);
        QCOMPARE(now->causes.total(), 1);
        f.queue->done(key("a"));
        f.clock.advance(10ms);
        auto later = f.queue->tryGet();
        QVERIFY(later);
        QCOMPARE(later->causes[0].kind, Cause::Kind::RequeueAfter);
    }

    void shouldMergeIntoAQueuedKeyWhenTheDelayFires()
    {
        Fixture f;
        f.queue->add(key("a"), Cause::manual());
        f.queue->addAfter(key("a"), 10ms, Cause::requeueAfter(10ms));
        f.clock.advance(10ms);
        QCOMPARE(f.queue->len(), 1);
        auto item = f.queue->tryGet();
        QCOMPARE(item->causes.total(), 2);
        QVERIFY(!f.queue->tryGet());
    }

    void shouldDiscardWaitingKeysOnShutDown()
    {
        Fixture f;
        f.queue->addAfter(key("a"), 10ms);
        f.queue->add(key("b"));
        f.queue->shutDown();
        QCOMPARE(f.queue->waitingCount(), 0);
        QCOMPARE(f.clock.pending(), 0);
        f.queue->addAfter(key("c"), 1ms);
        f.clock.advance(1s);
        QCOMPARE(f.drainKeys(), QStringList{QStringLiteral("b")});
    }

    void shouldFire100kDelayedKeysInOrder()
    {
        // Given 100,000 keys with pseudo-random delays up to 10 minutes
        Fixture f;
        QRandomGenerator rng(42);
        const int n = 100000;
        std::vector<std::pair<qint64, int>> expected; // (deadline ms, insertion index)
        expected.reserve(n);
        for (int i = 0; i < n; ++i) {
            const qint64 ms = rng.bounded(600000) + 1;
            expected.emplace_back(ms, i);
            f.queue->addAfter(QueueKey{QString(), QString::number(i)}, std::chrono::milliseconds(ms));
        }
        QCOMPARE(f.queue->waitingCount(), n);
        QVERIFY(f.clock.pending() <= 1);
        std::stable_sort(
            expected.begin(), expected.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
        // When time moves on in 7-second steps, draining as it goes
        QStringList got;
        got.reserve(n);
        for (int t = 0; t <= 600; t += 7) {
            f.clock.advance(7s);
            got += f.drainKeys();
        }
        // Then every key came out once, in deadline order (ties in the order they were added)
        QCOMPARE(got.size(), n);
        for (int i = 0; i < n; ++i) {
            if (got[i] != QString::number(expected[size_t(i)].second))
                QFAIL(qPrintable(QStringLiteral("position %1: got %2, expected %3")
                                     .arg(i)
                                     .arg(got[i])
                                     .arg(expected[size_t(i)].second)));
        }
        QCOMPARE(f.queue->waitingCount(), 0);
    }

    void shouldBackOffRateLimitedRetries()
    {
        // Given the default controller limiter
        Fixture f;
        QList<qint64> delays;
        for (int i = 0; i < 4; ++i) {
            f.queue->addRateLimited(key("a"), Cause::rateLimitedRetry(0, QStringLiteral("fail")));
            const Clock::TimePoint start = f.clock.now();
            while (!f.queue->len())
                f.clock.advance(1ms);
            delays << std::chrono::duration_cast<std::chrono::milliseconds>(f.clock.now() - start).count();
            auto item = f.queue->tryGet();
            QCOMPARE(item->retries, i + 1);
            QCOMPARE(item->causes[0].attempt, i + 1);
            f.queue->done(key("a"));
        }
        QCOMPARE(delays, (QList<qint64>{5, 10, 20, 40}));
        f.queue->forget(key("a"));
        QCOMPARE(f.queue->numRequeues(key("a")), 0);
    }

    void shouldMakeThe101stFailureWaitForTheBucket()
    {
        Fixture f;
        for (int i = 0; i < 101; ++i)
            f.queue->addRateLimited(QueueKey{QString(), QString::number(i)});
        f.clock.advance(5ms);
        QCOMPARE(f.queue->len(), 100);
        QCOMPARE(f.queue->state(QueueKey{QString(), QStringLiteral("100")}).readyAt, Clock::TimePoint{100ms});
        f.clock.advance(95ms);
        QCOMPARE(f.queue->len(), 101);
    }

    void shouldTakeTheSmallerDelayForRateLimitedWithAfter()
    {
        Fixture f(std::make_unique<ItemFastSlowRateLimiter>(50ms, 1s, 1));
        f.queue->addWithOpts(key("a"), AddOpts{.after = 10ms, .rateLimited = true});
        f.queue->addWithOpts(key("b"), AddOpts{.after = 100ms, .rateLimited = true});
        QCOMPARE(f.queue->state(key("a")).readyAt, Clock::TimePoint{10ms});
        QCOMPARE(f.queue->state(key("b")).readyAt, Clock::TimePoint{50ms});
        QCOMPARE(f.queue->numRequeues(key("b")), 1);
    }
};

QTEST_GUILESS_MAIN(tst_DelayingQueue)
#include "tst_delayingqueue.moc"
