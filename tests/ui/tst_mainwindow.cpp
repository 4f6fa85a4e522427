// SPDX-License-Identifier: Apache-2.0
// The window as a user meets it: the stepping actions and their shortcuts, a dock per panel with
// an ⓘ explanation, live data from the embedded cluster in the cache tree and the status bar,
// and the layout remembered across runs.
#include "ui/mainwindow.h"
#include "ui/models/cachetreemodel.h"
#include "ui/models/pipelinemodel.h"
#include "ui/models/reconcilelistmodel.h"
#include "ui/widgets/infodock.h"
#include "ui/widgets/objectpanel.h"
#include "ui/widgets/pipelinepanel.h"
#include "ui/widgets/reconcilespanel.h"

#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QLabel>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QTest>
#include <QToolButton>

using namespace opbench::ui;

class tst_MainWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("opbench-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
        QSettings().clear();
    }

    void shouldOfferSteppingActionsWithShortcuts_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QKeySequence>("key");
        QTest::newRow("run") << "run" << QKeySequence(Qt::Key_F5);
        QTest::newRow("pause") << "pause" << QKeySequence(Qt::Key_F6);
        QTest::newRow("step") << "step" << QKeySequence(Qt::Key_F10);
        QTest::newRow("step into") << "stepInto" << QKeySequence(Qt::Key_F11);
    }

    void shouldOfferSteppingActionsWithShortcuts()
    {
        QFETCH(QString, name);
        QFETCH(QKeySequence, key);
        MainWindow w(SessionOptions{});
        QAction *a = w.action(name);
        QVERIFY(a);
        QCOMPARE(a->shortcut(), key);
        QVERIFY(w.action(QStringLiteral("continue")));
        QVERIFY(w.action(QStringLiteral("breakpoints")));
        QVERIFY(w.action(QStringLiteral("handOff")));
    }

    void shouldExplainEveryDockOnDemand()
    {
        MainWindow w(SessionOptions{});
        w.show();
        const auto docks = w.findChildren<InfoDock *>();
        // cache, reconciles, queue, object, children, leadership, faults, pipeline, tour, current reconcile,
        // breakpoints, admission
        QCOMPARE(docks.size(), 12);
        for (InfoDock *dock : docks) {
            QVERIFY2(!dock->explanationLabel()->isVisibleTo(dock), qPrintable(dock->objectName()));
            dock->infoButton()->click();
            QVERIFY2(dock->explanationLabel()->isVisibleTo(dock), qPrintable(dock->objectName()));
            dock->infoButton()->click();
            QVERIFY(!dock->explanationLabel()->isVisibleTo(dock));
            QVERIFY(dock->explanationLabel()->text().split(QStringLiteral(". ")).size() >= 2);
        }
    }

    void shouldShowLiveEmbeddedClusterData()
    {
        MainWindow w(SessionOptions{});
        w.show();
        // The five sample MyApplications reach the cache tree and the status bar counts objects
        QTRY_VERIFY_WITH_TIMEOUT(
            w.cacheModel()->indexOf(QStringLiteral("MyApplication"), QStringLiteral("default/broken")).isValid(),
            30000);
        QTRY_COMPARE_WITH_TIMEOUT(w.cacheModel()->syncedCount(), 4, 20000);
        QVERIFY(w.windowTitle().contains(QStringLiteral("embedded")));
        bool sawCount = false;
        for (QLabel *l : w.statusBar()->findChildren<QLabel *>())
            sawCount = sawCount || l->text().contains(QStringLiteral("object"));
        QVERIFY(sawCount);
    }

    void shouldShowTheSelectedReconcilesObject()
    {
        // Given the window with the samples reconciled
        MainWindow w(SessionOptions{});
        w.show();
        ReconcilesPanel *panel = w.reconcilesPanel();
        QAbstractItemModel *list = panel->view()->model();
        QTRY_VERIFY_WITH_TIMEOUT(list->rowCount() >= 5, 30000);
        auto rowNotShown = [&] {
            for (int row = 0; row < list->rowCount(); ++row) {
                if (list->index(row, ReconcileListModel::KeyColumn).data().toString() != w.objectPanel()->currentKey())
                    return row;
            }
            return -1;
        };
        // When the user selects a reconcile of another key
        int row = rowNotShown();
        QVERIFY(row >= 0);
        const QString key = list->index(row, ReconcileListModel::KeyColumn).data().toString();
        panel->view()->setCurrentIndex(list->index(row, 0));
        // Then the Object panel shows that key's object
        QCOMPARE(w.objectPanel()->currentKey(), key);
        QCOMPARE(w.objectPanel()->currentKind(), QStringLiteral("MyApplication"));
        // And with "Object follows" off, it stays where it is
        panel->followBox()->setChecked(false);
        row = rowNotShown();
        QVERIFY(row >= 0);
        panel->view()->setCurrentIndex(list->index(row, 0));
        QCOMPARE(w.objectPanel()->currentKey(), key);
    }

    void shouldOpenTheDockOfAClickedPipelineStage()
    {
        // Given the window, the Children dock tabbed behind the Object dock
        MainWindow w(SessionOptions{});
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *children = w.findChild<QDockWidget *>(QStringLiteral("childrenDock"));
        QVERIFY(children);
        w.findChild<QDockWidget *>(QStringLiteral("objectDock"))->raise();
        QTRY_VERIFY(children->visibleRegion().isEmpty()); // a tab behind another
        // When the user clicks the pipeline's "Client writes" stage
        PipelinePanel *pipeline = w.pipelinePanel();
        QVERIFY(pipeline->isVisible());
        const QRectF stage = pipeline->stageRect(PipelineModel::ClientWrites);
        QTest::mouseClick(pipeline, Qt::LeftButton, {}, stage.center().toPoint());
        // Then the Children dock, where the writes show, comes to the front
        QTRY_VERIFY(!children->visibleRegion().isEmpty());
    }

    void shouldRememberTheLayout()
    {
        {
            MainWindow w(SessionOptions{});
            w.show();
            w.findChild<QDockWidget *>(QStringLiteral("faultsDock"))->hide();
            w.close();
        }
        MainWindow again(SessionOptions{});
        again.show();
        QVERIFY(!again.findChild<QDockWidget *>(QStringLiteral("faultsDock"))->isVisible());
        QVERIFY(again.findChild<QDockWidget *>(QStringLiteral("cacheDock"))->isVisible());
    }
};

QTEST_MAIN(tst_MainWindow)
#include "tst_mainwindow.moc"
