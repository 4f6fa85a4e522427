// SPDX-License-Identifier: Apache-2.0
// CRDs generated from C++ types (engine/api/typed/crdgen.h): the document itself, its YAML and
// REST mapping, and, installed into the embedded API server over loopback HTTP, the server
// enforcing the generated schema (its 422 messages) and typed objects round-tripping through it.
#include "engine/api/crdmapping.h"
#include "engine/api/timeformat.h"
#include "engine/api/typed/crdfiles.h"
#include "engine/api/yamlcodec.h"
#include "tests/api/typedkinds.h"
#include "tests/support/testhttp.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace opbench;
using namespace opbench::testing;
using namespace typedkinds;

namespace {
QJsonObject parse(const char *json) { return QJsonDocument::fromJson(QByteArray(json)).object(); }

// QVERIFY2 evaluates its message even when the check passes: read error() only on failure.
template<class E> QByteArray why(const E &e) { return e.ok() ? QByteArray() : e.error().message().toUtf8(); }

const QString kCrds = QStringLiteral("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/");
const QString kGuestbooks = QStringLiteral("/apis/webapp.example.org/v1/namespaces/default/guestbooks");
const QString kWidgets = QStringLiteral("/apis/test.example.org/v1alpha1/namespaces/default/widgets");

apiserver::ApiServerOptions withGeneratedCrds()
{
    apiserver::ApiServerOptions o = TestApiServer::plainOptions();
    o.crds = QByteArrayList{
        crdYamlFor<Guestbook>(), crdYaml(QList<CrdSource>{CrdSource::of<Widget>(), CrdSource::of<Tenant>()})};
    return o;
}

QJsonObject firstVersion(const QJsonObject &crd)
{
    return crd.value(QLatin1String("spec")).toObject().value(QLatin1String("versions")).toArray().at(0).toObject();
}

QJsonObject guestbookBody(const QString &name, const QJsonObject &spec)
{
    QJsonObject o = Guestbook(QStringLiteral("default"), name).toObject().json();
    o.insert(QStringLiteral("spec"), spec);
    return o;
}

QJsonObject widgetBody(const QString &name, const QJsonObject &spec)
{
    QJsonObject o = Widget(QStringLiteral("default"), name).toObject().json();
    o.insert(QStringLiteral("spec"), spec);
    return o;
}
} // namespace

class tst_CrdGen : public QObject
{
    Q_OBJECT
    TestApiServer m_api{withGeneratedCrds()};
    TestHttp m_http{m_api};

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_api.start(), qPrintable(m_api.errorString())); }

    void shouldGenerateTheGuestbookCrd()
    {
        const QJsonObject crd = crdFor<Guestbook>();
        QCOMPARE(
            crd.value(QLatin1String("metadata")).toObject(), parse(R"({"name": "guestbooks.webapp.example.org"})"));
        const QJsonObject spec = crd.value(QLatin1String("spec")).toObject();
        QCOMPARE(spec.value(QLatin1String("names")).toObject(),
            parse(R"({"kind": "Guestbook", "listKind": "GuestbookList", "plural": "guestbooks",
                      "singular": "guestbook", "shortNames": ["gb"]})"));
        QCOMPARE(spec.value(QLatin1String("scope")).toString(), QStringLiteral("Namespaced"));
        const QJsonObject v = firstVersion(crd);
        QCOMPARE(v.value(QLatin1String("name")).toString(), QStringLiteral("v1"));
        QVERIFY(v.value(QLatin1String("served")).toBool() && v.value(QLatin1String("storage")).toBool());
        QCOMPARE(v.value(QLatin1String("subresources")).toObject(), parse(R"({"status": {}})"));
        QCOMPARE(v.value(QLatin1String("additionalPrinterColumns")).toArray().size(), 2);
        const QJsonObject root
            = v.value(QLatin1String("schema")).toObject().value(QLatin1String("openAPIV3Schema")).toObject();
        QCOMPARE(root.value(QLatin1String("required")).toArray(), QJsonArray{QStringLiteral("spec")});
        const QJsonObject properties = root.value(QLatin1String("properties")).toObject();
        QCOMPARE(properties.value(QLatin1String("spec")).toObject(),
            parse(R"({"type": "object", "required": ["title"], "properties": {
                "title": {"type": "string", "minLength": 1},
                "entries": {"type": "array", "items": {"type": "string"}},
                "port": {"type": "integer", "format": "int32", "minimum": 1, "maximum": 65535}}})"));
        const QJsonObject conditions = properties.value(QLatin1String("status"))
                                           .toObject()
                                           .value(QLatin1String("properties"))
                                           .toObject()
                                           .value(QLatin1String("conditions"))
                                           .toObject();
        QCOMPARE(conditions.value(QLatin1String("x-kubernetes-list-type")).toString(), QStringLiteral("map"));
        QCOMPARE(
            conditions.value(QLatin1String("items")).toObject().value(QLatin1String("required")).toArray().size(), 5);
    }

    void shouldGenerateEveryMarker()
    {
        const QJsonObject spec = schemaOf<WidgetSpec>();
        QCOMPARE(spec.value(QLatin1String("description")).toString(), QStringLiteral("A widget of every field type."));
        const QJsonObject p = spec.value(QLatin1String("properties")).toObject();
        auto field = [&p](const char *name) { return p.value(QLatin1String(name)).toObject(); };
        QCOMPARE(field("name"), parse(R"({"type": "string", "maxLength": 10, "pattern": "^[a-z]*$"})"));
        QCOMPARE(field("size"),
            parse(R"({"type": "integer", "format": "int32", "default": 3, "minimum": 0, "description": "How big."})"));
        QCOMPARE(field("quota"), parse(R"({"type": "integer", "format": "int64"})"));
        QCOMPARE(field("ratio"), parse(R"({"type": "number", "maximum": 1})"));
        QCOMPARE(field("labels"), parse(R"({"type": "object", "additionalProperties": {"type": "string"}})"));
        QCOMPARE(field("tags"), parse(R"({"type": "array", "items": {"type": "string"}, "maxItems": 3})"));
        QCOMPARE(field("mirror"), field("primary"));
        QCOMPARE(field("backends").value(QLatin1String("items")).toObject(), field("primary"));
        QCOMPARE(field("primary").value(QLatin1String("required")).toArray(), QJsonArray{QStringLiteral("host")});
        QCOMPARE(field("extra"), parse(R"({"type": "object", "x-kubernetes-preserve-unknown-fields": true})"));
        QCOMPARE(field("tier"), parse(R"({"type": "string", "enum": ["gold", "silver"]})"));
        QCOMPARE(spec.value(QLatin1String("required")).toArray(), QJsonArray{QStringLiteral("name")});
    }

    void shouldDescribeScopeCategoriesAndScale()
    {
        const QJsonObject tenant = crdFor<Tenant>();
        QCOMPARE(tenant.value(QLatin1String("spec")).toObject().value(QLatin1String("scope")).toString(),
            QStringLiteral("Cluster"));
        QVERIFY(!firstVersion(tenant).contains(QLatin1String("subresources"))); // no status
        QVERIFY(!tenant.value(QLatin1String("spec")).toObject().contains(QLatin1String("required")));
        CrdOptions scaled;
        scaled.scale = ScaleSubresource(
            QStringLiteral(".spec.replicas"), QStringLiteral(".status.replicas"), QStringLiteral(".status.selector"));
        const QJsonObject crd = typed::buildCrd(
            Widget::kindInfo(), typed::CrdSchemas(schemaOf<WidgetSpec>(), schemaOf<WidgetStatus>(), true), scaled);
        QCOMPARE(firstVersion(crd).value(QLatin1String("subresources")).toObject(),
            parse(R"({"status": {}, "scale": {"specReplicasPath": ".spec.replicas",
                      "statusReplicasPath": ".status.replicas", "labelSelectorPath": ".status.selector"}})"));
    }

    void shouldMapAndReadBackAsYaml()
    {
        const auto mappings = crdMappings(crdFor<Guestbook>(), QStringLiteral("generated"));
        QVERIFY2(mappings.ok(), why(mappings).constData());
        QCOMPARE(mappings->size(), 1);
        const ResourceMapping &m = mappings->first();
        QCOMPARE(m.gvk(), gvkOf<Guestbook>());
        QCOMPARE(m.gvr, Guestbook::kindInfo().gvr());
        QCOMPARE(m.shortNames, QStringList{QStringLiteral("gb")});
        QVERIFY(m.subresources.contains(QStringLiteral("status")));

        const QByteArray yaml = crdYamlFor<Guestbook>();
        QVERIFY(yaml.startsWith("# Generated by opbench from the C++ types of Guestbook (webapp.example.org)"));
        const auto docs = yamlToJson(crdYaml(QList<CrdSource>{CrdSource::of<Guestbook>(), CrdSource::of<Tenant>()}));
        QVERIFY2(docs.ok(), why(docs).constData());
        QCOMPARE(docs->size(), 2);
        QCOMPARE(docs->at(0), crdFor<Guestbook>());
        QCOMPARE(docs->at(1), crdFor<Tenant>());
    }

    void shouldSplitAStreamIntoOneFilePerCrd()
    {
        // What opbench-gen does with an operator's --print-crd output.
        const auto files = crdFiles(crdYaml(QList<CrdSource>{CrdSource::of<Guestbook>(), CrdSource::of<Widget>()}));
        QVERIFY2(files.ok(), why(files).constData());
        QCOMPARE(files->size(), 2);
        QCOMPARE(files->at(0).fileName, QStringLiteral("guestbooks.webapp.example.org.yaml"));
        QCOMPARE(files->at(0).content, crdYamlFor<Guestbook>());
        QCOMPARE(files->at(1).fileName, QStringLiteral("widgets.test.example.org.yaml"));
        QCOMPARE(files->at(1).content, crdYamlFor<Widget>());
        const auto wrong = crdFiles("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n");
        QVERIFY(!wrong.ok());
        QCOMPARE(wrong.error().message(),
            QStringLiteral("document 1: expected a CustomResourceDefinition, got kind \"ConfigMap\""));
    }

    void shouldBeEstablishedByTheServer_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("guestbook") << QStringLiteral("guestbooks.webapp.example.org");
        QTest::newRow("widget") << QStringLiteral("widgets.test.example.org");
        QTest::newRow("tenant, cluster-scoped") << QStringLiteral("tenants.test.example.org");
    }
    void shouldBeEstablishedByTheServer()
    {
        QFETCH(QString, name);
        const HttpReply r = m_http.get(kCrds + name);
        QCOMPARE(r.code, 200);
        bool established = false;
        for (const QJsonValue c :
            r.json().value(QLatin1String("status")).toObject().value(QLatin1String("conditions")).toArray())
            established |= c.toObject().value(QLatin1String("type")).toString() == QLatin1String("Established")
                && c.toObject().value(QLatin1String("status")).toString() == QLatin1String("True");
        QVERIFY2(established, r.body.constData());
    }

    void shouldRefuseWhatTheTypesForbid_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("message");
        const QString gb = QStringLiteral("Guestbook.webapp.example.org \"%1\" is invalid: %2");
        const QString w = QStringLiteral("Widget.test.example.org \"%1\" is invalid: %2");
        Guestbook tooHigh(QStringLiteral("default"), QStringLiteral("too-high"));
        tooHigh.spec.title = QStringLiteral("t");
        tooHigh.spec.port = 70000;
        Guestbook untitled(QStringLiteral("default"), QStringLiteral("untitled"));
        QTest::newRow("required field missing")
            << kGuestbooks << guestbookBody(QStringLiteral("no-title"), parse(R"({"port": 80})"))
            << gb.arg(QStringLiteral("no-title"), QStringLiteral("spec.title: Required value"));
        QTest::newRow("maximum exceeded")
            << kGuestbooks << tooHigh.toObject().json()
            << gb.arg(QStringLiteral("too-high"),
                   QStringLiteral(
                       "spec.port: Invalid value: 70000: spec.port in body should be less than or equal to 65535"));
        QTest::newRow("required written empty, minLength")
            << kGuestbooks << untitled.toObject().json()
            << gb.arg(QStringLiteral("untitled"),
                   QStringLiteral(
                       "spec.title: Invalid value: \"\": spec.title in body should be at least 1 chars long"));
        QJsonObject specless = Guestbook(QStringLiteral("default"), QStringLiteral("no-spec")).toObject().json();
        specless.remove(QStringLiteral("spec"));
        QTest::newRow("spec missing") << kGuestbooks << specless
                                      << gb.arg(QStringLiteral("no-spec"), QStringLiteral("spec: Required value"));
        QTest::newRow("pattern") << kWidgets << widgetBody(QStringLiteral("pat"), parse(R"({"name": "ABC"})"))
                                 << w.arg(QStringLiteral("pat"),
                                        QStringLiteral("spec.name: Invalid value: \"ABC\": spec.name in body should "
                                                       "match '^[a-z]*$'"));
        QTest::newRow("enum") << kWidgets << widgetBody(QStringLiteral("en"), parse(R"({"name": "a", "tier": "tin"})"))
                              << w.arg(QStringLiteral("en"),
                                     QStringLiteral("spec.tier: Unsupported value: \"tin\": supported values: "
                                                    "\"gold\", \"silver\""));
        QTest::newRow("nested required in a list")
            << kWidgets << widgetBody(QStringLiteral("nest"), parse(R"({"name": "a", "backends": [{"port": 1}]})"))
            << w.arg(QStringLiteral("nest"), QStringLiteral("spec.backends[0].host: Required value"));
    }
    void shouldRefuseWhatTheTypesForbid()
    {
        QFETCH(QString, path);
        QFETCH(QJsonObject, body);
        QFETCH(QString, message);
        const HttpReply r = m_http.post(path, body);
        QCOMPARE(r.code, 422);
        QCOMPARE(r.json().value(QLatin1String("message")).toString(), message);
    }

    void shouldRoundTripATypedObject()
    {
        // Given a guestbook created from its typed view
        Guestbook gb(QStringLiteral("default"), QStringLiteral("round"));
        gb.spec.title = QStringLiteral("Visitors");
        gb.spec.entries = QStringList{QStringLiteral("hello"), QStringLiteral("world")};
        gb.spec.port = 8080;
        const HttpReply created = m_http.post(kGuestbooks, gb.toObject().json());
        QCOMPARE(created.code, 201);
        Guestbook stored(Object::fromJson(created.json()));
        QVERIFY(stored.decodeResult().ok());
        QVERIFY(stored.spec == gb.spec);
        // When its status is written through the status subresource
        GuestbookStatus status;
        status.phase = QStringLiteral("Ready");
        status.entries = 2;
        status.observedGeneration = stored.toObject().generation();
        status.conditions = QList<Condition>{Condition{QStringLiteral("Ready"), QStringLiteral("True"),
            QStringLiteral("Reconciled"), QStringLiteral("all good"), QString(),
            formatTimestamp(QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5), Qt::UTC)), 1}};
        stored.status = status;
        const HttpReply written = m_http.put(kGuestbooks + QStringLiteral("/round/status"), stored.toObject().json());
        QCOMPARE(written.code, 200);
        // Then a read gives back the same spec and status
        const Expected<Guestbook> read
            = Guestbook::fromObject(Object::fromJson(m_http.get(kGuestbooks + QStringLiteral("/round")).json()));
        QVERIFY2(read.ok(), why(read).constData());
        QVERIFY(read->spec == gb.spec);
        QVERIFY(read->status == status);
        QCOMPARE(read->status.conditions.first().lastTransitionTime, QStringLiteral("2026-01-02T03:04:05Z"));
    }

    void shouldShowThePrinterColumns()
    {
        Guestbook gb(QStringLiteral("default"), QStringLiteral("columns"));
        gb.spec.title = QStringLiteral("Shown");
        QCOMPARE(m_http.post(kGuestbooks, gb.toObject().json()).code, 201);
        const HttpReply table = m_http.call("GET", kGuestbooks + QStringLiteral("/columns"), {}, "application/json",
            {{"Accept", "application/json;as=Table;v=v1;g=meta.k8s.io"}});
        QCOMPARE(table.code, 200);
        QStringList columns;
        for (const QJsonValue c : table.json().value(QLatin1String("columnDefinitions")).toArray())
            columns << c.toObject().value(QLatin1String("name")).toString();
        QVERIFY2(columns.contains(QStringLiteral("Title")) && columns.contains(QStringLiteral("Phase")),
            qPrintable(columns.join(u',')));
        const QJsonArray cells = table.json()
                                     .value(QLatin1String("rows"))
                                     .toArray()
                                     .at(0)
                                     .toObject()
                                     .value(QLatin1String("cells"))
                                     .toArray();
        QVERIFY(cells.contains(QStringLiteral("Shown")));
    }

    void shouldKeepExplicitZeroesAndTakeServerDefaults()
    {
        // size has a default marker (3) and is always written: an explicit 0 stays 0. replicas is
        // optional with a default (1): unset, it is omitted and the server fills the default in.
        Widget w(QStringLiteral("default"), QStringLiteral("zero"));
        w.spec.name = QStringLiteral("zero");
        w.spec.size = 0;
        const HttpReply created = m_http.post(kWidgets, w.toObject().json());
        QCOMPARE(created.code, 201);
        const Widget stored(Object::fromJson(created.json()));
        QCOMPARE(stored.spec.size, 0);
        QCOMPARE(stored.spec.replicas, std::optional<int>(1));
        QVERIFY(stored.decodeResult().ok());
    }

    void shouldServeAClusterScopedKind()
    {
        Tenant t(QString(), QStringLiteral("acme"));
        t.spec.owner = QStringLiteral("ops");
        QCOMPARE(m_http.post(QStringLiteral("/apis/test.example.org/v1/tenants"), t.toObject().json()).code, 201);
        const Tenant read(
            Object::fromJson(m_http.get(QStringLiteral("/apis/test.example.org/v1/tenants/acme")).json()));
        QVERIFY(read.decodeResult().ok());
        QVERIFY(read == t);
    }
};

QTEST_GUILESS_MAIN(tst_CrdGen)
#include "tst_crdgen.moc"
