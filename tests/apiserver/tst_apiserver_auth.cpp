// SPDX-License-Identifier: Apache-2.0
// Authentication (401), the rules file (403 with the real message) and the audit log, over HTTPS.
#include "tests/support/testhttp.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace opbench::testing;

class TestApiServerAuth : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<TestApiServer> m_api;
    std::unique_ptr<TestHttp> m_http;

    HttpReply as(const QByteArray &token, const QByteArray &method, const QString &path, const QByteArray &body = {})
    {
        return m_http->call(method, path, body, "application/json",
            {{"Authorization", token.isEmpty() ? QByteArray() : "Bearer " + token}});
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
        QCOMPARE(as({}, "GET", QStringLiteral("/healthz")).code, 200);         // health is public
        QCOMPARE(m_http->get(QStringLiteral("/api/v1/namespaces")).code, 200); // the admin token
    }

    void shouldEnforceReadOnlyUsers()
    {
        QCOMPARE(as("view-token", "GET", QStringLiteral("/api/v1/namespaces/default/pods")).code, 200);
        const HttpReply r = as("view-token", "POST", QStringLiteral("/api/v1/namespaces/default/configmaps"),
            R"({"metadata":{"name":"x"}})");
        QCOMPARE(r.code, 403);
        QCOMPARE(r.json().value(QLatin1String("message")).toString(),
            QStringLiteral("configmaps is forbidden: User \"viewer\" cannot create resource \"configmaps\" in API "
                           "group \"\" in the namespace \"default\""));
        QCOMPARE(r.json().value(QLatin1String("details")).toObject().value(QLatin1String("kind")).toString(),
            QStringLiteral("configmaps"));
        QCOMPARE(as("view-token", "GET", QStringLiteral("/api/v1/namespaces/default/configmaps/x")).code,
            404); // nothing was stored
    }

    void shouldEnforceNamespaceLimits()
    {
        QCOMPARE(
            m_http
                ->post(QStringLiteral("/api/v1/namespaces"),
                    {{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("team-a")}}}})
                .code,
            201);
        QCOMPARE(as("team-token", "POST", QStringLiteral("/api/v1/namespaces/team-a/configmaps"),
                     R"({"metadata":{"name":"mine"}})")
                     .code,
            201);
        const HttpReply r = as("team-token", "GET", QStringLiteral("/apis/apps/v1/namespaces/default/deployments"));
        QCOMPARE(r.code, 403);
        QCOMPARE(r.json().value(QLatin1String("message")).toString(),
            QStringLiteral("deployments.apps is forbidden: User \"team\" cannot list resource \"deployments\" in API "
                           "group \"apps\" in the namespace \"default\""));
        QCOMPARE(as("team-token", "GET", QStringLiteral("/api/v1/pods")).code, 403);
    }

    // ---- access reviews: answered from the rules that produce 403s ------------------------------

    QJsonObject review(const QByteArray &token, const QString &resource, const QJsonObject &spec, int wantCode = 201)
    {
        const QString kind = resource == QLatin1String("selfsubjectrulesreviews")
            ? QStringLiteral("SelfSubjectRulesReview")
            : resource == QLatin1String("subjectaccessreviews") ? QStringLiteral("SubjectAccessReview")
                                                                : QStringLiteral("SelfSubjectAccessReview");
        const QJsonObject body{{QStringLiteral("apiVersion"), QStringLiteral("authorization.k8s.io/v1")},
            {QStringLiteral("kind"), kind}, {QStringLiteral("spec"), spec}};
        const HttpReply r
            = as(token, "POST", QStringLiteral("/apis/authorization.k8s.io/v1/") + resource, TestHttp::toBytes(body));
        if (r.code != wantCode)
            qWarning("%s: %d %s", qPrintable(resource), r.code, r.body.constData());
        return r.code == wantCode ? r.json() : QJsonObject{{QStringLiteral("code"), r.code}};
    }

    static QJsonObject resourceSpec(
        const char *verb, const char *group, const char *resource, const char *ns, const char *name = "")
    {
        return QJsonObject{{QStringLiteral("resourceAttributes"),
            QJsonObject{{QStringLiteral("verb"), QLatin1String(verb)}, {QStringLiteral("group"), QLatin1String(group)},
                {QStringLiteral("resource"), QLatin1String(resource)}, {QStringLiteral("namespace"), QLatin1String(ns)},
                {QStringLiteral("name"), QLatin1String(name)}}}};
    }

    bool canI(const QByteArray &token, const char *verb, const char *group, const char *resource, const char *ns,
        const char *name = "")
    {
        const QJsonObject r
            = review(token, QStringLiteral("selfsubjectaccessreviews"), resourceSpec(verb, group, resource, ns, name));
        return r.value(QLatin1String("status")).toObject().value(QLatin1String("allowed")).toBool();
    }

    void shouldListTheReviewResourcesInDiscovery()
    {
        const QJsonObject list = as("view-token", "GET", QStringLiteral("/apis/authorization.k8s.io/v1")).json();
        QStringList names;
        for (const QJsonValue &v : list.value(QLatin1String("resources")).toArray()) {
            names << v.toObject().value(QLatin1String("name")).toString();
            QCOMPARE(v.toObject().value(QLatin1String("verbs")).toArray(), QJsonArray{QStringLiteral("create")});
        }
        names.sort();
        QCOMPARE(names,
            (QStringList{QStringLiteral("localsubjectaccessreviews"), QStringLiteral("selfsubjectaccessreviews"),
                QStringLiteral("selfsubjectrulesreviews"), QStringLiteral("subjectaccessreviews")}));
        QCOMPARE(as({}, "GET", QStringLiteral("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews")).code, 401);
        QCOMPARE(m_http->get(QStringLiteral("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews")).code, 405);
    }

    void shouldAnswerSelfSubjectAccessReviewsPerUser()
    {
        const QByteArray admin = m_api->token().toUtf8();
        const QJsonObject r = review(admin, QStringLiteral("selfsubjectaccessreviews"),
            resourceSpec("create", "apps", "deployments", "default"));
        QCOMPARE(r.value(QLatin1String("kind")).toString(), QStringLiteral("SelfSubjectAccessReview"));
        QCOMPARE(r.value(QLatin1String("apiVersion")).toString(), QStringLiteral("authorization.k8s.io/v1"));
        QCOMPARE(r.value(QLatin1String("spec"))
                     .toObject()
                     .value(QLatin1String("resourceAttributes"))
                     .toObject()
                     .value(QLatin1String("resource"))
                     .toString(),
            QStringLiteral("deployments"));
        QVERIFY(r.value(QLatin1String("status")).toObject().value(QLatin1String("allowed")).toBool());

        QVERIFY(!canI("view-token", "create", "apps", "deployments", "default"));
        QVERIFY(canI("view-token", "list", "", "pods", "default"));
        QVERIFY(canI("view-token", "watch", "", "secrets", "")); // all namespaces
        QVERIFY(!canI("view-token", "delete", "", "namespaces", "", "default"));

        QVERIFY(canI("team-token", "create", "", "configmaps", "team-a"));
        QVERIFY(canI("team-token", "delete", "apps", "deployments", "team-a"));
        QVERIFY(!canI("team-token", "create", "", "configmaps", "default"));
        QVERIFY(!canI("team-token", "list", "", "pods", "")); // all namespaces
        QVERIFY(canI("team-token", "get", "", "namespaces", "", "team-a"));
        QVERIFY(!canI("team-token", "get", "", "namespaces", "", "default"));

        const QJsonObject nonResource{{QStringLiteral("nonResourceAttributes"),
            QJsonObject{{QStringLiteral("verb"), QStringLiteral("get")},
                {QStringLiteral("path"), QStringLiteral("/apis/apps")}}}};
        QVERIFY(review("team-token", QStringLiteral("selfsubjectaccessreviews"), nonResource)
                    .value(QLatin1String("status"))
                    .toObject()
                    .value(QLatin1String("allowed"))
                    .toBool());
        // neither or both attribute kinds: 422
        QCOMPARE(review("team-token", QStringLiteral("selfsubjectaccessreviews"), QJsonObject(), 422).isEmpty(), false);
    }

    void shouldAgreeWithTheRequestsItself()
    {
        // Whatever a review says, the request itself gets: 403 exactly when the answer is no.
        struct Case
        {
            const char *token;
            const char *verb;
            const char *method;
            const char *group;
            const char *resource;
            const char *ns;
            QString path;
        };
        const QList<Case> cases{
            {"view-token", "list", "GET", "", "configmaps", "team-a",
                QStringLiteral("/api/v1/namespaces/team-a/configmaps")},
            {"view-token", "create", "POST", "", "configmaps", "team-a",
                QStringLiteral("/api/v1/namespaces/team-a/configmaps")},
            {"team-token", "list", "GET", "", "configmaps", "team-a",
                QStringLiteral("/api/v1/namespaces/team-a/configmaps")},
            {"team-token", "list", "GET", "", "configmaps", "default",
                QStringLiteral("/api/v1/namespaces/default/configmaps")},
            {"team-token", "list", "GET", "apps", "deployments", "", QStringLiteral("/apis/apps/v1/deployments")},
            {"view-token", "list", "GET", "apps", "deployments", "", QStringLiteral("/apis/apps/v1/deployments")},
        };
        for (const Case &c : cases) {
            const bool yes = canI(c.token, c.verb, c.group, c.resource, c.ns);
            const QByteArray body
                = QByteArray(c.method) == "POST" ? R"({"metadata":{"generateName":"agree-"}})" : QByteArray();
            const int code = as(c.token, c.method, c.path, body).code;
            QVERIFY2((code == 403) == !yes,
                qPrintable(QStringLiteral("%1 %2 %3: review %4, request %5")
                               .arg(QLatin1String(c.token), QLatin1String(c.verb), c.path)
                               .arg(yes)
                               .arg(code)));
        }
    }

    void shouldListRulesInSelfSubjectRulesReview()
    {
        auto rules = [this](const QByteArray &token, const char *ns) {
            const QJsonObject st = review(
                token, QStringLiteral("selfsubjectrulesreviews"), {{QStringLiteral("namespace"), QLatin1String(ns)}})
                                       .value(QLatin1String("status"))
                                       .toObject();
            return st;
        };
        const QJsonObject viewer = rules("view-token", "default");
        QCOMPARE(viewer.value(QLatin1String("incomplete")).toBool(true), false);
        const QJsonObject readAll{
            {QStringLiteral("verbs"),
                QJsonArray{QStringLiteral("get"), QStringLiteral("list"), QStringLiteral("watch")}},
            {QStringLiteral("apiGroups"), QJsonArray{QStringLiteral("*")}},
            {QStringLiteral("resources"), QJsonArray{QStringLiteral("*")}}};
        QVERIFY(viewer.value(QLatin1String("resourceRules")).toArray().contains(readAll));
        QVERIFY(!viewer.value(QLatin1String("nonResourceRules")).toArray().isEmpty());

        const QJsonObject writeAll{{QStringLiteral("verbs"), QJsonArray{QStringLiteral("*")}},
            {QStringLiteral("apiGroups"), QJsonArray{QStringLiteral("*")}},
            {QStringLiteral("resources"), QJsonArray{QStringLiteral("*")}}};
        QVERIFY(rules("team-token", "team-a").value(QLatin1String("resourceRules")).toArray().contains(writeAll));
        QVERIFY(!rules("team-token", "default").value(QLatin1String("resourceRules")).toArray().contains(writeAll));
        QVERIFY(rules(m_api->token().toUtf8(), "default")
                    .value(QLatin1String("resourceRules"))
                    .toArray()
                    .contains(writeAll));
    }

    void shouldAnswerSubjectAccessReviewsForTheAdminOnly()
    {
        QJsonObject spec = resourceSpec("create", "", "configmaps", "team-a");
        spec.insert(QStringLiteral("user"), QStringLiteral("viewer"));
        QJsonObject r = review(m_api->token().toUtf8(), QStringLiteral("subjectaccessreviews"), spec);
        QCOMPARE(r.value(QLatin1String("status")).toObject().value(QLatin1String("allowed")).toBool(true), false);
        spec.insert(QStringLiteral("user"), QStringLiteral("team"));
        r = review(m_api->token().toUtf8(), QStringLiteral("subjectaccessreviews"), spec);
        QCOMPARE(r.value(QLatin1String("status")).toObject().value(QLatin1String("allowed")).toBool(), true);
        QCOMPARE(review("view-token", QStringLiteral("subjectaccessreviews"), spec, 403)
                     .value(QLatin1String("code"))
                     .toInt(),
            403);
        spec.remove(QStringLiteral("user"));
        QCOMPARE(review(m_api->token().toUtf8(), QStringLiteral("subjectaccessreviews"), spec, 422).isEmpty(), false);
    }

    void shouldAnswerWhoAmI_data()
    {
        QTest::addColumn<QString>("version");
        QTest::newRow("v1") << "v1";
        QTest::newRow("v1beta1 (kubectl 1.27)") << "v1beta1";
    }
    void shouldAnswerWhoAmI()
    {
        QFETCH(QString, version);
        const HttpReply r
            = as("view-token", "POST", QStringLiteral("/apis/authentication.k8s.io/%1/selfsubjectreviews").arg(version),
                TestHttp::toBytes({{QStringLiteral("apiVersion"), QStringLiteral("authentication.k8s.io/") + version},
                    {QStringLiteral("kind"), QStringLiteral("SelfSubjectReview")}}));
        QCOMPARE(r.code, 201);
        QCOMPARE(
            r.json().value(QLatin1String("apiVersion")).toString(), QStringLiteral("authentication.k8s.io/") + version);
        QCOMPARE(r.json()
                     .value(QLatin1String("status"))
                     .toObject()
                     .value(QLatin1String("userInfo"))
                     .toObject()
                     .value(QLatin1String("username"))
                     .toString(),
            QStringLiteral("viewer"));
    }

    void shouldWriteOneAuditLinePerRequest()
    {
        QCOMPARE(
            m_http
                ->post(QStringLiteral("/api/v1/namespaces/default/configmaps"),
                    {{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("audited")}}}})
                .code,
            201);
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
