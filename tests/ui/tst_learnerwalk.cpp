// SPDX-License-Identifier: Apache-2.0
// The guided tour walked as a learner walks it (issue 23): the window at 1600×1000 on the
// embedded cluster with the MyApplication operator, the tour started with its own button, each
// lesson done through the window (toolbar clicks, the lesson's own button, the history slider by
// keyboard) or with kubectl-like writes over HTTP — never through the intents. After each step:
// the tour's instructions are on screen (its dock visible, its text not covered by the dock the
// lesson raises), and the lesson completes from what the engine did. Lesson 7 (backoff) and 8
// (conflict) finish with one edit each thanks to the faults their buttons arm for the operator's
// writes only (kubectl's writes pass); lesson 9 leaves a "410 → relist" mark on the Cache panel
// and the Pipeline; lesson 10's slider starts at "live".
#include "tests/ui/myappfixture.h"
#include "ui/mainwindow.h"
#include "ui/models/admissionlistmodel.h"
#include "ui/models/pipelinemodel.h"
#include "ui/models/queueitemsmodel.h"
#include "ui/widgets/admissionpanel.h"
#include "ui/widgets/cachepanel.h"
#include "ui/widgets/pipelinepanel.h"
#include "ui/widgets/tourpanel.h"

#include "engine/api/status.h"
#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"
#include "engine/workbench/tour.h"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSlider>
#include <QTableView>
#include <QTest>
#include <QToolBar>

#include <qcoro/qcorotask.h>

using namespace opbench;
using namespace opbench::ui;

class tst_LearnerWalk : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("opbench-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_learnerwalk"));
        QSettings().clear();
        SessionOptions options;
        options.operatorProgram = QStringLiteral(OPBENCH_BINARY_DIR "/app/opbench-operator");
        m_window = std::make_unique<MainWindow>(options);
        m_window->resize(1600, 1000);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        m_window->activateWindow(); // the keyboard shortcuts (Alt+N) go to the active window
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        connect(m_window->session(), &EngineSession::started, this, [this] { m_started = true; });
        QTRY_VERIFY_WITH_TIMEOUT(m_started, 30000);
        auto config = loadConfig(m_window->session()->cluster().kubeconfigPath);
        QVERIFY(config.ok());
        RestConfig kubectl = config.value();
        kubectl.userAgent = QStringLiteral("kubectl/v1.30.0 (linux/amd64)"); // as kubectl says who it is
        m_kubectl = std::make_unique<RestClient>(kubectl);
    }

    void cleanupTestCase()
    {
        m_kubectl.reset();
        m_window.reset();
    }

    void shouldTeachEveryLessonWithoutHidingItself()
    {
        TourPanel *panel = m_window->tourPanel();
        workbench::Tour *tour = m_window->tour();
        // The intro counts the lessons; the cache synced before the tour starts.
        QCOMPARE(m_window->findChild<QLabel *>(QStringLiteral("tourProgress"))->text(),
            QStringLiteral("13 short lessons, about a minute each"));
        QTRY_VERIFY_WITH_TIMEOUT(m_window->cachePanel()->historySlider()->isEnabled(), 30000);
        QTest::mouseClick(panel->startButton(), Qt::LeftButton);

        // 1. sync: the cache already synced — the lesson sees it at once.
        lesson(QStringLiteral("sync"), [] {});
        // 2. one key: an app created with the Children panel's form.
        lesson(QStringLiteral("follow-key"), [this] { m_window->createFromForm(QStringLiteral("walk-app")); });
        // 3. level-triggered: kubectl deletes its Deployment; the operator creates it again.
        lesson(QStringLiteral("level-triggered"), [this] {
            auto r = QCoro::waitFor(m_kubectl->remove(deployments(), QStringLiteral("default"), app()));
            QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message()));
        });
        // 4. de-duplication: Pause on the toolbar, then two kubectl patches of one app.
        lesson(QStringLiteral("dedup"), [this] {
            clickAction(QStringLiteral("pause"));
            QTRY_VERIFY_WITH_TIMEOUT(m_window->action(QStringLiteral("step"))->isEnabled(), 10000);
            patchReplicas(2);
            patchReplicas(3);
        });
        // 5. Step (toolbar).
        lesson(QStringLiteral("step"), [this] { clickAction(QStringLiteral("step")); });
        // 6. Step into (toolbar): the reconcile halts before its first call.
        lesson(QStringLiteral("step-into"), [this] {
            const QString rv = patchReplicas(1);
            // As a learner would: Step into once the Queue panel shows the key queued by this
            // change (with an empty queue there is nothing to step into; the watch event follows
            // the patch's reply, and the panel may still show the key Step just took).
            QTRY_VERIFY_WITH_TIMEOUT(queuedBy(QStringLiteral("default/") + app(), rv), 30000);
            clickAction(QStringLiteral("stepInto"));
        });
        clickAction(QStringLiteral("continue"));
        clickAction(QStringLiteral("run"));
        // 7. backoff: the lesson's button fails the operator's next 2 updates of the app's
        // Deployment; ONE kubectl edit then shows two failures, two backoffs and the success.
        lesson(QStringLiteral("backoff"), [this, panel] {
            QVERIFY(panel->actionButton()->isVisible());
            QVERIFY(panel->actionButton()->text().contains(app()));
            QTest::mouseClick(panel->actionButton(), Qt::LeftButton);
            patchReplicas(4); // kubectl's own write is not failed: it goes through
        });
        // 8. conflict: the lesson's button makes the next update a 409; one edit, then the
        // requeue and the retry that succeeds.
        lesson(QStringLiteral("conflict"), [this, panel] {
            QTest::mouseClick(panel->actionButton(), Qt::LeftButton);
            patchReplicas(2);
        });
        // 9. admission: the lesson's button creates app bare (image nginx) as kubectl; the API
        // server refuses it in kubectl's words. Pressed again it creates app tagged (nginx:1.27).
        lesson(
            QStringLiteral("admission"),
            [panel] {
                QVERIFY(panel->actionButton()->text().contains(QStringLiteral("bare")));
                QTest::mouseClick(panel->actionButton(), Qt::LeftButton);
                QTRY_VERIFY_WITH_TIMEOUT(
                    panel->answerView()->toPlainText().contains(QStringLiteral("The MyApplication \"bare\" is invalid: "
                                                                               "spec.image: Invalid value: \"nginx\": "
                                                                               "must carry a tag or a digest")),
                    30000);
                QVERIFY(panel->answerView()->isVisible());
                // The tour saw the denial: the same button now creates an app that passes.
                QTRY_VERIFY_WITH_TIMEOUT(panel->actionButton()->text().contains(QStringLiteral("tagged")), 30000);
                QTest::mouseClick(panel->actionButton(), Qt::LeftButton);
                QTRY_VERIFY_WITH_TIMEOUT(panel->answerView()->toPlainText().contains(
                                             QStringLiteral("myapplication.example.com/tagged created")),
                    30000);
            },
            30000, true);
        // The Admission dock: the denial, and the defaulting webhook's patch with its labels.
        QTRY_VERIFY(admissionRow(QStringLiteral("bare"), QStringLiteral("denied (422)")) >= 0);
        QTRY_VERIFY(admissionRow(QStringLiteral("tagged"), QStringLiteral("patched (")) >= 0);
        clickAdmissionRow(admissionRow(QStringLiteral("tagged"), QStringLiteral("patched (")));
        QTRY_VERIFY2(
            admissionPanel()->diffView()->toPlainText().contains(QStringLiteral("app.kubernetes.io/instance: tagged")),
            qPrintable(admissionPanel()->diffView()->toPlainText()));
        QVERIFY(instructionsInView());
        QTest::mouseClick(panel->nextButton(), Qt::LeftButton);
        // 10. conversion: the lesson's button reads the app at v1beta1 as kubectl get would.
        // The app the tour follows: walk-app, or tagged once its Deployment's create was traced.
        const QString followed = tour->state().lesson.request.name;
        QVERIFY2(followed == app() || followed == u"tagged", qPrintable(followed));
        lesson(
            QStringLiteral("conversion"),
            [panel, followed] {
                QVERIFY(panel->actionButton()->text().contains(followed));
                QVERIFY2(!panel->answerView()->isVisible(), "the last lesson's answer is gone");
                QTest::mouseClick(panel->actionButton(), Qt::LeftButton);
                QTRY_VERIFY_WITH_TIMEOUT(
                    panel->answerView()->toPlainText().contains(QStringLiteral("apiVersion: example.com/v1beta1")),
                    30000);
                const QString yaml = panel->answerView()->toPlainText();
                QVERIFY2(yaml.contains(QStringLiteral("repository: nginx")) && yaml.contains(QStringLiteral("tag: ")),
                    qPrintable(yaml));
            },
            30000, true);
        QTRY_VERIFY(admissionRow(followed, QStringLiteral("converted to v1beta1")) >= 0);
        QTest::mouseClick(panel->nextButton(), Qt::LeftButton);
        // 11. relist: the lesson's button drops the watches after a compaction; the mark shows.
        lesson(QStringLiteral("relist"), [panel] { QTest::mouseClick(panel->actionButton(), Qt::LeftButton); });
        QTRY_VERIFY(m_window->cachePanel()->relistMarker()->isVisible());
        QVERIFY(m_window->cachePanel()->relistMarker()->text().startsWith(QStringLiteral("410 → relist")));
        QTRY_VERIFY(m_window->pipelinePanel()->model()->detail(PipelineModel::Reflector).contains(u"410 → relist"));
        // 12. time travel: the slider starts at live on the right; the keyboard takes it left.
        lesson(QStringLiteral("time-travel"), [this] {
            QSlider *slider = m_window->cachePanel()->historySlider();
            QVERIFY(slider->isEnabled());
            QCOMPARE(slider->value(), slider->maximum());
            slider->setFocus();
            QTest::keyClick(slider, Qt::Key_Home);
            QVERIFY(slider->value() < slider->maximum());
        });
        // 13. hand off to the headless build and take back (the toolbar's one button).
        lesson(
            QStringLiteral("hand-off"),
            [this] {
                clickAction(QStringLiteral("handOff"));
                QTRY_COMPARE_WITH_TIMEOUT(
                    m_window->action(QStringLiteral("handOff"))->text(), QStringLiteral("Take back"), 60000);
                clickAction(QStringLiteral("handOff"));
            },
            90000);
        QCOMPARE(tour->state().completed.size(), tour->state().count);
    }

private:
    /// The current lesson is `id`; its instructions and its dock are on screen; `act` does it;
    /// the lesson completes and its "✓ Done" stays in view; then Next (unless `stay`).
    template<typename Act> void lesson(const QString &id, Act act, int timeoutMs = 30000, bool stay = false)
    {
        workbench::Tour *tour = m_window->tour();
        QVERIFY(!QTest::currentTestFailed()); // a lesson before failed
        QCOMPARE(tour->state().lesson.id, id);
        QVERIFY2(instructionsInView(), qPrintable(id + QStringLiteral(": the tour is hidden")));
        auto *dock = m_window->findChild<QDockWidget *>(tour->state().lesson.panel);
        QVERIFY(dock);
        QTRY_VERIFY2(dock->isVisible(), qPrintable(id + QStringLiteral(": its dock is not shown")));
        act();
        QTRY_VERIFY2_WITH_TIMEOUT(tour->state().done, qPrintable(id + QStringLiteral(" did not complete")), timeoutMs);
        QVERIFY(m_window->tourPanel()->statusLabel()->text().contains(QStringLiteral("Done")));
        QVERIFY2(instructionsInView(), qPrintable(id + QStringLiteral(": ✓ Done is hidden")));
        QVERIFY(dock->isVisible());
        if (!stay && !QTest::currentTestFailed() && tour->state().index + 1 < tour->state().count)
            QTest::mouseClick(m_window->tourPanel()->nextButton(), Qt::LeftButton);
    }

    AdmissionPanel *admissionPanel() const { return m_window->admissionPanel(); }

    /// The Queue panel lists `key` with a watch event of resourceVersion `rv` among its causes.
    bool queuedBy(const QString &key, const QString &rv) const
    {
        const auto *model = m_window->findChild<QueueItemsModel *>();
        for (int row = 0; model && row < model->rowCount(); ++row) {
            const QModelIndex index = model->index(row, QueueItemsModel::KeyColumn);
            if (index.data(QueueItemsModel::KeyRole).toString() != key)
                continue;
            for (const QString &cause : index.data(QueueItemsModel::CausesRole).toStringList())
                if (cause.startsWith(QLatin1String("watch")) && cause.endsWith(QStringLiteral(" rv ") + rv))
                    return true;
        }
        return false;
    }

    /// The Admission dock's row of the call about `name` whose verdict starts with `verdict` (-1: none).
    int admissionRow(const QString &name, const QString &verdict) const
    {
        const QAbstractItemModel *model = admissionPanel()->view()->model();
        for (int row = 0; row < model->rowCount(); ++row) {
            const QString object = model->index(row, AdmissionListModel::ObjectColumn).data().toString();
            const QString result = model->index(row, AdmissionListModel::ResultColumn).data().toString();
            if (object.endsWith(u'/' + name) && result.startsWith(verdict))
                return row;
        }
        return -1;
    }

    void clickAdmissionRow(int row)
    {
        QTableView *view = admissionPanel()->view();
        QVERIFY(row >= 0);
        const QModelIndex index = view->model()->index(row, AdmissionListModel::ObjectColumn);
        view->scrollTo(index);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(index).center());
        QCOMPARE(view->currentIndex().row(), row);
    }

    bool instructionsInView() const
    {
        auto *tourDock = m_window->findChild<QDockWidget *>(QStringLiteral("tourDock"));
        const QLabel *status = m_window->tourPanel()->statusLabel();
        return tourDock->isVisible() && status->isVisible() && !status->visibleRegion().isEmpty();
    }

    void clickAction(const QString &name)
    {
        auto *bar = m_window->findChild<QToolBar *>(QStringLiteral("controlToolBar"));
        QWidget *button = bar->widgetForAction(m_window->action(name));
        QVERIFY(button);
        QTRY_VERIFY(button->isEnabled());
        QTest::mouseClick(button, Qt::LeftButton);
    }

    static QString app() { return QStringLiteral("walk-app"); }
    static GroupVersionResource deployments()
    {
        return {QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("deployments")};
    }

    /// `kubectl patch myapplication walk-app --type merge -p '{"spec":{"replicas":N}}'`; the
    /// app's new resourceVersion.
    QString patchReplicas(int replicas)
    {
        const GroupVersionResource apps{
            QStringLiteral("example.com"), QStringLiteral("v1alpha1"), QStringLiteral("myapplications")};
        const QByteArray patch = QStringLiteral(R"({"spec":{"replicas":%1}})").arg(replicas).toUtf8();
        // The sample's webhooks make the server admit the patch asynchronously; an operator's
        // status write meanwhile makes the server apply it again, as kube-apiserver does.
        const Expected<Object> r
            = QCoro::waitFor(m_kubectl->patch(apps, QStringLiteral("default"), app(), PatchType::Merge, patch));
        [&r] { QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message())); }();
        return r.ok() ? r->resourceVersion() : QString();
    }

    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<RestClient> m_kubectl;
    bool m_started = false;
};

QTEST_MAIN(tst_LearnerWalk)
#include "tst_learnerwalk.moc"
