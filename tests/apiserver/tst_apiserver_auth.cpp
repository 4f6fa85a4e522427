// SPDX-License-Identifier: Apache-2.0
// Authentication (401), the rules file (403 with the real message) and the audit log, over HTTPS.
#include "tests/support/testhttp.h"

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace opbench::testsupport;

class TestApiServerAuth : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<TestApiServer> m_api;
    std::unique_ptr<TestHttp> m_http;

    HttpReply as(const QByteArray &token, const QByteArray &method, const QString &path, const QByteArray &body = {})
    {
        return m_http->call(method, path, body, "application/json", {{"Authorization", token.isEmpty() ? QByteArray() : "Bearer " + token}});
    }

private Q_SLOTS:
    void initTestCase()
    {
        QFile rules(m_dir.filePath(QStringLiteral("rules.yaml")));
        QVERIFY(rules.open(QIODevice::WriteOnly));
        rules.write("users:\n- name: viewer\n  token: view-token\n  readOnly: true\n"
                    "- name: team\n  token: team-token\n  namespaces: [team-a]\n");
        rules.close();
        auto o = TestApiServer::httpsOptions();
        o.rulesFile = rules.fileName();
        o.auditLog = m_dir.filePath(QStringLiteral("audit.log"));
        m_api = std::make_unique<TestApiServer>(o);
        QVERIFY2(m_api->start(), qPrintable(m_api->errorString()));
        QCOMPARE(m_api->url().scheme(), QStringLiteral("https"));
        m_http = std::make_unique<TestHttp>(*m_api);
    }

    void shouldRefuseMissingOrWrongTokens()
    {
        const HttpReply none = as({}, "GET", QStringLiteral("/api/v1/namespaces"));
        QCOMPARE(none.code, 401);
        QCOMPARE(none.json().value(QLatin1String("reason")).toString(), QStringLiteral("Unauthorized"));
        QCOMPARE(as("wrong", "GET", QStringLiteral("/api/v1/namespaces")).code, 401);
        QCOMPARE(as("wrong", "GET", QStringLiteral("/api")).code, 401);
        QCOMPARE(as({}, "GET", QStringLiteral("/healthz")).code, 200); // health is public
        QCOMPARE(m_http->get(QStringLiteral("/api/v1/namespaces")).code, 200); // the admin token
    }

    void shouldEnforceReadOnlyUsers()
    {
        QCOMPARE(as("view-token", "GET", QStringLiteral("/api/v1/namespaces/default/pods")).code, 200);
        const HttpReply r = as("view-token", "POST", QStringLiteral("/api/v1/namespaces/default/configmaps"), R"({"metadata":{"name":"x"}})");
        QCOMPARE(r.code, 403);
        QCOMPARE(r.json().value(QLatin1String("message")).toString(),
                 QStringLiteral("configmaps is forbidden: User \"viewer\" cannot create resource \"configmaps\" in API group \"\" in the namespace \"default\""));
        QCOMPARE(r.json().value(QLatin1String("details")).toObject().value(QLatin1String("kind")).toString(), QStringLiteral("configmaps"));
        QCOMPARE(as("view-token", "GET", QStringLiteral("/api/v1/namespaces/default/configmaps/x")).code, 404); // nothing was stored
    }

    void shouldEnforceNamespaceLimits()
    {
        QCOMPARE(m_http->post(QStringLiteral("/api/v1/namespaces"), {{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("team-a")}}}}).code, 201);
        QCOMPARE(as("team-token", "POST", QStringLiteral("/api/v1/namespaces/team-a/configmaps"), R"({"metadata":{"name":"mine"}})").code, 201);
        const HttpReply r = as("team-token", "GET", QStringLiteral("/apis/apps/v1/namespaces/default/deployments"));
        QCOMPARE(r.code, 403);
        QCOMPARE(r.json().value(QLatin1String("message")).toString(),
                 QStringLiteral("deployments.apps is forbidden: User \"team\" cannot list resource \"deployments\" in API group \"apps\" in the namespace \"default\""));
        QCOMPARE(as("team-token", "GET", QStringLiteral("/api/v1/pods")).code, 403);
    }

    void shouldWriteOneAuditLinePerRequest()
    {
        QCOMPARE(m_http->post(QStringLiteral("/api/v1/namespaces/default/configmaps"), {{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("audited")}}}}).code, 201);
        QFile f(m_dir.filePath(QStringLiteral("audit.log")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QVERIFY(lines.size() >= 10);
        const QJsonObject last = QJsonDocument::fromJson(lines.last()).object();
        QCOMPARE(last.value(QLatin1String("user")).toString(), QStringLiteral("admin"));
        QCOMPARE(last.value(QLatin1String("verb")).toString(), QStringLiteral("create"));
        QCOMPARE(last.value(QLatin1String("resource")).toString(), QStringLiteral("configmaps"));
        QCOMPARE(last.value(QLatin1String("namespace")).toString(), QStringLiteral("default"));
        QCOMPARE(last.value(QLatin1String("code")).toInt(), 201);
        QVERIFY(!last.value(QLatin1String("time")).toString().isEmpty());
        bool saw401 = false;
        for (const QByteArray &l : lines)
            saw401 = saw401 || QJsonDocument::fromJson(l).object().value(QLatin1String("code")).toInt() == 401;
        QVERIFY(saw401);
        QVERIFY(!f.readAll().contains("view-token")); // tokens are never logged
    }
};

QTEST_GUILESS_MAIN(TestApiServerAuth)
#include "tst_apiserver_auth.moc"
