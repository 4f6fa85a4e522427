// SPDX-License-Identifier: Apache-2.0
// The reconcile timeline: bar geometry (time axis, lanes per key or per worker, minimum width,
// paused spans, hit testing) and, in the Reconciles panel, a click on a bar selecting that
// reconcile in the list.
#include "ui/models/idletracker.h"
#include "ui/models/reconcilelistmodel.h"
#include "ui/models/reconciletimeline.h"
#include "ui/widgets/reconcilespanel.h"
#include "ui/widgets/reconciletimelineview.h"

#include <QLabel>
#include <QTableView>
#include <QTest>

using namespace opbench;
using namespace opbench::ui;

namespace {

TimelineItem item(int row, const QString &key, qint64 start, qint64 duration,
    ReconcileTrace::Result result = ReconcileTrace::Result::Success)
{
    return {row, key, start, duration, result};
}

/// Plot from x = 90 to 1090 (1,000 px for 10 s: 0.1 px per ms), lanes 14 px from y = 16.
TimelineGeometry geometry()
{
    TimelineGeometry g;
    g.size = QSizeF(1090, 200);
    g.labelWidth = 90;
    g.axisHeight = 16;
    g.laneHeight = 14;
    g.toMs = 100000;
    g.spanMs = 10000;
    return g;
}

} // namespace

class tst_ReconcileTimeline : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldPlaceBarsByStartAndDuration()
    {
        const TimelineLayout l
            = layoutTimeline({item(0, "default/web", 95000, 1000)}, TimelineLanes::ByKey, geometry());
        QCOMPARE(l.bars.size(), 1);
        QCOMPARE(l.bars[0].rect.left(), 590.0);
        QCOMPARE(l.bars[0].rect.width(), 100.0);
        QCOMPARE(l.bars[0].rect.top(), 17.0);
    }

    void shouldGiveEachKeyALaneAndSkipBarsOutsideTheWindow()
    {
        const TimelineLayout l
            = layoutTimeline({item(0, "default/web", 95000, 10), item(1, "default/api", 96000, 10),
                                 item(2, "default/web", 97000, 10), item(3, "default/old", 1000, 10)},
                TimelineLanes::ByKey, geometry());
        // Lanes sorted by key (the old key keeps its lane), bars only inside the last 10 s
        QCOMPARE(l.lanes, QStringList({"default/api", "default/old", "default/web"}));
        QCOMPARE(l.bars.size(), 3);
        QHash<int, int> laneOfRow;
        for (const TimelineBar &b : l.bars)
            laneOfRow.insert(b.row, b.lane);
        QCOMPARE(laneOfRow.value(0), 2);
        QCOMPARE(laneOfRow.value(1), 0);
        QCOMPARE(laneOfRow.value(2), 2);
        QVERIFY(!laneOfRow.contains(3));
    }

    void shouldStackConcurrentReconcilesOnWorkerLanes()
    {
        // Two overlapping reconciles need two workers; a later one reuses the first free lane
        const TimelineLayout l
            = layoutTimeline({item(0, "a", 91000, 2000), item(1, "b", 92000, 2000), item(2, "c", 93500, 100)},
                TimelineLanes::ByWorker, geometry());
        QCOMPARE(l.lanes.size(), 2);
        QCOMPARE(l.bars.size(), 3);
        QCOMPARE(l.bars[0].lane, 0);
        QCOMPARE(l.bars[1].lane, 1);
        QCOMPARE(l.bars[2].lane, 0);
    }

    void shouldKeepInstantReconcilesVisibleAndClickable()
    {
        const TimelineLayout l
            = layoutTimeline({item(7, "a", 99000, 0, ReconcileTrace::Result::Error)}, TimelineLanes::ByKey, geometry());
        QCOMPARE(l.bars[0].rect.width(), TimelineLayout::MinBarWidth);
        QCOMPARE(l.bars[0].result, ReconcileTrace::Result::Error);
        QCOMPARE(l.rowAt(QPointF(990 + 3, 20)), 7); // within the 3 px tolerance
        QCOMPARE(l.rowAt(QPointF(900, 20)), -1);
        QCOMPARE(l.rowAt(QPointF(990, 60)), -1); // another lane
    }

    void shouldShadePausedPeriodsUpToNowWhenStillPaused()
    {
        const TimelineLayout l
            = layoutTimeline({}, TimelineLanes::ByKey, geometry(), {{92000, 94000}, {98000, -1}, {1000, 2000}});
        QCOMPARE(l.paused.size(), 2);
        QCOMPARE(l.paused[0].left(), 290.0);
        QCOMPARE(l.paused[0].width(), 200.0);
        QCOMPARE(l.paused[1].right(), 1090.0);
    }

    void shouldSelectTheReconcileWhenItsBarIsClicked()
    {
        // Given the Reconciles panel with three recent reconciles
        ReconcileListModel model;
        ReconcilesPanel panel(&model);
        panel.setAvailable(true);
        panel.resize(900, 600);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const QDateTime now = QDateTime::currentDateTime();
        QList<ReconcileTrace> traces;
        for (int i = 0; i < 3; ++i) {
            ReconcileTrace t;
            t.id = QStringLiteral("id-%1").arg(i);
            t.request = QueueKey::fromString(QStringLiteral("default/app-%1").arg(i));
            t.startedAt = now.addMSecs(-6000 + i * 2000);
            t.duration = std::chrono::milliseconds(800);
            t.result = i == 1 ? ReconcileTrace::Result::Error : ReconcileTrace::Result::Success;
            traces.append(t);
        }
        model.append(traces);
        // When the user clicks the middle reconcile's bar
        const TimelineLayout l = panel.timeline()->currentLayout();
        QRectF target;
        for (const TimelineBar &b : l.bars)
            target = b.row == 1 ? b.rect : target;
        QVERIFY(target.isValid());
        QTest::mouseClick(panel.timeline(), Qt::LeftButton, {}, target.center().toPoint());
        // Then that reconcile is the current row of the list
        const QModelIndex current = panel.view()->currentIndex();
        QVERIFY(current.isValid());
        QCOMPARE(current.data(ReconcileListModel::IdRole).toString(), QStringLiteral("id-1"));
        // And the selection is announced with its key (the Object panel follows it)
        QVERIFY(panel.followsSelection());
    }

    void shouldNeverClipLaneLabels()
    {
        // Given reconciles of a short key and of a long one, in a view at the default font
        ReconcileListModel model;
        ReconcileTimelineView view(&model);
        view.resize(700, 160);
        const QString longKey = QStringLiteral("team-payments-staging/checkout-api-with-a-long-name");
        QList<ReconcileTrace> traces;
        for (const QString &key : {QStringLiteral("default/web"), longKey}) {
            ReconcileTrace t;
            t.id = key;
            t.request = QueueKey::fromString(key);
            t.startedAt = QDateTime::currentDateTime().addMSecs(-2000);
            t.duration = std::chrono::milliseconds(100);
            traces.append(t);
        }
        model.append(traces);
        // Then the label column is wide enough for the longest label, and lanes as tall as a line
        const TimelineLayout l = view.currentLayout();
        QCOMPARE(l.lanes.size(), 2);
        const QFontMetricsF fm(view.font());
        QVERIFY2(l.plot.left() >= fm.horizontalAdvance(longKey) + 2, qPrintable(QString::number(l.plot.left())));
        QVERIFY(l.laneHeight >= fm.height());
        // And the bars still get room to the right of it
        QVERIFY(l.plot.width() >= 120);
    }

    void shouldHintWhatToTryWhenNothingHappens()
    {
        // Given a controller whose queue stays empty and which reconciles nothing
        IdleTracker idle(4);
        ReconcileListModel model;
        ReconcilesPanel panel(&model);
        panel.setAvailable(true);
        connect(&idle, &IdleTracker::idleChanged, &panel, &ReconcilesPanel::setIdle);
        QueueSample empty;
        QueueSample busy;
        busy.depth = 2;
        for (int i = 0; i < 3; ++i)
            idle.addSample(empty);
        QVERIFY(!panel.idleHint()->isVisibleTo(&panel));
        // When the quiet lasts
        idle.addSample(empty);
        // Then the panel suggests what to try
        QVERIFY(panel.idleHint()->isVisibleTo(&panel));
        QVERIFY(panel.idleHint()->text().contains(QStringLiteral("Nothing to reconcile")));
        QVERIFY(panel.idleHint()->text().contains(QStringLiteral("editing an app")));
        // And the hint goes as soon as something is queued or reconciled
        idle.addSample(busy);
        QVERIFY(!panel.idleHint()->isVisibleTo(&panel));
        for (int i = 0; i < 4; ++i)
            idle.addSample(empty);
        QVERIFY(idle.isIdle());
        idle.addReconciles(1);
        QVERIFY(!panel.idleHint()->isVisibleTo(&panel));
    }
};

QTEST_MAIN(tst_ReconcileTimeline)
#include "tst_reconciletimeline.moc"
