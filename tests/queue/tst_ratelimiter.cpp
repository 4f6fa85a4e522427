// SPDX-License-Identifier: Apache-2.0
#include "engine/queue/ratelimiter.h"
#include "engine/testing/fakeclock.h"

#include <QTest>

using namespace opbench;
using namespace std::chrono_literals;

namespace {
QueueKey key(const char *name) { return {QStringLiteral("default"), QString::fromLatin1(name)}; }
qint64 ms(Clock::Duration d) { return std::chrono::duration_cast<std::chrono::milliseconds>(d).count(); }
} // namespace

class tst_RateLimiter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldDoubleExponentialBackoffUntilTheCap()
    {
        // Given the controller default's exponential part (5 ms → 1000 s)
        ItemExponentialFailureRateLimiter limiter(5ms, 1000s);
        // When one key fails 20 times
        QList<Clock::Duration> delays;
        for (int i = 0; i < 20; ++i)
            delays << limiter.when(key("a"));
        // Then the delays run 5, 10, 20 ms …, ≈82 s at the 15th, and hit 1000 s at the 19th
        QCOMPARE(ms(delays[0]), 5);
        QCOMPARE(ms(delays[1]), 10);
        QCOMPARE(ms(delays[2]), 20);
        QCOMPARE(ms(delays[3]), 40);
        QCOMPARE(ms(delays[14]), 81920);
        QCOMPARE(ms(delays[17]), 655360);
        QCOMPARE(delays[18], Clock::Duration(1000s));
        QCOMPARE(delays[19], Clock::Duration(1000s));
        QCOMPARE(limiter.numRequeues(key("a")), 20);
        QCOMPARE(limiter.numRequeues(key("b")), 0);
    }

    void shouldKeepBackoffPerKeyAndResetOnForget()
    {
        ItemExponentialFailureRateLimiter limiter(1ms, 1s);
        QCOMPARE(ms(limiter.when(key("a"))), 1);
        QCOMPARE(ms(limiter.when(key("a"))), 2);
        QCOMPARE(ms(limiter.when(key("b"))), 1);
        limiter.forget(key("a"));
        QCOMPARE(limiter.numRequeues(key("a")), 0);
        QCOMPARE(ms(limiter.when(key("a"))), 1);
        QCOMPARE(limiter.numRequeues(key("b")), 1);
    }

    void shouldSaturateHugeExponentsAtTheCap()
    {
        ItemExponentialFailureRateLimiter limiter(1s, 1000000s);
        for (int i = 0; i < 200; ++i)
            (void)limiter.when(key("a"));
        QCOMPARE(limiter.when(key("a")), Clock::Duration(1000000s));
    }

    void shouldSpendABucketTokenOnEveryWhen()
    {
        // Given a full bucket of 100 tokens refilled at 10 per second
        testing::FakeClock clock;
        BucketRateLimiter bucket(10.0, 100, &clock);
        // When 1000 items fail at the same instant
        QList<qint64> waits;
        for (int i = 0; i < 1000; ++i)
            waits << ms(bucket.when(key("x")));
        // Then the first 100 go at once, the 101st waits 100 ms, the 102nd 200 ms … the last 90 s
        QCOMPARE(waits[0], 0);
        QCOMPARE(waits[99], 0);
        QCOMPARE(waits[100], 100);
        QCOMPARE(waits[101], 200);
        QCOMPARE(waits[999], 90000);
        QCOMPARE(bucket.numRequeues(key("x")), 0);
    }

    void shouldRefillTheBucketWithTime()
    {
        testing::FakeClock clock;
        BucketRateLimiter bucket(10.0, 2, &clock);
        QCOMPARE(ms(bucket.when(key("a"))), 0);
        QCOMPARE(ms(bucket.when(key("a"))), 0);
        QCOMPARE(ms(bucket.when(key("a"))), 100);
        // The reservation above is paid back after 100 ms; then one more token after another 100 ms.
        clock.advance(200ms);
        QCOMPARE(ms(bucket.when(key("a"))), 0);
        QCOMPARE(ms(bucket.when(key("a"))), 100);
        // A long pause refills to the burst and no further.
        clock.advance(10s);
        QCOMPARE(ms(bucket.when(key("a"))), 0);
        QCOMPARE(ms(bucket.when(key("a"))), 0);
        QCOMPARE(ms(bucket.when(key("a"))), 100);
    }

    void shouldTakeTheMaximumOfAllLimiters()
    {
        // Given client-go's default controller limiter
        testing::FakeClock clock;
        auto limiter = defaultControllerRateLimiter(&clock);
        // When 101 different keys fail once at the same instant
        QList<qint64> waits;
        for (int i = 0; i < 101; ++i)
            waits << ms(limiter->when(QueueKey{QString(), QString::number(i)}));
        // Then the exponential term (5 ms) wins until the bucket is empty
        QCOMPARE(waits[0], 5);
        QCOMPARE(waits[99], 5);
        QCOMPARE(waits[100], 100);
        // And numRequeues is the maximum, forget reaches every part
        QCOMPARE(ms(limiter->when(key("k"))), 200); // bucket: 2 tokens short
        QCOMPARE(limiter->numRequeues(key("k")), 1);
        limiter->forget(key("k"));
        QCOMPARE(limiter->numRequeues(key("k")), 0);
    }

    void shouldGoFastThenSlow()
    {
        ItemFastSlowRateLimiter limiter(5ms, 10s, 3);
        QCOMPARE(ms(limiter.when(key("a"))), 5);
        QCOMPARE(ms(limiter.when(key("a"))), 5);
        QCOMPARE(ms(limiter.when(key("a"))), 5);
        QCOMPARE(ms(limiter.when(key("a"))), 10000);
        QCOMPARE(ms(limiter.when(key("b"))), 5);
        QCOMPARE(limiter.numRequeues(key("a")), 4);
        limiter.forget(key("a"));
        QCOMPARE(ms(limiter.when(key("a"))), 5);
    }

    void shouldCapTheWait()
    {
        WithMaxWaitRateLimiter limiter(std::make_unique<ItemExponentialFailureRateLimiter>(1s, 1000s), 3s);
        QCOMPARE(ms(limiter.when(key("a"))), 1000);
        QCOMPARE(ms(limiter.when(key("a"))), 2000);
        QCOMPARE(ms(limiter.when(key("a"))), 3000);
        QCOMPARE(ms(limiter.when(key("a"))), 3000);
        QCOMPARE(limiter.numRequeues(key("a")), 4);
    }

    void shouldOfferThePriorityQueueDefaultWithoutBucket()
    {
        auto limiter = defaultPriorityQueueRateLimiter();
        for (int i = 0; i < 500; ++i)
            QCOMPARE(ms(limiter->when(QueueKey{QString(), QString::number(i)})), 5);
        QCOMPARE(ms(defaultItemBasedRateLimiter()->when(key("a"))), 1);
    }
};

QTEST_GUILESS_MAIN(tst_RateLimiter)
#include "tst_ratelimiter.moc"
