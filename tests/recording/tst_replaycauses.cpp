// SPDX-License-Identifier: Apache-2.0
// Why a replayed reconcile ran and how long it took (docs/recording.md, "Replay"): a run of the
// MyApplication operator recorded over loopback (two apps, a scale whose Deployment update gets a
// 409 and is retried, app-2 asking to run again in 30 s), then read back: every recorded cause
// text reads back as the same cause; the queues rebuilt from the queue adds hold each key before
// its reconcile and end as the run did; the headless replay gives each reconcile its recorded
// causes and duration; a reconcile that waits on a timer does not let the replay move on inside
// that wait; and the workbench's replay (ReplaySession) breaking on errors pauses its play after
// a reconcile that fails when re-executed.
#include "engine/api/deployment.h"
#include "engine/controller/controller.h"
#include "engine/manager/manager.h"
#include "engine/operator/myapplication.h"
#include "engine/recording/recordedqueue.h"
#include "engine/recording/recording.h"
#include "engine/recording/recordingformat.h"
#include "engine/recording/replayer.h"
#include "engine/testing/operatorfixture.h"
#include "engine/testing/recordedrun.h"
#include "engine/workbench/replaysession.h"
#include "tests/recording/recordingoperator.h"

#include <QJsonArray>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <qcoro/qcorotask.h>
#include <qcoro/qcorotimer.h>

using namespace opbench;
using opbench::myapp::MyApplication;
using opbench::recordingtest::definition;

namespace {

QString s(const QJsonObject &o, const char *key) { return o.value(QLatin1String(key)).toString(); }

/// What aWaitInAReconcileDoesNotMoveTheReplay watches: the replay under test, and what an event
/// delivered while a reconcile waits does to it.
struct WaitProbe
{
    Replayer *replayer = nullptr;
    bool waited = false;
    bool sawWaiting = false;
    bool moved = false;
};
WaitProbe g_probe;

/// TestReconciler whose first reconcile under a probe ends by waiting 50 ms on a timer (nothing in
/// a recording answers that), after posting an event that tries to move the replay meanwhile.
class WaitingReconciler : public recordingtest::TestReconciler
{
public:
    WaitingReconciler()
        : recordingtest::TestReconciler(false)
    { }
    QCoro::Task<ReconcileOutcome> reconcile(Request req) override
    {
        ReconcileOutcome outcome = co_await recordingtest::TestReconciler::reconcile(std::move(req));
        if (g_probe.replayer && !g_probe.waited) {
            g_probe.waited = true;
            QTimer::singleShot(0, [] {
                Replayer *r = g_probe.replayer;
                g_probe.sawWaiting = r->waiting();
                const int before = r->position();
                const bool applied = r->advance() != nullptr;
                g_probe.moved = applied || r->position() != before;
            });
            co_await QCoro::sleepFor(std::chrono::milliseconds(50));
        }
        co_return outcome;
    }
};

/// TestReconciler failing every reconcile of app-2 (a replay re-executing it then ends them in errors).
class FailingReconciler : public recordingtest::TestReconciler
{
public:
    FailingReconciler()
        : recordingtest::TestReconciler(false)
    { }
    QCoro::Task<ReconcileOutcome> reconcile(Request req) override
    {
        if (req.name == QLatin1String("app-2"))
            co_return ReconcileOutcome::error(QStringLiteral("app-2 cannot be reconciled"));
        co_return co_await recordingtest::TestReconciler::reconcile(std::move(req));
    }
};

OperatorDefinition waitingDefinition()
{
    return recordingtest::definitionWith([] { return std::make_shared<WaitingReconciler>(); });
}

} // namespace

class TstReplayCauses : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void causeTextsReadBack_data();
    void causeTextsReadBack();
    void recordedQueueHoldsWhatWasQueued();
    void replayedReconcilesRunForTheirRecordedCauses();
    void replayedReconcilesTakeTheRecordedTime();
    void aWaitInAReconcileDoesNotMoveTheReplay();
    void errorBreakpointPausesThePlayAfterTheFailure();

private:
    QTemporaryDir m_dir;
    QString m_path;
};

void TstReplayCauses::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_path = m_dir.filePath(QStringLiteral("run.rec"));
    testing::OperatorFixture env(definition(false));
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
    // app-1 scaled: its Deployment's update gets a 409 once, and is retried
    env.apiServer().runOnServerThread([](apiserver::ApiServer &srv) {
        srv.setFaults({QStringLiteral("error:code=409,verb=update,resource=deployments,count=1")});
    });
    QVERIFY(env.eventually(
        [&] {
            auto app = env.get<MyApplication>(ObjectKey(QStringLiteral("default"), QStringLiteral("app-1")));
            if (!app.ok())
                return false;
            app->setReplicas(3);
            return env.update(*app);
        },
        QStringLiteral("app-1 updated to 3 replicas")));
    Controller *ctrl = env.manager()->controllers().constFirst();
    QVERIFY(env.eventually(
        [&] {
            auto d = env.get<Deployment>(ObjectKey(QStringLiteral("default"), QStringLiteral("app-1")));
            return d.ok() && d->replicas() == 3 && ctrl->activeWorkers() == 0 && ctrl->queue()->len() == 0;
        },
        QStringLiteral("app-1 scaled to 3 and the controller idle")));
    const Recording recording = run.finish();
    QVERIFY2(recording.ok(), qPrintable(recording.error()));
    QVERIFY(recording.reconciles().size() >= 4);
}

namespace {

/// Causes of every kind, as the queue's adds carry them (causeTextsReadBack's rows).
QList<Cause> sampleCauses()
{
    Cause owner = Cause::ownerMapping(Cause::EventType::Deleted, QStringLiteral("Deployment.v1.apps"),
        QStringLiteral("default/web"), QStringLiteral("7"));
    Cause retry
        = Cause::rateLimitedRetry(2, QStringLiteral("Operation cannot be fulfilled: the object has been modified"));
    retry.delay = std::chrono::milliseconds(10);
    Cause requeue = Cause::requestedRequeue(1);
    requeue.delay = std::chrono::milliseconds(5);
    return {Cause::watchEvent(Cause::EventType::Modified, QStringLiteral("MyApplication.v1alpha1.example.com"),
                QStringLiteral("default/web"), QStringLiteral("41")),
        Cause::watchEvent(Cause::EventType::Added, QString(), QStringLiteral("web"), QString()), owner,
        Cause::initialList(
            QStringLiteral("MyApplication.v1alpha1.example.com"), QStringLiteral("default/web"), QStringLiteral("3")),
        Cause::requeueAfter(std::chrono::seconds(30)), Cause::requeueAfter(std::chrono::milliseconds(250)), retry,
        requeue, Cause::manual(), Cause::manual(QStringLiteral("reconcile now"))};
}

/// The reconciles a replay re-executed (their traces as published), with the recording's `rs`
/// and `re` records by reconcile id.
struct ObservedReplay
{
    ReplayReport report;
    QList<ReconcileTrace> traces;
    QHash<QString, QJsonObject> starts;
    QHash<QString, QJsonObject> ends;
};

ObservedReplay observedReplay(const Recording &recording)
{
    ObservedReplay out;
    out.report = testing::replayHeadless(recording, definition(false), [&out](Replayer &r) {
        r.setObserved(true);
        QObject::connect(&r, &Replayer::reconcileEnded,
            [&out](const ReconcileTrace &t, const QString &, qint64) { out.traces.append(t); });
    });
    for (const RecordingRecord &rec : recording.records()) {
        if (rec.type == QLatin1String("rs"))
            out.starts.insert(rec.json.value(QStringLiteral("id")).toString(), rec.json);
        else if (rec.type == QLatin1String("re"))
            out.ends.insert(rec.json.value(QStringLiteral("id")).toString(), rec.json);
    }
    return out;
}

} // namespace

void TstReplayCauses::causeTextsReadBack_data()
{
    QTest::addColumn<int>("index");
    const QList<Cause> causes = sampleCauses();
    for (int i = 0; i < causes.size(); ++i)
        QTest::newRow(qPrintable(causes.at(i).describe())) << i;
}

void TstReplayCauses::causeTextsReadBack()
{
    // A recorded cause (Cause::describe()) reads back as the same kind of cause, object and all.
    QFETCH(int, index);
    const Cause c = sampleCauses().at(index);
    const Cause read = recording::causeFromText(c.describe());
    QCOMPARE(read.describe(), c.describe());
    QCOMPARE(int(read.kind), int(c.kind));
    QCOMPARE(int(read.event), int(c.event));
    QCOMPARE(read.sourceKey, c.sourceKey);
    QCOMPARE(read.resourceVersion, c.resourceVersion);
    QCOMPARE(read.attempt, c.attempt);
    QCOMPARE(read.isRequestedRequeue(), c.isRequestedRequeue());
    // A text of no known form is kept whole, as a manual cause.
    QCOMPARE(recording::causeFromText(QStringLiteral("something else")).describe(),
        QStringLiteral("manual: something else"));
}

void TstReplayCauses::recordedQueueHoldsWhatWasQueued()
{
    const Recording r = Recording::read(m_path);
    QVERIFY2(r.ok(), qPrintable(r.error()));
    QHash<QString, QStringList> endCauses; // reconcile id -> the causes its end recorded
    for (const RecordingRecord &rec : r.records())
        if (rec.type == QLatin1String("re"))
            for (const QJsonValue c : rec.json.value(QStringLiteral("causes")).toArray())
                endCauses[s(rec.json, "id")].append(c.toString());
    RecordedQueue queue;
    QString ctl;
    int checked = 0;
    for (const RecordingRecord &rec : r.records()) {
        if (rec.type == QLatin1String("qa")) {
            queue.add(rec.json);
        } else if (rec.type == QLatin1String("re")) {
            queue.finish(rec.json);
        } else if (rec.type == QLatin1String("rs")) {
            // Before a reconcile starts, its key is in its queue, ready, with the causes it then runs for.
            ctl = s(rec.json, "ctl");
            const QString key = s(rec.json, "key");
            bool queued = false;
            for (const KeyState &k : queue.snapshot(ctl))
                queued = queued || (k.key.toString() == key && k.state == KeyState::State::Queued);
            QVERIFY2(queued || queue.waitingCount(ctl) > 0, qPrintable(key));
            QVERIFY(queue.len(ctl) >= (queued ? 1 : 0));
            const Item item = queue.take(rec.json);
            QCOMPARE(item.key.toString(), key);
            QVERIFY2(!item.causes.isEmpty(), qPrintable(key));
            // exactly the causes the reconcile's end recorded it ran for
            QStringList taken;
            for (const Cause &c : item.causes)
                taken.append(c.describe());
            QVERIFY2(taken == endCauses.value(s(rec.json, "id")),
                qPrintable(taken.join(QStringLiteral(" | ")) + QStringLiteral("  vs recorded  ")
                    + endCauses.value(s(rec.json, "id")).join(QStringLiteral(" | "))));
            ++checked;
            bool processing = false;
            for (const KeyState &k : queue.snapshot(ctl))
                processing = processing || (k.key.toString() == key && k.processing);
            QVERIFY(processing);
        }
    }
    QVERIFY(checked >= 4);
    // At the end, as the run stopped: nothing ready or being reconciled; app-2 waits out its
    // requeue after 30 s.
    QCOMPARE(queue.len(ctl), 0);
    QCOMPARE(queue.processingCount(ctl), 0);
    bool app2Waits = false;
    for (const KeyState &k : queue.snapshot(ctl))
        app2Waits = app2Waits || (k.key.toString() == QLatin1String("default/app-2") && k.waiting);
    QVERIFY(app2Waits);
    QVERIFY(queue.counts(ctl).adds >= checked);
}

void TstReplayCauses::replayedReconcilesRunForTheirRecordedCauses()
{
    // Each replayed reconcile says why it ran as the run did: the causes rebuilt from the queue
    // adds, of their own kinds (watch events, a child's event, requeue after, retry), in the
    // order the reconcile's end recorded them; never a "manual" stand-in.
    const ObservedReplay replay = observedReplay(Recording::read(m_path));
    QVERIFY2(replay.report.diverged == 0, replay.report.toJsonLine().constData());
    QCOMPARE(int(replay.traces.size()), replay.report.replayed);
    QSet<int> kinds;
    for (const ReconcileTrace &t : replay.traces) {
        QStringList made;
        for (const Cause &c : t.causes) {
            made.append(c.describe());
            kinds.insert(int(c.kind));
            QVERIFY2(c.kind != Cause::Kind::Manual, qPrintable(c.describe()));
        }
        QStringList recorded;
        for (const QJsonValue c : replay.ends.value(t.id).value(QStringLiteral("causes")).toArray())
            recorded.append(c.toString());
        QCOMPARE(made, recorded);
    }
    QVERIFY(kinds.contains(int(Cause::Kind::WatchEvent)));
    QVERIFY(kinds.contains(int(Cause::Kind::OwnerMapping)));
    QVERIFY(kinds.contains(int(Cause::Kind::RequeueAfter)) || kinds.contains(int(Cause::Kind::RateLimitedRetry)));
}

void TstReplayCauses::replayedReconcilesTakeTheRecordedTime()
{
    // A replayed reconcile lasts what it lasted in the run (its end's clock reading minus its
    // start's), not the few microseconds the replay takes, nor zero.
    const ObservedReplay replay = observedReplay(Recording::read(m_path));
    QVERIFY(!replay.traces.isEmpty());
    for (const ReconcileTrace &t : replay.traces) {
        const qint64 start = qint64(replay.starts.value(t.id).value(QStringLiteral("mono")).toDouble());
        const QJsonValue end = replay.ends.value(t.id).value(QStringLiteral("mono"));
        QVERIFY2(end.isDouble(), "an end records its clock reading");
        QCOMPARE(qint64(std::chrono::nanoseconds(t.duration).count()), qint64(end.toDouble()) - start);
        QVERIFY2(t.duration.count() > 0, qPrintable(t.id));
    }
}

void TstReplayCauses::aWaitInAReconcileDoesNotMoveTheReplay()
{
    // A reconciler that waits on a timer at the end of a reconcile (nothing in the recording
    // answers it): the replay runs the event loop at that reconcile's recorded end. An event
    // delivered meanwhile (here: one that asks the replay for its next record, as a transport
    // intent would) must not apply a record inside the wait: the records stay in order, no
    // second wait starts inside the first, and the replay ends as recorded.
    const Recording recording = Recording::read(m_path);
    g_probe = {};
    const ReplayReport report
        = testing::replayHeadless(recording, waitingDefinition(), [](Replayer &r) { g_probe.replayer = &r; });
    g_probe.replayer = nullptr;
    QVERIFY(g_probe.waited);
    QVERIFY(g_probe.sawWaiting);
    QVERIFY2(!g_probe.moved, "a record was applied while a reconcile waited");
    QVERIFY2(report.diverged == 0, report.toJsonLine().constData());
    QCOMPARE(report.replayed, int(recording.reconciles().size()) - report.skipped);
}

void TstReplayCauses::errorBreakpointPausesThePlayAfterTheFailure()
{
    // Given the workbench's replay of the run through a reconciler that fails app-2, breaking on errors
    workbench::ReplaySession session;
    OperatorDefinition def = recordingtest::definitionWith([] { return std::make_shared<FailingReconciler>(); });
    const Expected<void> opened = session.open(m_path, def, 0);
    QVERIFY2(opened.ok(), qPrintable(opened.ok() ? QString() : opened.error().message()));
    Controller *c = session.manager()->controllers().constFirst();
    c->setBreakOnError(true);
    QString reason, key;
    QObject::connect(&session, &workbench::ReplaySession::breakpointHit, &session,
        [&](const QString &, int, const QString &r, const QString &k) {
            reason = r;
            key = k;
        });
    // When it plays as fast as it can
    session.play(0);
    QTRY_VERIFY_WITH_TIMEOUT(!session.state().playing, 20000);
    // Then it paused after app-2's first reconcile (it failed): the controller shows paused, and
    // the transport says why
    QCOMPARE(reason, QStringLiteral("error"));
    QCOMPARE(key, QStringLiteral("default/app-2"));
    QVERIFY(!session.state().finished);
    QCOMPARE(session.state().breakpoint, QStringLiteral("on error at default/app-2"));
    QVERIFY(c->isPaused());
    // And played on without the break, it goes to the end
    c->setBreakOnError(false);
    session.play(0);
    QTRY_VERIFY_WITH_TIMEOUT(session.state().finished, 20000);
    QVERIFY(!c->isPaused());
}

QTEST_GUILESS_MAIN(TstReplayCauses)
#include "tst_replaycauses.moc"
