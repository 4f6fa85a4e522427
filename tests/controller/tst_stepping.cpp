// SPDX-License-Identifier: Apache-2.0
// Stepping hooks: pause, step, step into (halting before each client call), breakpoints.
#include "tests/controller/steppingfixture.h"

#include <QSignalSpy>
#include <QTest>

using namespace opbench;
using namespace opbench::test;
using namespace std::chrono_literals;

using Fixture = SteppingFixture;

class tst_Stepping : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void shouldStopTakingItemsWhilePausedAndKeepQueueFilling()
    {
        Fixture f;
        QVERIFY(f.ctrl);
        QSignalSpy paused(f.ctrl, &Controller::pausedChanged);
        f.ctrl->pause();
        QVERIFY(f.ctrl->isPaused());
        QCOMPARE(paused.size(), 1);
        f.add("a");
        f.add("b");
        f.add("c");
        QCoreApplication::processEvents();
        QCOMPARE(f.rec->requests.size(), 0);
        QCOMPARE(f.ctrl->queue()->len(), 3);
        f.ctrl->resume();
        QTRY_COMPARE(f.rec->requests.size(), 3);
        QCOMPARE(paused.size(), 2);
    }

    void shouldLetReconcileInFlightFinishWhenPaused()
    {
        Fixture f;
        QVERIFY(f.ctrl);
        f.rec->hold = true;
        f.add("a");
        QTRY_COMPARE(f.rec->held(), 1);
        f.ctrl->pause();
        f.add("b");
        f.rec->releaseAll();
        QTRY_COMPARE(f.rec->finishedKeys.size(), 1);
        QCoreApplication::processEvents();
        QCOMPARE(f.rec->requests.size(), 1);
        QCOMPARE(f.ctrl->queue()->len(), 1);
    }

    void shouldStepExactlyOneItem()
    {
        Fixture f;
        QVERIFY(f.ctrl);
        f.ctrl->pause();
        f.add("a");
        f.add("b");
        f.add("c");
        QSignalSpy stepped(f.ctrl, &Controller::stepFinished);
        QVERIFY(f.ctrl->step());
        QTRY_COMPARE(stepped.size(), 1);
        QCoreApplication::processEvents();
        QCOMPARE(f.rec->requests.size(), 1);
        QCOMPARE(f.rec->requests.at(0).name, QStringLiteral("a"));
        QVERIFY(f.ctrl->isPaused());
        QCOMPARE(f.ctrl->queue()->len(), 2);
        // A chosen key, out of turn.
        QVERIFY(f.ctrl->step(QueueKey{QStringLiteral("ns"), QStringLiteral("c")}));
        QTRY_COMPARE(stepped.size(), 2);
        QCOMPARE(f.rec->requests.at(1).name, QStringLiteral("c"));
        QCOMPARE(f.ctrl->queue()->len(), 1);
        QVERIFY(!f.ctrl->step(QueueKey{QStringLiteral("ns"), QStringLiteral("zzz")}));
        QCOMPARE(stepped.at(1).at(0).value<ReconcileTrace>().request.name, QStringLiteral("c"));
    }

    void shouldPauseWhenSteppingARunningController()
    {
        Fixture f;
        QVERIFY(f.ctrl);
        f.rec->hold = true;
        f.add("a");
        QTRY_COMPARE(f.rec->held(), 1);
        f.add("b");
        QVERIFY(!f.ctrl->step()); // the only worker is busy
        f.rec->hold = false;
        f.rec->releaseAll();
        QTRY_COMPARE(f.rec->requests.size(), 2);
        f.ctrl->pause();
        f.add("c");
        f.add("d");
        QVERIFY(f.ctrl->step());
        QTRY_COMPARE(f.rec->requests.size(), 3);
        QCoreApplication::processEvents();
        QCOMPARE(f.rec->requests.size(), 3);
    }

    void shouldHaltBeforeEachClientCallWhenSteppingInto()
    {
        Fixture f;
        QVERIFY(f.ctrl);
        f.readTwoConfigMaps();
        f.ctrl->pause();
        f.add("a");
        QSignalSpy pending(f.ctrl, &Controller::callPending);
        QSignalSpy finished(f.ctrl, &Controller::reconcileFinished);
        QVERIFY(f.ctrl->stepInto());
        QTRY_COMPARE(pending.size(), 1);
        auto call = pending.at(0).at(0).value<PendingCall>();
        QCOMPARE(call.verb, QStringLiteral("get"));
        QCOMPARE(call.key, QStringLiteral("ns/one"));
        QCOMPARE(call.index, 0);
        QVERIFY(call.fromCache);
        QCOMPARE(f.ctrl->pendingCalls().size(), 1);
        QCoreApplication::processEvents();
        QCOMPARE(finished.size(), 0);
        QVERIFY(f.ctrl->continueCall());
        QTRY_COMPARE(pending.size(), 2);
        call = pending.at(1).at(0).value<PendingCall>();
        QCOMPARE(call.key, QStringLiteral("ns/two"));
        QCOMPARE(call.index, 1);
        QCOMPARE(finished.size(), 0);
        QVERIFY(f.ctrl->continueToEnd());
        QTRY_COMPARE(finished.size(), 1);
        const auto trace = finished.at(0).at(0).value<ReconcileTrace>();
        QCOMPARE(trace.calls.size(), 2);
        QCOMPARE(trace.calls.at(0).code, 200);
        QVERIFY(trace.calls.at(1).fromCache);
        QCOMPARE(trace.cacheResourceVersion, QString()); // no For informer set in this test
        QVERIFY(f.ctrl->pendingCalls().isEmpty());
        QVERIFY(!f.ctrl->continueCall());
        // A plain step does not halt.
        f.add("b");
        QVERIFY(f.ctrl->step());
        QTRY_COMPARE(finished.size(), 2);
        QCOMPARE(pending.size(), 2);
    }

    void shouldPublishAnObservedStepAsItAdvances()
    {
        // Given a debugger attached and two ConfigMaps the reconcile reads
        Fixture f;
        QVERIFY(f.ctrl);
        f.readTwoConfigMaps();
        f.ctrl->setProgressObserved(true);
        f.ctrl->pause();
        f.add("a");
        QSignalSpy progress(f.ctrl, &Controller::reconcileProgress);
        QSignalSpy pending(f.ctrl, &Controller::callPending);
        // When the user steps into it: published on start, before any call, on worker 1
        QVERIFY(f.ctrl->stepInto());
        QTRY_COMPARE(pending.size(), 1);
        QCOMPARE(progress.size(), 1);
        auto trace = progress.at(0).at(0).value<ReconcileTrace>();
        QCOMPARE(trace.request.toString(), QStringLiteral("ns/a"));
        QCOMPARE(trace.worker, 1);
        QVERIFY(trace.calls.isEmpty());
        // Then after each call, with the object as read
        QVERIFY(f.ctrl->continueCall());
        QTRY_COMPARE(pending.size(), 2);
        QCOMPARE(progress.size(), 2);
        trace = progress.at(1).at(0).value<ReconcileTrace>();
        QCOMPARE(trace.calls.size(), 1);
        QCOMPARE(trace.calls.at(0).object.name(), QStringLiteral("one"));
        QCOMPARE(trace.calls.at(0).resourceVersion, QStringLiteral("5"));
        QVERIFY(f.ctrl->continueToEnd());
        QTRY_COMPARE(progress.size(), 3);
        QCOMPARE(progress.at(2).at(0).value<ReconcileTrace>().calls.at(1).object.name(), QStringLiteral("two"));
        // Step out leaves the controller paused
        QTRY_COMPARE(f.ctrl->activeWorkers(), 0);
        QVERIFY(f.ctrl->isPaused());
        // A reconcile nobody watches publishes nothing and keeps no objects
        f.ctrl->setProgressObserved(false);
        QSignalSpy finished(f.ctrl, &Controller::reconcileFinished);
        f.add("b");
        QVERIFY(f.ctrl->step());
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(progress.size(), 3);
        QVERIFY(finished.at(0).at(0).value<ReconcileTrace>().calls.at(0).object.isNull());
    }

    void shouldContinueAllHaltedReconcilesAndRun()
    {
        Fixture f;
        QVERIFY(f.ctrl);
        f.readThrough({configMap(QStringLiteral("ns"), QStringLiteral("one"))},
            {QStringLiteral("ns/one"), QStringLiteral("ns/one")}, QStringLiteral("1"));
        f.ctrl->pause();
        f.add("a");
        QVERIFY(f.ctrl->stepInto());
        QTRY_COMPARE(f.ctrl->pendingCalls().size(), 1);
        f.add("b");
        // When the user continues: a ends without halting again, and b runs since not paused
        f.ctrl->continueAll();
        QVERIFY(!f.ctrl->isPaused());
        QTRY_COMPARE(f.rec->finishedKeys, (QStringList{"ns/a", "ns/b"}));
        QVERIFY(f.ctrl->pendingCalls().isEmpty());
    }

    void shouldRunToTheNextReconcileOfAKey()
    {
        Fixture f;
        QVERIFY(f.ctrl);
        f.readThrough(
            {configMap(QStringLiteral("ns"), QStringLiteral("one"))}, {QStringLiteral("ns/one")}, QStringLiteral("1"));
        f.ctrl->setProgressObserved(true);
        f.ctrl->pause();
        f.add("a");
        f.add("b");
        f.add("c");
        QSignalSpy progress(f.ctrl, &Controller::reconcileProgress);
        // When the user runs to the next reconcile of ns/b
        QVERIFY(f.ctrl->runTo({QStringLiteral("ns"), QStringLiteral("b")}));
        // Then a runs through, b halts before its first call, paused, and c waits
        QTRY_COMPARE(f.ctrl->pendingCalls().size(), 1);
        QVERIFY(f.ctrl->isPaused());
        QVERIFY(!f.ctrl->runToKey());
        QCOMPARE(f.rec->finishedKeys, QStringList{QStringLiteral("ns/a")});
        QCOMPARE(f.rec->requests.last().name, QStringLiteral("b"));
        QCOMPARE(progress.size(), 1); // only b is watched
        QCOMPARE(progress.at(0).at(0).value<ReconcileTrace>().request.name, QStringLiteral("b"));
        QCOMPARE(f.ctrl->queue()->len(), 1);
        QVERIFY(f.ctrl->continueToEnd());
        QTRY_COMPARE(f.rec->finishedKeys.size(), 2);
        QCoreApplication::processEvents();
        QCOMPARE(f.rec->requests.size(), 2);
        // A pause cancels a run-to that has not arrived
        QVERIFY(f.ctrl->runTo({QStringLiteral("ns"), QStringLiteral("zzz")}));
        QVERIFY(f.ctrl->runToKey());
        f.ctrl->pause();
        QVERIFY(!f.ctrl->runToKey());
    }

    void shouldPauseAtKeyBreakpointBeforeTakingIt()
    {
        Fixture f;
        QVERIFY(f.ctrl);
        f.ctrl->addBreakpoint({QStringLiteral("ns"), QStringLiteral("b")});
        QSignalSpy hit(f.ctrl, &Controller::breakpointHit);
        f.ctrl->pause();
        f.add("a");
        f.add("b");
        f.add("c");
        f.ctrl->resume();
        QTRY_COMPARE(hit.size(), 1);
        QCOMPARE(hit.at(0).at(0).toString(), QStringLiteral("key"));
        QCOMPARE(hit.at(0).at(1).toString(), QStringLiteral("ns/b"));
        QVERIFY(f.ctrl->isPaused());
        QCoreApplication::processEvents();
        QCOMPARE(f.rec->requests.size(), 1); // only a
        QCOMPARE(f.ctrl->queue()->len(), 2);
        f.ctrl->resume(); // passes the breakpoint once
        QTRY_COMPARE(f.rec->requests.size(), 3);
        QCOMPARE(f.rec->requests.at(1).name, QStringLiteral("b"));
        // Hit again next time b comes round.
        f.add("b");
        QTRY_COMPARE(hit.size(), 2);
        QCOMPARE(f.rec->requests.size(), 3);
        f.ctrl->removeBreakpoint({QStringLiteral("ns"), QStringLiteral("b")});
        f.ctrl->resume();
        QTRY_COMPARE(f.rec->requests.size(), 4);
    }

    void shouldPauseOnErrorBreakpoint()
    {
        Fixture f;
        QVERIFY(f.ctrl);
        f.ctrl->setBreakOnError(true);
        f.rec->script = [](const Request &r) -> ReconcileOutcome {
            if (r.name == QLatin1String("bad"))
                return ReconcileOutcome::error(QStringLiteral("broken"));
            return Result{};
        };
        QSignalSpy hit(f.ctrl, &Controller::breakpointHit);
        f.ctrl->pause();
        f.add("bad");
        f.add("good");
        f.ctrl->resume();
        QTRY_COMPARE(hit.size(), 1);
        QCOMPARE(hit.at(0).at(0).toString(), QStringLiteral("error"));
        QCOMPARE(hit.at(0).at(1).toString(), QStringLiteral("ns/bad"));
        QVERIFY(!hit.at(0).at(2).toString().isEmpty());
        QVERIFY(f.ctrl->isPaused());
        QCoreApplication::processEvents();
        QCOMPARE(f.rec->requests.size(), 1);
        f.ctrl->resume();
        QTRY_COMPARE(f.rec->requests.size(), 2);
    }

    void shouldReleaseHaltedCallsOnShutdown()
    {
        Fixture f;
        QVERIFY(f.ctrl);
        f.readThrough(
            {configMap(QStringLiteral("ns"), QStringLiteral("one"))}, {QStringLiteral("ns/one")}, QStringLiteral("1"));
        QSignalSpy finished(f.ctrl, &Controller::reconcileFinished);
        f.ctrl->pause();
        f.add("a");
        QVERIFY(f.ctrl->stepInto());
        QTRY_COMPARE(f.ctrl->pendingCalls().size(), 1);
        bool done = false;
        auto task = f.ctrl->shutdown().then([&done]() { done = true; });
        QTRY_VERIFY(done);
        QCOMPARE(finished.size(), 1);
        const auto trace = finished.at(0).at(0).value<ReconcileTrace>();
        QCOMPARE(trace.calls.size(), 1);
        QCOMPARE(trace.calls.at(0).reason, QStringLiteral("Cancelled"));
    }
};

QTEST_GUILESS_MAIN(tst_Stepping)
#include "tst_stepping.moc"
