// SPDX-License-Identifier: Apache-2.0
// Exec credential plugins: output parsing, caching until expiry, failures, interactive modes.
#include "engine/base/clock.h"
#include "engine/client/execauth.h"
#include "engine/client/kubeconfig.h"
#include "engine/testing/fakeclock.h"
#include "tests/client/testutil.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <qcoro/qcorotask.h>

using namespace opbench;
using namespace std::chrono_literals;

namespace {

const QString kPlugin = QStringLiteral(OPBENCH_SOURCE_DIR "/tests/data/client/exec-plugin.py");

ExecConfig plugin(const QString &apiVersion, QList<QPair<QString, QString>> env)
{
    ExecConfig e;
    e.apiVersion = apiVersion;
    e.command = QStringLiteral("/usr/bin/python3");
    e.args = QStringList{kPlugin};
    e.env = std::move(env);
    e.interactiveMode = QStringLiteral("Never");
    e.installHint = QStringLiteral("Install the test plugin from tests/data/client.");
    return e;
}

Expected<Credentials> creds(ExecAuth &auth) { return QCoro::waitFor(auth.credentials()); }

} // namespace

class TestExecAuth : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldRunPluginAndPassExecInfo_data()
    {
        QTest::addColumn<QString>("apiVersion");
        QTest::newRow("v1") << QStringLiteral("client.authentication.k8s.io/v1");
        QTest::newRow("v1beta1") << QStringLiteral("client.authentication.k8s.io/v1beta1");
    }

    void shouldRunPluginAndPassExecInfo()
    {
        QFETCH(QString, apiVersion);
        QTemporaryDir dir;
        const QString info = dir.path() + QStringLiteral("/info.json");
        ExecAuth auth(plugin(apiVersion,
            {{QStringLiteral("PLUGIN_INFO"), info},
                {QStringLiteral("PLUGIN_STATE"), dir.path() + QStringLiteral("/n")}}));
        Expected<Credentials> c = creds(auth);
        QVERIFY_OK(c);
        QCOMPARE(c->authorization, QByteArray("Bearer exec-token-1"));
        QFile f(info);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(o.value(QLatin1String("apiVersion")).toString(), apiVersion);
        QCOMPARE(o.value(QLatin1String("kind")).toString(), QStringLiteral("ExecCredential"));
        QCOMPARE(o.value(QLatin1String("spec")).toObject().value(QLatin1String("interactive")), QJsonValue(false));
        // No expiry: cached for good (until a 401).
        QCOMPARE(creds(auth)->authorization, QByteArray("Bearer exec-token-1"));
        QCOMPARE(creds(auth)->authorization, QByteArray("Bearer exec-token-1")); // the cache survives being served
        QCOMPARE(auth.runs(), 1);
        QVERIFY(auth.invalidate());
        QCOMPARE(creds(auth)->authorization, QByteArray("Bearer exec-token-2"));
    }

    void shouldCacheUntilExpiry()
    {
        QTemporaryDir dir;
        testing::FakeClock clock; // wall clock starts at 2023-11-14T22:13:20Z
        ExecAuth auth(plugin(QStringLiteral("client.authentication.k8s.io/v1beta1"),
                          {{QStringLiteral("PLUGIN_STATE"), dir.path() + QStringLiteral("/n")},
                              {QStringLiteral("PLUGIN_EXPIRY"), QStringLiteral("2023-11-14T22:23:20Z")}}),
            &clock);
        QCOMPARE(creds(auth)->authorization, QByteArray("Bearer exec-token-1"));
        clock.advance(9min);
        QCOMPARE(creds(auth)->authorization, QByteArray("Bearer exec-token-1"));
        QCOMPARE(auth.runs(), 1);
        clock.advance(2min);
        QCOMPARE(creds(auth)->authorization, QByteArray("Bearer exec-token-2"));
        QCOMPARE(auth.runs(), 2);
    }

    void shouldRunThePluginOnceForConcurrentCallers()
    {
        QTemporaryDir dir;
        ExecAuth auth(plugin(QStringLiteral("client.authentication.k8s.io/v1"),
            {{QStringLiteral("PLUGIN_STATE"), dir.path() + QStringLiteral("/n")}}));
        QCoro::Task<Expected<Credentials>> a = auth.credentials();
        QCoro::Task<Expected<Credentials>> b = auth.credentials();
        QCoro::Task<Expected<Credentials>> c = auth.credentials();
        QCOMPARE(QCoro::waitFor(std::move(c))->authorization, QByteArray("Bearer exec-token-1"));
        QCOMPARE(QCoro::waitFor(std::move(a))->authorization, QByteArray("Bearer exec-token-1"));
        QCOMPARE(QCoro::waitFor(std::move(b))->authorization, QByteArray("Bearer exec-token-1"));
        QCOMPARE(auth.runs(), 1);
    }

    void shouldSurfaceExitCodeStderrAndInstallHint()
    {
        ExecAuth auth(plugin(
            QStringLiteral("client.authentication.k8s.io/v1"), {{QStringLiteral("PLUGIN_FAIL"), QStringLiteral("3")}}));
        Expected<Credentials> c = creds(auth);
        QVERIFY(!c.ok());
        const QString msg = c.error().message();
        QVERIFY2(msg.contains(QStringLiteral("exited with code 3")), qPrintable(msg));
        QVERIFY2(msg.contains(QStringLiteral("could not reach the identity provider")), qPrintable(msg));
        QVERIFY2(msg.contains(QStringLiteral("Install the test plugin")), qPrintable(msg));
    }

    void shouldReportAMissingCommand()
    {
        ExecConfig e = plugin(QStringLiteral("client.authentication.k8s.io/v1"), {});
        e.command = QStringLiteral("/nonexistent/kubelogin");
        ExecAuth auth(e);
        Expected<Credentials> c = creds(auth);
        QVERIFY(!c.ok());
        QVERIFY2(
            c.error().message().contains(QStringLiteral("/nonexistent/kubelogin")), qPrintable(c.error().message()));
        QVERIFY2(
            c.error().message().contains(QStringLiteral("Install the test plugin")), qPrintable(c.error().message()));
    }

    void shouldRefuseInteractiveModes_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("expected");
        QTest::newRow("always") << QStringLiteral("Always") << QStringLiteral("interactiveMode is Always");
        QTest::newRow("missing-v1") << QString() << QStringLiteral("interactiveMode must be set");
    }

    void shouldRefuseInteractiveModes()
    {
        QFETCH(QString, mode);
        QFETCH(QString, expected);
        ExecConfig e = plugin(QStringLiteral("client.authentication.k8s.io/v1"), {});
        e.interactiveMode = mode;
        ExecAuth auth(e);
        Expected<Credentials> c = creds(auth);
        QVERIFY(!c.ok());
        QVERIFY2(c.error().message().contains(expected), qPrintable(c.error().message()));
        QCOMPARE(auth.runs(), 0);
    }

    void shouldReturnAClientCertificate()
    {
        QTemporaryDir dir;
        const QString key = dir.path() + QStringLiteral("/c.key"), crt = dir.path() + QStringLiteral("/c.crt");
        QCOMPARE(
            QProcess::execute(QStringLiteral("openssl"),
                {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
                    QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"),
                    QStringLiteral("-nodes"), QStringLiteral("-days"), QStringLiteral("1"), QStringLiteral("-subj"),
                    QStringLiteral("/CN=exec-user"), QStringLiteral("-keyout"), key, QStringLiteral("-out"), crt}),
            0);
        ExecAuth auth(plugin(QStringLiteral("client.authentication.k8s.io/v1"),
            {{QStringLiteral("PLUGIN_CERT"), crt}, {QStringLiteral("PLUGIN_KEY"), key}}));
        Expected<Credentials> c = creds(auth);
        QVERIFY_OK(c);
        QVERIFY(c->authorization.isEmpty());
        QCOMPARE(
            c->clientCertificate.subjectInfo(QSslCertificate::CommonName), QStringList{QStringLiteral("exec-user")});
        QVERIFY(!c->clientKey.isNull());
    }

    void shouldLoadExecFromKubeconfig()
    {
        QTemporaryDir dir;
        QFile f(dir.path() + QStringLiteral("/config"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("current-context: c\n"
                "clusters: [{name: k, cluster: {server: 'http://127.0.0.1:1'}}]\n"
                "contexts: [{name: c, context: {cluster: k, user: u}}]\n"
                "users:\n"
                "- name: u\n"
                "  user:\n"
                "    exec:\n"
                "      apiVersion: client.authentication.k8s.io/v1\n"
                "      command: /usr/bin/python3\n"
                "      args: ['"
            + kPlugin.toUtf8()
            + "']\n"
              "      interactiveMode: IfAvailable\n"
              "      installHint: get the plugin\n"
              "      provideClusterInfo: true\n"
              "      env: [{name: PLUGIN_STATE, value: '"
            + dir.path().toUtf8() + "/n'}, {name: PLUGIN_INFO, value: '" + dir.path().toUtf8() + "/info'}]\n");
        f.close();
        Expected<RestConfig> cfg = loadConfig(f.fileName());
        QVERIFY_OK(cfg);
        QVERIFY(cfg->auth);
        QCOMPARE(cfg->auth->describe(), QStringLiteral("exec plugin \"/usr/bin/python3\""));
        Expected<Credentials> c = QCoro::waitFor(cfg->auth->credentials());
        QVERIFY_OK(c);
        QCOMPARE(c->authorization, QByteArray("Bearer exec-token-1"));
        QFile info(dir.path() + QStringLiteral("/info"));
        QVERIFY(info.open(QIODevice::ReadOnly));
        const QJsonObject spec
            = QJsonDocument::fromJson(info.readAll()).object().value(QLatin1String("spec")).toObject();
        QCOMPARE(spec.value(QLatin1String("cluster")).toObject().value(QLatin1String("server")).toString(),
            QStringLiteral("http://127.0.0.1:1"));
    }
};

QTEST_GUILESS_MAIN(TestExecAuth)
#include "tst_execauth.moc"
