// SPDX-License-Identifier: Apache-2.0
// OpenAPI v3 over HTTP: the discovery document, one document per group version with the schemas
// of the served built-in kinds (from the field table) and of CRDs (following CRD changes), every
// reference resolvable, and the operations `kubectl explain` and kubectl's field-validation
// check look for.
#include "tests/apiserver/apiserverfixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace opbench::testing;

namespace {

const QString kCrds = QStringLiteral("/apis/apiextensions.k8s.io/v1/customresourcedefinitions");

QJsonObject crd(const QJsonObject &specProperties)
{
    QJsonObject o
        = QJsonDocument::fromJson(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
        "metadata":{"name":"gadgets.openapi.test"},
        "spec":{"group":"openapi.test","scope":"Namespaced","names":{"plural":"gadgets","kind":"Gadget"},
          "versions":[{"name":"v1","served":true,"storage":true,
            "schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object"}}}}}]}})")
              .object();
    QJsonObject spec = o.value(QLatin1String("spec")).toObject();
    QJsonArray versions = spec.value(QLatin1String("versions")).toArray();
    QJsonObject v = versions.first().toObject();
    v.insert(QStringLiteral("schema"),
        QJsonObject{{QStringLiteral("openAPIV3Schema"),
            QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                {QStringLiteral("properties"),
                    QJsonObject{{QStringLiteral("spec"),
                        QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                            {QStringLiteral("properties"), specProperties}}}}}}}});
    versions[0] = v;
    spec.insert(QStringLiteral("versions"), versions);
    o.insert(QStringLiteral("spec"), spec);
    return o;
}

/// The schema in `doc` carrying x-kubernetes-group-version-kind {group, version, kind}.
QJsonObject schemaFor(const QJsonObject &doc, const QString &group, const QString &version, const QString &kind)
{
    const QJsonObject schemas
        = doc.value(QLatin1String("components")).toObject().value(QLatin1String("schemas")).toObject();
    const QJsonObject want{
        {QStringLiteral("group"), group}, {QStringLiteral("version"), version}, {QStringLiteral("kind"), kind}};
    for (const QJsonValue &s : schemas)
        if (s.toObject().value(QLatin1String("x-kubernetes-group-version-kind")).toArray().contains(want))
            return s.toObject();
    return {};
}

/// Follows {"allOf":[{"$ref":...}]} / {"$ref":...} inside `doc`.
QJsonObject resolve(const QJsonObject &doc, QJsonObject schema)
{
    if (schema.contains(QLatin1String("allOf")))
        schema = schema.value(QLatin1String("allOf")).toArray().first().toObject();
    const QString ref = schema.value(QLatin1String("$ref")).toString();
    if (ref.isEmpty())
        return schema;
    return doc.value(QLatin1String("components"))
        .toObject()
        .value(QLatin1String("schemas"))
        .toObject()
        .value(ref.mid(QStringLiteral("#/components/schemas/").size()))
        .toObject();
}

QJsonObject propertyAt(const QJsonObject &doc, const QJsonObject &schema, const QString &dottedPath)
{
    QJsonObject s = schema;
    for (const QString &p : dottedPath.split(u'.')) {
        s = resolve(doc, s);
        if (s.value(QLatin1String("type")).toString() == QLatin1String("array"))
            s = resolve(doc, s.value(QLatin1String("items")).toObject());
        s = s.value(QLatin1String("properties")).toObject().value(p).toObject();
    }
    return s;
}

void collectRefs(const QJsonValue &v, QStringList *out)
{
    if (v.isArray()) {
        for (const QJsonValue &e : v.toArray())
            collectRefs(e, out);
    } else if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            it.key() == QLatin1String("$ref") ? out->append(it.value().toString()) : collectRefs(it.value(), out);
    }
}

} // namespace

class TestApiServerOpenApi : public QObject, private ApiServerFixture
{
    Q_OBJECT
private:
    QJsonObject discovery()
    {
        return m_http.get(QStringLiteral("/openapi/v3")).json().value(QLatin1String("paths")).toObject();
    }
    /// The document of `gvPath` fetched through its serverRelativeURL (with the hash).
    QJsonObject document(const QString &gvPath)
    {
        const QString url = discovery().value(gvPath).toObject().value(QLatin1String("serverRelativeURL")).toString();
        if (url.isEmpty())
            return {};
        const HttpReply r = m_http.get(url);
        return r.code == 200 ? r.json() : QJsonObject();
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_api.start(), qPrintable(m_api.errorString())); }

    void shouldListEveryServedGroupVersion()
    {
        const QJsonObject paths = discovery();
        for (const char *gv : {"api/v1", "apis/apps/v1", "apis/coordination.k8s.io/v1", "apis/events.k8s.io/v1",
                 "apis/apiextensions.k8s.io/v1", "apis/rbac.authorization.k8s.io/v1"}) {
            const QString url
                = paths.value(QLatin1String(gv)).toObject().value(QLatin1String("serverRelativeURL")).toString();
            QVERIFY2(url.startsWith(QStringLiteral("/openapi/v3/%1?hash=").arg(QLatin1String(gv))), gv);
        }
        QCOMPARE(
            m_http.get(QStringLiteral("/openapi/v3/apis/apps/v1")).json().value(QLatin1String("openapi")).toString(),
            QStringLiteral("3.0.0"));
        QCOMPARE(m_http.get(QStringLiteral("/openapi/v3/apis/nope.test/v1")).code, 404);
    }

    void shouldDescribeBuiltinKinds_data()
    {
        QTest::addColumn<QString>("gvPath");
        QTest::addColumn<QString>("group");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("type");
        QTest::newRow("Deployment") << "apis/apps/v1"
                                    << "apps"
                                    << "Deployment"
                                    << "spec.replicas"
                                    << "integer";
        QTest::newRow("Deployment template") << "apis/apps/v1"
                                             << "apps"
                                             << "Deployment"
                                             << "spec.template.spec.containers.image"
                                             << "string";
        QTest::newRow("ReplicaSet") << "apis/apps/v1"
                                    << "apps"
                                    << "ReplicaSet"
                                    << "status.readyReplicas"
                                    << "integer";
        QTest::newRow("Pod") << "api/v1"
                             << ""
                             << "Pod"
                             << "spec.containers.ports.containerPort"
                             << "integer";
        QTest::newRow("Service") << "api/v1"
                                 << ""
                                 << "Service"
                                 << "spec.type"
                                 << "string";
        QTest::newRow("ConfigMap") << "api/v1"
                                   << ""
                                   << "ConfigMap"
                                   << "data"
                                   << "object";
        QTest::newRow("Secret") << "api/v1"
                                << ""
                                << "Secret"
                                << "type"
                                << "string";
        QTest::newRow("Namespace") << "api/v1"
                                   << ""
                                   << "Namespace"
                                   << "status.phase"
                                   << "string";
        QTest::newRow("Event") << "api/v1"
                               << ""
                               << "Event"
                               << "involvedObject.name"
                               << "string";
        QTest::newRow("Lease") << "apis/coordination.k8s.io/v1"
                               << "coordination.k8s.io"
                               << "Lease"
                               << "spec.holderIdentity"
                               << "string";
        QTest::newRow("metadata") << "apis/apps/v1"
                                  << "apps"
                                  << "Deployment"
                                  << "metadata.labels"
                                  << "object";
    }
    void shouldDescribeBuiltinKinds()
    {
        QFETCH(QString, gvPath);
        QFETCH(QString, group);
        QFETCH(QString, kind);
        QFETCH(QString, field);
        QFETCH(QString, type);
        const QJsonObject doc = document(gvPath);
        const QJsonObject schema = schemaFor(doc, group, QStringLiteral("v1"), kind);
        QVERIFY2(!schema.isEmpty(), qPrintable(kind));
        QVERIFY(!schema.value(QLatin1String("description")).toString().isEmpty());
        const QJsonObject p = propertyAt(doc, schema, field);
        QCOMPARE(p.value(QLatin1String("type")).toString(), type);
        QVERIFY(!p.value(QLatin1String("description")).toString().isEmpty());
    }

    void shouldMarkRequiredFieldsAndEnums()
    {
        const QJsonObject doc = document(QStringLiteral("api/v1"));
        const QJsonObject container = resolve(doc,
            propertyAt(doc, schemaFor(doc, QString(), QStringLiteral("v1"), QStringLiteral("Pod")),
                QStringLiteral("spec.containers"))
                .value(QLatin1String("items"))
                .toObject());
        QVERIFY(container.value(QLatin1String("required")).toArray().contains(QStringLiteral("name")));
        const QJsonObject type = propertyAt(doc,
            schemaFor(doc, QString(), QStringLiteral("v1"), QStringLiteral("Service")), QStringLiteral("spec.type"));
        QVERIFY(type.value(QLatin1String("enum")).toArray().contains(QStringLiteral("NodePort")));
    }

    void shouldResolveEveryReference()
    {
        const QJsonObject all = discovery();
        QVERIFY(all.size() >= 6);
        for (auto it = all.begin(); it != all.end(); ++it) {
            const QJsonObject doc = document(it.key());
            QVERIFY2(!doc.isEmpty(), qPrintable(it.key()));
            const QJsonObject schemas
                = doc.value(QLatin1String("components")).toObject().value(QLatin1String("schemas")).toObject();
            QStringList refs;
            collectRefs(doc, &refs);
            for (const QString &ref : std::as_const(refs))
                QVERIFY2(schemas.contains(ref.mid(QStringLiteral("#/components/schemas/").size())),
                    qPrintable(it.key() + u' ' + ref));
        }
    }

    void shouldOfferPatchWithFieldValidation()
    {
        // kubectl's field-validation check and `kubectl explain` find kinds through these operations
        const QJsonObject doc = document(QStringLiteral("apis/apps/v1"));
        const QJsonObject patch = doc.value(QLatin1String("paths"))
                                      .toObject()
                                      .value(QLatin1String("/apis/apps/v1/namespaces/{namespace}/deployments/{name}"))
                                      .toObject()
                                      .value(QLatin1String("patch"))
                                      .toObject();
        QCOMPARE(patch.value(QLatin1String("x-kubernetes-group-version-kind")).toObject(),
            (QJsonObject{{QStringLiteral("group"), QStringLiteral("apps")},
                {QStringLiteral("version"), QStringLiteral("v1")},
                {QStringLiteral("kind"), QStringLiteral("Deployment")}}));
        QStringList params;
        for (const QJsonValue &p : patch.value(QLatin1String("parameters")).toArray())
            params << p.toObject().value(QLatin1String("name")).toString();
        QVERIFY(params.contains(QStringLiteral("fieldValidation")));
        QVERIFY(!doc.value(QLatin1String("paths"))
                     .toObject()
                     .value(QLatin1String("/apis/apps/v1/namespaces/{namespace}/deployments"))
                     .toObject()
                     .value(QLatin1String("get"))
                     .isUndefined());
    }

    void shouldServeSwaggerV2AsJsonAndProtobuf()
    {
        const HttpReply j = m_http.call("GET", QStringLiteral("/openapi/v2"), {}, {}, {{"Accept", "application/json"}});
        QCOMPARE(j.code, 200);
        QCOMPARE(j.header("Content-Type"), QByteArray("application/json"));
        const QJsonObject doc = j.json();
        QCOMPARE(doc.value(QLatin1String("swagger")).toString(), QStringLiteral("2.0"));
        const QJsonObject spec = doc.value(QLatin1String("definitions"))
                                     .toObject()
                                     .value(QLatin1String("io.k8s.api.apps.v1.DeploymentSpec"))
                                     .toObject();
        QCOMPARE(spec.value(QLatin1String("properties"))
                     .toObject()
                     .value(QLatin1String("replicas"))
                     .toObject()
                     .value(QLatin1String("type"))
                     .toString(),
            QStringLiteral("integer"));

        // kubectl's request; the answer spells the subtype with '.', which Go's mime parser takes
        const QByteArray pbAccept = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";
        const HttpReply pb = m_http.call("GET", QStringLiteral("/openapi/v2"), {}, {}, {{"Accept", pbAccept}});
        QCOMPARE(pb.code, 200);
        QCOMPARE(pb.header("Content-Type"), QByteArray("application/com.github.proto-openapi.spec.v2.v1.0+protobuf"));
        QVERIFY(pb.body.startsWith(QByteArray("\x0a\x03"
                                              "2.0"))); // Document.swagger
        QVERIFY(pb.body.contains("io.k8s.api.apps.v1.DeploymentSpec"));
        QVERIFY(pb.body.size() > 20000 && pb.body.size() < j.body.size());
        QCOMPARE(m_http.call("GET", QStringLiteral("/swagger-2.0.0.pb-v1")).body, pb.body); // the old path: protobuf
        QCOMPARE(m_http.call("GET", QStringLiteral("/openapi/v2"), {}, {}, {{"Accept", "text/html"}}).code, 406);
        QCOMPARE(m_http.call("GET", QStringLiteral("/openapi/v2"), {}, {}, {{"Accept", "*/*"}}).header("Content-Type"),
            QByteArray("application/json"));
    }

    void shouldAnswerNotModifiedToItsETag()
    {
        const HttpReply first
            = m_http.call("GET", QStringLiteral("/openapi/v2"), {}, {}, {{"Accept", "application/json"}});
        const QByteArray etag = first.header("ETag");
        QVERIFY(etag.startsWith('"') && etag.endsWith('"') && etag.size() > 10);
        const HttpReply again = m_http.call(
            "GET", QStringLiteral("/openapi/v2"), {}, {}, {{"Accept", "application/json"}, {"If-None-Match", etag}});
        QCOMPARE(again.code, 304);
        QVERIFY(again.body.isEmpty());
        const HttpReply pb = m_http.call("GET", QStringLiteral("/openapi/v2"), {}, {},
            {{"Accept", "application/com.github.proto-openapi.spec.v2@v1.0+protobuf"}, {"If-None-Match", etag}});
        QCOMPARE(pb.code, 200); // another representation, another tag
        QVERIFY(pb.header("ETag") != etag);
    }

    void shouldFollowCrdChangesInSwaggerV2()
    {
        const auto definitions = [this] {
            return m_http.call("GET", QStringLiteral("/openapi/v2"), {}, {}, {{"Accept", "application/json"}})
                .json()
                .value(QLatin1String("definitions"))
                .toObject();
        };
        const QByteArray etag
            = m_http.call("GET", QStringLiteral("/openapi/v2"), {}, {}, {{"Accept", "application/json"}})
                  .header("ETag");
        const QJsonObject v1
            = crd({{QStringLiteral("size"), QJsonObject{{QStringLiteral("type"), QStringLiteral("integer")}}}});
        QCOMPARE(m_http.post(kCrds, v1).code, 201);
        const QString name = QStringLiteral("test.openapi.v1.Gadget");
        QTRY_VERIFY_WITH_TIMEOUT(definitions().contains(name), 10000);
        QCOMPARE(definitions()
                     .value(name)
                     .toObject()
                     .value(QLatin1String("properties"))
                     .toObject()
                     .value(QLatin1String("spec"))
                     .toObject()
                     .value(QLatin1String("properties"))
                     .toObject()
                     .value(QLatin1String("size"))
                     .toObject()
                     .value(QLatin1String("type"))
                     .toString(),
            QStringLiteral("integer"));
        // the cached document was dropped: the old tag no longer matches
        QCOMPARE(m_http
                     .call("GET", QStringLiteral("/openapi/v2"), {}, {},
                         {{"Accept", "application/json"}, {"If-None-Match", etag}})
                     .code,
            200);

        QJsonObject changed
            = crd({{QStringLiteral("color"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}});
        changed.insert(QStringLiteral("metadata"),
            m_http.get(kCrds + QStringLiteral("/gadgets.openapi.test")).json().value(QLatin1String("metadata")));
        QCOMPARE(m_http.put(kCrds + QStringLiteral("/gadgets.openapi.test"), changed).code, 200);
        const auto fieldsNow = [&] {
            return definitions()
                .value(name)
                .toObject()
                .value(QLatin1String("properties"))
                .toObject()
                .value(QLatin1String("spec"))
                .toObject()
                .value(QLatin1String("properties"))
                .toObject()
                .keys();
        };
        QTRY_COMPARE_WITH_TIMEOUT(fieldsNow(), QStringList{QStringLiteral("color")}, 10000);

        QCOMPARE(m_http.del(kCrds + QStringLiteral("/gadgets.openapi.test")).code, 200);
        QTRY_VERIFY_WITH_TIMEOUT(!definitions().contains(name), 10000);
    }

    void shouldFollowCrdChanges()
    {
        const QJsonObject v1 = crd({{QStringLiteral("size"),
            QJsonObject{{QStringLiteral("type"), QStringLiteral("integer")},
                {QStringLiteral("description"), QStringLiteral("How big.")}}}});
        QCOMPARE(m_http.post(kCrds, v1).code, 201);
        QJsonObject doc;
        QTRY_VERIFY_WITH_TIMEOUT(!(doc = document(QStringLiteral("apis/openapi.test/v1"))).isEmpty(), 10000);
        QJsonObject gadget
            = schemaFor(doc, QStringLiteral("openapi.test"), QStringLiteral("v1"), QStringLiteral("Gadget"));
        QCOMPARE(propertyAt(doc, gadget, QStringLiteral("spec.size")).value(QLatin1String("description")).toString(),
            QStringLiteral("How big."));
        QCOMPARE(resolve(doc, propertyAt(doc, gadget, QStringLiteral("metadata")))
                     .value(QLatin1String("properties"))
                     .toObject()
                     .value(QLatin1String("name"))
                     .toObject()
                     .value(QLatin1String("type"))
                     .toString(),
            QStringLiteral("string")); // metadata is ObjectMeta
        const QString firstUrl = discovery()
                                     .value(QLatin1String("apis/openapi.test/v1"))
                                     .toObject()
                                     .value(QLatin1String("serverRelativeURL"))
                                     .toString();

        QJsonObject current = m_http.get(kCrds + QStringLiteral("/gadgets.openapi.test")).json();
        QJsonObject changed
            = crd({{QStringLiteral("size"), QJsonObject{{QStringLiteral("type"), QStringLiteral("integer")}}},
                {QStringLiteral("color"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}});
        changed.insert(QStringLiteral("metadata"), current.value(QLatin1String("metadata")));
        QCOMPARE(m_http.put(kCrds + QStringLiteral("/gadgets.openapi.test"), changed).code, 200);
        const auto currentUrl = [&] {
            return discovery()
                .value(QLatin1String("apis/openapi.test/v1"))
                .toObject()
                .value(QLatin1String("serverRelativeURL"))
                .toString();
        };
        QTRY_VERIFY_WITH_TIMEOUT(
            !currentUrl().isEmpty() && currentUrl() != firstUrl, 10000); // a new hash: clients refetch
        doc = document(QStringLiteral("apis/openapi.test/v1"));
        gadget = schemaFor(doc, QStringLiteral("openapi.test"), QStringLiteral("v1"), QStringLiteral("Gadget"));
        QCOMPARE(propertyAt(doc, gadget, QStringLiteral("spec.color")).value(QLatin1String("type")).toString(),
            QStringLiteral("string"));

        QCOMPARE(m_http.del(kCrds + QStringLiteral("/gadgets.openapi.test")).code, 200);
        QTRY_VERIFY_WITH_TIMEOUT(!discovery().contains(QLatin1String("apis/openapi.test/v1")), 10000);
        QCOMPARE(m_http.get(QStringLiteral("/openapi/v3/apis/openapi.test/v1")).code, 404);
    }
};

QTEST_GUILESS_MAIN(TestApiServerOpenApi)
#include "tst_apiserver_openapi.moc"
