// SPDX-License-Identifier: Apache-2.0
// The Pipeline view: the controller's stages with live counts. The model under
// QAbstractItemModelTester shows what each snapshot means at each stage, only when advanced (the
// throttle: 10,000 objects move the counts once); paused workers, a stepping reconcile and a
// backoff wait mark their stages; a click on a stage asks for the dock that shows it; and the
// counts move when a real embedded session runs the sample operator.
#include "tests/ui/myappfixture.h"
#include "ui/models/pipelinemodel.h"
#include "ui/session/enginesession.h"
#include "ui/widgets/pipelinepanel.h"

#include <QAbstractItemModelTester>
#include <QJsonObject>
#include <QLocale>
#include <QSignalSpy>
#include <QTest>

using namespace opbench;
using namespace opbench::ui;

namespace {

CacheBatch informers(int objects, qint64 events, bool synced = true)
{
    CacheBatch b;
    InformerState apps;
    apps.kind = QStringLiteral("MyApplication");
    apps.synced = synced;
    apps.latestRv = QStringLiteral("20042");
    apps.count = objects;
    apps.events = events;
    InformerState deployments;
    deployments.kind = QStringLiteral("Deployment");
    deployments.synced = true;
    b.informers = {apps, deployments};
    return b;
}

ReconcileTrace trace(ReconcileTrace::Result result, const QStringList &verbs, int code = 200)
{
    ReconcileTrace t;
    t.request = QueueKey::fromString(QStringLiteral("default/web"));
    t.result = result;
    for (const QString &verb : verbs) {
        TraceCall c;
        c.verb = verb;
        c.fromCache = verb == u"get";
        c.code = verb == u"get" ? 200 : code;
        t.calls.append(c);
    }
    return t;
}

} // namespace

class tst_Pipeline : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldCountEachStageOnlyWhenAdvanced()
    {
        // Given the pipeline model under the tester
        PipelineModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), int(PipelineModel::StageCount));
        QCOMPARE(model.index(PipelineModel::Queue).data().toString(), QStringLiteral("Work queue"));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        // When 10,000 objects arrive through the watch in one batch
        model.applyCache(informers(10000, 10000));
        // Then nothing moves until the view advances (one repaint, not 10,000)
        QCOMPARE(model.count(PipelineModel::Cache), 0);
        QCOMPARE(changed.size(), 0);
        model.advance();
        QCOMPARE(changed.size(), 1);
        QCOMPARE(model.count(PipelineModel::Cache), 10000);
        QCOMPARE(
            model.index(PipelineModel::Cache).data(PipelineModel::CountTextRole).toString(), QLocale().toString(10000));
        QCOMPARE(model.count(PipelineModel::Reflector), 10000);
        QCOMPARE(model.activity(PipelineModel::Reflector), 10000);
        QCOMPARE(model.state(PipelineModel::Reflector), PipelineModel::State::Active);
        QCOMPARE(model.index(PipelineModel::ApiServer).data(PipelineModel::CountTextRole).toString(),
            QStringLiteral("rv 20042"));
        // And however much flowed, an arrow carries at most three dots
        QCOMPARE(PipelinePanel::dotCount(model.activity(PipelineModel::Reflector)), 3);
        QCOMPARE(PipelinePanel::dotCount(0), 0);
        QCOMPARE(PipelinePanel::dotCount(1), 1);
        // And once the flow stops, the stage is idle again with its count kept
        model.advance();
        QCOMPARE(model.activity(PipelineModel::Reflector), 0);
        QCOMPARE(model.state(PipelineModel::Reflector), PipelineModel::State::Idle);
        QCOMPARE(model.count(PipelineModel::Cache), 10000);
    }

    void shouldShowHowEventsBecomeFewerReconciles()
    {
        PipelineModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        // Given 12 causes from the handlers (3 For, 9 Owns) merged into 2 queued keys
        QueueSample s;
        s.depth = 2;
        s.causesFor = 3;
        s.causesOwns = 9;
        model.applyQueue(s);
        // And two reconciles: one wrote twice (one conflict), one failed
        model.applyReconciles({trace(ReconcileTrace::Result::Success, {"get", "update", "updateStatus"}),
            trace(ReconcileTrace::Result::Error, {"get", "patch"}, 409)});
        model.advance();
        // Then each stage says what went through it
        QCOMPARE(model.count(PipelineModel::Handlers), 12);
        QVERIFY(model.detail(PipelineModel::Handlers).contains(QStringLiteral("For 3")));
        QVERIFY(model.detail(PipelineModel::Handlers).contains(QStringLiteral("Owns 9")));
        QCOMPARE(model.count(PipelineModel::Queue), 2);
        QCOMPARE(model.count(PipelineModel::Reconciler), 2);
        QVERIFY(model.detail(PipelineModel::Reconciler).contains(QStringLiteral("1 failed")));
        QCOMPARE(model.count(PipelineModel::ClientWrites), 3);
        QVERIFY(model.detail(PipelineModel::ClientWrites).contains(QStringLiteral("2 reads from cache")));
        QVERIFY(model.detail(PipelineModel::ClientWrites).contains(QStringLiteral("1 conflicts")));
        QVERIFY(model.detail(PipelineModel::ApiServer).contains(QStringLiteral("3 writes")));
        // And every stage names the dock that shows it
        QCOMPARE(
            model.index(PipelineModel::Queue).data(PipelineModel::DockRole).toString(), QStringLiteral("queueDock"));
        QCOMPARE(
            model.index(PipelineModel::Cache).data(PipelineModel::DockRole).toString(), QStringLiteral("cacheDock"));
    }

    void shouldMarkPausedWorkersSteppingAndBackoff()
    {
        PipelineModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        // Given paused workers
        ControlState paused;
        paused.available = true;
        paused.paused = true;
        model.applyControl(paused);
        model.advance();
        QCOMPARE(model.state(PipelineModel::Workers), PipelineModel::State::Paused);
        QVERIFY(model.detail(PipelineModel::Workers).contains(QStringLiteral("paused")));
        // When a reconcile is stepped into and halts before a call
        ControlState halted = paused;
        halted.activeWorkers = 1;
        halted.pendingCalls = {QStringLiteral("update Deployment default/web")};
        model.applyControl(halted);
        model.advance();
        // Then the workers and the reconciler show the stepping, with the call it waits at
        QCOMPARE(model.state(PipelineModel::Workers), PipelineModel::State::Stepping);
        QCOMPARE(model.state(PipelineModel::Reconciler), PipelineModel::State::Stepping);
        QCOMPARE(
            model.detail(PipelineModel::Reconciler), QStringLiteral("halted before update Deployment default/web"));
        QCOMPARE(model.count(PipelineModel::Workers), 1);
        // And a key waiting out its backoff marks the queue, with the time left
        QueueSample s;
        s.waiting = 1;
        QueueRow row;
        row.key = QStringLiteral("default/broken");
        row.state = QStringLiteral("waiting");
        row.retries = 3;
        row.readyInMs = 1600;
        s.rows = {row};
        model.applyQueue(s);
        model.advance();
        QCOMPARE(model.state(PipelineModel::Queue), PipelineModel::State::Backoff);
        QVERIFY2(model.detail(PipelineModel::Queue).contains(QStringLiteral("backoff")),
            qPrintable(model.detail(PipelineModel::Queue)));
        QVERIFY(model.detail(PipelineModel::Queue).contains(QStringLiteral("1.6 s")));
    }

    void shouldAskForTheStagesDockOnClickOrEnter()
    {
        // Given the panel on screen
        PipelineModel model;
        PipelinePanel panel(&model);
        panel.resize(panel.sizeHint());
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSignalSpy open(&panel, &PipelinePanel::openDockRequested);
        // When the user clicks the work queue stage
        const QRectF queue = panel.stageRect(PipelineModel::Queue);
        QVERIFY(queue.isValid());
        QCOMPARE(panel.stageAt(queue.center()), int(PipelineModel::Queue));
        QTest::mouseClick(&panel, Qt::LeftButton, {}, queue.center().toPoint());
        // Then the Queue dock is asked for
        QCOMPARE(open.size(), 1);
        QCOMPARE(open.at(0).at(0).toString(), QStringLiteral("queueDock"));
        // And from the keyboard: Left to the event handlers, Enter
        panel.setFocus();
        QTest::keyClick(&panel, Qt::Key_Left);
        QTest::keyClick(&panel, Qt::Key_Return);
        QCOMPARE(open.size(), 2);
        QCOMPARE(panel.currentStage(), int(PipelineModel::Handlers));
        // And the stages do not overlap
        for (int row = 0; row + 1 < PipelineModel::StageCount; ++row)
            QVERIFY(panel.stageRect(row).right() < panel.stageRect(row + 1).left());
    }

    void shouldMoveWhileTheRealSessionRuns()
    {
        // Given the embedded cluster and the sample operator, wired as the window wires them
        PipelineModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        EngineSession session({});
        connect(session.cacheFeed(), &CacheFeed::batch, &model, &PipelineModel::applyCache);
        connect(session.queue(), &QueueObserver::sample, &model, &PipelineModel::applyQueue);
        connect(session.controller(), &ControllerObserver::controlState, &model, &PipelineModel::applyControl);
        connect(session.controller(), &ControllerObserver::reconcilesFinished, &model, &PipelineModel::applyReconciles);
        session.start();
        // Then the samples go through every stage: watched, cached, handled, reconciled, written
        QTRY_VERIFY_WITH_TIMEOUT((model.advance(), model.count(PipelineModel::Reconciler) >= 5), 30000);
        QTRY_VERIFY_WITH_TIMEOUT((model.advance(), model.count(PipelineModel::ClientWrites) > 0), 30000);
        QTRY_VERIFY_WITH_TIMEOUT((model.advance(), model.count(PipelineModel::Handlers) >= 5), 30000);
        QVERIFY(model.count(PipelineModel::Cache) >= 5);
        QVERIFY(model.count(PipelineModel::Reflector) >= model.count(PipelineModel::Cache));
        QVERIFY(model.count(PipelineModel::ApiServer) > 0);
        QVERIFY(model.index(PipelineModel::Handlers)
                    .data(PipelineModel::DetailRole)
                    .toString()
                    .contains(QStringLiteral("Owns")));
        // When the user pauses and creates an app
        session.post(&ControllerObserver::pause);
        QTRY_VERIFY_WITH_TIMEOUT(
            (model.advance(), model.state(PipelineModel::Workers) == PipelineModel::State::Paused), 10000);
        const qint64 handled = model.count(PipelineModel::Handlers);
        session.createObject(testing::myApp(QStringLiteral("piped"), QStringLiteral("nginx:1.25"), 1));
        // Then its event reaches the handlers and its key waits in the queue
        QTRY_VERIFY_WITH_TIMEOUT((model.advance(), model.count(PipelineModel::Handlers) > handled), 10000);
        QTRY_VERIFY_WITH_TIMEOUT((model.advance(), model.count(PipelineModel::Queue) >= 1), 10000);
        // And after Run the queue drains through the workers
        const qint64 reconciled = model.count(PipelineModel::Reconciler);
        session.post(&ControllerObserver::resume);
        QTRY_VERIFY_WITH_TIMEOUT((model.advance(), model.count(PipelineModel::Reconciler) > reconciled), 10000);
    }
};

QTEST_MAIN(tst_Pipeline)
#include "tst_pipeline.moc"
