// SPDX-License-Identifier: Apache-2.0
// The structural-schema validator: defaults, pruning, and the API server's 422 causes (§9).
#include "engine/apiserver/validation/schemavalidator.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace opbench;
using namespace opbench::apiserver;

namespace {

QJsonObject loadJson(const QString &relative)
{
    QFile f(QStringLiteral(OPBENCH_SOURCE_DIR "/tests/data/") + relative);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(f.fileName()));
    return QJsonDocument::fromJson(f.readAll()).object();
}

QJsonObject myApp(const QByteArray &specJson, const QByteArray &statusJson = {})
{
    QJsonObject o{{QStringLiteral("apiVersion"), QStringLiteral("example.com/v1alpha1")},
        {QStringLiteral("kind"), QStringLiteral("MyApplication")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("demo")}}}};
    if (!specJson.isEmpty())
        o.insert(QStringLiteral("spec"), QJsonDocument::fromJson(specJson).object());
    if (!statusJson.isEmpty())
        o.insert(QStringLiteral("status"), QJsonDocument::fromJson(statusJson).object());
    return o;
}

QStringList render(const QList<StatusCause> &causes)
{
    QStringList out;
    for (const StatusCause &c : causes)
        out << c.reason + u'|' + c.field + u'|' + c.message;
    return out;
}

QJsonObject crd()
{
    QJsonObject schema = loadJson(QStringLiteral("apiserver/myapplication-schema.json"));
    QJsonObject version{{QStringLiteral("name"), QStringLiteral("v1alpha1")}, {QStringLiteral("served"), true},
        {QStringLiteral("storage"), true},
        {QStringLiteral("schema"), QJsonObject{{QStringLiteral("openAPIV3Schema"), schema}}}};
    return QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("apiextensions.k8s.io/v1")},
        {QStringLiteral("kind"), QStringLiteral("CustomResourceDefinition")},
        {QStringLiteral("metadata"),
            QJsonObject{{QStringLiteral("name"), QStringLiteral("myapplications.example.com")}}},
        {QStringLiteral("spec"),
            QJsonObject{{QStringLiteral("group"), QStringLiteral("example.com")},
                {QStringLiteral("scope"), QStringLiteral("Namespaced")},
                {QStringLiteral("names"),
                    QJsonObject{{QStringLiteral("plural"), QStringLiteral("myapplications")},
                        {QStringLiteral("kind"), QStringLiteral("MyApplication")}}},
                {QStringLiteral("versions"), QJsonArray{version}}}}};
}

} // namespace

class tst_SchemaValidator : public QObject
{
    Q_OBJECT
private:
    SchemaValidator m_validator{loadJson(QStringLiteral("apiserver/myapplication-schema.json"))};

private Q_SLOTS:
    void shouldAnswerTheReferenceStatusForReplicasZero()
    {
        const auto r = m_validator.process(myApp("{\"replicas\":0}"));
        const Status s = Status::invalid(
            QStringLiteral("example.com"), QStringLiteral("MyApplication"), QStringLiteral("demo"), r.causes);
        QFile f(QStringLiteral(OPBENCH_SOURCE_DIR "/tests/data/status-invalid-myapplication.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject expected = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(s.toJson(), expected);
    }

    void shouldReportCauses_data()
    {
        QTest::addColumn<QByteArray>("spec");
        QTest::addColumn<QByteArray>("status");
        QTest::addColumn<QStringList>("causes");
        QTest::newRow("valid") << QByteArray("{\"image\":\"nginx\",\"replicas\":3}") << QByteArray() << QStringList();
        QTest::newRow("wrong type") << QByteArray("{\"image\":\"nginx\",\"replicas\":\"string\"}") << QByteArray()
                                    << QStringList{"FieldValueTypeInvalid|spec.replicas|Invalid value: \"string\": "
                                                   "spec.replicas in body must be of type integer: \"string\""};
        QTest::newRow("fraction is not an integer")
            << QByteArray("{\"image\":\"nginx\",\"replicas\":1.5}") << QByteArray()
            << QStringList{"FieldValueTypeInvalid|spec.replicas|Invalid value: \"number\": spec.replicas in body must "
                           "be of type integer: \"number\""};
        QTest::newRow("maximum") << QByteArray("{\"image\":\"nginx\",\"replicas\":51}") << QByteArray()
                                 << QStringList{"FieldValueInvalid|spec.replicas|Invalid value: 51: spec.replicas in "
                                                "body should be less than or equal to 50"};
        QTest::newRow("exclusive minimum")
            << QByteArray("{\"image\":\"x\",\"ratio\":0}") << QByteArray()
            << QStringList{
                   "FieldValueInvalid|spec.ratio|Invalid value: 0: spec.ratio in body should be greater than 0"};
        QTest::newRow("enum in status") << QByteArray("{\"image\":\"x\"}") << QByteArray("{\"phase\":\"X\"}")
                                        << QStringList{"FieldValueNotSupported|status.phase|Unsupported value: \"X\": "
                                                       "supported values: \"Pending\", \"Running\", \"Failed\""};
        QTest::newRow("pattern")
            << QByteArray("{\"image\":\"x\",\"tier\":\"Web1\"}") << QByteArray()
            << QStringList{
                   "FieldValueInvalid|spec.tier|Invalid value: \"Web1\": spec.tier in body should match '^[a-z]+$'"};
        QTest::newRow("minLength") << QByteArray("{\"image\":\"\"}") << QByteArray()
                                   << QStringList{"FieldValueInvalid|spec.image|Invalid value: \"\": spec.image in "
                                                  "body should be at least 1 chars long"};
        QTest::newRow("maxLength") << QByteArray("{\"image\":\"" + QByteArray(201, 'a') + "\"}") << QByteArray()
                                   << QStringList{"FieldValueTooLong|spec.image|Too long: may not be longer than 200"};
        QTest::newRow("maxItems") << QByteArray("{\"image\":\"x\",\"tags\":[\"a\",\"b\",\"c\",\"d\"]}") << QByteArray()
                                  << QStringList{"FieldValueTooMany|spec.tags|Too many: 4: must have at most 3 items"};
        QTest::newRow("minItems")
            << QByteArray("{\"image\":\"x\",\"tags\":[]}") << QByteArray()
            << QStringList{
                   "FieldValueInvalid|spec.tags|Invalid value: 0: spec.tags in body should have at least 1 items"};
        QTest::newRow("array item type") << QByteArray("{\"image\":\"x\",\"tags\":[\"a\",7]}") << QByteArray()
                                         << QStringList{
                                                "FieldValueTypeInvalid|spec.tags[1]|Invalid value: \"integer\": "
                                                "spec.tags[1] in body must be of type string: \"integer\""};
        QTest::newRow("nested required in list")
            << QByteArray("{\"image\":\"x\",\"env\":[{\"name\":\"A\"},{\"value\":\"v\"}]}") << QByteArray()
            << QStringList{"FieldValueRequired|spec.env[1].name|Required value"};
        QTest::newRow("maxProperties and additionalProperties type")
            << QByteArray("{\"image\":\"x\",\"labels\":{\"a\":\"1\",\"b\":\"2\",\"c\":3}}") << QByteArray()
            << QStringList{"FieldValueTooMany|spec.labels|Too many: 3: must have at most 2 items",
                   "FieldValueTypeInvalid|spec.labels.c|Invalid value: \"integer\": spec.labels.c in body must be of "
                   "type string: \"integer\""};
        QTest::newRow("int32 range") << QByteArray("{\"image\":\"x\",\"port\":3000000000}") << QByteArray()
                                     << QStringList{"FieldValueInvalid|spec.port|Invalid value: 3000000000: spec.port "
                                                    "in body should be less than or equal to 65535",
                                            "FieldValueInvalid|spec.port|Invalid value: 3000000000: spec.port in body "
                                            "must be of type int32: \"3000000000\""};
        QTest::newRow("int-or-string accepts both")
            << QByteArray("{\"image\":\"x\",\"size\":\"10%\"}") << QByteArray() << QStringList();
        QTest::newRow("int-or-string refuses bool")
            << QByteArray("{\"image\":\"x\",\"size\":true}") << QByteArray()
            << QStringList{"FieldValueTypeInvalid|spec.size|Invalid value: \"boolean\": spec.size in body must be of "
                           "type integer,string: \"boolean\""};
        QTest::newRow("nullable accepts null")
            << QByteArray("{\"image\":\"x\",\"note\":null}") << QByteArray() << QStringList();
        // a null in a field that is not nullable is dropped before validation (the API server's
        // PruneNonNullableNullsWithoutDefaults), so only a required field can make it an error
        QTest::newRow("null without nullable is dropped")
            << QByteArray("{\"image\":\"x\",\"tier\":null}") << QByteArray() << QStringList();
        QTest::newRow("null in a required field") << QByteArray("{\"image\":null}") << QByteArray()
                                                  << QStringList{"FieldValueRequired|spec.image|Required value"};
        QTest::newRow("embedded resource needs kind")
            << QByteArray("{\"image\":\"x\",\"template\":{\"apiVersion\":\"v1\"}}") << QByteArray()
            << QStringList{"FieldValueRequired|spec.template.kind|Required value: must not be empty"};
        QTest::newRow("spec missing entirely is fine") << QByteArray() << QByteArray() << QStringList();
    }

    void shouldReportCauses()
    {
        QFETCH(QByteArray, spec);
        QFETCH(QByteArray, status);
        QFETCH(QStringList, causes);
        const auto r = m_validator.process(myApp(spec, status));
        QCOMPARE(render(r.causes), causes);
    }

    void shouldPruneUnknownFieldsAndReportThem()
    {
        const auto r = m_validator.process(
            myApp("{\"image\":\"x\",\"foo\":1,\"env\":[{\"name\":\"A\",\"bogus\":true}],"
                  "\"extra\":{\"anything\":{\"deep\":1},\"known\":{\"a\":\"1\",\"b\":2}},"
                  "\"template\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{}}}"));
        QVERIFY(r.causes.isEmpty());
        QCOMPARE(r.prunedFields, (QStringList{"spec.env[0].bogus", "spec.extra.known.b", "spec.foo"}));
        const QJsonObject spec = r.object.value(QLatin1String("spec")).toObject();
        QVERIFY(!spec.contains(QLatin1String("foo")));
        QVERIFY(spec.value(QLatin1String("extra")).toObject().contains(QLatin1String("anything")));
        QCOMPARE(spec.value(QLatin1String("template")).toObject().value(QLatin1String("kind")).toString(),
            QStringLiteral("Pod"));
        QCOMPARE(r.object.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString(),
            QStringLiteral("demo"));
        QCOMPARE(strictDecodingError({QStringLiteral("spec.foo")}).message(),
            QStringLiteral("strict decoding error: unknown field \"spec.foo\""));
        QCOMPARE(strictDecodingError({QStringLiteral("spec.foo")}).code(), 400);
        QCOMPARE(unknownFieldWarnings({QStringLiteral("spec.foo")}),
            QStringList{QStringLiteral("unknown field \"spec.foo\"")});
    }

    void shouldApplyDefaults()
    {
        const auto r = m_validator.process(myApp("{\"image\":\"x\",\"env\":[{\"name\":\"A\"}]}"));
        QVERIFY(r.causes.isEmpty());
        const QJsonObject spec = r.object.value(QLatin1String("spec")).toObject();
        QCOMPARE(spec.value(QLatin1String("replicas")).toInt(), 1);
        QCOMPARE(spec.value(QLatin1String("env")).toArray().at(0).toObject().value(QLatin1String("value")).toString(),
            QString());
        QVERIFY(spec.value(QLatin1String("env")).toArray().at(0).toObject().contains(QLatin1String("value")));
        // An explicit value is kept; no spec, no defaults below it.
        QCOMPARE(m_validator.process(myApp("{\"image\":\"x\",\"replicas\":4}"))
                     .object.value(QLatin1String("spec"))
                     .toObject()
                     .value(QLatin1String("replicas"))
                     .toInt(),
            4);
        QVERIFY(!m_validator.process(myApp({})).object.contains(QLatin1String("spec")));
    }

    void shouldAcceptAWellFormedCrd()
    {
        QCOMPARE(render(validateCrd(crd())), QStringList());
        QVERIFY(checkCrd(crd()).ok());
    }

    void shouldRefuseBrokenCrds_data()
    {
        QTest::addColumn<QString>("mutation");
        QTest::addColumn<QStringList>("causes");
        QTest::newRow("wrong name") << "name"
                                    << QStringList{"FieldValueInvalid|metadata.name|Invalid value: \"wrong\": must be "
                                                   "spec.names.plural+\".\"+spec.group"};
        QTest::newRow("no storage version") << "storage"
                                            << QStringList{"FieldValueInvalid|spec.versions|Invalid value: 0: must "
                                                           "have exactly one version marked as storage version"};
        QTest::newRow("no schema")
            << "schema"
            << QStringList{
                   "FieldValueRequired|spec.versions[0].schema.openAPIV3Schema|Required value: schemas are required"};
        QTest::newRow("typeless node")
            << "typeless"
            << QStringList{"FieldValueRequired|spec.versions[0].schema.openAPIV3Schema.properties[spec].type|Required "
                           "value: must not be empty for specified object fields"};
        QTest::newRow("bad scope") << "scope"
                                   << QStringList{"FieldValueNotSupported|spec.scope|Unsupported value: \"Global\": "
                                                  "supported values: \"Cluster\", \"Namespaced\""};
    }

    void shouldRefuseBrokenCrds()
    {
        QFETCH(QString, mutation);
        QFETCH(QStringList, causes);
        QJsonObject c = crd();
        QJsonObject spec = c.value(QLatin1String("spec")).toObject();
        QJsonObject version = spec.value(QLatin1String("versions")).toArray().at(0).toObject();
        if (mutation == QLatin1String("name")) {
            c.insert(QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("wrong")}});
        } else if (mutation == QLatin1String("storage")) {
            version.insert(QStringLiteral("storage"), false);
        } else if (mutation == QLatin1String("schema")) {
            version.remove(QStringLiteral("schema"));
        } else if (mutation == QLatin1String("typeless")) {
            QJsonObject schema
                = version.value(QLatin1String("schema")).toObject().value(QLatin1String("openAPIV3Schema")).toObject();
            QJsonObject props = schema.value(QLatin1String("properties")).toObject();
            QJsonObject specSchema = props.value(QLatin1String("spec")).toObject();
            specSchema.remove(QStringLiteral("type"));
            props.insert(QStringLiteral("spec"), specSchema);
            schema.insert(QStringLiteral("properties"), props);
            version.insert(QStringLiteral("schema"), QJsonObject{{QStringLiteral("openAPIV3Schema"), schema}});
        } else if (mutation == QLatin1String("scope")) {
            spec.insert(QStringLiteral("scope"), QStringLiteral("Global"));
        }
        spec.insert(QStringLiteral("versions"), QJsonArray{version});
        c.insert(QStringLiteral("spec"), spec);
        QCOMPARE(render(validateCrd(c)), causes);
        const Expected<void> e = checkCrd(c);
        QVERIFY(!e.ok());
        QCOMPARE(e.error().code(), 422);
        QCOMPARE(e.error().details().kind, QStringLiteral("CustomResourceDefinition"));
    }
};

QTEST_GUILESS_MAIN(tst_SchemaValidator)
#include "tst_schemavalidator.moc"
