// SPDX-License-Identifier: Apache-2.0
// Status subresource isolation (custom resources and Deployments), /scale, and the CRD
// structural-schema hook (422 with causes) through HTTP.
#include "tests/apiserver/apiserverfixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace opbench::testing;

namespace {
const QString kApps = QStringLiteral("/apis/example.com/v1alpha1/namespaces/default/myapplications");
const QString kDeploys = QStringLiteral("/apis/apps/v1/namespaces/default/deployments");

QJsonObject myApp(const QString &name)
{
    return QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("example.com/v1alpha1")},
        {QStringLiteral("kind"), QStringLiteral("MyApplication")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}},
        {QStringLiteral("spec"),
            QJsonObject{{QStringLiteral("image"), QStringLiteral("nginx")}, {QStringLiteral("replicas"), 1}}},
        {QStringLiteral("status"), QJsonObject{{QStringLiteral("phase"), QStringLiteral("Running")}}}};
}
QJsonObject meta(const QJsonObject &o) { return o.value(QLatin1String("metadata")).toObject(); }
} // namespace

class TestApiServerStatus : public QObject, private ApiServerFixture
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_api.start(), qPrintable(m_api.errorString())); }

    void shouldDropStatusOnCreate()
    {
        const QJsonObject o = m_http.post(kApps, myApp(QStringLiteral("s1"))).json();
        QVERIFY(!o.contains(QLatin1String("status")));
    }

    void shouldIsolateStatusWrites()
    {
        QJsonObject o = m_http.post(kApps, myApp(QStringLiteral("s2"))).json();
        QJsonObject viaStatus = o;
        viaStatus.insert(QStringLiteral("status"),
            QJsonObject{
                {QStringLiteral("phase"), QStringLiteral("Running")}, {QStringLiteral("availableReplicas"), 1}});
        QJsonObject spec = viaStatus.value(QLatin1String("spec")).toObject();
        spec.insert(QStringLiteral("image"), QStringLiteral("ignored"));
        viaStatus.insert(QStringLiteral("spec"), spec);
        const HttpReply r = m_http.put(kApps + QStringLiteral("/s2/status"), viaStatus);
        QCOMPARE(r.code, 200);
        o = r.json();
        QCOMPARE(o.value(QLatin1String("status")).toObject().value(QLatin1String("phase")).toString(),
            QStringLiteral("Running"));
        QCOMPARE(o.value(QLatin1String("spec")).toObject().value(QLatin1String("image")).toString(),
            QStringLiteral("nginx"));
        QCOMPARE(meta(o).value(QLatin1String("generation")).toInt(), 1); // /status never bumps generation
        const HttpReply p = m_http.call("PATCH", kApps + QStringLiteral("/s2/status"),
            R"({"status":{"phase":"Failed"}})", "application/merge-patch+json");
        QCOMPARE(p.code, 200);
        QCOMPARE(p.json().value(QLatin1String("status")).toObject().value(QLatin1String("phase")).toString(),
            QStringLiteral("Failed"));
        const HttpReply badEnum = m_http.call("PATCH", kApps + QStringLiteral("/s2/status"),
            R"({"status":{"phase":"Dancing"}})", "application/merge-patch+json");
        QCOMPARE(badEnum.code, 422);
    }

    void shouldAnswer404ForStatusOfTypesWithoutIt()
    {
        QCOMPARE(m_http
                     .post(QStringLiteral("/api/v1/namespaces/default/configmaps"),
                         QJsonObject{
                             {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("c")}}}})
                     .code,
            201);
        QCOMPARE(m_http.get(QStringLiteral("/api/v1/namespaces/default/configmaps/c/status")).code, 404);
    }

    void shouldValidateCustomResourcesAgainstTheSchema()
    {
        QJsonObject bad = myApp(QStringLiteral("demo"));
        bad.insert(QStringLiteral("spec"), QJsonObject{{QStringLiteral("replicas"), 0}});
        const HttpReply r = m_http.post(kApps, bad);
        QCOMPARE(r.code, 422);
        const QJsonObject st = r.json();
        QCOMPARE(st.value(QLatin1String("message")).toString(),
            QStringLiteral("MyApplication.example.com \"demo\" is invalid: [spec.image: Required value, spec.replicas: "
                           "Invalid value: "
                           "0: spec.replicas in body should be greater than or equal to 1]"));
        QCOMPARE(st.value(QLatin1String("details")).toObject().value(QLatin1String("kind")).toString(),
            QStringLiteral("MyApplication"));
        QCOMPARE(st.value(QLatin1String("details")).toObject().value(QLatin1String("causes")).toArray().size(), 2);
        QCOMPARE(m_http.get(kApps + QStringLiteral("/demo")).code, 404);
    }

    void shouldDefaultAndPruneCustomResources()
    {
        QJsonObject o = myApp(QStringLiteral("pruned"));
        o.insert(QStringLiteral("spec"),
            QJsonObject{{QStringLiteral("image"), QStringLiteral("x")}, {QStringLiteral("unknown"), 1}});
        const QJsonObject created = m_http.post(kApps, o).json();
        QCOMPARE(created.value(QLatin1String("spec")).toObject(),
            (QJsonObject{{QStringLiteral("image"), QStringLiteral("x")}, {QStringLiteral("replicas"), 1}}));
    }

    void shouldHonourFieldValidation_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<int>("code");
        QTest::addColumn<QStringList>("warnings");
        const QStringList both{QStringLiteral("299 - \"unknown field \\\"spec.bar\\\"\""),
            QStringLiteral("299 - \"unknown field \\\"spec.foo\\\"\"")};
        QTest::newRow("default is Warn") << QString() << 201 << both;
        QTest::newRow("Warn") << QStringLiteral("?fieldValidation=Warn") << 201 << both;
        QTest::newRow("Ignore") << QStringLiteral("?fieldValidation=Ignore") << 201 << QStringList();
        QTest::newRow("Strict") << QStringLiteral("?fieldValidation=Strict") << 400 << QStringList();
        QTest::newRow("unsupported value") << QStringLiteral("?fieldValidation=Loose") << 422 << QStringList();
    }
    void shouldHonourFieldValidation()
    {
        QFETCH(QString, query);
        QFETCH(int, code);
        QFETCH(QStringList, warnings);
        const QString name = QStringLiteral("fv-%1").arg(QTest::currentDataTag()).toLower().replace(u' ', u'-');
        QJsonObject o = myApp(name);
        o.insert(QStringLiteral("spec"),
            QJsonObject{{QStringLiteral("image"), QStringLiteral("x")}, {QStringLiteral("foo"), 1},
                {QStringLiteral("bar"), true}});
        const HttpReply r = m_http.post(kApps + query, o);
        QCOMPARE(r.code, code);
        QStringList got;
        for (const auto &h : r.headers)
            if (h.first.compare("Warning", Qt::CaseInsensitive) == 0)
                got += QString::fromUtf8(h.second).split(QStringLiteral(", 299"));
        for (qsizetype i = 1; i < got.size(); ++i)
            got[i].prepend(QStringLiteral("299")); // QNAM joins repeated headers with ", "
        QCOMPARE(got, warnings);
        if (code == 201) {
            QVERIFY(!r.json().value(QLatin1String("spec")).toObject().contains(QLatin1String("foo")));
            return;
        }
        QCOMPARE(m_http.get(kApps + u'/' + name).code, 404); // nothing stored
        if (code == 400) {
            QCOMPARE(r.json().value(QLatin1String("reason")).toString(), QStringLiteral("BadRequest"));
            QCOMPARE(r.json().value(QLatin1String("message")).toString(),
                QStringLiteral("MyApplication in version \"v1alpha1\" cannot be handled as a MyApplication: strict "
                               "decoding error: "
                               "unknown field \"spec.bar\", unknown field \"spec.foo\""));
        } else {
            QCOMPARE(r.json().value(QLatin1String("message")).toString(),
                QStringLiteral(
                    "CreateOptions.meta.k8s.io \"\" is invalid: fieldValidation: Unsupported value: \"Loose\": "
                    "supported values: \"\", \"Ignore\", \"Strict\", \"Warn\""));
        }
    }

    void shouldApplyStrictFieldValidationToUpdatesPatchesAndMetadata()
    {
        QJsonObject o = m_http.post(kApps, myApp(QStringLiteral("fv-writes"))).json();
        QJsonObject spec = o.value(QLatin1String("spec")).toObject();
        spec.insert(QStringLiteral("foo"), 1);
        o.insert(QStringLiteral("spec"), spec);
        const HttpReply put
            = m_http.call("PUT", kApps + QStringLiteral("/fv-writes?fieldValidation=Strict"), TestHttp::toBytes(o));
        QCOMPARE(put.code, 400);
        QVERIFY(put.json()
                    .value(QLatin1String("message"))
                    .toString()
                    .endsWith(QLatin1String("strict decoding error: unknown field \"spec.foo\"")));
        const HttpReply patch = m_http.call("PATCH", kApps + QStringLiteral("/fv-writes?fieldValidation=Strict"),
            R"({"spec":{"foo":2}})", "application/merge-patch+json");
        QCOMPARE(patch.code, 400);
        QCOMPARE(patch.json().value(QLatin1String("message")).toString(),
            QStringLiteral("strict decoding error: unknown field \"spec.foo\""));
        QJsonObject cm{{QStringLiteral("metadata"),
            QJsonObject{
                {QStringLiteral("name"), QStringLiteral("fv-cm")}, {QStringLiteral("nmae"), QStringLiteral("x")}}}};
        const HttpReply strictCm
            = m_http.post(QStringLiteral("/api/v1/namespaces/default/configmaps?fieldValidation=Strict"), cm);
        QCOMPARE(strictCm.code, 400);
        QVERIFY(strictCm.json()
                    .value(QLatin1String("message"))
                    .toString()
                    .endsWith(QLatin1String("unknown field \"metadata.nmae\"")));
        const HttpReply warnCm = m_http.post(QStringLiteral("/api/v1/namespaces/default/configmaps"), cm);
        QCOMPARE(warnCm.code, 201);
        QCOMPARE(warnCm.header("Warning"), QByteArray("299 - \"unknown field \\\"metadata.nmae\\\"\""));
        QVERIFY(!meta(warnCm.json()).contains(QLatin1String("nmae")));
        QVERIFY(!m_http.get(kApps + QStringLiteral("/fv-writes"))
                     .json()
                     .value(QLatin1String("spec"))
                     .toObject()
                     .contains(QLatin1String("foo")));
    }

    void shouldRefuseUnknownTopLevelFieldsOfBuiltins()
    {
        // kubectl create --validate=strict leaves validation to the server (fieldValidation=Strict)
        const QString cms = QStringLiteral("/api/v1/namespaces/default/configmaps");
        QJsonObject cm{{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("fv-top")}}},
            {QStringLiteral("data"), QJsonObject{{QStringLiteral("a"), QStringLiteral("b")}}},
            {QStringLiteral("bogus"), 1}};
        const HttpReply strict = m_http.post(cms + QStringLiteral("?fieldValidation=Strict"), cm);
        QCOMPARE(strict.code, 400);
        QVERIFY2(strict.json()
                     .value(QLatin1String("message"))
                     .toString()
                     .endsWith(QLatin1String("strict decoding error: unknown field \"bogus\"")),
            strict.body.constData());
        QCOMPARE(m_http.get(cms + QStringLiteral("/fv-top")).code, 404);
        const HttpReply warn = m_http.post(cms, cm);
        QCOMPARE(warn.code, 201);
        QCOMPARE(warn.header("Warning"), QByteArray("299 - \"unknown field \\\"bogus\\\"\""));
        QVERIFY(!warn.json().contains(QLatin1String("bogus")));
        QCOMPARE(warn.json().value(QLatin1String("data")).toObject().value(QLatin1String("a")).toString(),
            QStringLiteral("b"));
        QVERIFY(!m_http.get(cms + QStringLiteral("/fv-top")).json().contains(QLatin1String("bogus")));

        QJsonObject deployment
            = QJsonDocument::fromJson(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"fv-top"},
            "spce":{"replicas":1},"spec":{"selector":{"matchLabels":{"app":"fv"}},
            "template":{"metadata":{"labels":{"app":"fv"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}})")
                  .object();
        const QString deployments = QStringLiteral("/apis/apps/v1/namespaces/default/deployments");
        const HttpReply refused = m_http.post(deployments + QStringLiteral("?fieldValidation=Strict"), deployment);
        QCOMPARE(refused.code, 400);
        QVERIFY(refused.json()
                    .value(QLatin1String("message"))
                    .toString()
                    .endsWith(QLatin1String("unknown field \"spce\"")));
        deployment.remove(QStringLiteral("spce"));
        QCOMPARE(m_http.post(deployments + QStringLiteral("?fieldValidation=Strict"), deployment).code,
            201); // every real top-level field passes
    }

    void shouldRefuseStrategicMergeOnCustomResources()
    {
        QCOMPARE(m_http.post(kApps, myApp(QStringLiteral("smp"))).code, 201);
        const HttpReply r = m_http.call("PATCH", kApps + QStringLiteral("/smp"), R"({"spec":{"replicas":2}})",
            "application/strategic-merge-patch+json");
        QCOMPARE(r.code, 415);
        QCOMPARE(r.json().value(QLatin1String("message")).toString(),
            QStringLiteral("the body of the request was in an unknown format - accepted media types include: "
                           "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml"));
    }

    void shouldIsolateDeploymentStatusAndScale()
    {
        const QJsonObject d{{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("web")}}},
            {QStringLiteral("spec"),
                QJsonObject{{QStringLiteral("replicas"), 1},
                    {QStringLiteral("selector"),
                        QJsonObject{{QStringLiteral("matchLabels"),
                            QJsonObject{{QStringLiteral("app"), QStringLiteral("web")}}}}},
                    {QStringLiteral("template"),
                        QJsonObject{{QStringLiteral("metadata"),
                                        QJsonObject{{QStringLiteral("labels"),
                                            QJsonObject{{QStringLiteral("app"), QStringLiteral("web")}}}}},
                            {QStringLiteral("spec"),
                                QJsonObject{{QStringLiteral("containers"),
                                    QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("c")},
                                        {QStringLiteral("image"), QStringLiteral("nginx")}}}}}}}}}},
            {QStringLiteral("status"), QJsonObject{{QStringLiteral("replicas"), 99}}}};
        const HttpReply created = m_http.post(kDeploys, d);
        QCOMPARE(created.code, 201);
        QVERIFY(
            created.json().value(QLatin1String("status")).toObject().value(QLatin1String("replicas")).toInt() != 99);
        const HttpReply scale = m_http.get(kDeploys + QStringLiteral("/web/scale"));
        QCOMPARE(scale.code, 200);
        QCOMPARE(scale.json().value(QLatin1String("kind")).toString(), QStringLiteral("Scale"));
        QCOMPARE(scale.json().value(QLatin1String("status")).toObject().value(QLatin1String("selector")).toString(),
            QStringLiteral("app=web"));
        const HttpReply scaled = m_http.call("PATCH", kDeploys + QStringLiteral("/web/scale"),
            R"({"spec":{"replicas":3}})", "application/merge-patch+json");
        QCOMPARE(scaled.code, 200);
        const QJsonObject now = m_http.get(kDeploys + QStringLiteral("/web")).json();
        QCOMPARE(now.value(QLatin1String("spec")).toObject().value(QLatin1String("replicas")).toInt(), 3);
        QCOMPARE(meta(now).value(QLatin1String("generation")).toInt(), 2);
    }
};

QTEST_GUILESS_MAIN(TestApiServerStatus)
#include "tst_apiserver_status.moc"
