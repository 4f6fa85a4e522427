// SPDX-License-Identifier: Apache-2.0
// Secrets stay secret over a whole session (issue 16, Security): the API server process
// (state file, audit log, extra users) and the operator process (leader election, metrics,
// --trace-file, debug logs) run against each other; the test makes writes, reads and a set of
// failing requests (bad JSON, an invalid spec, no token, a wrong token, a read-only user writing,
// a namespaced user outside its namespace), then greps every output — both processes' stdout and
// stderr, every file they wrote, the metrics pages, every error message and response body, and
// this process's own log — for each token. Also: the server listens on loopback by default, the
// kubeconfig and state file it writes are mode 0600, and 401/403 are what the wrong callers get.
#include "engine/api/object.h"
#include "engine/client/auth.h"
#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

#include <qcoro/qcorotask.h>

#include <sys/stat.h>

using namespace opbench;
using namespace std::chrono_literals;

namespace {

const GroupVersionResource kApps{
    QStringLiteral("example.com"), QStringLiteral("v1alpha1"), QStringLiteral("myapplications")};
const GroupVersionResource kDeployments{QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("deployments")};
const GroupVersionResource kConfigMaps{QString(), QStringLiteral("v1"), QStringLiteral("configmaps")};

QStringList g_ownLog; // this process's log lines (the RestClient's warnings, Qt's messages)
void recordMessage(QtMsgType, const QMessageLogContext &, const QString &msg) { g_ownLog << msg; }

QString secret(const char *prefix) { return QLatin1String(prefix) + QUuid::createUuid().toString(QUuid::Id128); }

Object myApp(const QString &name, int replicas)
{
    return Object::fromJson(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("example.com/v1alpha1")},
        {QStringLiteral("kind"), QStringLiteral("MyApplication")},
        {QStringLiteral("metadata"),
            QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), QStringLiteral("default")}}},
        {QStringLiteral("spec"),
            QJsonObject{
                {QStringLiteral("image"), QStringLiteral("nginx:1.25")}, {QStringLiteral("replicas"), replicas}}}});
}

Object configMap(const QString &ns, const QString &name)
{
    return Object::fromJson(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), ns}}}});
}

int fileMode(const QString &path)
{
    struct stat st
    {
    };
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? int(st.st_mode & 0777) : -1;
}

quint16 freePort()
{
    QTcpServer s;
    s.listen(QHostAddress::LocalHost, 0);
    return s.serverPort();
}

QByteArray httpGet(const QUrl &url)
{
    QNetworkAccessManager nam;
    QNetworkReply *reply = nam.get(QNetworkRequest(url));
    QSignalSpy done(reply, &QNetworkReply::finished);
    if (!reply->isFinished())
        done.wait(10000);
    const QByteArray body = reply->readAll();
    reply->deleteLater();
    return body;
}

} // namespace

class TestSecrets : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { qInstallMessageHandler(recordMessage); }
    void cleanupTestCase() { qInstallMessageHandler(nullptr); }

    void shouldKeepTokensOutOfEveryOutputOfASession()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString adminToken = secret("adm1n-");
        const QString readerToken = secret("r3ader-");
        const QString teamToken = secret("t3am-");
        const QString wrongToken = secret("wr0ng-");
        const QStringList secrets{adminToken, readerToken, teamToken, wrongToken};
        const QString rules = dir.filePath(QStringLiteral("rules.yaml"));
        {
            QFile f(rules);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QStringLiteral("users:\n- {name: reader, token: %1, readOnly: true}\n- {name: team-a, token: %2, "
                                   "namespaces: [team-a]}\n")
                        .arg(readerToken, teamToken)
                        .toUtf8());
        }
        const QString kubeconfig = dir.filePath(QStringLiteral("kubeconfig"));
        const QString stateFile = dir.filePath(QStringLiteral("state.json"));
        const QString auditLog = dir.filePath(QStringLiteral("audit.log"));
        const QString traceFile = dir.filePath(QStringLiteral("trace.jsonl"));

        // The API server, with defaults for where it listens.
        QProcess server;
        server.setProgram(QStringLiteral(OPBENCH_BINARY_DIR "/app/opbench-apiserver"));
        server.setArguments({QStringLiteral("--token"), adminToken, QStringLiteral("--state-file"), stateFile,
            QStringLiteral("--audit-log"), auditLog, QStringLiteral("--write-kubeconfig"), kubeconfig,
            QStringLiteral("--rules"), rules});
        QByteArray serverOut, serverErr;
        server.start();
        QVERIFY(server.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT((serverOut += server.readAllStandardOutput()).contains("listening on"), 30000);
        const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("listening on (https?)://([^:]+):(\\d+)"))
                                              .match(QString::fromUtf8(serverOut));
        QVERIFY2(m.hasMatch(), serverOut.constData());
        QCOMPARE(m.captured(2), QStringLiteral("127.0.0.1")); // loopback unless --listen says otherwise
        QCOMPARE(m.captured(1), QStringLiteral("https"));
        QTRY_VERIFY(QFile::exists(kubeconfig));
        QCOMPARE(fileMode(kubeconfig), 0600);

        Expected<RestConfig> cfg = loadConfig(kubeconfig);
        QVERIFY2(cfg.ok(), cfg.ok() ? "" : qPrintable(cfg.error().message()));
        RestClient admin(*cfg);
        auto as = [&](const QString &token) {
            RestConfig c = *cfg;
            c.auth = token.isEmpty() ? nullptr : std::make_shared<StaticTokenAuth>(token.toUtf8());
            return c;
        };

        // The operator, with everything that writes output turned on.
        const quint16 metricsPort = freePort();
        QProcess op;
        op.setProgram(QStringLiteral(OPBENCH_BINARY_DIR "/app/opbench-operator"));
        op.setArguments({QStringLiteral("--kubeconfig"), kubeconfig, QStringLiteral("--leader-elect"),
            QStringLiteral("--leader-election-namespace"), QStringLiteral("default"), QStringLiteral("--identity"),
            QStringLiteral("secrets-test"), QStringLiteral("--health-probe-bind-address"), QStringLiteral("0"),
            QStringLiteral("--metrics-bind-address"), QStringLiteral("127.0.0.1:%1").arg(metricsPort),
            QStringLiteral("--trace-file"), traceFile, QStringLiteral("--zap-log-level"), QStringLiteral("debug")});
        op.start();
        QVERIFY(op.waitForStarted());

        QVERIFY(
            QCoro::waitFor(admin.create(kApps, QStringLiteral("default"), myApp(QStringLiteral("sec-app"), 1))).ok());
        QTRY_VERIFY_WITH_TIMEOUT(
            QCoro::waitFor(admin.get(kDeployments, QStringLiteral("default"), QStringLiteral("sec-app"))).ok(), 30000);
        QVERIFY(
            QCoro::waitFor(admin.update(kApps, QStringLiteral("default"),
                               *QCoro::waitFor(admin.get(kApps, QStringLiteral("default"), QStringLiteral("sec-app")))))
                .ok());

        // Failing requests; their errors are outputs too.
        QStringList errors;
        auto record = [&](const Expected<Object> &r, int expectCode) {
            QVERIFY(!r.ok());
            QCOMPARE(r.error().code(), expectCode);
            errors << r.error().message() << r.error().toString();
        };
        const Expected<RawResponse> badJson = QCoro::waitFor(
            admin.raw("POST", QStringLiteral("/apis/example.com/v1alpha1/namespaces/default/myapplications"), {},
                "{\"kind\":", "application/json"));
        QVERIFY(!badJson.ok());
        QCOMPARE(badJson.error().code(), 400);
        errors << badJson.error().toString();
        Object badSpec = myApp(QStringLiteral("bad-spec"), 1);
        {
            QJsonObject o = badSpec.json();
            QJsonObject spec = o.value(QLatin1String("spec")).toObject();
            spec.insert(QStringLiteral("replicas"), QStringLiteral("many")); // wrong type: the CRD schema refuses it
            o.insert(QStringLiteral("spec"), spec);
            badSpec = Object::fromJson(o);
        }
        record(QCoro::waitFor(admin.create(kApps, QStringLiteral("default"), badSpec)), 422);
        {
            RestClient anonymous(as(QString()));
            record(QCoro::waitFor(anonymous.get(kApps, QStringLiteral("default"), QStringLiteral("sec-app"))), 401);
            RestClient wrong(as(wrongToken));
            record(QCoro::waitFor(wrong.get(kApps, QStringLiteral("default"), QStringLiteral("sec-app"))), 401);
            RestClient reader(as(readerToken));
            QVERIFY(QCoro::waitFor(reader.get(kApps, QStringLiteral("default"), QStringLiteral("sec-app"))).ok());
            record(QCoro::waitFor(reader.create(kConfigMaps, QStringLiteral("default"),
                       configMap(QStringLiteral("default"), QStringLiteral("x")))),
                403);
            RestClient team(as(teamToken));
            record(QCoro::waitFor(team.get(kApps, QStringLiteral("default"), QStringLiteral("sec-app"))), 403);
        }

        // Metrics of the operator (its REST client's requests, leader election …).
        const QByteArray metrics = httpGet(QUrl(QStringLiteral("http://127.0.0.1:%1/metrics").arg(metricsPort)));
        QVERIFY2(metrics.contains("rest_client_requests_total"), metrics.left(300).constData());
        const Expected<RawResponse> serverMetrics = QCoro::waitFor(admin.raw("GET", QStringLiteral("/metrics")));
        const QByteArray serverMetricsBody = serverMetrics ? serverMetrics->body : QByteArray();

        // Stop both (the operator releases its lease; the server saves its state).
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(traceFile).size() > 0, 30000);
        op.terminate();
        QVERIFY(op.waitForFinished(30000));
        server.terminate();
        QVERIFY(server.waitForFinished(30000));
        serverOut += server.readAllStandardOutput();
        serverErr += server.readAllStandardError();
        const QByteArray opOut = op.readAllStandardOutput();
        const QByteArray opErr = op.readAllStandardError();
        QVERIFY(QFile::exists(stateFile));
        QCOMPARE(fileMode(stateFile), 0600);

        // Everything the session produced. The kubeconfig and the state file hold the admin token
        // by design (mode 0600, checked above) and rules.yaml is our input: they are the
        // positive control (the token is found where it belongs).
        QList<QPair<QString, QByteArray>> outputs{{QStringLiteral("server stdout"), serverOut},
            {QStringLiteral("server stderr"), serverErr}, {QStringLiteral("operator stdout"), opOut},
            {QStringLiteral("operator stderr"), opErr}, {QStringLiteral("operator /metrics"), metrics},
            {QStringLiteral("server /metrics"), serverMetricsBody},
            {QStringLiteral("error messages"), errors.join(u'\n').toUtf8()},
            {QStringLiteral("this process's log"), g_ownLog.join(u'\n').toUtf8()}};
        QByteArray kubeconfigText;
        QDirIterator it(dir.path(), QDir::Files, QDirIterator::Subdirectories);
        int files = 0;
        while (it.hasNext()) {
            const QString path = it.next();
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray data = f.readAll();
            if (path == kubeconfig)
                kubeconfigText = data;
            if (path == kubeconfig || path == stateFile || path == rules)
                continue;
            outputs.append({path, data});
            ++files;
        }
        QVERIFY2(files >= 2, "expected at least the audit log and the trace file");
        QVERIFY(QFileInfo(auditLog).size() > 0);
        QVERIFY(QFileInfo(traceFile).size() > 0);
        QVERIFY(opErr.size() + opOut.size() > 0);
        QVERIFY(kubeconfigText.contains(adminToken.toUtf8())); // the grep finds a token where it is
        for (const auto &[name, data] : std::as_const(outputs)) {
            for (const QString &s : secrets) {
                const QByteArray token = s.toUtf8();
                for (const QByteArray &form : {token, token.toBase64()})
                    QVERIFY2(!data.contains(form),
                        qPrintable(QStringLiteral("%1 contains a token (%2…)").arg(name, s.left(6))));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestSecrets)
#include "tst_secrets.moc"
