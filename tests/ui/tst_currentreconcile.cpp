// SPDX-License-Identifier: Apache-2.0
// The debugger's frame as a user meets it (issue 23): on the embedded cluster with the
// MyApplication operator, the user pauses, creates an app, selects its key in the Queue panel
// and steps into its reconcile — all by clicks on the offscreen window's toolbar, table and
// buttons, never through the intents. While halted, the Current reconcile dock shows the key,
// the calls made so far and the call it is halted before (a write as a YAML diff or the object
// about to be sent); Step over call advances by exactly one call; Step out finishes the
// reconcile and the controller stays paused.
#include "ui/mainwindow.h"
#include "ui/models/currentreconcilemodel.h"
#include "ui/models/queueitemsmodel.h"
#include "ui/models/reconcilelistmodel.h"
#include "ui/widgets/currentreconcileview.h"
#include "ui/widgets/queuepanel.h"
#include "ui/widgets/reconcilespanel.h"

#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QTableView>
#include <QTest>
#include <QToolBar>

using namespace opbench::ui;

namespace {

QString cell(const QAbstractItemModel *m, int row, int column) { return m->index(row, column).data().toString(); }

} // namespace

class tst_CurrentReconcile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("opbench-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_currentreconcile"));
        QSettings().clear();
    }

    void shouldShowTheSteppedReconcileCallByCall()
    {
        // Given the window on the embedded cluster, the samples reconciled
        MainWindow w(SessionOptions{});
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_VERIFY_WITH_TIMEOUT(w.reconcilesPanel()->view()->model()->rowCount() >= 5, 30000);
        auto *dock = w.findChild<QDockWidget *>(QStringLiteral("currentReconcileDock"));
        QVERIFY(dock);
        QVERIFY(!dock->isVisible()); // running: the Reconciles list has the room

        // When the user pauses (toolbar), the frame gets its room
        clickAction(w, QStringLiteral("pause"));
        QTRY_VERIFY_WITH_TIMEOUT(w.action(QStringLiteral("run"))->isEnabled(), 10000);
        QTRY_VERIFY(dock->isVisible());
        CurrentReconcileView *view = w.currentReconcileView();
        QVERIFY(view->headerLabel()->text().contains(QStringLiteral("No reconcile stepped yet")));

        // And creates an app, selects its queued key and steps into its reconcile
        w.createFromForm(QStringLiteral("stepped-app"));
        const QString key = QStringLiteral("default/stepped-app");
        QTableView *queue = w.findChild<QueuePanel *>()->view();
        QTRY_VERIFY_WITH_TIMEOUT(queueRow(queue, key) >= 0, 15000);
        const QRect rowRect
            = queue->visualRect(queue->model()->index(queueRow(queue, key), QueueItemsModel::KeyColumn));
        QTest::mouseClick(queue->viewport(), Qt::LeftButton, {}, rowRect.center());
        QCOMPARE(cell(queue->model(), queue->currentIndex().row(), QueueItemsModel::KeyColumn), key);
        clickAction(w, QStringLiteral("stepInto"));

        // Then, halted before its first call, the frame shows the key and that call highlighted
        const QAbstractItemModel *calls = view->callsView()->model();
        QTRY_COMPARE_WITH_TIMEOUT(calls->rowCount(), 1, 10000);
        QVERIFY2(view->headerLabel()->text().contains(key), qPrintable(view->headerLabel()->text()));
        QVERIFY(view->headerLabel()->text().contains(QStringLiteral("worker 1")));
        QVERIFY(view->headerLabel()->text().contains(QStringLiteral("halted before get MyApplication ") + key));
        QVERIFY(!view->causesLabel()->text().isEmpty());
        QVERIFY(calls->index(0, 0).data(CurrentReconcileModel::PendingRole).toBool());
        QCOMPARE(cell(calls, 0, CurrentReconcileModel::CodeColumn), QStringLiteral("halted"));
        QVERIFY(view->stepOverButton()->isEnabled());

        // When the user steps over that call: exactly one call made (read from the cache, with its
        // resourceVersion and the object as read), and halted before the next
        QTest::mouseClick(view->stepOverButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(calls->rowCount(), 2, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(calls->index(1, 0).data(CurrentReconcileModel::PendingRole).toBool(), 10000);
        QCOMPARE(cell(calls, 0, CurrentReconcileModel::ObjectColumn), QStringLiteral("MyApplication ") + key);
        QCOMPARE(cell(calls, 0, CurrentReconcileModel::CodeColumn), QStringLiteral("200"));
        QVERIFY2(cell(calls, 0, CurrentReconcileModel::SourceColumn).startsWith(QStringLiteral("cache · rv ")),
            qPrintable(cell(calls, 0, CurrentReconcileModel::SourceColumn)));
        QCOMPARE(cell(calls, 1, CurrentReconcileModel::VerbColumn), QStringLiteral("get"));
        QCOMPARE(cell(calls, 1, CurrentReconcileModel::ObjectColumn), QStringLiteral("Deployment ") + key);
        clickRow(view->callsView(), 0);
        QVERIFY2(view->detailView()->toPlainText().contains(QStringLiteral("image:")),
            qPrintable(view->detailView()->toPlainText()));
        QVERIFY(!view->detailView()->toPlainText().contains(QStringLiteral("resourceVersion:")));
        QTest::mouseClick(view->noiseBox(), Qt::LeftButton);
        QVERIFY(view->detailView()->toPlainText().contains(QStringLiteral("resourceVersion:")));

        // Stepping on, one call at a time: the Deployment is not in the cache (404), the owner is
        // read live, and the reconcile halts before the Deployment's create, whose request shows
        // the object about to be written
        int created = -1;
        for (int rows = 3; rows <= 6 && created < 0; ++rows) {
            QTest::mouseClick(view->stepOverButton(), Qt::LeftButton);
            QTRY_COMPARE_WITH_TIMEOUT(calls->rowCount(), rows, 10000);
            QTRY_VERIFY_WITH_TIMEOUT(
                calls->index(rows - 1, 0).data(CurrentReconcileModel::PendingRole).toBool(), 10000);
            if (cell(calls, rows - 1, CurrentReconcileModel::VerbColumn) == u"create")
                created = rows - 1;
        }
        QVERIFY(created >= 2);
        QCOMPARE(cell(calls, 1, CurrentReconcileModel::CodeColumn).left(3), QStringLiteral("404"));
        QCOMPARE(view->callsView()->currentIndex().row(), created); // the selection follows the halted call
        const QString request = view->detailView()->toPlainText();
        QVERIFY2(request.contains(QStringLiteral("about to create Deployment ") + key), qPrintable(request));
        QVERIFY2(request.contains(QStringLiteral("kind: Deployment")), qPrintable(request));

        // When the user steps out: the reconcile finishes, every call listed, still paused
        QTest::mouseClick(view->stepOutButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(view->headerLabel()->text().contains(QStringLiteral("finished: success")), 10000);
        QVERIFY(calls->rowCount() >= 3);
        for (int row = 0; row < calls->rowCount(); ++row)
            QVERIFY(!calls->index(row, 0).data(CurrentReconcileModel::PendingRole).toBool());
        QCOMPARE(cell(calls, created, CurrentReconcileModel::CodeColumn), QStringLiteral("201"));
        QVERIFY(!view->stepOverButton()->isEnabled());
        QVERIFY(w.action(QStringLiteral("run"))->isEnabled()); // paused
        QVERIFY(dock->isVisible());

        // Run again: the frame gives the room back
        clickAction(w, QStringLiteral("run"));
        QTRY_VERIFY_WITH_TIMEOUT(!dock->isVisible(), 10000);
    }

private:
    static void clickAction(MainWindow &w, const QString &name)
    {
        auto *bar = w.findChild<QToolBar *>(QStringLiteral("controlToolBar"));
        QWidget *button = bar->widgetForAction(w.action(name));
        QVERIFY(button);
        QTRY_VERIFY(button->isEnabled());
        QTest::mouseClick(button, Qt::LeftButton);
    }
    static void clickRow(QTableView *view, int row)
    {
        const QRect r = view->visualRect(view->model()->index(row, 1));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, r.center());
    }
    static int queueRow(QTableView *queue, const QString &key)
    {
        const QAbstractItemModel *m = queue->model();
        for (int row = 0; row < m->rowCount(); ++row) {
            if (cell(m, row, QueueItemsModel::KeyColumn) == key
                && cell(m, row, QueueItemsModel::StateColumn) == QStringLiteral("queued"))
                return row;
        }
        return -1;
    }
};

QTEST_MAIN(tst_CurrentReconcile)
#include "tst_currentreconcile.moc"
