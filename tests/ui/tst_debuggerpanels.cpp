// SPDX-License-Identifier: Apache-2.0
// The workbench as a debugger (issue 23), through the real widgets of the offscreen window at
// 1600×1000: the newest reconcile is the top row, visible without scrolling; Ctrl+B with nothing
// selected says what to do; a breakpoint typed
// in the Breakpoints dock is listed, and hitting it ("before create Deployment") halts the
// reconcile — the status bar, the list and the Current reconcile banner say which breakpoint,
// and the frame shows the halted call with the room to read it; the Diffs tab shows YAML diff
// lines with resourceVersion hidden until asked; the timeline's lanes follow the key filter.
#include "ui/mainwindow.h"
#include "ui/models/currentreconcilemodel.h"
#include "ui/models/reconcilelistmodel.h"
#include "ui/widgets/breakpointspanel.h"
#include "ui/widgets/currentreconcileview.h"
#include "ui/widgets/reconcilespanel.h"
#include "ui/widgets/reconciletimelineview.h"

#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QToolBar>

using namespace opbench::ui;

namespace {

QString cell(const QAbstractItemModel *m, int row, int column) { return m->index(row, column).data().toString(); }

} // namespace

class tst_DebuggerPanels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("opbench-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_debuggerpanels"));
        QSettings().clear();
    }

    void shouldBeFollowableAndStopWhereTheUserAsks()
    {
        // Given the window at 1600×1000 on the embedded cluster, the samples reconciled
        MainWindow w(SessionOptions{});
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        ReconcilesPanel *panel = w.reconcilesPanel();
        QTableView *list = panel->view();
        QTRY_VERIFY_WITH_TIMEOUT(list->model()->rowCount() >= 5, 30000);
        checkNewestOnTop(list);
        checkHintKeepsTheListInPlace(panel);

        // When the user presses Breakpoints (Ctrl+B) with nothing selected in the Cache, it says so
        // and opens the Breakpoints dock with the add line ready
        BreakpointsPanel *bps = w.breakpointsPanel();
        QTRY_VERIFY(w.action(QStringLiteral("breakpoints"))->isEnabled());
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QTest::keyClick(&w, Qt::Key_B, Qt::ControlModifier);
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("No object selected")),
            qPrintable(w.statusBar()->currentMessage()));
        QVERIFY(bps->isVisible());
        QCOMPARE(bps->specEdit()->text(), QStringLiteral("key "));
        bps->specEdit()->clear();

        // When the user types a breakpoint before a Deployment's create in the Breakpoints dock
        QTest::keyClicks(bps->specEdit(), QStringLiteral("before create Deployment"));
        QTest::keyClick(bps->specEdit(), Qt::Key_Return);
        // Then the list shows it, enabled
        const QAbstractItemModel *bpModel = bps->view()->model();
        QTRY_COMPARE_WITH_TIMEOUT(bpModel->rowCount(), 1, 10000);
        QVERIFY2(cell(bpModel, 0, 0).startsWith(QStringLiteral("before create Deployment")),
            qPrintable(cell(bpModel, 0, 0)));
        QCOMPARE(bpModel->index(0, 0).data(Qt::CheckStateRole).toInt(), int(Qt::Checked));
        QVERIFY(bps->specEdit()->text().isEmpty());

        // When an app is created: its reconcile halts before creating the Deployment
        w.createFromForm(QStringLiteral("bp-app"));
        const QString key = QStringLiteral("default/bp-app");
        QTRY_VERIFY_WITH_TIMEOUT(w.action(QStringLiteral("run"))->isEnabled(), 20000); // paused
        CurrentReconcileView *view = w.currentReconcileView();
        auto *dock = w.findChild<QDockWidget *>(QStringLiteral("currentReconcileDock"));
        QTRY_VERIFY_WITH_TIMEOUT(dock->isVisible(), 10000);
        // Then the status bar, the list and the frame's banner say which breakpoint
        QTRY_VERIFY_WITH_TIMEOUT(view->breakpointLabel()->isVisible(), 10000);
        QVERIFY2(view->breakpointLabel()->text().contains(QStringLiteral("before create Deployment")),
            qPrintable(view->breakpointLabel()->text()));
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("Deployment")),
            qPrintable(w.statusBar()->currentMessage()));
        QTRY_VERIFY(cell(bpModel, 0, 0).contains(QStringLiteral("hit")));
        QVERIFY2(bps->statusLabel()->text().contains(QStringLiteral("before create Deployment")),
            qPrintable(bps->statusLabel()->text()));
        // And the Current reconcile view is filled: the key, the calls so far, the halted create
        const QAbstractItemModel *calls = view->callsView()->model();
        QTRY_VERIFY_WITH_TIMEOUT(calls->rowCount() >= 2, 10000);
        const int last = calls->rowCount() - 1;
        QVERIFY(calls->index(last, 0).data(CurrentReconcileModel::PendingRole).toBool());
        QCOMPARE(cell(calls, last, CurrentReconcileModel::VerbColumn), QStringLiteral("create"));
        QCOMPARE(cell(calls, last, CurrentReconcileModel::ObjectColumn), QStringLiteral("Deployment ") + key);
        QVERIFY2(view->headerLabel()->text().contains(key), qPrintable(view->headerLabel()->text()));
        // And the halted create shows the Deployment about to be written (a breakpoint, not Step into)
        const QRect pendingRow = view->callsView()->visualRect(calls->index(last, 1));
        QTest::mouseClick(view->callsView()->viewport(), Qt::LeftButton, {}, pendingRow.center());
        QTRY_VERIFY2(view->detailView()->toPlainText().contains(QStringLiteral("image:")),
            qPrintable(view->detailView()->toPlainText()));
        // And the frame has the room (it had ~250 px), the Object panel less than a third
        QTRY_VERIFY2_WITH_TIMEOUT(dock->height() >= 400, qPrintable(dockSizes(w)), 5000);
        QVERIFY(w.findChild<QDockWidget *>(QStringLiteral("objectDock"))->height() < 1000 / 3);

        // When the user unchecks the breakpoint (Space on its row) and continues
        bps->view()->setCurrentIndex(bpModel->index(0, 0));
        QTest::keyClick(bps->view(), Qt::Key_Space);
        QTRY_COMPARE_WITH_TIMEOUT(bpModel->index(0, 0).data(Qt::CheckStateRole).toInt(), int(Qt::Unchecked), 10000);
        QTest::mouseClick(view->continueButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!w.action(QStringLiteral("run"))->isEnabled(), 10000); // running
        checkDiffsAndTimelineOf(panel, key);
    }

private:
    static QString dockSizes(const MainWindow &w)
    {
        QStringList out;
        for (const QDockWidget *d : w.findChildren<QDockWidget *>())
            if (d->isVisible())
                out << QStringLiteral("%1 %2x%3@%4,%5")
                           .arg(d->objectName())
                           .arg(d->width())
                           .arg(d->height())
                           .arg(d->x())
                           .arg(d->y());
        out << QStringLiteral("window %1x%2 min %3 reconcilesMin %4 currentMin %5")
                   .arg(w.width())
                   .arg(w.height())
                   .arg(w.minimumSizeHint().height())
                   .arg(w.reconcilesPanel()->minimumSizeHint().height())
                   .arg(w.currentReconcileView()->minimumSizeHint().height());
        return out.join(QStringLiteral("; "));
    }
    static void checkNewestOnTop(QTableView *list)
    {
        auto *proxy = qobject_cast<QSortFilterProxyModel *>(list->model());
        QVERIFY(proxy);
        auto *model = qobject_cast<ReconcileListModel *>(proxy->sourceModel());
        QVERIFY(model);
        const QString newest = model->traceAt(model->rowCount() - 1).id;
        QCOMPARE(proxy->index(0, 0).data(ReconcileListModel::IdRole).toString(), newest);
        const QRect top = list->visualRect(proxy->index(0, ReconcileListModel::KeyColumn));
        QVERIFY(list->viewport()->rect().contains(top.center()));
    }

    static void checkHintKeepsTheListInPlace(ReconcilesPanel *panel)
    {
        const QPoint at = panel->view()->mapTo(panel, QPoint(0, 0));
        panel->setIdle(true);
        QVERIFY(panel->idleHint()->isVisibleTo(panel));
        QCoreApplication::processEvents();
        QCOMPARE(panel->view()->mapTo(panel, QPoint(0, 0)), at);
        panel->setIdle(false);
        QCoreApplication::processEvents();
        QCOMPARE(panel->view()->mapTo(panel, QPoint(0, 0)), at);
    }

    static void checkDiffsAndTimelineOf(ReconcilesPanel *panel, const QString &key)
    {
        // Filtering by the key: the timeline has that key's lane only, in a scroll area
        auto *filter = panel->findChild<QLineEdit *>(QStringLiteral("reconcileKeyFilter"));
        QVERIFY(filter);
        QTest::keyClicks(filter, QStringLiteral("bp-app"));
        QTRY_COMPARE(panel->timeline()->currentLayout().lanes, QStringList{key});
        QVERIFY(qobject_cast<QScrollArea *>(panel->timeline()->parentWidget()->parentWidget()));
        // The app's reconcile that wrote its status: YAML diff lines, resourceVersion hidden
        auto *tabs = panel->findChild<QTabWidget *>(QStringLiteral("reconcileDetails"));
        tabs->setCurrentIndex(2);
        QTableView *list = panel->view();
        QString diff;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (int row = 0; row < list->model()->rowCount(); ++row) {
                    const QRect r = list->visualRect(list->model()->index(row, ReconcileListModel::KeyColumn));
                    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, r.center());
                    diff = panel->diffsView()->toPlainText();
                    if (diff.contains(QStringLiteral("# create Deployment ") + key))
                        return true;
                }
                return false;
            }(),
            20000);
        QVERIFY2(diff.startsWith(QStringLiteral("# ")) && diff.contains(key), qPrintable(diff));
        QVERIFY2(diff.contains(QStringLiteral("\n+ ")) || diff.contains(QStringLiteral("\n- ")), qPrintable(diff));
        for (const char *noise : {"resourceVersion", "\n+   uid:", "creationTimestamp", "observedGeneration"})
            QVERIFY2(!diff.contains(QLatin1String(noise)), qPrintable(diff));
        QVERIFY(!diff.contains(QStringLiteral("{\"new\"")));
        QTest::mouseClick(panel->hideNoiseBox(), Qt::LeftButton);
        QVERIFY2(panel->diffsView()->toPlainText().contains(QStringLiteral("resourceVersion")),
            qPrintable(panel->diffsView()->toPlainText()));
    }
};

QTEST_MAIN(tst_DebuggerPanels)
#include "tst_debuggerpanels.moc"
