// SPDX-License-Identifier: Apache-2.0
// Replay in the workbench (docs/recording.md): a run of the MyApplication operator is recorded
// against the API server over loopback, then opened in the window (offscreen) in replay mode.
// Played to the end, the Reconciles list and the Cache hold what was recorded; Step adds exactly
// one reconcile; Step into halts before the reconcile's first call in the Current reconcile view;
// a seek to a resourceVersion starts again and stops before the right reconcile; a changed
// reconciler is marked on the timeline; a damaged file shows its damage; and
// `opbench --replay FILE --report-after …` reports the panels filled. The Queue panel shows the
// recording's queue (a key queued before its first reconcile, then being reconciled); each
// reconcile says why it ran (the recorded watch event, not a stand-in) and how long it took in the
// run; a key breakpoint set in the Breakpoints dock pauses the play before that key's reconcile.
#include "ui/mainwindow.h"
#include "ui/models/cachetreemodel.h"
#include "ui/models/currentreconcilemodel.h"
#include "ui/models/reconcilelistmodel.h"
#include "ui/session/hostedoperator.h"
#include "ui/widgets/breakpointspanel.h"
#include "ui/widgets/currentreconcileview.h"
#include "ui/widgets/leadershippanel.h"
#include "ui/widgets/reconcilespanel.h"
#include "ui/widgets/reconciletimelineview.h"
#include "ui/widgets/transportbar.h"

#include "engine/api/deployment.h"
#include "engine/api/status.h"
#include "engine/controller/builder.h"
#include "engine/controller/predicates.h"
#include "engine/manager/manager.h"
#include "engine/operator/definition.h"
#include "engine/operator/myapplication.h"
#include "engine/operator/reconciler.h"
#include "engine/recording/recording.h"
#include "engine/testing/operatorfixture.h"
#include "engine/testing/recordedrun.h"

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace opbench;
using namespace opbench::ui;
using opbench::myapp::MyApplication;

namespace {

constexpr int kTimeoutMs = 20000;

/// The MyApplication reconciler changed on purpose: it does nothing for app-2.
class ChangedReconciler : public Reconciler
{
public:
    QCoro::Task<ReconcileOutcome> reconcile(Request req) override
    {
        if (req.name == QLatin1String("app-2"))
            co_return Result{};
        if (!m_injected) {
            m_inner->inject(&client(), recorder());
            m_injected = true;
        }
        co_return co_await m_inner->reconcile(std::move(req));
    }

private:
    std::shared_ptr<myapp::MyApplicationReconciler> m_inner = std::make_shared<myapp::MyApplicationReconciler>();
    bool m_injected = false;
};

OperatorDefinition changedDefinition()
{
    OperatorDefinition def = myapp::definition();
    def.setup = [](Manager *m) -> Expected<void> {
        return ControllerBuilder(m)
            .forKind<MyApplication>({predicates::generationChanged()})
            .owns<Deployment>()
            .complete(std::make_shared<ChangedReconciler>());
    };
    return def;
}

int countOf(const Recording &r, const char *type)
{
    int n = 0;
    for (const RecordingRecord &rec : r.records())
        n += rec.type == QLatin1String(type) ? 1 : 0;
    return n;
}

/// The window replaying `path`, shown offscreen, once its replay is open.
std::unique_ptr<MainWindow> openReplay(const QString &path)
{
    SessionOptions o;
    o.replay = path;
    auto w = std::make_unique<MainWindow>(o);
    w->resize(1600, 1000);
    w->show();
    return w;
}

bool replayOpen(const MainWindow &w) { return w.windowTitle().contains(QStringLiteral("replay of")); }

/// The Queue panel as panelReport() has it in a replay: {"ready", "processing", "waiting", "items"}.
QJsonObject queueReport(const MainWindow &w)
{
    return w.panelReport().value(QStringLiteral("replay")).toObject().value(QStringLiteral("queue")).toObject();
}

/// The Queue panel's row of `key` ({"key", "state", "causes"}; empty when it lists no such key).
QJsonObject queueItem(const MainWindow &w, const QString &key)
{
    for (const QJsonValue item : queueReport(w).value(QStringLiteral("items")).toArray())
        if (item.toObject().value(QStringLiteral("key")).toString() == key)
            return item.toObject();
    return {};
}

QString str(const RecordingRecord &rec, const char *key) { return rec.json.value(QLatin1String(key)).toString(); }

} // namespace

class tst_Replay : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void playsToTheEndAndFillsThePanels();
    void stepAddsExactlyOneReconcile();
    void stepIntoHaltsBeforeTheFirstCall();
    void seeksToAResourceVersion();
    void changedReconcilerIsMarkedOnTheTimeline();
    void damagedFileShowsTheDamage();
    void handOffOfferOpensTheRecording();
    void opbenchReportsAReplay();
    void queuePanelShowsTheRecordedQueue();
    void reconcilesSayWhyTheyRanAndHowLong();
    void keyBreakpointPausesThePlay();
    void callBreakpointPausesBeforeTheCall();

private:
    QTemporaryDir m_dir;
    QString m_path;
    Recording m_recording;
};

void tst_Replay::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("opbench-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_replay"));
    QSettings().clear();
    QSettings().setValue(QStringLiteral("tour/offered"), true);
    QVERIFY(m_dir.isValid());
    m_path = m_dir.filePath(QStringLiteral("run.rec"));
    testing::OperatorFixture env(myapp::definition());
    QVERIFY2(env.ok(), qPrintable(env.errorString()));
    testing::RecordedRun run(env, m_path);
    QVERIFY2(run.ok(), qPrintable(run.errorString()));
    for (int i = 1; i <= 2; ++i) {
        MyApplication app(QStringLiteral("default"), QStringLiteral("app-%1").arg(i));
        app.setImage(QStringLiteral("nginx:1.25"));
        app.setReplicas(i);
        QVERIFY(env.create(app));
    }
    QVERIFY(env.eventually(
        [&] { return env.get<Deployment>(ObjectKey(QStringLiteral("default"), QStringLiteral("app-2"))).ok(); },
        QStringLiteral("app-2's Deployment")));
    // Scale app-1 to 3 on a fresh read: the operator writes its status meanwhile, so a
    // conflict (409) is tried again, as a user's client would.
    bool scaled = false;
    for (int attempt = 0; attempt < 10 && !scaled; ++attempt) {
        auto app1 = env.get<MyApplication>(ObjectKey(QStringLiteral("default"), QStringLiteral("app-1")));
        QVERIFY(app1.ok());
        app1->setReplicas(3);
        scaled = env.update(*app1);
        QVERIFY2(scaled || isConflict(env.lastError()), qPrintable(env.lastError().message()));
    }
    QVERIFY(scaled);
    Controller *ctrl = env.manager()->controllers().constFirst();
    QVERIFY(env.eventually(
        [&] {
            auto d = env.get<Deployment>(ObjectKey(QStringLiteral("default"), QStringLiteral("app-1")));
            return d.ok() && d->replicas() == 3 && ctrl->activeWorkers() == 0 && ctrl->queue()->len() == 0;
        },
        QStringLiteral("app-1 scaled to 3 and the controller idle")));
    m_recording = run.finish();
    QVERIFY2(m_recording.ok(), qPrintable(m_recording.error()));
    QVERIFY2(countOf(m_recording, "re") >= 4, qPrintable(QString::number(countOf(m_recording, "re"))));
}

void tst_Replay::playsToTheEndAndFillsThePanels()
{
    // Given the recording opened in the window
    auto w = openReplay(m_path);
    QTRY_VERIFY_WITH_TIMEOUT(replayOpen(*w), kTimeoutMs);
    QVERIFY2(w->windowTitle().contains(m_path) && w->windowTitle().contains(QStringLiteral("myapplication")),
        qPrintable(w->windowTitle()));
    // Writes are off, and say why
    QVERIFY(!w->action(QStringLiteral("handOff"))->isEnabled());
    QVERIFY(w->action(QStringLiteral("handOff"))->toolTip().contains(QStringLiteral("replay")));
    // When it plays at max speed to the end
    w->session()->post(&ReplaySession::play, 0.0);
    // Then every recorded reconcile is in the list, none diverged, and the cache holds the objects
    const int reconciles = countOf(m_recording, "re");
    QTRY_COMPARE_WITH_TIMEOUT(w->reconcileModel()->rowCount(), reconciles, kTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(w->cacheModel()->objectCount(QStringLiteral("MyApplication")), 2, kTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(w->cacheModel()->objectCount(QStringLiteral("Deployment")), 2, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(
        w->transportBar()->positionText().contains(QStringLiteral("end of the recording")), kTimeoutMs);
    const QJsonObject report = w->panelReport().value(QStringLiteral("replay")).toObject();
    QCOMPARE(report.value(QStringLiteral("replayed")).toInt(), reconciles);
    QCOMPARE(report.value(QStringLiteral("diverged")).toInt(), 0);
    QCOMPARE(w->reconcileModel()->divergenceCount(), 0);
}

void tst_Replay::stepAddsExactlyOneReconcile()
{
    auto w = openReplay(m_path);
    QTRY_VERIFY_WITH_TIMEOUT(replayOpen(*w), kTimeoutMs);
    const int total = countOf(m_recording, "re");
    // When the user steps (F10): exactly one reconcile more each time
    w->action(QStringLiteral("step"))->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(w->transportBar()->positionText().contains(QStringLiteral(" 1/")), kTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(w->reconcileModel()->rowCount(), 1, kTimeoutMs);
    w->session()->post(&ReplaySession::step);
    QTRY_VERIFY_WITH_TIMEOUT(
        w->transportBar()->positionText().contains(QStringLiteral(" 2/%1").arg(total)), kTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(w->reconcileModel()->rowCount(), 2, kTimeoutMs);
    QCOMPARE(w->reconcileModel()->traceAt(1).id,
        m_recording.records().at(m_recording.reconciles().at(1)).json.value(QStringLiteral("id")).toString());
}

void tst_Replay::stepIntoHaltsBeforeTheFirstCall()
{
    auto w = openReplay(m_path);
    QTRY_VERIFY_WITH_TIMEOUT(replayOpen(*w), kTimeoutMs);
    const RecordingRecord &first = m_recording.records().at(m_recording.reconciles().first());
    const QString key = first.json.value(QStringLiteral("key")).toString();
    // When the user steps into the first reconcile
    w->action(QStringLiteral("stepInto"))->trigger();
    // Then the Current reconcile view shows it halted before its first call (a cache get)
    const QAbstractItemModel *calls = w->currentReconcileView()->callsView()->model();
    QTRY_VERIFY_WITH_TIMEOUT(calls->rowCount() >= 1
            && calls->index(calls->rowCount() - 1, 0).data(CurrentReconcileModel::PendingRole).toBool(),
        kTimeoutMs);
    QCOMPARE(calls->rowCount(), 1);
    QCOMPARE(calls->index(0, CurrentReconcileModel::VerbColumn).data().toString(), QStringLiteral("get"));
    QVERIFY2(w->currentReconcileView()->headerLabel()->text().contains(key),
        qPrintable(w->currentReconcileView()->headerLabel()->text()));
    QVERIFY(w->findChild<QDockWidget *>(QStringLiteral("currentReconcileDock"))->isVisible());
    // And a step lets that call go out: it halts before the next one
    w->action(QStringLiteral("step"))->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(
        calls->rowCount() == 2 && calls->index(1, 0).data(CurrentReconcileModel::PendingRole).toBool(), kTimeoutMs);
    QCOMPARE(w->reconcileModel()->rowCount(), 0); // not finished yet
}

void tst_Replay::seeksToAResourceVersion()
{
    // Given the replay played to the end
    auto w = openReplay(m_path);
    QTRY_VERIFY_WITH_TIMEOUT(replayOpen(*w), kTimeoutMs);
    w->session()->post(&ReplaySession::play, 0.0);
    const int total = countOf(m_recording, "re");
    QTRY_COMPARE_WITH_TIMEOUT(w->reconcileModel()->rowCount(), total, kTimeoutMs);
    // When it seeks to the resourceVersion of app-2's creation
    QString rv;
    int at = -1;
    const QList<RecordingRecord> &records = m_recording.records();
    for (int i = 0; i < records.size() && rv.isEmpty(); ++i) {
        const QJsonObject obj = records.at(i).json.value(QStringLiteral("obj")).toObject();
        if (records.at(i).type == QLatin1String("ev")
            && obj.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("name"))
                == QLatin1String("app-2")) {
            rv = records.at(i).json.value(QStringLiteral("rv")).toString();
            at = i;
        }
    }
    QVERIFY(!rv.isEmpty());
    int before = 0; // reconciles ended before the first reconcile start after that event
    for (int i = 0; i < records.size(); ++i) {
        if (i > at && records.at(i).type == QLatin1String("rs"))
            break;
        before += records.at(i).type == QLatin1String("re") ? 1 : 0;
    }
    QVERIFY(before < total);
    w->session()->post(&ReplaySession::seekToResourceVersion, rv);
    // Then the replay started again and stopped there: the list holds the reconciles before it
    QTRY_VERIFY_WITH_TIMEOUT(w->transportBar()->positionText().contains(QStringLiteral("rv ")), kTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(w->reconcileModel()->rowCount(), before, kTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(w->cacheModel()->objectCount(QStringLiteral("MyApplication")), 2, kTimeoutMs);
    // And the next step replays the first reconcile after it
    w->session()->post(&ReplaySession::step);
    QTRY_COMPARE_WITH_TIMEOUT(w->reconcileModel()->rowCount(), before + 1, kTimeoutMs);
}

void tst_Replay::changedReconcilerIsMarkedOnTheTimeline()
{
    // Given the operator changed on purpose (it does nothing for app-2)
    setHostedOperator(changedDefinition());
    auto w = openReplay(m_path);
    QTRY_VERIFY_WITH_TIMEOUT(replayOpen(*w), kTimeoutMs);
    w->session()->post(&ReplaySession::play, 0.0);
    QTRY_COMPARE_WITH_TIMEOUT(w->reconcileModel()->rowCount(), countOf(m_recording, "re"), kTimeoutMs);
    // Then app-2's reconciles are marked as diverged: in the list, on the timeline, in the details
    QTRY_VERIFY_WITH_TIMEOUT(w->reconcileModel()->divergenceCount() > 0, kTimeoutMs);
    int row = -1;
    for (int r = 0; r < w->reconcileModel()->rowCount() && row < 0; ++r)
        if (!w->reconcileModel()->divergenceAt(r).isEmpty())
            row = r;
    QVERIFY(row >= 0);
    QCOMPARE(w->reconcileModel()->traceAt(row).request.toString(), QStringLiteral("default/app-2"));
    QVERIFY2(w->reconcileModel()->divergenceAt(row).contains(QStringLiteral("recorded")),
        qPrintable(w->reconcileModel()->divergenceAt(row)));
    QVERIFY(w->reconcileModel()
                ->index(row, ReconcileListModel::ResultColumn)
                .data()
                .toString()
                .contains(QStringLiteral("recorded")));
    QTRY_VERIFY_WITH_TIMEOUT(w->reconcilesPanel()->timeline()->divergenceMarks().contains(row), kTimeoutMs);
    w->reconcilesPanel()->selectRow(row);
    bool shown = false;
    for (const QPlainTextEdit *e : w->reconcilesPanel()->findChildren<QPlainTextEdit *>())
        shown = shown || e->toPlainText().contains(QStringLiteral("DIVERGED from the recording"));
    QVERIFY(shown);
    setHostedOperator(myapp::definition());
}

void tst_Replay::handOffOfferOpensTheRecording()
{
    // Given a window and the Leadership panel offering the headless run's recording (take back)
    auto w = openReplay(m_path);
    QTRY_VERIFY_WITH_TIMEOUT(replayOpen(*w), kTimeoutMs);
    auto *panel = w->findChild<LeadershipPanel *>();
    QVERIFY(panel);
    QString opened;
    connect(w.get(), &MainWindow::switchRequested, w.get(), [&opened](const SessionOptions &o) { opened = o.replay; });
    // When the user opens it, then the window asks to switch to replaying that file
    Q_EMIT panel->openRecordingRequested(QStringLiteral("/tmp/headless-1.rec"));
    QCOMPARE(opened, QStringLiteral("/tmp/headless-1.rec"));
}

void tst_Replay::damagedFileShowsTheDamage()
{
    // Given the recording cut in the middle of a line
    QFile in(m_path);
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QByteArray bytes = in.readAll();
    const QString cut = m_dir.filePath(QStringLiteral("cut.rec"));
    QFile out(cut);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(bytes.left(bytes.size() * 2 / 3));
    out.close();
    // When it is opened and played
    auto w = openReplay(cut);
    QTRY_VERIFY_WITH_TIMEOUT(replayOpen(*w), kTimeoutMs);
    w->session()->post(&ReplaySession::play, 0.0);
    // Then the window says where the damage is and replays what was read
    QTRY_VERIFY_WITH_TIMEOUT(
        w->transportBar()->positionText().contains(QStringLiteral("end of the recording")), kTimeoutMs);
    QVERIFY2(w->statusBar()->currentMessage().contains(QStringLiteral("damaged at byte offset")),
        qPrintable(w->statusBar()->currentMessage()));
    QVERIFY(!w->panelReport()
                 .value(QStringLiteral("replay"))
                 .toObject()
                 .value(QStringLiteral("damage"))
                 .toString()
                 .isEmpty());
    // And a file that is no recording says so
    const QString junk = m_dir.filePath(QStringLiteral("junk.rec"));
    QFile j(junk);
    QVERIFY(j.open(QIODevice::WriteOnly));
    j.write("not a recording\n");
    j.close();
    auto bad = openReplay(junk);
    QTRY_VERIFY_WITH_TIMEOUT(bad->statusBar()->currentMessage().contains(QStringLiteral("Cannot replay")), kTimeoutMs);
}

void tst_Replay::opbenchReportsAReplay()
{
    const QString opbench = QStringLiteral(OPBENCH_BINARY_DIR "/app/opbench");
    if (!QFile::exists(opbench))
        QSKIP("build the opbench executable first");
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    p.setProcessEnvironment(env);
    p.start(opbench, {QStringLiteral("--replay"), m_path, QStringLiteral("--report-after"), QStringLiteral("4")});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);
    const QJsonObject report = QJsonDocument::fromJson(p.readAllStandardOutput().trimmed()).object();
    QCOMPARE(report.value(QStringLiteral("reconciles")).toInt(), countOf(m_recording, "re"));
    QCOMPARE(report.value(QStringLiteral("cache")).toObject().value(QStringLiteral("MyApplication")).toInt(), 2);
    QCOMPARE(report.value(QStringLiteral("ownerTrees")).toInt(), 2); // the Children panel: an app, its Deployment
    QCOMPARE(report.value(QStringLiteral("replay")).toObject().value(QStringLiteral("diverged")).toInt(), 0);
}

void tst_Replay::queuePanelShowsTheRecordedQueue()
{
    // Given the replay at the first reconcile's start (a seek to its time stops before it)
    auto w = openReplay(m_path);
    QTRY_VERIFY_WITH_TIMEOUT(replayOpen(*w), kTimeoutMs);
    const RecordingRecord &first = m_recording.records().at(m_recording.reconciles().first());
    const QString key = str(first, "key");
    w->session()->post(
        &ReplaySession::seekToTime, QString::number(qint64(first.json.value(QStringLiteral("wall")).toDouble())));
    // Then the Queue panel lists its key ready, queued by the recorded watch event, and the depth is not 0
    QTRY_COMPARE_WITH_TIMEOUT(
        queueItem(*w, key).value(QStringLiteral("state")).toString(), QStringLiteral("queued"), kTimeoutMs);
    QVERIFY(queueReport(*w).value(QStringLiteral("ready")).toInt() >= 1);
    const QJsonArray causes = queueItem(*w, key).value(QStringLiteral("causes")).toArray();
    QVERIFY(!causes.isEmpty());
    QVERIFY2(causes.first().toString().startsWith(QStringLiteral("watch ")), qPrintable(causes.first().toString()));
    // When the reconcile starts (step into), its key is being reconciled
    w->action(QStringLiteral("stepInto"))->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(
        queueItem(*w, key).value(QStringLiteral("state")).toString(), QStringLiteral("processing"), kTimeoutMs);
    // And played to the end, nothing is ready or being reconciled any more
    w->session()->post(&ReplaySession::play, 0.0);
    QTRY_VERIFY_WITH_TIMEOUT(
        w->transportBar()->positionText().contains(QStringLiteral("end of the recording")), kTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(queueReport(*w).value(QStringLiteral("ready")).toInt(), 0, kTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(queueReport(*w).value(QStringLiteral("processing")).toInt(), 0, kTimeoutMs);
}

void tst_Replay::reconcilesSayWhyTheyRanAndHowLong()
{
    auto w = openReplay(m_path);
    QTRY_VERIFY_WITH_TIMEOUT(replayOpen(*w), kTimeoutMs);
    w->session()->post(&ReplaySession::play, 0.0);
    const int total = countOf(m_recording, "re");
    QTRY_COMPARE_WITH_TIMEOUT(w->reconcileModel()->rowCount(), total, kTimeoutMs);
    QHash<QString, qint64> recordedNs; // reconcile id -> its end's reading minus its start's
    for (const RecordingRecord &rec : m_recording.records()) {
        const qint64 mono = qint64(rec.json.value(QStringLiteral("mono")).toDouble());
        if (rec.type == QLatin1String("rs"))
            recordedNs.insert(str(rec, "id"), -mono);
        else if (rec.type == QLatin1String("re"))
            recordedNs[str(rec, "id")] += mono;
    }
    for (int row = 0; row < total; ++row) {
        const ReconcileTrace &t = w->reconcileModel()->traceAt(row);
        // Why it ran: the recorded causes themselves (a watch event on an object, a child's
        // event, a requeue), never a stand-in
        QVERIFY2(!t.causes.isEmpty(), qPrintable(t.id));
        for (const Cause &c : t.causes)
            QVERIFY2(c.kind != Cause::Kind::Manual, qPrintable(c.describe()));
        // How long: as long as in the run
        QVERIFY2(t.duration.count() > 0, qPrintable(t.id));
        QCOMPARE(qint64(std::chrono::nanoseconds(t.duration).count()), recordedNs.value(t.id));
    }
    const QString firstCauses
        = w->reconcileModel()->index(0, ReconcileListModel::CausesColumn).data(Qt::ToolTipRole).toString();
    QVERIFY2(firstCauses.contains(QStringLiteral("watch ADDED")), qPrintable(firstCauses));
    // The duration's tooltip has the re-executed one too
    QTRY_VERIFY_WITH_TIMEOUT(w->reconcileModel()
                                 ->index(0, ReconcileListModel::DurationColumn)
                                 .data(Qt::ToolTipRole)
                                 .toString()
                                 .contains(QStringLiteral("re-executed now in")),
        kTimeoutMs);
}

void tst_Replay::keyBreakpointPausesThePlay()
{
    // Given a breakpoint on app-2 set in the Breakpoints dock
    auto w = openReplay(m_path);
    QTRY_VERIFY_WITH_TIMEOUT(replayOpen(*w), kTimeoutMs);
    w->session()->post(&ControllerObserver::addBreakpoint, QStringLiteral("key default/app-2"));
    const QAbstractItemModel *breakpoints
        = w->breakpointsPanel()->findChild<QAbstractItemView *>(QStringLiteral("breakpointList"))->model();
    QTRY_COMPARE_WITH_TIMEOUT(breakpoints->rowCount(), 1, kTimeoutMs);
    int before = 0; // reconciles ended before app-2's first start
    for (const RecordingRecord &rec : m_recording.records()) {
        if (rec.type == QLatin1String("rs") && str(rec, "key") == QLatin1String("default/app-2"))
            break;
        before += rec.type == QLatin1String("re") ? 1 : 0;
    }
    // When the replay plays at max speed
    w->session()->post(&ReplaySession::play, 0.0);
    // Then it pauses before app-2's reconcile: the transport shows paused at the breakpoint
    QTRY_VERIFY_WITH_TIMEOUT(w->transportBar()->positionText().contains(QStringLiteral("breakpoint")), kTimeoutMs);
    QVERIFY2(w->transportBar()->positionText().contains(QStringLiteral("key default/app-2")),
        qPrintable(w->transportBar()->positionText()));
    QVERIFY(!w->transportBar()->positionText().contains(QStringLiteral("end of the recording")));
    QVERIFY(w->transportBar()->findChild<QToolButton *>(QStringLiteral("replayPlay"))->isEnabled());
    QVERIFY(!w->transportBar()->findChild<QToolButton *>(QStringLiteral("replayPause"))->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(w->reconcileModel()->rowCount(), before, kTimeoutMs);
    // And the Breakpoints dock shows the hit
    QTRY_VERIFY_WITH_TIMEOUT(
        w->breakpointsPanel()->statusLabel()->text().contains(QStringLiteral("key default/app-2")), kTimeoutMs);
    QCOMPARE(breakpoints->index(0, 2).data().toInt(), 1); // BreakpointListModel::HitsColumn
    // When it plays on, the breakpoint lets that reconcile through
    w->session()->post(&ReplaySession::play, 0.0);
    QTRY_VERIFY_WITH_TIMEOUT(w->reconcileModel()->rowCount() > before, kTimeoutMs);
}

void tst_Replay::callBreakpointPausesBeforeTheCall()
{
    // Given a breakpoint before any create of a Deployment
    auto w = openReplay(m_path);
    QTRY_VERIFY_WITH_TIMEOUT(replayOpen(*w), kTimeoutMs);
    w->session()->post(&ControllerObserver::addBreakpoint, QStringLiteral("before create Deployment"));
    const QAbstractItemModel *breakpoints
        = w->breakpointsPanel()->findChild<QAbstractItemView *>(QStringLiteral("breakpointList"))->model();
    QTRY_COMPARE_WITH_TIMEOUT(breakpoints->rowCount(), 1, kTimeoutMs);
    // When it plays at max speed
    w->session()->post(&ReplaySession::play, 0.0);
    // Then it pauses in app-1's first reconcile, halted before that create (Current reconcile view)
    QTRY_VERIFY_WITH_TIMEOUT(
        w->transportBar()->positionText().contains(QStringLiteral("before create Deployment")), kTimeoutMs);
    QVERIFY2(w->transportBar()->positionText().contains(QStringLiteral("stepping into")),
        qPrintable(w->transportBar()->positionText()));
    const QAbstractItemModel *calls = w->currentReconcileView()->callsView()->model();
    QTRY_VERIFY_WITH_TIMEOUT(calls->rowCount() >= 1
            && calls->index(calls->rowCount() - 1, 0).data(CurrentReconcileModel::PendingRole).toBool(),
        kTimeoutMs);
    QCOMPARE(calls->index(calls->rowCount() - 1, CurrentReconcileModel::VerbColumn).data().toString(),
        QStringLiteral("create"));
    QCOMPARE(breakpoints->index(0, 2).data().toInt(), 1); // BreakpointListModel::HitsColumn
    // And Step lets the create go out: the reconcile goes on to its next call or its end
    const int halted = calls->rowCount();
    w->action(QStringLiteral("step"))->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(
        calls->rowCount() > halted || !calls->index(halted - 1, 0).data(CurrentReconcileModel::PendingRole).toBool(),
        kTimeoutMs);
}

QTEST_MAIN(tst_Replay)
#include "tst_replay.moc"
