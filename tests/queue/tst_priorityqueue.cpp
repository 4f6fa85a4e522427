// SPDX-License-Identifier: Apache-2.0
// The controller-runtime priority queue.
#include "engine/base/metrics.h"
#include "engine/queue/priorityqueue.h"
#include "engine/testing/fakeclock.h"

#include <QSignalSpy>
#include <QTest>

using namespace opbench;
using namespace std::chrono_literals;

namespace {
QueueKey key(const char *name) { return {QStringLiteral("default"), QString::fromLatin1(name)}; }
AddOpts prio(int p) { return AddOpts{.priority = p}; }

struct Fixture
{
    testing::FakeClock clock;
    MetricsRegistry registry;
    std::unique_ptr<WorkQueue> queue;
    Fixture()
    {
        WorkQueueOptions o;
        o.clock = &clock;
        o.metrics = &registry;
        o.name = QStringLiteral("pq");
        queue = makeWorkQueue(WorkQueue::Kind::Priority, std::move(o));
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
    double depth(const QString &priority)
    {
        const auto *g = registry.gauge(QStringLiteral("workqueue_depth"), QString(), {})
                            ->find({QStringLiteral("pq"), QStringLiteral("pq"), priority});
        return g ? g->value() : -1;
    }
};
} // namespace

class tst_PriorityQueue : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldHandOutHighestPriorityFirstThenFifo()
    {
        Fixture f;
        QCOMPARE(f.queue->kind(), WorkQueue::Kind::Priority);
        f.queue->addWithOpts(key("a"), prio(0));
        f.queue->addWithOpts(key("b"), prio(10));
        f.queue->addWithOpts(key("c"), prio(LowPriority));
        f.queue->addWithOpts(key("d"), prio(10));
        f.queue->addWithOpts(key("e"), prio(0));
        QCOMPARE(f.queue->len(), 5);
        QCOMPARE(*f.queue->peek(), key("b"));
        QCOMPARE(f.drainKeys(),
            (QStringList{QStringLiteral("b"), QStringLiteral("d"), QStringLiteral("a"), QStringLiteral("e"),
                QStringLiteral("c")}));
    }

    void shouldReportThePriorityWithTheItem()
    {
        Fixture f;
        f.queue->addWithOpts(key("a"), prio(LowPriority),
            Cause::initialList(QStringLiteral("Pod.v1"), QStringLiteral("default/a"), QStringLiteral("5")));
        auto item = f.queue->tryGet();
        QCOMPARE(item->priority, -100);
        QCOMPARE(item->causes[0].kind, Cause::Kind::InitialList);
    }

    void shouldPutARaisedKeyLastInItsNewLevel()
    {
        // Given y at 5, and x, z at 0
        Fixture f;
        f.queue->addWithOpts(key("y"), prio(5));
        f.queue->addWithOpts(key("x"), prio(0));
        f.queue->addWithOpts(key("z"), prio(0));
        // When x is added again at 5, and z again at a lower priority
        f.queue->addWithOpts(key("x"), prio(5));
        f.queue->addWithOpts(key("z"), prio(-3));
        // Then x goes after y, and z keeps its priority
        QCOMPARE(f.queue->len(), 3);
        QCOMPARE(f.queue->state(key("z")).priority, 0);
        QCOMPARE(f.drainKeys(), (QStringList{QStringLiteral("y"), QStringLiteral("x"), QStringLiteral("z")}));
    }

    void shouldKeepTheEarlierReadyTime()
    {
        Fixture f;
        f.queue->addAfter(key("a"), 10s);
        QCOMPARE(f.queue->len(), 0);
        QCOMPARE(f.queue->waitingCount(), 1);
        f.queue->addAfter(key("a"), 1s);
        QCOMPARE(f.queue->state(key("a")).readyAt, Clock::TimePoint{1s});
        f.queue->addAfter(key("a"), 5s); // later: ignored
        f.clock.advance(1s);
        QCOMPARE(f.queue->len(), 1);
        QCOMPARE(f.drainKeys(), QStringList{QStringLiteral("a")});
        f.clock.advance(20s);
        QVERIFY(!f.queue->tryGet()); // kept once: no second run
    }

    void shouldMakeAWaitingKeyReadyOnAPlainAdd()
    {
        Fixture f;
        f.queue->addAfter(key("a"), 10s, Cause::requeueAfter(10s));
        f.queue->add(key("a"), Cause::manual());
        QCOMPARE(f.queue->len(), 1);
        QCOMPARE(f.queue->waitingCount(), 0);
        auto item = f.queue->tryGet();
        QCOMPARE(item->causes.total(), 2);
        f.queue->done(key("a"));
        f.clock.advance(10s);
        QVERIFY(!f.queue->tryGet());
    }

    void shouldKeepTheTurnOfAWaitingKeyMadeReadyByAPlainAdd()
    {
        // controller-runtime: a waiting item made ready by an add without a priority raise
        // keeps its AddedCounter, so it goes ahead of keys that became ready since.
        Fixture f;
        f.queue->addAfter(key("a"), 10s);
        f.queue->add(key("b"));
        f.queue->add(key("a"));
        QCOMPARE(f.drainKeys(), (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
    }

    void shouldGiveAKeyMovedByTheWaitLoopANewTurn()
    {
        Fixture f;
        f.queue->addAfter(key("a"), 10s);
        f.queue->add(key("b"));
        f.clock.advance(10s); // the wait loop moves a: behind b
        QCOMPARE(f.drainKeys(), (QStringList{QStringLiteral("b"), QStringLiteral("a")}));
        // A raised priority is a new turn too, also for a key still waiting.
        f.queue->addAfter(key("c"), 10s);
        f.queue->addWithOpts(key("d"), prio(1));
        f.queue->addWithOpts(key("c"), prio(1));
        QCOMPARE(f.drainKeys(), (QStringList{QStringLiteral("d"), QStringLiteral("c")}));
    }

    void shouldOrderKeysThatBecameReadyByPriority()
    {
        Fixture f;
        f.queue->addWithOpts(key("low"), AddOpts{.after = 1s, .priority = -1});
        f.queue->addWithOpts(key("high"), AddOpts{.after = 2s, .priority = 3});
        f.clock.advance(2s);
        QCOMPARE(f.drainKeys(), (QStringList{QStringLiteral("high"), QStringLiteral("low")}));
    }

    void shouldHoldBackReAddsUntilDone()
    {
        // Given a handed-out key
        Fixture f;
        QSignalSpy available(f.queue.get(), &WorkQueue::itemsAvailable);
        f.queue->add(key("a"));
        f.queue->add(key("b"));
        auto a = f.queue->tryGet();
        QCOMPARE(a->key, key("a"));
        // When it is added again (at a higher priority) while being processed
        f.queue->addWithOpts(key("a"), prio(9), Cause::manual());
        // Then it counts as ready but is held back
        QCOMPARE(f.queue->len(), 2);
        QCOMPARE(f.queue->state(key("a")).state, KeyState::State::Held);
        QCOMPARE(f.queue->tryGet()->key, key("b"));
        QVERIFY(!f.queue->tryGet());
        QVERIFY(!f.queue->tryGetKey(key("a")));
        // And done() releases it, with the cause that arrived meanwhile
        const int before = int(available.count());
        f.queue->done(key("a"));
        QCOMPARE(available.count(), before + 1);
        auto again = f.queue->tryGet();
        QCOMPARE(again->key, key("a"));
        QCOMPARE(again->priority, 9);
        QCOMPARE(again->causes.total(), 1);
    }

    void shouldReleaseAHeldKeyInItsOriginalTurn()
    {
        // Given a re-add of a handed-out key, then a later add at the same priority
        Fixture f;
        f.queue->add(key("a"));
        (void)f.queue->tryGet();
        f.queue->add(key("a"));
        f.queue->add(key("c"));
        // When a finishes
        f.queue->done(key("a"));
        // Then the held re-add goes first: it was added before c
        QCOMPARE(f.drainKeys(), (QStringList{QStringLiteral("a"), QStringLiteral("c")}));
    }

    void shouldNotDrainOnShutDown()
    {
        Fixture f;
        QSignalSpy drained(f.queue.get(), &WorkQueue::drained);
        f.queue->add(key("a"));
        f.queue->shutDown();
        QVERIFY(!f.queue->tryGet());
        QVERIFY(f.queue->isShutDown());
        f.queue->add(key("b"));
        QCOMPARE(f.queue->len(), 1);
        f.queue->shutDownWithDrain();
        QCOMPARE(drained.count(), 1);
    }

    void shouldUseTheSmallerDelayAndNoBucketByDefault()
    {
        Fixture f;
        for (int i = 0; i < 150; ++i)
            f.queue->addRateLimited(QueueKey{QString(), QString::number(i)});
        f.clock.advance(5ms);
        QCOMPARE(f.queue->len(), 150); // no 10 qps bucket in the priority queue's default
        f.queue->addWithOpts(key("a"), AddOpts{.after = 1ms, .rateLimited = true});
        QCOMPARE(f.queue->state(key("a")).readyAt, f.clock.now() + 1ms);
        QCOMPARE(f.queue->numRequeues(key("a")), 1);
    }

    void shouldCountDepthPerPriority()
    {
        Fixture f;
        f.queue->addWithOpts(key("a"), prio(0));
        f.queue->addWithOpts(key("b"), prio(LowPriority));
        f.queue->addWithOpts(key("c"), AddOpts{.after = 1s, .priority = 5});
        QCOMPARE(f.depth(QStringLiteral("0")), 1.0);
        QCOMPARE(f.depth(QStringLiteral("-100")), 1.0);
        QCOMPARE(f.depth(QStringLiteral("5")), -1.0); // not ready: not counted yet
        f.queue->addWithOpts(key("b"), prio(0));      // raised: moves between labels
        QCOMPARE(f.depth(QStringLiteral("-100")), 0.0);
        QCOMPARE(f.depth(QStringLiteral("0")), 2.0);
        f.clock.advance(1s);
        QCOMPARE(f.depth(QStringLiteral("5")), 1.0);
        QCOMPARE(f.drainKeys().size(), 3);
        QCOMPARE(f.depth(QStringLiteral("0")), 0.0);
        QCOMPARE(f.depth(QStringLiteral("5")), 0.0);
    }

    void shouldCapPriorityLabelCardinality()
    {
        Fixture f;
        for (int p = 0; p < 30; ++p)
            f.queue->addWithOpts(QueueKey{QString(), QString::number(p)}, prio(p));
        QCOMPARE(f.depth(QStringLiteral("24")), 1.0);
        QCOMPARE(f.depth(QStringLiteral("25")), -1.0);
        QCOMPARE(f.depth(QStringLiteral("exceeded_cardinality_limit")), 5.0);
        QCOMPARE(f.drainKeys().size(), 30);
        QCOMPARE(f.depth(QStringLiteral("exceeded_cardinality_limit")), 0.0);
    }

    void shouldDescribeKeysInTheSnapshot()
    {
        Fixture f;
        f.queue->addWithOpts(key("w"), AddOpts{.after = 3s, .priority = 2});
        f.queue->addWithOpts(key("q"), prio(LowPriority));
        f.queue->add(key("p"));
        (void)f.queue->tryGetKey(key("p"));
        const auto snap = f.queue->snapshot();
        QCOMPARE(snap.size(), size_t(3));
        QCOMPARE(snap[0].state, KeyState::State::Processing);
        QCOMPARE(snap[1].state, KeyState::State::Queued);
        QCOMPARE(snap[1].priority, LowPriority);
        QCOMPARE(snap[2].state, KeyState::State::Waiting);
        QCOMPARE(snap[2].readyAt, Clock::TimePoint{3s});
        f.queue->done(key("p"));
        QCOMPARE(f.queue->snapshot().size(), size_t(2));
    }
};

QTEST_GUILESS_MAIN(tst_PriorityQueue)
#include "tst_priorityqueue.moc"
