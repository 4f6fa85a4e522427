// SPDX-License-Identifier: Apache-2.0
// Recording a run of the MyApplication operator against the API server over loopback (with churn,
// a dropped watch and a 409) and replaying it headless through the operator's own reconciler.
#include "engine/api/deployment.h"
#include "engine/cache/informer.h"
#include "engine/cache/reflector.h"
#include "engine/controller/builder.h"
#include "engine/controller/predicates.h"
#include "engine/manager/manager.h"
#include "engine/operator/definition.h"
#include "engine/operator/myapplication.h"
#include "engine/operator/reconciler.h"
#include "engine/recording/recording.h"
#include "engine/recording/recordingwriter_p.h"
#include "engine/recording/replayer.h"
#include "engine/recording/runrecorder.h"
#include "engine/sdk/recordingflags.h"
#include "engine/testing/fault/faultharness.h"
#include "engine/testing/operatorfixture.h"
#include "engine/testing/recordedrun.h"
#include "tests/recording/recordingoperator.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <qcoro/qcorotask.h>

using namespace opbench;
using opbench::myapp::MyApplication;
using opbench::recordingtest::definition;

namespace {

const QByteArray kSecretValue = "s3cr3t-pa55w0rd-value";

/// Sets the replicas of MyApplication `name`, again when the operator wrote its status in between (409).
bool scale(testing::OperatorFixture &env, const QString &name, int replicas)
{
    return env.eventually(
        [&] {
            auto app = env.get<MyApplication>(ObjectKey(QStringLiteral("default"), name));
            if (!app.ok())
                return false;
            app->setReplicas(replicas);
            return env.update(*app);
        },
        QStringLiteral("%1 updated to %2 replicas").arg(name).arg(replicas));
}

} // namespace

class TstRecording : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void replaysWithoutDivergence();
    void changedReconcilerDiverges();
    void damagedFileIsReadUpToTheDamage_data();
    void damagedFileIsReadUpToTheDamage();
    void noSecretOrTokenInTheFile();
    void faultHarnessKeepsTheRecordingOfAFailingRun();
    void rotationStartsWithHeaderAndSnapshot();
    void rawWatchAndListRecordsShowTheDropAndRelist();
    void queueAddsAreRecordedWithTheirCauses();
    void formatOneIsStillRead();
    void recordingEndpointNeedsTheToken();

private:
    QTemporaryDir m_dir;
    QString m_path;
    QByteArray m_bytes;
    QString m_token;
};

void TstRecording::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_path = m_dir.filePath(QStringLiteral("run.rec"));
    testing::OperatorFixture env(definition(false));
    QVERIFY2(env.ok(), qPrintable(env.errorString()));
    m_token = env.apiServer().token();
    testing::RecordedRun run(env, m_path);
    QVERIFY2(run.ok(), qPrintable(run.errorString()));
    // A Secret the cache watches: its value must never reach the file.
    Object secret = Object::fromJson(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("Secret")},
        {QStringLiteral("metadata"),
            QJsonObject{{QStringLiteral("name"), QStringLiteral("db")},
                {QStringLiteral("namespace"), QStringLiteral("default")}}},
        {QStringLiteral("stringData"), QJsonObject{{QStringLiteral("password"), QString::fromLatin1(kSecretValue)}}}});
    QVERIFY(env.manager()
                ->cache()
                ->informerFor(GroupVersionKind{QString(), QStringLiteral("v1"), QStringLiteral("Secret")})
                .ok());
    // Churn: three apps, a scale, a delete; a dropped watch; one 409 on a Deployment update.
    for (int i = 1; i <= 3; ++i) {
        MyApplication app(QStringLiteral("default"), QStringLiteral("app-%1").arg(i));
        app.setImage(QStringLiteral("nginx:1.25"));
        app.setReplicas(i);
        QVERIFY(env.create(app));
    }
    env.apiServer().runOnServerThread([](apiserver::ApiServer &s) {
        s.setFaults({QStringLiteral("error:code=409,verb=update,resource=deployments,count=1")});
    });
    QVERIFY(env.eventually(
        [&] { return env.get<Deployment>(ObjectKey(QStringLiteral("default"), QStringLiteral("app-3"))).ok(); },
        QStringLiteral("app-3's Deployment")));
    QVERIFY(scale(env, QStringLiteral("app-1"), 4)); // its Deployment's update gets the 409, then is retried
    QVERIFY(env.eventually(
        [&] {
            auto d = env.get<Deployment>(ObjectKey(QStringLiteral("default"), QStringLiteral("app-1")));
            return d.ok() && d->replicas() == 4;
        },
        QStringLiteral("app-1 scaled to 4")));
    Controller *ctrl = env.manager()->controllers().constFirst();
    // The watches are dropped (the reflectors watch again) while app-3 is deleted.
    Informer *apps = *env.manager()->cache()->informerFor(gvkOf<MyApplication>());
    const int watches = apps->reflector()->watchCount();
    env.apiServer().runOnServerThread(
        [](apiserver::ApiServer &s) { s.setFaults({QStringLiteral("drop-watch:every=100ms")}); });
    QVERIFY(env.remove(MyApplication(QStringLiteral("default"), QStringLiteral("app-3"))));
    QVERIFY(env.eventually(
        [&] {
            return apps->reflector()->watchCount() > watches
                && apps->store().get(QStringLiteral("default/app-3")).isNull();
        },
        QStringLiteral("a new watch, and app-3 gone from the cache")));
    env.apiServer().runOnServerThread([](apiserver::ApiServer &s) { s.clearFaults(); });
    // app-1 scaled again (an event on the MyApplication watch); then the watches are dropped and
    // the MyApplication re-watch is answered 410 Expired, so its reflector relists (a list page
    // with its resourceVersion in the recording) and watches from there.
    QVERIFY(env.eventually([&] { return apps->reflector()->state() == Reflector::State::Watching; },
        QStringLiteral("MyApplication watching again")));
    QVERIFY(scale(env, QStringLiteral("app-1"), 5));
    QVERIFY(env.eventually(
        [&] {
            auto d = env.get<Deployment>(ObjectKey(QStringLiteral("default"), QStringLiteral("app-1")));
            return d.ok() && d->replicas() == 5;
        },
        QStringLiteral("app-1 scaled to 5")));
    env.apiServer().runOnServerThread([](apiserver::ApiServer &s) {
        s.setFaults({QStringLiteral("error:code=410,verb=watch,resource=myapplications,count=1")});
        s.dropWatches();
    });
    QVERIFY(env.eventually(
        [&] {
            const Reflector *r = apps->reflector();
            return r->lastError() && r->lastError()->code() == 410 && r->state() == Reflector::State::Watching;
        },
        QStringLiteral("MyApplication relisted after 410 and watching again")));
    env.apiServer().runOnServerThread([](apiserver::ApiServer &s) { s.clearFaults(); });
    const GroupVersionResource secrets{QString(), QStringLiteral("v1"), QStringLiteral("secrets")};
    QVERIFY(QCoro::waitFor(env.manager()->restClient()->create(secrets, QStringLiteral("default"), secret)).ok());
    QVERIFY(env.eventually(
        [&] {
            auto inf = env.manager()->cache()->informerFor(
                GroupVersionKind{QString(), QStringLiteral("v1"), QStringLiteral("Secret")});
            return inf.ok() && (*inf)->store().list().size() == 1 && ctrl->activeWorkers() == 0
                && ctrl->queue()->len() == 0;
        },
        QStringLiteral("the Secret cached and the controller idle")));
    QVERIFY2(run.finish().ok(), "the recording reads back whole");
    QVERIFY2(
        run.recorder().reconcilesRecorded() >= 4, qPrintable(QString::number(run.recorder().reconcilesRecorded())));
    QFile f(m_path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    m_bytes = f.readAll();
}

void TstRecording::replaysWithoutDivergence()
{
    const Recording recording = Recording::read(m_path);
    QVERIFY2(recording.ok(), qPrintable(recording.error()));
    QCOMPARE(recording.header().value(QStringLiteral("operator")).toString(), QStringLiteral("myapplication"));
    QVERIFY(!recording.reconciles().isEmpty());
    const ReplayReport report = testing::replayHeadless(recording, definition(false));
    QVERIFY2(report.diverged == 0, report.toJsonLine().constData());
    QCOMPARE(report.replayed, int(recording.reconciles().size()) - report.skipped);
    QVERIFY(report.replayed >= 4);
    // The run had a 409 (answered as recorded), a dropped watch and a requeueAfter.
    QVERIFY(m_bytes.contains("\"code\":409"));
    QVERIFY(m_bytes.contains("\"result\":\"requeue_after\",\"afterMs\":30000"));
}

void TstRecording::changedReconcilerDiverges()
{
    const Recording recording = Recording::read(m_path);
    const ReplayReport report = testing::replayHeadless(recording, definition(true));
    QVERIFY(report.diverged >= 1);
    QVERIFY(!report.divergences.isEmpty());
    const ReplayDivergence &d = report.divergences.first();
    // The first divergence is app-2's first reconcile, naming the recorded call and the (missing) one.
    QString firstApp2;
    for (const int i : recording.reconciles())
        if (recording.records().at(i).json.value(QStringLiteral("key")).toString() == QLatin1String("default/app-2")) {
            firstApp2 = recording.records().at(i).json.value(QStringLiteral("id")).toString();
            break;
        }
    QCOMPARE(d.reconcileId, firstApp2);
    QCOMPARE(d.key, QStringLiteral("default/app-2"));
    QCOMPARE(d.index, 0);
    QCOMPARE(d.recorded, QStringLiteral("get example.com/v1alpha1/MyApplication default/app-2"));
    QCOMPARE(d.made, QStringLiteral("(none)"));
    QVERIFY(report.toJsonLine().contains("\"diverged\":"));
}

void TstRecording::damagedFileIsReadUpToTheDamage_data()
{
    QTest::addColumn<QString>("damage");
    QTest::newRow("cut in the middle of a record") << QStringLiteral("cut");
    QTest::newRow("garbage in a record") << QStringLiteral("garbage");
    QTest::newRow("a record missing") << QStringLiteral("missing");
}

void TstRecording::damagedFileIsReadUpToTheDamage()
{
    QFETCH(QString, damage);
    // The damage starts at the line after the fifth newline past the middle.
    qint64 at = m_bytes.size() / 2;
    at = m_bytes.indexOf('\n', at) + 1;
    const int kept = int(m_bytes.left(at).count('\n'));
    QByteArray bytes = m_bytes;
    if (damage == QLatin1String("cut"))
        bytes = m_bytes.left(at + 10);
    else if (damage == QLatin1String("garbage"))
        bytes[at + 3] = '#';
    else
        bytes.remove(at, m_bytes.indexOf('\n', at) + 1 - at);
    const Recording r = Recording::parse(bytes, QStringLiteral("run.rec"));
    QVERIFY(!r.ok());
    QCOMPARE(r.errorOffset(), at);
    QCOMPARE(int(r.records().size()), kept);
    QVERIFY2(
        r.error().contains(QStringLiteral("byte offset %1 (line %2)").arg(at).arg(kept + 1)), qPrintable(r.error()));
}

void TstRecording::noSecretOrTokenInTheFile()
{
    QVERIFY(!m_bytes.isEmpty());
    QVERIFY2(m_bytes.contains("\"kind\":\"Secret\""), "the Secret was recorded (else this test proves nothing)");
    QVERIFY(m_bytes.contains("<redacted>"));
    QVERIFY(!m_bytes.contains(kSecretValue));
    QVERIFY(!m_bytes.contains(kSecretValue.toBase64()));
    QVERIFY(!m_bytes.contains(m_token.toUtf8()));
    QVERIFY(!m_bytes.contains("Bearer"));
}

void TstRecording::faultHarnessKeepsTheRecordingOfAFailingRun()
{
    QTemporaryDir dir;
    MyApplication app(QStringLiteral("default"), QStringLiteral("web"));
    app.setImage(QStringLiteral("nginx:1.25"));
    app.setReplicas(1);
    const testing::Workload workload{testing::Step::create(app.toObject())};
    {
        testing::HarnessOptions passing;
        passing.recordingDir = dir.path();
        testing::FaultHarness h(myapp::definition(), passing);
        const testing::RunReport r = h.reference(workload);
        QVERIFY2(r.ok, qPrintable(r.failure));
        QVERIFY(!r.failure.contains(dir.path()));
    }
    QVERIFY2(QDir(dir.path()).entryList(QDir::Files).isEmpty(), "a passing run's recording is deleted");
    testing::HarnessOptions failing;
    failing.recordingDir = dir.path();
    failing.convergeTimeout = std::chrono::milliseconds(1); // the run cannot become quiescent: it fails
    testing::FaultHarness h(myapp::definition(), failing);
    const testing::RunReport r = h.reference(workload);
    QVERIFY(!r.ok);
    const QStringList files = QDir(dir.path()).entryList(QDir::Files);
    QCOMPARE(files.size(), 1);
    const QString path = dir.filePath(files.first());
    QVERIFY2(r.failure.contains(QStringLiteral("recording of the run (replay with --replay): ") + path),
        qPrintable(r.failure));
    QVERIFY(
        Recording::read(path).header().value(QStringLiteral("operator")).toString() == QLatin1String("myapplication"));
}

/// A record body as the writer takes it: the JSON object without its opening brace.
static QByteArray body(const QJsonObject &o) { return QJsonDocument(o).toJson(QJsonDocument::Compact).mid(1); }

void TstRecording::rotationStartsWithHeaderAndSnapshot()
{
    using recording::RecordingWriter;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("r.rec"));
    RecordingWriter w(path, 4096);
    QVERIFY(w.open(body({{QStringLiteral("t"), QStringLiteral("header")},
                       {QStringLiteral("format"), QStringLiteral("opbench-recording/1")}}))
                .ok());
    w.append(body({{QStringLiteral("t"), QStringLiteral("informer")}, {QStringLiteral("inf"), 1}}),
        RecordingWriter::Mirror::Informer);
    for (int i = 0; i < 40; ++i) {
        const QString name = QStringLiteral("cm-%1").arg(i % 5);
        const bool del = i % 7 == 6;
        const QJsonObject obj{{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}},
            {QStringLiteral("data"), QJsonObject{{QStringLiteral("p"), QString(200, u'x')}}}};
        w.append(body({{QStringLiteral("t"), QStringLiteral("ev")}, {QStringLiteral("inf"), 1},
                     {QStringLiteral("op"), del ? QStringLiteral("del") : QStringLiteral("mod")},
                     {QStringLiteral("obj"), obj}}),
            del ? RecordingWriter::Mirror::Remove : RecordingWriter::Mirror::Put, "1/" + name.toUtf8());
    }
    w.close();
    QVERIFY(w.rotations() >= 1);
    QVERIFY(QFile::exists(path + QStringLiteral(".1")));
    QVERIFY(QFileInfo(path).size() <= 4096 + 1024);
    const Recording r = Recording::read(path);
    QVERIFY2(r.ok(), qPrintable(r.error()));
    QCOMPARE(r.records().at(0).type, QStringLiteral("header"));
    QCOMPARE(r.records().at(1).type, QStringLiteral("informer")); // the snapshot: informers first
    QCOMPARE(r.records().at(2).type, QStringLiteral("ev"));       // then the objects as they stood
    QVERIFY2(Recording::read(path + QStringLiteral(".1")).ok(), "the previous file is whole");
}

namespace {

QList<QJsonObject> recordsOf(const Recording &r, const QString &type)
{
    QList<QJsonObject> out;
    for (const RecordingRecord &rec : r.records())
        if (rec.type == type)
            out.append(rec.json);
    return out;
}

QString s(const QJsonObject &o, const char *key) { return o.value(QLatin1String(key)).toString(); }
int n(const QJsonObject &o, const char *key) { return o.value(QLatin1String(key)).toInt(); }

/// The informer id the recording gave to `kind`.
int informerOf(const Recording &r, const QString &kind)
{
    for (const QJsonObject &o : recordsOf(r, QStringLiteral("informer")))
        if (s(o, "kind") == kind)
            return n(o, "inf");
    return -1;
}

} // namespace

void TstRecording::rawWatchAndListRecordsShowTheDropAndRelist()
{
    const Recording r = Recording::read(m_path);
    QVERIFY2(r.ok(), qPrintable(r.error()));
    QCOMPARE(r.header().value(QStringLiteral("format")).toString(), QStringLiteral("opbench-recording/2"));
    const int apps = informerOf(r, QStringLiteral("MyApplication"));
    QVERIFY(apps > 0);
    // In order: a watch ended by the drop (closed or a transport error), a watch ended 410
    // Expired (the compacted history), then a list page at a resourceVersion, then a watch from
    // exactly that resourceVersion.
    enum { Drop, Expired, Page, Rewatch, Done } step = Drop;
    QString pageRv;
    int events = 0;
    for (const RecordingRecord &rec : r.records()) {
        const QJsonObject &o = rec.json;
        if (n(o, "inf") != apps)
            continue;
        if (rec.type == QLatin1String("we")) {
            ++events;
            QVERIFY2(!s(o, "rv").isEmpty() || s(o, "type") == QLatin1String("ERROR"),
                qPrintable(rec.json.value("type").toString()));
        }
        if (step == Drop && rec.type == QLatin1String("wx") && s(o, "why") != QLatin1String("expired"))
            step = Expired;
        else if (step == Expired && rec.type == QLatin1String("wx") && s(o, "why") == QLatin1String("expired")) {
            QCOMPARE(n(o, "code"), 410);
            step = Page;
        } else if (step == Page && rec.type == QLatin1String("lp") && !s(o, "rv").isEmpty()) {
            pageRv = s(o, "rv");
            QVERIFY(o.contains(QStringLiteral("n")));
            step = Rewatch;
        } else if (step == Rewatch && rec.type == QLatin1String("ws")) {
            QCOMPARE(s(o, "rv"), pageRv);
            step = Done;
        }
    }
    QVERIFY2(step == Done, qPrintable(QStringLiteral("stopped at step %1").arg(int(step))));
    QVERIFY(events >= 3); // the apps' ADDED / MODIFIED / DELETED as received
    // Watch events carry the key of their object, not the object (the ev records do).
    bool deleteSeen = false;
    for (const QJsonObject &o : recordsOf(r, QStringLiteral("we")))
        if (s(o, "type") == QLatin1String("DELETED") && s(o, "key") == QLatin1String("default/app-3"))
            deleteSeen = true;
    QVERIFY(deleteSeen);
    QVERIFY(!m_bytes.contains("\"t\":\"we\",\"inf\":1,\"type\":\"ADDED\",\"rv\":\"1\",\"obj\""));
}

void TstRecording::queueAddsAreRecordedWithTheirCauses()
{
    const Recording r = Recording::read(m_path);
    QVERIFY2(r.ok(), qPrintable(r.error()));
    const QList<QJsonObject> adds = recordsOf(r, QStringLiteral("qa"));
    QVERIFY(!adds.isEmpty());
    bool watchAdd = false, requeueAfter = false, rateLimited = false;
    for (const QJsonObject &a : adds) {
        QVERIFY(!s(a, "ctl").isEmpty());
        if (s(a, "key") == QLatin1String("default/app-1") && s(a, "cause").startsWith(QLatin1String("watch ")))
            watchAdd = true;
        if (s(a, "key") == QLatin1String("default/app-2") && n(a, "afterMs") == 30000
            && s(a, "cause") == QLatin1String("requeue after 30s"))
            requeueAfter = true;
        if (a.value(QStringLiteral("rl")).toBool() && s(a, "cause").startsWith(QLatin1String("retry #")))
            rateLimited = true; // the 409's retry
    }
    QVERIFY(watchAdd);
    QVERIFY(requeueAfter);
    QVERIFY(rateLimited);
    // Every cause a reconcile ran for was recorded as an add of its key before it started.
    QHash<QString, QStringList> seen; // key -> causes added so far
    int checked = 0;
    for (const RecordingRecord &rec : r.records()) {
        if (rec.type == QLatin1String("qa"))
            seen[s(rec.json, "key")].append(s(rec.json, "cause"));
        if (rec.type != QLatin1String("re"))
            continue;
        for (const QJsonValue c : rec.json.value(QStringLiteral("causes")).toArray()) {
            QVERIFY2(seen.value(s(rec.json, "key")).contains(c.toString()),
                qPrintable(s(rec.json, "key") + QStringLiteral(": ") + c.toString()));
            ++checked;
        }
    }
    QVERIFY(checked > 0);
}

void TstRecording::formatOneIsStillRead()
{
    // A format-1 file (no raw records) reads and replays: the v1 header is accepted.
    QByteArray v1 = m_bytes;
    v1.replace("opbench-recording/2", "opbench-recording/1");
    const Recording r = Recording::parse(v1, QStringLiteral("v1.rec"));
    QVERIFY2(r.ok(), qPrintable(r.error()));
    const ReplayReport report = testing::replayHeadless(r, definition(false));
    QVERIFY2(report.diverged == 0, report.toJsonLine().constData());
    QVERIFY(report.replayed >= 4);
    QVERIFY(!Recording::parse(
        QByteArray(m_bytes).replace("opbench-recording/2", "opbench-recording/9"), QStringLiteral("v9.rec"))
                 .ok());
}

namespace {

/// GET http://127.0.0.1:port/path with `auth` as the Authorization header (none when empty).
std::pair<int, QByteArray> httpGet(quint16 port, const QString &path, const QByteArray &auth)
{
    QNetworkAccessManager nam;
    QNetworkRequest req(QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(port).arg(path)));
    if (!auth.isEmpty())
        req.setRawHeader("Authorization", auth);
    QNetworkReply *reply = nam.get(req);
    QSignalSpy done(reply, &QNetworkReply::finished);
    if (!reply->isFinished() && !done.wait(10000))
        return {-1, {}};
    const int code = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray body = reply->readAll();
    reply->deleteLater();
    return {code, body};
}

} // namespace

void TstRecording::recordingEndpointNeedsTheToken()
{
    testing::OperatorFixture env(definition(false), QStringLiteral("127.0.0.1:0"));
    QVERIFY2(env.ok(), qPrintable(env.errorString()));
    QVERIFY(env.manager()->metricsPort() != 0);
    QTemporaryDir dir;
    auto rec = startRecording(env.manager(), env.definition(), dir.filePath(QStringLiteral("served.rec")), 0);
    QVERIFY(rec.ok());
    const QByteArray token = "rec-token-0123456789";
    serveRecording(env.manager(), *rec, token);
    MyApplication app(QStringLiteral("default"), QStringLiteral("served"));
    app.setImage(QStringLiteral("nginx:1.25"));
    app.setReplicas(1);
    QVERIFY(env.create(app));
    QVERIFY(env.eventually([&] { return (*rec)->reconcilesRecorded() >= 1; }, QStringLiteral("a reconcile recorded")));
    const quint16 port = env.manager()->metricsPort();
    const QString path = QStringLiteral("/debug/recording");
    // Refused without the token and with another one: 401, as a secured metrics endpoint answers.
    QCOMPARE(httpGet(port, path, {}).first, 401);
    QCOMPARE(httpGet(port, path, "Bearer rec-token-0123456788").first, 401);
    QCOMPARE(httpGet(port, path, "Bearer " + token + "-longer").first, 401);
    QCOMPARE(httpGet(port, path, "Basic " + token.toBase64()).first, 401);
    // Served with it: the file as it is now (flushed), a recording that reads back.
    const auto [code, body] = httpGet(port, path, "Bearer " + token);
    QCOMPARE(code, 200);
    const Recording served = Recording::parse(body, QStringLiteral("served"));
    QVERIFY2(served.ok(), qPrintable(served.error()));
    QVERIFY(!served.reconciles().isEmpty());
    QVERIFY(!body.contains(token));
    // /metrics stays open (no token needed), as before.
    QCOMPARE(httpGet(port, QStringLiteral("/metrics"), {}).first, 200);
}

QTEST_GUILESS_MAIN(TstRecording)
#include "tst_recording.moc"
