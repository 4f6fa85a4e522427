// SPDX-License-Identifier: Apache-2.0
// The swagger 2.0 document (/openapi/v2) without HTTP: built-in definitions from the field
// table with real types and the strategic-merge extensions kubectl computes client-side apply
// patches from, CRD definitions following the registry, the v3→v2 conversion rules, and the
// gnostic protobuf encoding read back with ProtobufReader. A benchmark measures the cost.
#include "engine/apiserver/handlers/gnosticv2.h"
#include "engine/apiserver/handlers/openapiv2.h"
#include "engine/apiserver/registry/registry.h"
#include "engine/apiserver/schema/openapischema.h"
#include "engine/apiserver/schema/protobufreader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <cstring>

using namespace opbench;
using namespace opbench::apiserver;

namespace {

QJsonObject json(const char *text) { return QJsonDocument::fromJson(QByteArray(text)).object(); }

const char *const kCrd = R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
  "metadata":{"name":"gadgets.example.com","resourceVersion":"5"},
  "spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"gadgets","singular":"gadget","kind":"Gadget","listKind":"GadgetList"},
    "versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},
      "schema":{"openAPIV3Schema":{"type":"object","properties":{
        "spec":{"type":"object","required":["size"],"properties":{
          "size":{"type":"integer","description":"How big."},
          "port":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]},
          "note":{"type":"string","nullable":true},
          "extra":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"a":{"type":"string"}}}}}}}}}]}})";

QJsonObject definitionsOf(const QJsonObject &doc) { return doc.value(QLatin1String("definitions")).toObject(); }

QJsonObject propertyOf(const QJsonObject &doc, const QString &definition, const QString &field)
{
    return definitionsOf(doc)
        .value(definition)
        .toObject()
        .value(QLatin1String("properties"))
        .toObject()
        .value(field)
        .toObject();
}

void collect(const QJsonValue &v, const QString &key, QStringList *out)
{
    if (v.isArray()) {
        for (const QJsonValue &e : v.toArray())
            collect(e, key, out);
    } else if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (it.key() == key)
                out->append(it.value().isString() ? it.value().toString() : QStringLiteral("<value>"));
            collect(it.value(), key, out);
        }
    }
}

/// A protobuf message read into (field number, payload) pairs, in wire order; varints as their
/// decimal text.
struct Fields
{
    QList<QPair<quint32, QByteArray>> all;
    QByteArray value(quint32 n) const
    {
        for (const auto &f : all)
            if (f.first == n)
                return f.second;
        return QByteArray();
    }
    QList<QByteArray> values(quint32 n) const
    {
        QList<QByteArray> out;
        for (const auto &f : all)
            if (f.first == n)
                out.append(f.second);
        return out;
    }
};

Fields fields(QByteArrayView bytes)
{
    Fields out;
    ProtobufReader r(bytes);
    ProtobufReader::Field f;
    while (r.next(&f))
        out.all.append({f.number,
            f.wireType == ProtobufReader::LengthDelimited ? f.bytes.toByteArray() : QByteArray::number(f.varint)});
    if (!r.error().isEmpty())
        qWarning("protobuf error: %s", qPrintable(r.error()));
    return out;
}

/// The value of the entry named `name` among repeated Named* messages {name = 1, value = 2}.
QByteArray named(const QList<QByteArray> &entries, const QByteArray &name)
{
    for (const QByteArray &e : entries) {
        const auto f = fields(e);
        if (f.value(1) == name)
            return f.value(2);
    }
    return QByteArray();
}

/// The YAML of vendor extension `name` in the repeated NamedAny field `entries`.
QByteArray extension(const QList<QByteArray> &entries, const QByteArray &name)
{
    return fields(named(entries, name)).value(2);
}

} // namespace

class TestOpenApiV2 : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldDescribeDeploymentWithRealTypes()
    {
        ResourceRegistry registry;
        const QJsonObject doc = OpenApiV2(&registry).document();
        QCOMPARE(doc.value(QLatin1String("swagger")).toString(), QStringLiteral("2.0"));
        const QJsonObject deployment
            = definitionsOf(doc).value(QLatin1String("io.k8s.api.apps.v1.Deployment")).toObject();
        QCOMPARE(deployment.value(QLatin1String("x-kubernetes-group-version-kind")).toArray(),
            (QJsonArray{json(R"({"group":"apps","version":"v1","kind":"Deployment"})")}));
        QCOMPARE(deployment.value(QLatin1String("properties"))
                     .toObject()
                     .value(QLatin1String("spec"))
                     .toObject()
                     .value(QLatin1String("$ref"))
                     .toString(),
            QStringLiteral("#/definitions/io.k8s.api.apps.v1.DeploymentSpec"));
        const QJsonObject replicas
            = propertyOf(doc, QStringLiteral("io.k8s.api.apps.v1.DeploymentSpec"), QStringLiteral("replicas"));
        QCOMPARE(replicas.value(QLatin1String("type")).toString(), QStringLiteral("integer"));
        QCOMPARE(replicas.value(QLatin1String("format")).toString(), QStringLiteral("int32"));
        QVERIFY(!replicas.value(QLatin1String("description")).toString().isEmpty());
        // swagger 2.0 shapes: the scalar unions are strings, no v3-only keywords or references
        QCOMPARE(definitionsOf(doc)
                     .value(QLatin1String("io.k8s.apimachinery.pkg.util.intstr.IntOrString"))
                     .toObject()
                     .value(QLatin1String("type"))
                     .toString(),
            QStringLiteral("string"));
        QCOMPARE(definitionsOf(doc)
                     .value(QLatin1String("io.k8s.apimachinery.pkg.api.resource.Quantity"))
                     .toObject()
                     .value(QLatin1String("type"))
                     .toString(),
            QStringLiteral("string"));
        for (const char *v3Only : {"allOf", "oneOf", "anyOf", "nullable"}) {
            QStringList found;
            collect(doc, QLatin1String(v3Only), &found);
            QVERIFY2(found.isEmpty(), v3Only);
        }
    }

    void shouldResolveEveryReference()
    {
        ResourceRegistry registry;
        registry.registerCrd(json(kCrd));
        const QJsonObject doc = OpenApiV2(&registry).document();
        QStringList refs;
        collect(doc, QStringLiteral("$ref"), &refs);
        QVERIFY(refs.size() > 50);
        for (const QString &ref : std::as_const(refs)) {
            QVERIFY2(ref.startsWith(QLatin1String("#/definitions/")), qPrintable(ref));
            QVERIFY2(definitionsOf(doc).contains(ref.mid(14)), qPrintable(ref));
        }
    }

    void shouldCarryStrategicMergeKeys_data()
    {
        QTest::addColumn<QString>("definition");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("mergeKey"); // "-": no patch strategy (replaced atomically)
        QTest::newRow("containers") << "io.k8s.api.core.v1.PodSpec"
                                    << "containers"
                                    << "name";
        QTest::newRow("initContainers") << "io.k8s.api.core.v1.PodSpec"
                                        << "initContainers"
                                        << "name";
        QTest::newRow("volumes") << "io.k8s.api.core.v1.PodSpec"
                                 << "volumes"
                                 << "name";
        QTest::newRow("env") << "io.k8s.api.core.v1.Container"
                             << "env"
                             << "name";
        QTest::newRow("container ports") << "io.k8s.api.core.v1.Container"
                                         << "ports"
                                         << "containerPort";
        QTest::newRow("volumeMounts") << "io.k8s.api.core.v1.Container"
                                      << "volumeMounts"
                                      << "mountPath";
        QTest::newRow("service ports") << "io.k8s.api.core.v1.ServiceSpec"
                                       << "ports"
                                       << "port";
        QTest::newRow("ownerReferences") << "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
                                         << "ownerReferences"
                                         << "uid";
        QTest::newRow("finalizers (set)") << "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
                                          << "finalizers"
                                          << "";
        QTest::newRow("deployment conditions") << "io.k8s.api.apps.v1.DeploymentStatus"
                                               << "conditions"
                                               << "type";
        QTest::newRow("tolerations (atomic)") << "io.k8s.api.core.v1.PodSpec"
                                              << "tolerations"
                                              << "-";
        QTest::newRow("args (atomic)") << "io.k8s.api.core.v1.Container"
                                       << "args"
                                       << "-";
    }
    void shouldCarryStrategicMergeKeys()
    {
        QFETCH(QString, definition);
        QFETCH(QString, field);
        QFETCH(QString, mergeKey);
        ResourceRegistry registry;
        const QJsonObject p = propertyOf(OpenApiV2(&registry).document(), definition, field);
        QCOMPARE(p.value(QLatin1String("type")).toString(), QStringLiteral("array"));
        if (mergeKey == QLatin1String("-")) {
            QVERIFY(!p.contains(QLatin1String("x-kubernetes-patch-strategy")));
            QVERIFY(!p.contains(QLatin1String("x-kubernetes-patch-merge-key")));
            return;
        }
        QCOMPARE(p.value(QLatin1String("x-kubernetes-patch-strategy")).toString(), QStringLiteral("merge"));
        QCOMPARE(p.value(QLatin1String("x-kubernetes-patch-merge-key")).toString(), mergeKey);
        // the same extensions are in the v3 schemas: one source
        const QJsonObject v3
            = builtinSchemas().value(definition).value(QLatin1String("properties")).toObject().value(field).toObject();
        QCOMPARE(v3.value(QLatin1String("x-kubernetes-patch-merge-key")).toString(), mergeKey);
    }

    void shouldDescribePatchOperations()
    {
        ResourceRegistry registry;
        registry.registerCrd(json(kCrd));
        const QJsonObject paths = OpenApiV2(&registry).document().value(QLatin1String("paths")).toObject();
        const QJsonObject deploymentPatch
            = paths.value(QLatin1String("/apis/apps/v1/namespaces/{namespace}/deployments/{name}"))
                  .toObject()
                  .value(QLatin1String("patch"))
                  .toObject();
        QCOMPARE(deploymentPatch.value(QLatin1String("x-kubernetes-group-version-kind")).toObject(),
            json(R"({"group":"apps","version":"v1","kind":"Deployment"})"));
        QVERIFY(deploymentPatch.value(QLatin1String("consumes"))
                    .toArray()
                    .contains(QStringLiteral("application/strategic-merge-patch+json")));
        QStringList params;
        for (const QJsonValue &p : deploymentPatch.value(QLatin1String("parameters")).toArray())
            params << p.toObject().value(QLatin1String("name")).toString();
        QVERIFY(params.contains(QStringLiteral("fieldValidation")));
        // custom resources take merge patches, never strategic ones (kubectl picks from this list)
        const QJsonObject gadgetPatch
            = paths.value(QLatin1String("/apis/example.com/v1/namespaces/{namespace}/gadgets/{name}"))
                  .toObject()
                  .value(QLatin1String("patch"))
                  .toObject();
        QVERIFY(gadgetPatch.value(QLatin1String("consumes"))
                    .toArray()
                    .contains(QStringLiteral("application/merge-patch+json")));
        QVERIFY(!gadgetPatch.value(QLatin1String("consumes"))
                     .toArray()
                     .contains(QStringLiteral("application/strategic-merge-patch+json")));
        QVERIFY(paths.contains(QLatin1String("/apis/example.com/v1/namespaces/{namespace}/gadgets/{name}/status")));
        QVERIFY(paths.contains(QLatin1String("/api/v1/namespaces")));
        QVERIFY(paths.contains(QLatin1String("/api/v1/namespaces/{namespace}/pods")));
    }

    void shouldFollowCrdChanges()
    {
        ResourceRegistry registry;
        const QString name = QStringLiteral("com.example.v1.Gadget");
        QVERIFY(!definitionsOf(OpenApiV2(&registry).document()).contains(name));

        QVERIFY(registry.registerCrd(json(kCrd)).isEmpty());
        QJsonObject doc = OpenApiV2(&registry).document();
        const QJsonObject gadget = definitionsOf(doc).value(name).toObject();
        QCOMPARE(gadget.value(QLatin1String("x-kubernetes-group-version-kind")).toArray(),
            (QJsonArray{json(R"({"group":"example.com","version":"v1","kind":"Gadget"})")}));
        QCOMPARE(gadget.value(QLatin1String("properties"))
                     .toObject()
                     .value(QLatin1String("metadata"))
                     .toObject()
                     .value(QLatin1String("$ref"))
                     .toString(),
            QStringLiteral("#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"));
        const QJsonObject spec
            = gadget.value(QLatin1String("properties")).toObject().value(QLatin1String("spec")).toObject();
        const QJsonObject props = spec.value(QLatin1String("properties")).toObject();
        QCOMPARE(props.value(QLatin1String("size")).toObject().value(QLatin1String("type")).toString(),
            QStringLiteral("integer"));
        QCOMPARE(props.value(QLatin1String("size")).toObject().value(QLatin1String("description")).toString(),
            QStringLiteral("How big."));
        // what swagger 2.0 cannot say is dropped as kube-apiserver's v2 conversion drops it
        QVERIFY(
            !props.value(QLatin1String("port")).toObject().contains(QLatin1String("type"))); // int-or-string: typeless
        QVERIFY(!props.value(QLatin1String("note")).toObject().contains(QLatin1String("type"))); // nullable: typeless
        QVERIFY(!props.value(QLatin1String("extra"))
                     .toObject()
                     .contains(QLatin1String("properties"))); // preserve-unknown-fields
        QCOMPARE(props.value(QLatin1String("extra")).toObject().value(QLatin1String("type")).toString(),
            QStringLiteral("object"));
        QCOMPARE(spec.value(QLatin1String("required")).toArray(), QJsonArray{QStringLiteral("size")});

        QJsonObject changed = json(kCrd);
        QJsonObject crdSpec = changed.value(QLatin1String("spec")).toObject();
        QJsonArray versions = crdSpec.value(QLatin1String("versions")).toArray();
        QJsonObject v = versions.first().toObject();
        v.insert(QStringLiteral("schema"),
            json(
                R"({"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"color":{"type":"string"}}}}}})"));
        versions[0] = v;
        crdSpec.insert(QStringLiteral("versions"), versions);
        changed.insert(QStringLiteral("spec"), crdSpec);
        QVERIFY(registry.registerCrd(changed).isEmpty());
        doc = OpenApiV2(&registry).document();
        const QJsonObject newProps = definitionsOf(doc)
                                         .value(name)
                                         .toObject()
                                         .value(QLatin1String("properties"))
                                         .toObject()
                                         .value(QLatin1String("spec"))
                                         .toObject()
                                         .value(QLatin1String("properties"))
                                         .toObject();
        QCOMPARE(newProps.keys(), QStringList{QStringLiteral("color")});

        registry.unregisterCrd(QStringLiteral("gadgets.example.com"));
        doc = OpenApiV2(&registry).document();
        QVERIFY(!definitionsOf(doc).contains(name));
        QVERIFY(!doc.value(QLatin1String("paths"))
                     .toObject()
                     .contains(QLatin1String("/apis/example.com/v1/namespaces/{namespace}/gadgets")));
    }

    void shouldConvertV3OnlyKeywords()
    {
        // nullable fields lose their type and are no longer required; arrays left without items
        // lose their type; a built-in opaque object is typeless, a CRD's keeps "object"
        const QJsonObject s = OpenApiV2::toV2Schema(json(R"({"type":"object","required":["a","b"],"properties":{
            "a":{"type":"string","nullable":true},"b":{"type":"string"},
            "c":{"type":"array","items":{"type":"object","x-kubernetes-preserve-unknown-fields":true}},
            "d":{"type":"array","x-kubernetes-preserve-unknown-fields":true,"items":{"type":"string"}},
            "e":{"oneOf":[{"type":"string"},{"type":"number"}]}}})"),
            true);
        const QJsonObject p = s.value(QLatin1String("properties")).toObject();
        QCOMPARE(s.value(QLatin1String("required")).toArray(), QJsonArray{QStringLiteral("b")});
        QVERIFY(!p.value(QLatin1String("a")).toObject().contains(QLatin1String("type")));
        QVERIFY(!p.value(QLatin1String("c"))
                     .toObject()
                     .value(QLatin1String("items"))
                     .toObject()
                     .contains(QLatin1String("type")));
        QVERIFY(!p.value(QLatin1String("d")).toObject().contains(QLatin1String("type")));
        QCOMPARE(
            p.value(QLatin1String("e")).toObject().value(QLatin1String("type")).toString(), QStringLiteral("string"));
        const QJsonObject custom = OpenApiV2::toV2Schema(
            json(
                R"({"type":"object","properties":{"x":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}})"),
            false);
        QCOMPARE(custom.value(QLatin1String("properties"))
                     .toObject()
                     .value(QLatin1String("x"))
                     .toObject()
                     .value(QLatin1String("type"))
                     .toString(),
            QStringLiteral("object"));
    }

    void shouldEncodeGnosticProtobuf()
    {
        ResourceRegistry registry;
        registry.registerCrd(json(kCrd));
        const QJsonObject doc = OpenApiV2(&registry).document();
        const QByteArray pb = encodeGnosticV2Document(doc);
        const auto document = fields(pb);
        QCOMPARE(document.value(1), QByteArray("2.0"));                         // swagger
        QCOMPARE(fields(document.value(2)).value(1), QByteArray("Kubernetes")); // info.title

        const QList<QByteArray> definitions = fields(document.value(9)).values(1); // Definitions.additional_properties
        QCOMPARE(definitions.size(), definitionsOf(doc).size());
        const auto deployment = fields(named(definitions, "io.k8s.api.apps.v1.Deployment"));
        QCOMPARE(QJsonDocument::fromJson(extension(deployment.values(31), "x-kubernetes-group-version-kind")).array(),
            (QJsonArray{json(R"({"group":"apps","version":"v1","kind":"Deployment"})")}));
        const auto deploymentProps = fields(deployment.value(25)).values(1);
        QCOMPARE(fields(named(deploymentProps, "spec")).value(1),
            QByteArray("#/definitions/io.k8s.api.apps.v1.DeploymentSpec")); // _ref

        const auto replicas = fields(named(
            fields(fields(named(definitions, "io.k8s.api.apps.v1.DeploymentSpec")).value(25)).values(1), "replicas"));
        QCOMPARE(fields(replicas.value(22)).value(1), QByteArray("integer")); // type: TypeItem.value
        QCOMPARE(replicas.value(2), QByteArray("int32"));                     // format

        const auto containers = fields(
            named(fields(fields(named(definitions, "io.k8s.api.core.v1.PodSpec")).value(25)).values(1), "containers"));
        QCOMPARE(extension(containers.values(31), "x-kubernetes-patch-merge-key"), QByteArray("\"name\""));
        QCOMPARE(extension(containers.values(31), "x-kubernetes-patch-strategy"), QByteArray("\"merge\""));
        const auto items = fields(containers.value(23)); // ItemsItem.schema
        QCOMPARE(fields(items.value(1)).value(1), QByteArray("#/definitions/io.k8s.api.core.v1.Container"));
        QVERIFY(fields(named(definitions, "io.k8s.api.core.v1.PodSpec")).values(19).contains("containers")); // required

        const auto gadgetSpec
            = fields(named(fields(fields(named(definitions, "com.example.v1.Gadget")).value(25)).values(1), "spec"));
        QCOMPARE(fields(named(fields(gadgetSpec.value(25)).values(1), "size")).value(4), QByteArray("How big."));

        // paths → PATCH operation: consumes, the fieldValidation query parameter, the GVK extension
        const QByteArray item
            = named(fields(document.value(8)).values(2), "/apis/apps/v1/namespaces/{namespace}/deployments/{name}");
        const auto patch = fields(fields(item).value(8));
        QVERIFY(patch.values(7).contains("application/strategic-merge-patch+json"));
        QCOMPARE(QJsonDocument::fromJson(extension(patch.values(13), "x-kubernetes-group-version-kind")).object(),
            json(R"({"group":"apps","version":"v1","kind":"Deployment"})"));
        QStringList queryParams;
        for (const QByteArray &p :
            patch.values(8)) // ParametersItem.parameter.non_body_parameter.query_parameter_sub_schema.name
            queryParams << QString::fromUtf8(fields(fields(fields(fields(p).value(1)).value(2)).value(3)).value(4));
        QVERIFY2(queryParams.contains(QStringLiteral("fieldValidation")), qPrintable(queryParams.join(u',')));
        const auto pathParams = fields(item).values(9); // PathItem.parameters: path parameters
        QStringList pathNames;
        for (const QByteArray &p : pathParams)
            pathNames << QString::fromUtf8(fields(fields(fields(fields(p).value(1)).value(2)).value(4)).value(4));
        QCOMPARE(pathNames, (QStringList{QStringLiteral("namespace"), QStringLiteral("name")}));
    }

    void shouldEncodeScalarsAndNumbers()
    {
        const QByteArray pb = encodeGnosticV2Document(
            json(R"({"swagger":"2.0","definitions":{"a":{"type":"integer","maximum":2.5,"minimum":-1,
            "maxLength":7,"enum":["x",3],"default":"x","additionalProperties":false,"x-k":{"b":[1]}}}})"));
        const auto a = fields(fields(fields(fields(pb).value(9)).value(1)).value(2));
        QCOMPARE(a.value(11), QByteArray("7"));
        QCOMPARE(fields(a.value(5)).value(2), QByteArray("\"x\"")); // default: Any.yaml
        QCOMPARE(a.values(20).size(), 2);
        QCOMPARE(fields(a.values(20).last()).value(2), QByteArray("3"));
        QCOMPARE(fields(a.value(21)).value(2), QByteArray("0")); // additionalProperties: false (present)
        QCOMPARE(extension(a.values(31), "x-k"), QByteArray("{\"b\":[1]}"));
        // doubles are fixed64 little-endian
        double maximum = 0;
        const QByteArray schemaBytes = fields(fields(fields(pb).value(9)).value(1)).value(2); // the reader keeps a view
        ProtobufReader reader(schemaBytes);
        ProtobufReader::Field f;
        double minimum = 0;
        while (reader.next(&f)) {
            if (f.number == 7 || f.number == 9) {
                QCOMPARE(f.wireType, int(ProtobufReader::Fixed64));
                std::memcpy(f.number == 7 ? &maximum : &minimum, &f.varint, sizeof(double));
            }
        }
        QCOMPARE(maximum, 2.5);
        QCOMPARE(minimum, -1.0);
    }

    void benchmarkDocument()
    {
        // the cost of /openapi/v2 after a CRD change: build + both encodings (then cached)
        ResourceRegistry registry;
        registry.registerCrd(json(kCrd));
        OpenApiV2::Encoded e
            = OpenApiV2::encode(OpenApiV2(&registry).document()); // the field table is built once per process
        QBENCHMARK { e = OpenApiV2::encode(OpenApiV2(&registry).document()); }
        qInfo(
            "openapi/v2: %lld bytes JSON, %lld bytes protobuf", qlonglong(e.json.size()), qlonglong(e.protobuf.size()));
        QVERIFY(e.protobuf.size() > 0 && e.json.size() > e.protobuf.size());
    }
};

QTEST_GUILESS_MAIN(TestOpenApiV2)
#include "tst_openapiv2.moc"
