// SPDX-License-Identifier: Apache-2.0
// The basic layer of the plain (client-go) queue: dedup, dirty/processing, shutdown, causes,
// observable state.
#include "engine/base/metrics.h"
#include "engine/queue/ratelimitingqueue.h"
#include "engine/testing/fakeclock.h"

#include <QSignalSpy>
#include <QTest>

using namespace opbench;
using namespace std::chrono_literals;

namespace {
QueueKey key(const char *name) { return {QStringLiteral("default"), QString::fromLatin1(name)}; }

Cause watch(const char *rv, Cause::EventType type = Cause::EventType::Modified)
{
    return Cause::watchEvent(
        type, QStringLiteral("MyApplication.v1.example.com"), QStringLiteral("default/a"), QString::fromLatin1(rv));
}

struct Fixture
{
    testing::FakeClock clock;
    MetricsRegistry registry;
    std::unique_ptr<RateLimitingQueue> queue;
    explicit Fixture(int maxCauses = 32)
    {
        WorkQueueOptions o;
        o.clock = &clock;
        o.metrics = &registry;
        o.maxCausesPerKey = maxCauses;
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

class RecordingListener : public WorkQueueListener
{
public:
    QStringList events;
    void keyChanged(const KeyState &s) override { events << s.key.name + u':' + KeyState::stateName(s.state); }
    void keyRemoved(const QueueKey &k) override { events << k.name + QLatin1String(":removed"); }
};
} // namespace

class tst_WorkQueue : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldHandOutInFifoOrderAndDeduplicate()
    {
        Fixture f;
        f.queue->add(key("a"));
        f.queue->add(key("b"));
        f.queue->add(key("a")); // dirty: no-op
        f.queue->add(key("c"));
        QCOMPARE(f.queue->len(), 3);
        QCOMPARE(f.drainKeys(), (QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}));
        QCOMPARE(f.queue->len(), 0);
    }

    void shouldRequeueAKeyAddedWhileProcessingAtTheTail()
    {
        // Given a handed-out key
        Fixture f;
        f.queue->add(key("a"));
        f.queue->add(key("b"));
        auto a = f.queue->tryGet();
        QCOMPARE(a->key, key("a"));
        // When it is added again while processing
        f.queue->add(key("a"));
        f.queue->add(key("a"));
        // Then it is not handed out a second time, and len() excludes it
        QCOMPARE(f.queue->len(), 1);
        auto b = f.queue->tryGet();
        QCOMPARE(b->key, key("b"));
        QVERIFY(!f.queue->tryGet());
        QCOMPARE(f.queue->state(key("a")).state, KeyState::State::Held);
        // And done() puts it back once, at the tail
        f.queue->add(key("c"));
        f.queue->done(key("a"));
        QCOMPARE(f.queue->len(), 2);
        QCOMPARE(f.queue->tryGet()->key, key("c"));
        QCOMPARE(f.queue->tryGet()->key, key("a"));
        QVERIFY(!f.queue->tryGet());
    }

    void shouldIgnoreDoneForUnknownKeys()
    {
        Fixture f;
        f.queue->done(key("nope"));
        f.queue->add(key("a"));
        f.queue->done(key("a")); // queued, not processing
        QCOMPARE(f.queue->len(), 1);
        QCOMPARE(f.queue->processingCount(), 0);
    }

    void shouldEmitItemsAvailableOnlyWhenBecomingNonEmpty()
    {
        Fixture f;
        QSignalSpy spy(f.queue.get(), &WorkQueue::itemsAvailable);
        f.queue->add(key("a"));
        f.queue->add(key("b"));
        QCOMPARE(spy.count(), 1);
        (void)f.queue->tryGet();
        (void)f.queue->tryGet();
        f.queue->add(key("a")); // processing: not available
        QCOMPARE(spy.count(), 1);
        f.queue->done(key("a"));
        QCOMPARE(spy.count(), 2);
    }

    void shouldLetConsumersDrainAfterShutDown()
    {
        // Given two queued keys
        Fixture f;
        QSignalSpy started(f.queue.get(), &WorkQueue::shutDownStarted);
        f.queue->add(key("a"));
        f.queue->add(key("b"));
        // When the queue shuts down
        f.queue->shutDown();
        QCOMPARE(started.count(), 1);
        // Then adds are ignored, but what is queued is still handed out
        f.queue->add(key("c"));
        QCOMPARE(f.queue->len(), 2);
        QVERIFY(f.queue->isShutDown());
        QCOMPARE(f.drainKeys(), (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
        QVERIFY(!f.queue->tryGet());
    }

    void shouldSignalDrainedWhenProcessingEmpties()
    {
        Fixture f;
        QSignalSpy drained(f.queue.get(), &WorkQueue::drained);
        f.queue->add(key("a"));
        f.queue->add(key("b"));
        (void)f.queue->tryGet();
        f.queue->shutDownWithDrain();
        QCOMPARE(drained.count(), 0);
        // The queued key is still handed out; drained waits for both to finish.
        auto b = f.queue->tryGet();
        QCOMPARE(b->key, key("b"));
        f.queue->done(key("a"));
        QCOMPARE(drained.count(), 0);
        f.queue->done(key("b"));
        QCOMPARE(drained.count(), 1);
    }

    void shouldSignalDrainedAtOnceWhenIdle()
    {
        Fixture f;
        QSignalSpy drained(f.queue.get(), &WorkQueue::drained);
        f.queue->shutDownWithDrain();
        QCOMPARE(drained.count(), 1);
    }

    void shouldCutTheDrainWaitShortOnALaterShutDown()
    {
        Fixture f;
        QSignalSpy drained(f.queue.get(), &WorkQueue::drained);
        f.queue->add(key("a"));
        (void)f.queue->tryGet();
        f.queue->shutDownWithDrain();
        QCOMPARE(drained.count(), 0);
        f.queue->shutDown();
        QCOMPARE(drained.count(), 1);
        f.queue->done(key("a"));
        QCOMPARE(drained.count(), 1);
    }

    void shouldMergeCausesAndHandThemOut()
    {
        // Given three events for the same key while it waits
        Fixture f;
        f.queue->add(key("a"), watch("1", Cause::EventType::Added));
        f.clock.advance(10ms);
        f.queue->add(key("a"), watch("2"));
        f.queue->add(key("a"), Cause::manual(QStringLiteral("button")));
        // When it is handed out
        auto item = f.queue->tryGet();
        // Then all three come with it, in arrival order, stamped with the clock
        QVERIFY(item);
        QCOMPARE(item->causes.total(), 3);
        QCOMPARE(item->causes[0].resourceVersion, QStringLiteral("1"));
        QCOMPARE(item->causes[1].resourceVersion, QStringLiteral("2"));
        QCOMPARE(item->causes[2].kind, Cause::Kind::Manual);
        QCOMPARE(item->causes[0].at, Clock::TimePoint{});
        QCOMPARE(item->causes[1].at, Clock::TimePoint{10ms});
        QCOMPARE(item->queuedAt, Clock::TimePoint{});
        QCOMPARE(
            item->causes[1].describe(), QStringLiteral("watch MODIFIED MyApplication.v1.example.com default/a rv 2"));
    }

    void shouldGiveCausesArrivingDuringProcessingToTheNextRound()
    {
        Fixture f;
        f.queue->add(key("a"), watch("1"));
        auto first = f.queue->tryGet();
        f.queue->add(key("a"), watch("2"));
        f.queue->add(key("a"), watch("3"));
        QCOMPARE(first->causes.total(), 1);
        QCOMPARE(f.queue->state(key("a")).causes.total(), 2);
        f.queue->done(key("a"));
        auto second = f.queue->tryGet();
        QCOMPARE(second->causes.total(), 2);
        QCOMPARE(second->causes[0].resourceVersion, QStringLiteral("2"));
        QCOMPARE(second->causes[1].resourceVersion, QStringLiteral("3"));
    }

    void shouldBoundCausesAndCountTheRest()
    {
        Fixture f(4);
        for (int i = 0; i < 10; ++i)
            f.queue->add(key("a"), watch(QByteArray::number(i).constData()));
        auto item = f.queue->tryGet();
        QCOMPARE(item->causes.size(), 4);
        QCOMPARE(item->causes.dropped(), 6);
        QCOMPARE(item->causes.total(), 10);
        QCOMPARE(item->causes.last().resourceVersion, QStringLiteral("3"));
    }

    void shouldCountRetriesAndFillRetryCauses()
    {
        Fixture f;
        f.queue->addRateLimited(key("a"), Cause::rateLimitedRetry(0, QStringLiteral("boom")));
        QCOMPARE(f.queue->numRequeues(key("a")), 1);
        f.clock.advance(5ms);
        auto item = f.queue->tryGet();
        QVERIFY(item);
        QCOMPARE(item->retries, 1);
        QCOMPARE(item->causes[0].attempt, 1);
        QCOMPARE(item->causes[0].delay, Clock::Duration(5ms));
        QCOMPARE(item->causes[0].describe(), QStringLiteral("retry #1 after 5ms: boom"));
        f.queue->done(key("a"));
        // The history survives an idle period; a later plain add still reports it
        f.queue->add(key("a"));
        QCOMPARE(f.queue->tryGet()->retries, 1);
        f.queue->done(key("a"));
        f.queue->forget(key("a"));
        QCOMPARE(f.queue->numRequeues(key("a")), 0);
        QCOMPARE(f.queue->state(key("a")).state, KeyState::State::Idle);
        QVERIFY(f.queue->snapshot().empty());
    }

    void shouldHandOutASelectedKeyAheadOfItsTurn()
    {
        Fixture f;
        f.queue->add(key("a"));
        f.queue->add(key("b"));
        f.queue->add(key("c"));
        QCOMPARE(*f.queue->peek(), key("a"));
        QVERIFY(!f.queue->tryGetKey(key("zzz")));
        auto b = f.queue->tryGetKey(key("b"));
        QCOMPARE(b->key, key("b"));
        QVERIFY(!f.queue->tryGetKey(key("b"))); // processing now
        QCOMPARE(f.queue->len(), 2);
        QCOMPARE(f.drainKeys(), (QStringList{QStringLiteral("a"), QStringLiteral("c")}));
    }

    void shouldDescribeEveryKeyInTheSnapshot()
    {
        Fixture f;
        f.queue->add(key("q"), watch("1"));
        f.queue->add(key("p"));
        (void)f.queue->tryGetKey(key("p"));
        f.queue->add(key("h"));
        (void)f.queue->tryGetKey(key("h"));
        f.queue->add(key("h"), watch("9"));
        f.queue->addAfter(key("w"), 2s, Cause::requeueAfter(2s));
        const auto snap = f.queue->snapshot();
        QCOMPARE(snap.size(), size_t(4));
        QCOMPARE(snap[0].key, key("h"));
        QCOMPARE(snap[0].state, KeyState::State::Held);
        QVERIFY(snap[0].processing && snap[0].requeued);
        QCOMPARE(snap[1].key, key("p"));
        QCOMPARE(snap[1].state, KeyState::State::Processing);
        QCOMPARE(snap[2].key, key("q"));
        QCOMPARE(snap[2].state, KeyState::State::Queued);
        QCOMPARE(snap[2].causes.total(), 1);
        QCOMPARE(snap[3].key, key("w"));
        QCOMPARE(snap[3].state, KeyState::State::Waiting);
        QCOMPARE(snap[3].readyAt, Clock::TimePoint{2s});
        QCOMPARE(snap[3].delayedCauses[0].kind, Cause::Kind::RequeueAfter);
    }

    void shouldTellListenersAboutEveryChange()
    {
        Fixture f;
        RecordingListener l;
        f.queue->addListener(&l);
        f.queue->add(key("a"));
        (void)f.queue->tryGet();
        f.queue->add(key("a"));
        f.queue->done(key("a"));
        (void)f.queue->tryGet();
        f.queue->done(key("a"));
        f.queue->removeListener(&l);
        f.queue->add(key("b"));
        QCOMPARE(l.events,
            (QStringList{QStringLiteral("a:Queued"), QStringLiteral("a:Processing"), QStringLiteral("a:Held"),
                QStringLiteral("a:Queued"), QStringLiteral("a:Processing"), QStringLiteral("a:removed")}));
    }

    void shouldReleaseIdleKeysWhileManyComeAndGo()
    {
        // 10k distinct keys cycle through; the snapshot never lists finished ones.
        Fixture f;
        for (int round = 0; round < 3; ++round) {
            for (int i = 0; i < 10000; ++i)
                f.queue->add(QueueKey{QString(), QString::number(round * 10000 + i)});
            QCOMPARE(f.drainKeys().size(), 10000);
            QVERIFY(f.queue->snapshot().empty());
        }
    }
};

QTEST_GUILESS_MAIN(tst_WorkQueue)
#include "tst_workqueue.moc"
