// SPDX-License-Identifier: Apache-2.0
// ControllerObserver (engine/workbench/controllerobserver.h): the Reconciles panel's batches of
// finished traces and the Control toolbar's state and intents (pause, step, step into a call,
// continue, breakpoints), against a real Controller with a scripted reconciler on a FakeClock.
// In-process: what is queued runs when the event loop is drained (tests/support/eventloop.h), so
// "nothing reconciled" is checked without waiting for a time.
#include "engine/api/status.h"
#include "engine/cache/informercache.h"
#include "engine/testing/fakeclock.h"
#include "engine/workbench/controllerobserver.h"
#include "tests/controller/scriptedreconciler.h"
#include "tests/support/eventloop.h"
#include "tests/workbench/headless.h"

#include <QSignalSpy>
#include <QTest>

using namespace opbench;
using namespace opbench::workbench;

class tst_ControllerObserver : public QObject
{
    Q_OBJECT

    struct Fixture
    {
        Q_DISABLE_COPY_MOVE(Fixture)
        testing::FakeClock clock;
        MetricsRegistry metrics;
        QObject parent;
        std::shared_ptr<test::ScriptedReconciler> rec = std::make_shared<test::ScriptedReconciler>();
        Controller *ctrl = nullptr;
        ControllerObserver observer;
        QList<ReconcileTrace> traces;
        QList<int> batchSizes;
        ControlState state;
        int states = 0;
        Fixture()
        {
            QObject::connect(
                &observer, &ControllerObserver::reconcilesFinished, &parent, [this](const QList<ReconcileTrace> &t) {
                    traces.append(t);
                    batchSizes.append(int(t.size()));
                });
            QObject::connect(&observer, &ControllerObserver::controlState, &parent, [this](const ControlState &s) {
                state = s;
                ++states;
            });
        }
        bool start()
        {
            ctrl = test::startedController(
                test::testOptions(QStringLiteral("observed"), &clock, &metrics), rec, &parent);
            if (!ctrl)
                return false;
            observer.observe(ctrl);
            return true;
        }
        ~Fixture() { observer.observe(nullptr); }
        /// Every reconcile gets ConfigMap ns/cm (cached at rv 1) once through a Client.
        void readConfigMap()
        {
            cache = std::make_unique<InformerCache>(InformerCacheOptions{});
            (*cache->informerFor(test::configMapGvk()))
                ->replaceAll({test::configMap(QStringLiteral("ns"), QStringLiteral("cm"))}, QStringLiteral("1"));
            client = std::make_unique<Client>(cache.get(), nullptr, &clock);
            rec->client = client.get();
            rec->reads = {QStringLiteral("ns/cm")};
        }
        std::unique_ptr<InformerCache> cache; // destroyed before the controller
        std::unique_ptr<Client> client;
        void add(const QString &name) { ctrl->queue()->add({QStringLiteral("ns"), name}, Cause::manual()); }
        QStringList tracedKeys() const
        {
            QStringList out;
            for (const ReconcileTrace &t : traces)
                out << t.request.toString();
            return out;
        }
    };

private Q_SLOTS:
    void initTestCase() { testing::verifyNoGuiLibrariesLoaded(); }

    void shouldBatchFinishedReconcilesAndPublishTheState()
    {
        Fixture f;
        QVERIFY(f.start());
        QVERIFY(f.state.available);
        QVERIFY(!f.state.paused);
        for (const char *name : {"a", "b", "c"})
            f.add(QLatin1String(name));
        QTRY_COMPARE_WITH_TIMEOUT(f.traces.size(), 3, 10000); // flushed every 100 ms
        QCOMPARE(f.tracedKeys(), (QStringList{"ns/a", "ns/b", "ns/c"}));
        // Three reconciles finished inside one flush interval travel as one batch
        QCOMPARE(f.batchSizes, QList<int>{3});
        QCOMPARE(f.state.activeWorkers, 0);
        // Observing nothing: unavailable, every intent a no-op that still answers with the state
        f.observer.observe(nullptr);
        QVERIFY(!f.state.available);
        const int states = f.states;
        f.observer.pause();
        f.observer.step();
        QCOMPARE(f.states, states + 2);
        QVERIFY(!f.state.available);
    }

    void shouldHoldReconcilesWhilePausedAndStepExactlyOne()
    {
        Fixture f;
        QVERIFY(f.start());
        // Given a paused controller with two keys queued
        f.observer.pause();
        QVERIFY(f.state.paused);
        f.add(QStringLiteral("one"));
        f.add(QStringLiteral("two"));
        testing::drainEventLoop();
        QVERIFY(f.rec->requests.isEmpty());
        QCOMPARE(f.ctrl->queue()->len(), 2);
        // When the user steps "two"
        f.observer.step(QStringLiteral("ns/two"));
        // Then that one reconciles, and only that one; still paused
        QTRY_COMPARE_WITH_TIMEOUT(f.traces.size(), 1, 10000);
        QCOMPARE(f.tracedKeys(), QStringList{QStringLiteral("ns/two")});
        testing::drainEventLoop();
        QCOMPARE(f.rec->requests.size(), 1);
        QVERIFY(f.state.paused);
        QCOMPARE(f.ctrl->queue()->len(), 1);
        // Resume: the rest runs
        f.observer.resume();
        QVERIFY(!f.state.paused);
        QTRY_COMPARE_WITH_TIMEOUT(f.traces.size(), 2, 10000);
        QCOMPARE(f.tracedKeys().last(), QStringLiteral("ns/one"));
    }

    void shouldShowActiveWorkersUntilTheyAreIdle()
    {
        Fixture f;
        f.rec->hold = true;
        QVERIFY(f.start());
        f.add(QStringLiteral("held"));
        QTRY_COMPARE_WITH_TIMEOUT(f.rec->held(), 1, 10000);
        f.observer.pause(); // publishes the state now: one worker still busy
        QVERIFY(f.state.paused);
        QCOMPARE(f.state.activeWorkers, 1);
        f.rec->releaseAll();
        QTRY_COMPARE_WITH_TIMEOUT(f.state.activeWorkers, 0, 10000); // workersIdle
        QTRY_COMPARE_WITH_TIMEOUT(f.traces.size(), 1, 10000);
    }

    void shouldHaltBeforeEachCallOnStepInto()
    {
        Fixture f;
        InformerCache cache(InformerCacheOptions{});
        Informer *configMaps = *cache.informerFor(test::configMapGvk());
        configMaps->replaceAll({test::configMap(QStringLiteral("ns"), QStringLiteral("cm"))}, QStringLiteral("1"));
        Client client(&cache, nullptr, &f.clock);
        f.rec->client = &client;
        f.rec->reads = {QStringLiteral("ns/cm"), QStringLiteral("ns/cm")};
        QVERIFY(f.start());
        f.observer.pause();
        f.add(QStringLiteral("into"));
        testing::drainEventLoop();
        // Step into: halted before its first call, which the state shows
        f.observer.stepInto(QStringLiteral("ns/into"));
        QTRY_COMPARE_WITH_TIMEOUT(f.state.pendingCalls.size(), 1, 10000);
        QVERIFY2(
            f.state.pendingCalls.first().contains(QStringLiteral("ns/cm")), qPrintable(f.state.pendingCalls.first()));
        testing::drainEventLoop();
        QVERIFY(f.traces.isEmpty());
        QVERIFY(f.rec->finishedKeys.isEmpty());
        // Step lets that one call go out and halts before the next
        const int before = f.states;
        f.observer.step();
        QTRY_VERIFY_WITH_TIMEOUT(f.states > before && f.state.pendingCalls.size() == 1, 10000);
        testing::drainEventLoop();
        QVERIFY(f.rec->finishedKeys.isEmpty());
        // Continue to the end: finished, one trace with both reads, nothing pending, still paused
        f.observer.continueToEnd();
        QTRY_COMPARE_WITH_TIMEOUT(f.traces.size(), 1, 10000);
        QCOMPARE(f.traces.first().calls.size(), 2);
        QTRY_VERIFY_WITH_TIMEOUT(f.state.pendingCalls.isEmpty(), 10000);
        QVERIFY(f.state.paused);
    }

    void shouldPublishTheSteppedReconcileAsItAdvances()
    {
        // Given a paused controller whose reconcile reads one ConfigMap twice
        QList<CurrentReconcile> frames; // outlives the fixture, whose observer publishes to the end
        Fixture f;
        InformerCache cache(InformerCacheOptions{});
        Informer *configMaps = *cache.informerFor(test::configMapGvk());
        configMaps->replaceAll(
            {test::configMap(QStringLiteral("ns"), QStringLiteral("cm"), QStringLiteral("7"))}, QStringLiteral("7"));
        Client client(&cache, nullptr, &f.clock);
        f.rec->client = &client;
        f.rec->reads = {QStringLiteral("ns/cm"), QStringLiteral("ns/cm")};
        QObject::connect(&f.observer, &ControllerObserver::currentReconcile, &f.parent,
            [&frames](const CurrentReconcile &c) { frames.append(c); });
        QVERIFY(f.start());
        f.observer.pause();
        f.add(QStringLiteral("into"));
        testing::drainEventLoop();
        QVERIFY(frames.isEmpty()); // nothing stepped yet
        // When the user steps into it: the frame shows key, worker, causes, halted before a get
        f.observer.stepInto(QStringLiteral("ns/into"));
        QTRY_VERIFY_WITH_TIMEOUT(!frames.isEmpty() && frames.last().halted, 10000);
        CurrentReconcile c = frames.last();
        QCOMPARE(c.key, QStringLiteral("ns/into"));
        QCOMPARE(c.worker, 1);
        QCOMPARE(c.causes.size(), 1);
        QVERIFY(c.calls.isEmpty());
        QCOMPARE(c.pending.verb, QStringLiteral("get"));
        QCOMPARE(c.pending.key, QStringLiteral("ns/cm"));
        // Step over: one call made (the object as read, from the cache at rv 7), halted again
        const qsizetype seen = frames.size();
        f.observer.stepOver();
        QTRY_VERIFY_WITH_TIMEOUT(frames.size() > seen && frames.last().halted, 10000);
        c = frames.last();
        QCOMPARE(c.calls.size(), 1);
        QVERIFY(c.calls.first().fromCache);
        QCOMPARE(c.calls.first().resourceVersion, QStringLiteral("7"));
        QCOMPARE(c.calls.first().object.name(), QStringLiteral("cm"));
        QCOMPARE(c.pending.index, 1);
        // Step out: finished, both calls, still paused
        f.observer.stepOut();
        QTRY_VERIFY_WITH_TIMEOUT(frames.last().finished, 10000);
        QCOMPARE(frames.last().calls.size(), 2);
        QCOMPARE(frames.last().result, QStringLiteral("success"));
        QVERIFY(!frames.last().halted);
        QVERIFY(f.state.paused);
        // Observing another controller (here none) clears the frame
        f.observer.observe(nullptr);
        QVERIFY(frames.last().reconcileId.isEmpty());
    }

    void shouldRunToTheNextReconcileOfAKeyThenContinue()
    {
        CurrentReconcile frame; // outlives the fixture, whose observer publishes to the end
        Fixture f;
        f.readConfigMap();
        QObject::connect(&f.observer, &ControllerObserver::currentReconcile, &f.parent,
            [&frame](const CurrentReconcile &c) { frame = c; });
        QVERIFY(f.start());
        f.observer.pause();
        f.add(QStringLiteral("x"));
        testing::drainEventLoop();
        // Run to y, not queued yet: x runs through, and the controller runs waiting for y
        f.observer.runToKey(QStringLiteral("ns/y"));
        QTRY_COMPARE_WITH_TIMEOUT(f.rec->finishedKeys, QStringList{QStringLiteral("ns/x")}, 10000);
        QCOMPARE(f.state.runTo, QStringLiteral("ns/y"));
        QVERIFY(!f.state.paused);
        QVERIFY(frame.reconcileId.isEmpty()); // x was not stepped
        // When y comes, it halts before its first call and the controller pauses
        f.add(QStringLiteral("y"));
        QTRY_VERIFY_WITH_TIMEOUT(frame.halted, 10000);
        QCOMPARE(frame.key, QStringLiteral("ns/y"));
        QVERIFY(f.state.paused);
        QVERIFY(f.state.runTo.isEmpty());
        f.add(QStringLiteral("z"));
        testing::drainEventLoop();
        QCOMPARE(f.rec->finishedKeys, QStringList{QStringLiteral("ns/x")});
        // Continue: y finishes without halting again and z runs
        f.observer.continueAll();
        QVERIFY(!f.state.paused);
        QTRY_COMPARE_WITH_TIMEOUT(f.rec->finishedKeys, (QStringList{"ns/x", "ns/y", "ns/z"}), 10000);
        QVERIFY(frame.finished);
    }

    void shouldPauseOnABreakpointKeyAndOnErrors()
    {
        Fixture f;
        f.rec->script = [](const Request &r) -> ReconcileOutcome {
            if (r.name == QLatin1String("bad"))
                return Status::internalError(QStringLiteral("boom"));
            return Result{};
        };
        QVERIFY(f.start());
        f.observer.toggleBreakpoint(QStringLiteral("ns/stop-here"));
        QCOMPARE(f.state.breakpoints, QStringList{QStringLiteral("ns/stop-here")});
        f.add(QStringLiteral("stop-here"));
        QTRY_VERIFY_WITH_TIMEOUT(f.state.paused, 10000);
        QVERIFY2(f.state.lastBreak.contains(QStringLiteral("ns/stop-here")), qPrintable(f.state.lastBreak));
        testing::drainEventLoop();
        QVERIFY(f.rec->requests.isEmpty());
        // Toggled off and resumed: it reconciles; Continue clears the last break
        f.observer.toggleBreakpoint(QStringLiteral("ns/stop-here"));
        QVERIFY(f.state.breakpoints.isEmpty());
        f.observer.continueRunning();
        QVERIFY(f.state.lastBreak.isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(f.traces.size(), 1, 10000);
        // Break on error: a failed reconcile pauses the controller
        f.observer.setBreakOnError(true);
        QVERIFY(f.state.breakOnError);
        f.add(QStringLiteral("bad"));
        QTRY_VERIFY_WITH_TIMEOUT(f.state.paused, 10000);
        QVERIFY2(f.state.lastBreak.contains(QStringLiteral("ns/bad")), qPrintable(f.state.lastBreak));
        QTRY_COMPARE_WITH_TIMEOUT(f.traces.size(), 2, 10000);
        QCOMPARE(f.traces.last().result, ReconcileTrace::Result::Error);
    }

    void shouldListBreakpointsAndSayWhichOneHit()
    {
        // Given a running controller whose reconciles read a ConfigMap, watched by the observer
        QList<CurrentReconcile> frames;
        Fixture f;
        f.readConfigMap();
        QObject::connect(&f.observer, &ControllerObserver::currentReconcile, &f.parent,
            [&frames](const CurrentReconcile &c) { frames.append(c); });
        QVERIFY(f.start());
        // When the user types a breakpoint it cannot read, it says why and adds nothing
        f.observer.addBreakpoint(QStringLiteral("stop somewhere"));
        QVERIFY2(
            f.state.breakpointError.contains(QStringLiteral("stop somewhere")), qPrintable(f.state.breakpointError));
        QVERIFY(f.state.breakpointList.isEmpty());
        // And two it can read are listed, in order, enabled
        f.observer.addBreakpoint(QStringLiteral("kind Deployment"));
        f.observer.addBreakpoint(QStringLiteral("before get ConfigMap"));
        QVERIFY(f.state.breakpointError.isEmpty());
        QCOMPARE(f.state.breakpointList.size(), 2);
        const BreakpointRow call = f.state.breakpointList.at(1);
        QCOMPARE(call.description, QStringLiteral("before get ConfigMap"));
        QVERIFY(call.enabled);
        // Then a reconcile halts before its get: the state and the frame say which breakpoint
        f.add(QStringLiteral("a"));
        QTRY_VERIFY_WITH_TIMEOUT(!frames.isEmpty() && frames.last().halted, 10000);
        QVERIFY(f.state.paused);
        QCOMPARE(f.state.lastBreakId, call.id);
        QVERIFY2(f.state.lastBreak.contains(QStringLiteral("before get ConfigMap")), qPrintable(f.state.lastBreak));
        QCOMPARE(f.state.breakpointList.at(1).hits, 1);
        QCOMPARE(frames.last().key, QStringLiteral("ns/a"));
        QCOMPARE(frames.last().pending.key, QStringLiteral("ns/cm"));
        QCOMPARE(frames.last().breakpoint, f.state.lastBreak);
        // Disabled, removed: the list follows
        f.observer.setBreakpointEnabled(call.id, false);
        QVERIFY(!f.state.breakpointList.at(1).enabled);
        f.observer.removeBreakpoint(call.id);
        QCOMPARE(f.state.breakpointList.size(), 1);
        f.observer.continueAll();
        QTRY_COMPARE_WITH_TIMEOUT(f.traces.size(), 1, 10000);
    }
};

QTEST_GUILESS_MAIN(tst_ControllerObserver)
#include "tst_controllerobserver.moc"
