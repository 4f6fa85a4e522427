// SPDX-License-Identifier: Apache-2.0
// preflight() (engine/sdk/preflight.h) against the embedded API server over loopback: each
// outcome a front end maps to an exit code or a message — Ok with the server's version;
// Unreachable (a closed port); 401 (a wrong token); 403 naming the verb and the resource refused
// (a user limited to one namespace, listing cluster-wide; the lease in a namespace it may not
// read); the primary resource missing (a server without the CRD), with the install hint.
#include "engine/client/auth.h"
#include "engine/client/restclient.h"
#include "engine/sdk/preflight.h"
#include "tests/support/testapiserver.h"

#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <qcoro/qcorotask.h>

using namespace opbench;
using Outcome = PreflightResult::Outcome;

namespace {

const GroupVersionResource kApps{
    QStringLiteral("example.com"), QStringLiteral("v1alpha1"), QStringLiteral("myapplications")};
const GroupVersionResource kDeployments{QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("deployments")};

PreflightSpec spec(const QString &namespaceName = {}, const QString &leaseNamespace = QStringLiteral("team-a"))
{
    PreflightSpec s;
    s.primary = kApps;
    s.primaryDescription = QStringLiteral("the MyApplication CRD (myapplications.example.com, v1alpha1)");
    s.installHint = QStringLiteral("Install it with: kubectl apply -f myapplications.yaml");
    s.cached = {kDeployments};
    s.namespaceName = namespaceName;
    s.leaseName = QStringLiteral("myapplication-operator");
    s.leaseNamespace = leaseNamespace;
    s.who = QStringLiteral("context \"test\"");
    return s;
}

} // namespace

class tst_Preflight : public QObject
{
    Q_OBJECT

    /// A client for `server` with `token` (empty: the server's admin token).
    std::unique_ptr<RestClient> client(const testing::TestApiServer &server, const QByteArray &token = {})
    {
        Expected<RestConfig> cfg = loadConfig(server.kubeconfigPath());
        if (!cfg)
            return nullptr;
        if (!token.isEmpty())
            cfg->auth = std::make_shared<StaticTokenAuth>(token);
        return std::make_unique<RestClient>(*cfg);
    }
    static PreflightResult run(RestClient *c, const PreflightSpec &s) { return QCoro::waitFor(preflight(c, s)); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QFile rules(m_dir.filePath(QStringLiteral("rules.yaml")));
        QVERIFY(rules.open(QIODevice::WriteOnly));
        rules.write("users:\n- name: narrow\n  token: narrow-token\n  namespaces: [team-a]\n");
        rules.close();
        apiserver::ApiServerOptions o = testing::TestApiServer::plainOptions();
        o.rulesFile = rules.fileName();
        m_api = std::make_unique<testing::TestApiServer>(o);
        QVERIFY2(m_api->start(), qPrintable(m_api->errorString()));
        apiserver::ApiServerOptions bare = testing::TestApiServer::plainOptions();
        bare.crds.clear();
        m_bare = std::make_unique<testing::TestApiServer>(bare);
        QVERIFY2(m_bare->start(), qPrintable(m_bare->errorString()));
    }

    void shouldPassWithEveryPermissionAndNameTheServerVersion()
    {
        auto c = client(*m_api);
        QVERIFY(c);
        const PreflightResult r = run(c.get(), spec());
        QVERIFY2(r.ok(), qPrintable(r.message));
        QVERIFY(!r.serverVersion.isEmpty());
        QVERIFY2(
            r.message.contains(r.serverVersion) && r.message.contains(m_api->url().toString()), qPrintable(r.message));
        // The narrow user passes too when the scope is its namespace
        auto narrow = client(*m_api, "narrow-token");
        const PreflightResult scoped = run(narrow.get(), spec(QStringLiteral("team-a")));
        QVERIFY2(scoped.ok(), qPrintable(scoped.message));
    }

    void shouldSayWhenTheServerIsUnreachable()
    {
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost));
        const quint16 port = closed.serverPort();
        closed.close();
        Expected<RestConfig> cfg = loadConfig(m_api->kubeconfigPath());
        QVERIFY(cfg.ok());
        cfg->server.setPort(port);
        RestClient c(*cfg);
        const PreflightResult r = run(&c, spec());
        QCOMPARE(r.outcome, Outcome::Unreachable);
        QVERIFY2(r.message.contains(QStringLiteral("Cannot reach the API server")), qPrintable(r.message));
        QVERIFY2(r.message.contains(QString::number(port)), qPrintable(r.message));
        QVERIFY2(r.message.contains(QStringLiteral("context \"test\"")), qPrintable(r.message));
    }

    void shouldSayWhenTheCredentialsAreRejected()
    {
        auto c = client(*m_api, "not-the-token");
        const PreflightResult r = run(c.get(), spec());
        QCOMPARE(r.outcome, Outcome::Unauthorized);
        QVERIFY2(r.message.startsWith(QStringLiteral("401 Unauthorized")), qPrintable(r.message));
        QVERIFY(r.verb.isEmpty());
    }

    void shouldNameTheVerbAndResourceRefused_data()
    {
        QTest::addColumn<QString>("scope");
        QTest::addColumn<QString>("leaseNamespace");
        QTest::addColumn<QString>("verb");
        QTest::addColumn<QString>("resource");
        QTest::addColumn<QString>("where");
        // Listing cluster-wide: refused on the first resource listed, the operator's own
        QTest::newRow("list, all namespaces")
            << QString() << QStringLiteral("team-a") << QStringLiteral("list")
            << QStringLiteral("myapplications.example.com") << QStringLiteral("in all namespaces");
        // Its namespace lists fine; the lease lives where it may not read
        QTest::newRow("get lease") << QStringLiteral("team-a") << QStringLiteral("kube-system") << QStringLiteral("get")
                                   << QStringLiteral("leases.coordination.k8s.io")
                                   << QStringLiteral("in namespace kube-system");
        // Two namespaces: the second refuses, on the primary resource again
        QTest::newRow("second namespace")
            << QStringLiteral("team-a,team-b") << QStringLiteral("team-a") << QStringLiteral("list")
            << QStringLiteral("myapplications.example.com") << QStringLiteral("in namespace team-b");
    }
    void shouldNameTheVerbAndResourceRefused()
    {
        QFETCH(QString, scope);
        QFETCH(QString, leaseNamespace);
        QFETCH(QString, verb);
        QFETCH(QString, resource);
        QFETCH(QString, where);
        auto c = client(*m_api, "narrow-token");
        PreflightSpec s = spec(scope, leaseNamespace);
        s.rbacHint = QStringLiteral("Ask for the operator's Role.");
        const PreflightResult r = run(c.get(), s);
        QCOMPARE(r.outcome, Outcome::Forbidden);
        QCOMPARE(r.verb, verb);
        QCOMPARE(r.resource, resource);
        const QStringList expected{QStringLiteral("403 Forbidden"),
            QStringLiteral("context \"test\" may not %1 %2 %3").arg(verb, resource, where),
            QStringLiteral("Ask for the operator's Role.")};
        for (const QString &words : expected)
            QVERIFY2(r.message.contains(words), qPrintable(r.message + QStringLiteral("\n(missing: ") + words + u')'));
    }

    void shouldSayWhenThePrimaryResourceIsMissing()
    {
        auto c = client(*m_bare);
        const PreflightResult r = run(c.get(), spec());
        QCOMPARE(r.outcome, Outcome::ResourceMissing);
        QVERIFY2(r.message.startsWith(spec().primaryDescription + QStringLiteral(" is not installed")),
            qPrintable(r.message));
        QVERIFY2(r.message.contains(spec().installHint), qPrintable(r.message));
        QVERIFY2(r.message.contains(m_bare->url().toString()), qPrintable(r.message));
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<testing::TestApiServer> m_api;
    std::unique_ptr<testing::TestApiServer> m_bare;
};

QTEST_GUILESS_MAIN(tst_Preflight)
#include "tst_preflight.moc"
