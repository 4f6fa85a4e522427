// SPDX-License-Identifier: Apache-2.0
// The guided tour walked end to end in the real window (offscreen) on the embedded cluster: each
// lesson's action is performed through the same intents a learner's clicks send, and each lesson
// must complete from the engine's own events — not from a button. Also: the tour is offered on
// first start only, and resumes where the learner left it.
#include "tests/ui/myappfixture.h"
#include "ui/mainwindow.h"
#include "ui/widgets/tourpanel.h"

#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"
#include "engine/workbench/tour.h"

#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <qcoro/qcorotask.h>

using namespace opbench;
using namespace opbench::ui;

class tst_Tour : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("opbench-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_tour"));
        QSettings().clear();
        SessionOptions options;
        options.operatorProgram = QStringLiteral(OPBENCH_BINARY_DIR "/app/opbench-operator");
        m_window = std::make_unique<MainWindow>(options);
        connect(m_window->session()->cacheFeed(), &CacheFeed::batch, this, [this](const CacheBatch &b) {
            if (!b.oldestRv.isEmpty())
                m_oldestRv = b.oldestRv;
        });
        connect(m_window->session()->controller(), &ControllerObserver::controlState, this,
            [this](const ControlState &s) { m_control = s; });
        connect(m_window->session()->leadership(), &Leadership::leadershipState, this,
            [this](const LeadershipState &s) { m_leadershipRole = s.role; });
        connect(m_window->session(), &EngineSession::started, this, [this] { m_started = true; });
        QTRY_VERIFY_WITH_TIMEOUT(m_started, 30000);
        auto config = loadConfig(m_window->session()->cluster().kubeconfigPath);
        QVERIFY(config.ok());
        m_rest = std::make_unique<RestClient>(config.value());
    }

    void cleanupTestCase()
    {
        m_rest.reset();
        m_window.reset();
    }

    void shouldOfferTheTourOnFirstStart()
    {
        auto *dock = m_window->findChild<QDockWidget *>(QStringLiteral("tourDock"));
        QVERIFY(dock);
        QVERIFY(!dock->isHidden());
        QVERIFY(QSettings().value(QStringLiteral("tour/offered")).toBool());
        QCOMPARE(m_window->tour()->state().index, -1); // offered, not forced on the learner
        // The intro counts the sample operator's lessons (it said "0 short lessons" once)
        auto *progress = m_window->findChild<QLabel *>(QStringLiteral("tourProgress"));
        QVERIFY(progress);
        QCOMPARE(progress->text(), QStringLiteral("13 short lessons, about a minute each"));
    }

    void shouldCompleteEveryLessonFromTheEnginesEvents()
    {
        workbench::Tour *tour = m_window->tour();
        EngineSession *session = m_window->session();
        m_window->startTour();
        QCOMPARE(tour->state().index, 0);

        // 1. sync: nothing to do but watch (done at once when the cache synced before the lesson).
        lesson(QStringLiteral("sync"), [] {});
        // 2. follow one key: create an app with the Children panel's intent.
        lesson(QStringLiteral("follow-key"), [session] {
            session->createObject(testing::myApp(QStringLiteral("tour-app"), QStringLiteral("nginx:1.25"), 1));
        });
        // 3. level-triggered: delete the owned Deployment from the Children panel.
        lesson(QStringLiteral("level-triggered"), [session] {
            session->post(
                &WorkbenchEngine::deleteObject, QStringLiteral("Deployment"), QStringLiteral("default/tour-app"));
        });
        // 4. de-duplication: pause, then two changes to one app (as kubectl patch would send them).
        lesson(QStringLiteral("dedup"), [this, session] {
            session->post(&ControllerObserver::pause);
            QTRY_VERIFY_WITH_TIMEOUT(m_control.paused && m_control.activeWorkers == 0, 10000);
            patchReplicas(QStringLiteral("tour-app"), 2);
            patchReplicas(QStringLiteral("tour-app"), 3);
        });
        // 5. step one reconcile.
        lesson(QStringLiteral("step"), [session] { session->post(&ControllerObserver::step, QString()); });
        // 6. step into: a reconcile halts before its first call.
        lesson(QStringLiteral("step-into"), [this, session] {
            patchReplicas(QStringLiteral("tour-app"), 1);
            session->post(&ControllerObserver::stepInto, QString());
        });
        session->post(&ControllerObserver::continueToEnd);
        // 7. errors and backoff: writes fail while the API errors are on.
        lesson(QStringLiteral("backoff"), [this, session] {
            // As the lesson's button arms it: two failures in a row, then success. (An open-ended
            // error rate left the key so far into backoff that the next lesson's retry came late.)
            session->setFaults(
                {QStringLiteral("error:code=500,verb=update,resource=deployments,name=tour-app,count=2")});
            patchReplicas(QStringLiteral("tour-app"), 2);
            session->post(&ControllerObserver::resume);
        });
        session->setFaults({});
        // 8. a conflict absorbed by a requeue: the next update of the app's Deployment gets 409.
        lesson(QStringLiteral("conflict"), [this, session] {
            session->setFaults(
                {QStringLiteral("error:code=409,verb=update,resource=deployments,name=tour-app,count=1")});
            patchReplicas(QStringLiteral("tour-app"), 3);
        });
        session->setFaults({});
        // 9. admission: a create the validating webhook refuses (an image without a tag), then one
        // the defaulting webhook patches and lets through.
        lesson(QStringLiteral("admission"), [this] {
            const Expected<Object> bare = createApp(QStringLiteral("tour-bare"), QStringLiteral("nginx"));
            QVERIFY(!bare.ok());
            QCOMPARE(bare.error().code(), 422);
            QCOMPARE(bare.error().details().causes.value(0).field, QStringLiteral("spec.image"));
            const Expected<Object> tagged = createApp(QStringLiteral("tour-tagged"), QStringLiteral("nginx:1.27"));
            QVERIFY2(tagged.ok(), qPrintable(tagged.ok() ? QString() : tagged.error().message()));
            QCOMPARE(
                tagged->labels().value(QStringLiteral("app.kubernetes.io/instance")), QStringLiteral("tour-tagged"));
        });
        // 10. conversion: the app read at v1beta1, its image split.
        lesson(QStringLiteral("conversion"), [this] {
            const GroupVersionResource v1beta1{
                QStringLiteral("example.com"), QStringLiteral("v1beta1"), QStringLiteral("myapplications")};
            auto r = QCoro::waitFor(m_rest->get(v1beta1, QStringLiteral("default"), QStringLiteral("tour-app")));
            QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message()));
            const QJsonObject image
                = r->json().value(QLatin1String("spec")).toObject().value(QLatin1String("image")).toObject();
            QCOMPARE(image.value(QLatin1String("repository")).toString(), QStringLiteral("nginx"));
        });
        // 11. a dropped watch after compaction: the informers relist.
        lesson(QStringLiteral("relist"), [session] {
            session->compactHistory();
            session->dropWatches();
        });
        // 12. time travel: the Cache panel's slider asks for the cache at an older version.
        lesson(QStringLiteral("time-travel"), [this, session] {
            QTRY_VERIFY_WITH_TIMEOUT(!m_oldestRv.isEmpty(), 10000);
            session->post(&CacheFeed::requestCacheAt, m_oldestRv);
        });
        // 13. hand off to the headless build and take back.
        lesson(
            QStringLiteral("hand-off"),
            [this, session] {
                session->post(&Leadership::handOff);
                QTRY_COMPARE_WITH_TIMEOUT(int(leadershipRole()), int(LeadershipState::Role::HandedOff), 60000);
                session->post(&Leadership::takeBack);
            },
            90000);
        QCOMPARE(tour->state().completed.size(), tour->state().count);
        m_window->tourPanel()->nextButton()->click();
        QVERIFY(tour->state().finished);
    }

    void shouldLeaveTheWebhookLessonsOutOnARealCluster()
    {
        // A real cluster's API server does not report its webhook calls: the admission and
        // conversion lessons could never complete there, so the sample's tour leaves them out.
        // (Only the kubeconfig matters: the window is checked before its session connects.)
        QTemporaryDir dir;
        QFile kubeconfig(dir.filePath(QStringLiteral("config")));
        QVERIFY(kubeconfig.open(QIODevice::WriteOnly));
        kubeconfig.write("apiVersion: v1\nkind: Config\ncurrent-context: real\n"
                         "clusters: [{name: real, cluster: {server: 'https://127.0.0.1:1'}}]\n"
                         "users: [{name: me, user: {token: t}}]\n"
                         "contexts: [{name: real, context: {cluster: real, user: me}}]\n");
        kubeconfig.close();
        SessionOptions options;
        options.kubeconfig = kubeconfig.fileName();
        MainWindow window(options);
        const workbench::Tour *tour = window.tour();
        QVERIFY(tour->subject().sampleOperator);
        QVERIFY(!tour->subject().webhooks);
        QCOMPARE(tour->state().count, 11);
        QCOMPARE(window.findChild<QLabel *>(QStringLiteral("tourProgress"))->text(),
            QStringLiteral("11 short lessons, about a minute each"));
        QVERIFY(m_window->tour()->subject().webhooks); // the embedded cluster's: all thirteen
    }

    void shouldResumeWhereTheLearnerLeft()
    {
        QSettings().setValue(QStringLiteral("tour/lesson"), 4);
        workbench::Tour *tour = m_window->tour();
        tour->stop();
        m_window->startTour();
        QCOMPARE(tour->state().index, 0); // a finished tour starts again from the beginning
        tour->start(4);
        tour->stop();
        m_window->startTour();
        QCOMPARE(tour->state().index, 4);
        QCOMPARE(tour->state().lesson.id, QStringLiteral("step"));
    }

private:
    /// Performs `action` for the current lesson `id`, then waits until the tour saw it happen.
    template<typename Action> void lesson(const QString &id, Action action, int timeoutMs = 30000)
    {
        workbench::Tour *tour = m_window->tour();
        QCOMPARE(tour->state().lesson.id, id);
        QVERIFY(!tour->state().done || id == u"sync");
        action();
        QTRY_VERIFY2_WITH_TIMEOUT(tour->state().done, qPrintable(id + QStringLiteral(" did not complete")), timeoutMs);
        QVERIFY(m_window->tourPanel()->statusLabel()->text().contains(QStringLiteral("Done")));
        if (tour->state().index + 1 < tour->state().count)
            m_window->tourPanel()->nextButton()->click();
    }

    /// `kubectl create` of app `name` with `image`.
    Expected<Object> createApp(const QString &name, const QString &image)
    {
        const GroupVersionResource apps{
            QStringLiteral("example.com"), QStringLiteral("v1alpha1"), QStringLiteral("myapplications")};
        return QCoro::waitFor(m_rest->create(apps, QStringLiteral("default"), testing::myApp(name, image, 1)));
    }

    void patchReplicas(const QString &name, int replicas)
    {
        const GroupVersionResource apps{
            QStringLiteral("example.com"), QStringLiteral("v1alpha1"), QStringLiteral("myapplications")};
        const QByteArray patch = QStringLiteral(R"({"spec":{"replicas":%1}})").arg(replicas).toUtf8();
        auto r = QCoro::waitFor(m_rest->patch(apps, QStringLiteral("default"), name, PatchType::Merge, patch));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message()));
    }

    LeadershipState::Role leadershipRole() const { return m_leadershipRole; }

    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<RestClient> m_rest;
    ControlState m_control;
    QString m_oldestRv;
    bool m_started = false;
    LeadershipState::Role m_leadershipRole = LeadershipState::Role::Off;
};

QTEST_MAIN(tst_Tour)
#include "tst_tour.moc"
