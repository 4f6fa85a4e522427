// SPDX-License-Identifier: Apache-2.0
// Kubeconfig loading, merging, resolution to RestConfig, and error messages.
#include "engine/client/auth.h"
#include "engine/client/kubeconfig.h"
#include "engine/client/restconfig.h"
#include "tests/client/testutil.h"
#include "tests/support/aliasbomb.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <qcoro/qcorotask.h>

using namespace opbench;

namespace {

QString writeFile(const QString &dir, const QString &name, const QByteArray &content)
{
    const QString path = dir + u'/' + name;
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write(content);
    return path;
}

QByteArray authorization(const RestConfig &cfg)
{
    if (!cfg.auth)
        return {};
    Expected<Credentials> c = QCoro::waitFor(cfg.auth->credentials());
    return c ? c->authorization : QByteArray("ERROR: ") + c.error().message().toUtf8();
}

const QByteArray kFileA = "apiVersion: v1\n"
                          "kind: Config\n"
                          "current-context: ctx-a\n"
                          "clusters:\n"
                          "- name: shared\n"
                          "  cluster:\n"
                          "    server: https://a.example:6443\n"
                          "    insecure-skip-tls-verify: true\n"
                          "users:\n"
                          "- name: user-a\n"
                          "  user:\n"
                          "    token: token-from-a\n"
                          "contexts:\n"
                          "- name: ctx-a\n"
                          "  context:\n"
                          "    cluster: shared\n"
                          "    user: user-a\n"
                          "    namespace: team-a\n";

const QByteArray kFileB = "apiVersion: v1\n"
                          "kind: Config\n"
                          "current-context: ctx-b\n"
                          "clusters:\n"
                          "- name: shared\n"
                          "  cluster:\n"
                          "    server: https://b.example:6443\n"
                          "- name: cluster-b\n"
                          "  cluster:\n"
                          "    server: http://127.0.0.1:8080\n"
                          "users:\n"
                          "- name: user-b\n"
                          "  user:\n"
                          "    username: admin\n"
                          "    password: b-password-value\n"
                          "contexts:\n"
                          "- name: ctx-b\n"
                          "  context:\n"
                          "    cluster: cluster-b\n"
                          "    user: user-b\n";

} // namespace

class TestKubeconfig : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        qputenv("KUBECONFIG", "");
        qunsetenv("KUBERNETES_SERVICE_HOST");
        qunsetenv("KUBERNETES_SERVICE_PORT");
    }

    void shouldMergeKubeconfigFilesFirstWins()
    {
        QTemporaryDir dir;
        const QString a = writeFile(dir.path(), QStringLiteral("a.yaml"), kFileA);
        const QString b = writeFile(dir.path(), QStringLiteral("b.yaml"), kFileB);
        const QString missing = dir.path() + QStringLiteral("/missing.yaml");
        qputenv("KUBECONFIG", (a + u':' + missing + u':' + b).toUtf8());
        Expected<Kubeconfig> kc = Kubeconfig::load();
        QVERIFY_OK(kc);
        QCOMPARE(kc->currentContext, QStringLiteral("ctx-a"));
        QCOMPARE(kc->cluster(QStringLiteral("shared"))->server, QStringLiteral("https://a.example:6443"));
        // Named entries are taken whole: a's "shared" has no CA and stays insecure.
        QVERIFY(kc->cluster(QStringLiteral("shared"))->insecureSkipTlsVerify);
        QVERIFY(kc->cluster(QStringLiteral("cluster-b")));
        QCOMPARE(kc->contextNames(), (QStringList{QStringLiteral("ctx-a"), QStringLiteral("ctx-b")}));

        Expected<RestConfig> cfg = kc->restConfig();
        QVERIFY(cfg.ok());
        QCOMPARE(cfg->server, QUrl(QStringLiteral("https://a.example:6443")));
        QCOMPARE(cfg->namespaceName, QStringLiteral("team-a"));
        QCOMPARE(authorization(*cfg), QByteArray("Bearer token-from-a"));
    }

    void shouldTakeCurrentContextFromFirstFileThatSetsIt()
    {
        QTemporaryDir dir;
        QByteArray noCurrent = kFileA;
        noCurrent.replace("current-context: ctx-a\n", "");
        const QString a = writeFile(dir.path(), QStringLiteral("a.yaml"), noCurrent);
        const QString b = writeFile(dir.path(), QStringLiteral("b.yaml"), kFileB);
        Expected<Kubeconfig> kc = Kubeconfig::loadFiles({a, b});
        QVERIFY(kc.ok());
        QCOMPARE(kc->currentContext, QStringLiteral("ctx-b"));
    }

    void shouldNotMergeWithExplicitPathAndHonourContextOverride()
    {
        QTemporaryDir dir;
        const QString a = writeFile(dir.path(), QStringLiteral("a.yaml"), kFileA);
        const QString b = writeFile(dir.path(), QStringLiteral("b.yaml"), kFileB);
        qputenv("KUBECONFIG", a.toUtf8());
        Expected<RestConfig> cfg = loadConfig(b, QStringLiteral("ctx-b"));
        QVERIFY_OK(cfg);
        QCOMPARE(cfg->server, QUrl(QStringLiteral("http://127.0.0.1:8080")));
        QCOMPARE(cfg->namespaceName, QStringLiteral("default"));
        QCOMPARE(authorization(*cfg), "Basic " + QByteArray("admin:b-password-value").toBase64());
        // ctx-a exists only in a.yaml, which an explicit path does not merge.
        Expected<RestConfig> none = loadConfig(b, QStringLiteral("ctx-a"));
        QVERIFY(!none.ok());
    }

    void shouldListAvailableContextsWhenContextIsMissing()
    {
        QTemporaryDir dir;
        const QString b = writeFile(dir.path(), QStringLiteral("b.yaml"), kFileB);
        const QString a = writeFile(dir.path(), QStringLiteral("a.yaml"), kFileA);
        Expected<Kubeconfig> kc = Kubeconfig::loadFiles({a, b});
        QVERIFY(kc.ok());
        Expected<RestConfig> cfg = kc->restConfig(QStringLiteral("prod"));
        QVERIFY(!cfg.ok());
        const QString msg = cfg.error().message();
        QVERIFY2(msg.contains(QStringLiteral("\"prod\" not found")), qPrintable(msg));
        QVERIFY2(msg.contains(QStringLiteral("available contexts: ctx-a, ctx-b")), qPrintable(msg));
        QCOMPARE(cfg.error().reason(), QString::fromLatin1(StatusReason::ConfigError));
    }

    void shouldNameFileAndLineOfABrokenKubeconfig()
    {
        const QString path = QStringLiteral(OPBENCH_SOURCE_DIR "/tests/data/client/broken.yaml");
        Expected<Kubeconfig> kc = Kubeconfig::loadFile(path);
        QVERIFY(!kc.ok());
        const QString msg = kc.error().message();
        QVERIFY2(msg.contains(path), qPrintable(msg));
        // The flow sequence opened on line 7 is never closed: yaml-cpp reports line 8 (the
        // first line after it); either way the line is 1-based and names the broken spot.
        QVERIFY2(msg.contains(QStringLiteral(" line 7:")) || msg.contains(QStringLiteral(" line 8:")), qPrintable(msg));
    }

    void shouldRefuseAnAliasBomb()
    {
        // The same alias budget as every YAML read (yamlcodec.h), checked before yaml-cpp builds
        // the nodes; here the bomb sits in fields the reader does not even look at.
        QTemporaryDir dir;
        const QString p = writeFile(dir.path(), QStringLiteral("bomb.yaml"),
            "apiVersion: v1\nkind: Config\ncurrent-context: x\nclusters: []\npreferences:\n  "
                + opbench::testing::aliasBomb(8).replace("\n", "\n  "));
        Expected<Kubeconfig> kc = Kubeconfig::loadFile(p);
        QVERIFY(!kc.ok());
        QCOMPARE(
            kc.error().message(), QStringLiteral("kubeconfig %1: yaml: document contains excessive aliasing").arg(p));
        QCOMPARE(kc.error().reason(), QString::fromLatin1(StatusReason::ConfigError));
    }

    void shouldNameLineOfAWronglyTypedField()
    {
        QTemporaryDir dir;
        const QString p = writeFile(dir.path(), QStringLiteral("typed.yaml"),
            "apiVersion: v1\nkind: Config\ncurrent-context: x\nclusters: not-a-list\n");
        Expected<Kubeconfig> kc = Kubeconfig::loadFile(p);
        QVERIFY(!kc.ok());
        QVERIFY2(kc.error().message().contains(p + QStringLiteral(" line 4: \"clusters\" must be a list")),
            qPrintable(kc.error().message()));
    }

    void shouldResolveTokenFileRelativeToKubeconfigFolder()
    {
        QTemporaryDir dir;
        writeFile(dir.path(), QStringLiteral("conf/secrets/token"), "file-token-1\n");
        const QString p = writeFile(dir.path(), QStringLiteral("conf/config"),
            "current-context: c\n"
            "clusters: [{name: k, cluster: {server: 'http://127.0.0.1:1'}}]\n"
            "users: [{name: u, user: {tokenFile: secrets/token}}]\n"
            "contexts: [{name: c, context: {cluster: k, user: u}}]\n");
        Expected<Kubeconfig> kc = Kubeconfig::loadFile(p);
        QVERIFY(kc.ok());
        QCOMPARE(kc->user(QStringLiteral("u"))->tokenFile, dir.path() + QStringLiteral("/conf/secrets/token"));
        Expected<RestConfig> cfg = kc->restConfig();
        QVERIFY_OK(cfg);
        QCOMPARE(authorization(*cfg), QByteArray("Bearer file-token-1"));
    }

    void shouldLoadClientCertificateAndCa()
    {
        QTemporaryDir dir;
        const QString key = dir.path() + QStringLiteral("/client.key"),
                      crt = dir.path() + QStringLiteral("/client.crt");
        const int rc = QProcess::execute(QStringLiteral("openssl"),
            {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
                QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"),
                QStringLiteral("-days"), QStringLiteral("1"), QStringLiteral("-subj"),
                QStringLiteral("/CN=jane/O=devs"), QStringLiteral("-keyout"), key, QStringLiteral("-out"), crt});
        QCOMPARE(rc, 0);
        QFile keyFile(key);
        QVERIFY(keyFile.open(QIODevice::ReadOnly));
        const QByteArray keyB64 = keyFile.readAll().toBase64();
        const QString p = writeFile(dir.path(), QStringLiteral("config"),
            "current-context: c\n"
            "clusters: [{name: k, cluster: {server: 'https://127.0.0.1:1', certificate-authority: client.crt, "
            "tls-server-name: api.internal}}]\n"
            "users: [{name: u, user: {client-certificate: client.crt, client-key-data: "
                + keyB64
                + "}}]\n"
                  "contexts: [{name: c, context: {cluster: k, user: u, namespace: ns1}}]\n");
        Expected<RestConfig> cfg = loadConfig(p);
        QVERIFY_OK(cfg);
        QCOMPARE(
            cfg->tls.clientCertificate.subjectInfo(QSslCertificate::CommonName), QStringList{QStringLiteral("jane")});
        QVERIFY(!cfg->tls.clientKey.isNull());
        QCOMPARE(cfg->tls.caCertificates.size(), 1);
        QCOMPARE(cfg->tls.serverName, QStringLiteral("api.internal"));
        QVERIFY(!cfg->auth);
        QCOMPARE(cfg->namespaceName, QStringLiteral("ns1"));
        QVERIFY(cfg->userAgent.startsWith(QStringLiteral("opbench/")));
    }

    void shouldRejectInvalidCombinations_data()
    {
        QTest::addColumn<QByteArray>("cluster");
        QTest::addColumn<QByteArray>("user");
        QTest::addColumn<QString>("expected");
        QTest::newRow("ca+insecure") << QByteArray(
            "{server: 'https://h:1', insecure-skip-tls-verify: true, certificate-authority: /x/ca.crt}")
                                     << QByteArray("{token: tok-secret-1}")
                                     << QStringLiteral("insecure-skip-tls-verify is not allowed");
        QTest::newRow("auth-provider") << QByteArray("{server: 'https://h:1'}")
                                       << QByteArray("{auth-provider: {name: oidc, config: {id-token: tok-secret-1}}}")
                                       << QStringLiteral(
                                              "auth-provider \"oidc\" is not supported; use an exec credential plugin");
        QTest::newRow("token+basic") << QByteArray("{server: 'https://h:1'}")
                                     << QByteArray("{token: tok-secret-1, username: bob, password: pw-secret-2}")
                                     << QStringLiteral("but not both");
        QTest::newRow("bad-key")
            << QByteArray("{server: 'https://h:1'}")
            << QByteArray("{client-certificate-data: dG9rLXNlY3JldC0x, client-key-data: cHctc2VjcmV0LTI=}")
            << QStringLiteral("holds no PEM certificate");
        QTest::newRow("missing-ca-file") << QByteArray("{server: 'https://h:1', certificate-authority: nope/ca.crt}")
                                         << QByteArray("{token: tok-secret-1}") << QStringLiteral("nope/ca.crt");
    }

    void shouldRejectInvalidCombinations()
    {
        QFETCH(QByteArray, cluster);
        QFETCH(QByteArray, user);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString p = writeFile(dir.path(), QStringLiteral("config"),
            "current-context: c\n"
            "clusters: [{name: k, cluster: "
                + cluster
                + "}]\n"
                  "users: [{name: u, user: "
                + user
                + "}]\n"
                  "contexts: [{name: c, context: {cluster: k, user: u}}]\n");
        Expected<RestConfig> cfg = loadConfig(p);
        QVERIFY(!cfg.ok());
        const QString msg = cfg.error().message();
        QVERIFY2(msg.contains(expected), qPrintable(msg));
        // Secrets never leak into error text.
        QVERIFY2(!msg.contains(QStringLiteral("secret")), qPrintable(msg));
    }

    void shouldNotLeakSecretsFromABrokenFile()
    {
        QTemporaryDir dir;
        const QString p = writeFile(dir.path(), QStringLiteral("config"),
            "users:\n- name: u\n  user:\n    token: very-secret-token\n    password: [hunter2-secret\n    other: x\n");
        Expected<Kubeconfig> kc = Kubeconfig::loadFile(p);
        QVERIFY(!kc.ok());
        QVERIFY2(!kc.error().message().contains(QStringLiteral("secret")), qPrintable(kc.error().message()));
        QVERIFY(kc.error().message().contains(p));
    }

    void shouldFollowLookupOrder()
    {
        QTemporaryDir dir;
        const QString a = writeFile(dir.path(), QStringLiteral("a.yaml"), kFileA);
        const QString b = writeFile(dir.path(), QStringLiteral("b.yaml"), kFileB);
        const QByteArray oldHome = qgetenv("HOME");
        qputenv("HOME", dir.path().toUtf8());
        // Nothing anywhere: a clear error.
        Expected<RestConfig> none = loadConfig();
        QVERIFY(!none.ok());
        QVERIFY2(none.error().message().contains(QStringLiteral(".kube/config")), qPrintable(none.error().message()));
        // ~/.kube/config.
        writeFile(dir.path(), QStringLiteral(".kube/config"), kFileB);
        QCOMPARE(loadConfig()->server, QUrl(QStringLiteral("http://127.0.0.1:8080")));
        // In-cluster beats ~/.kube/config; an unusable in-cluster setup falls back to it.
        writeFile(dir.path(), QStringLiteral("sa/token"), "sa-token");
        qputenv("KUBERNETES_SERVICE_HOST", "10.0.0.1");
        qputenv("KUBERNETES_SERVICE_PORT", "443");
        qputenv("OPBENCH_SERVICEACCOUNT_DIR", (dir.path() + QStringLiteral("/sa")).toUtf8());
        QCOMPARE(loadConfig()->server, QUrl(QStringLiteral("http://127.0.0.1:8080"))); // no ca.crt yet
        QCOMPARE(
            QProcess::execute(QStringLiteral("openssl"),
                {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
                    QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"),
                    QStringLiteral("-nodes"), QStringLiteral("-days"), QStringLiteral("1"), QStringLiteral("-subj"),
                    QStringLiteral("/CN=sa-ca"), QStringLiteral("-keyout"), dir.path() + QStringLiteral("/sa/ca.key"),
                    QStringLiteral("-out"), dir.path() + QStringLiteral("/sa/ca.crt")}),
            0);
        QCOMPARE(loadConfig()->server, QUrl(QStringLiteral("https://10.0.0.1:443")));
        QFile::remove(dir.path() + QStringLiteral("/.kube/config"));
        QFile::remove(dir.path() + QStringLiteral("/sa/ca.crt"));
        Expected<RestConfig> incluster = loadConfig();
        QVERIFY(!incluster.ok()); // in-cluster chosen, nothing to fall back to: says what is missing
        QVERIFY2(
            incluster.error().message().contains(QStringLiteral("ca.crt")), qPrintable(incluster.error().message()));
        // KUBECONFIG beats in-cluster; an explicit path beats KUBECONFIG.
        qputenv("KUBECONFIG", a.toUtf8());
        QCOMPARE(loadConfig()->server, QUrl(QStringLiteral("https://a.example:6443")));
        QCOMPARE(loadConfig(b)->server, QUrl(QStringLiteral("http://127.0.0.1:8080")));
        qputenv("HOME", oldHome);
        qunsetenv("OPBENCH_SERVICEACCOUNT_DIR");
    }
};

QTEST_GUILESS_MAIN(TestKubeconfig)
#include "tst_kubeconfig.moc"
