// SPDX-License-Identifier: Apache-2.0
// The typed custom resource (engine/api/typed): Fields<T>'s JSON codec (omitempty, nested
// structs, lists, maps, optional, conditions, defaults), decode errors with field paths, and the
// CustomResource view (constructors, Kind, unknown fields surviving a read-modify-write, ==).
#include "tests/api/typedkinds.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace opbench;
using namespace typedkinds;

static_assert(Kind<Guestbook>);
static_assert(Kind<Widget>);
static_assert(Kind<Tenant>);
static_assert(GeneratedKind<Guestbook>);
static_assert(!Tenant::kHasStatus);

namespace {
QJsonObject parse(const char *json) { return QJsonDocument::fromJson(QByteArray(json)).object(); }

Object widgetObject(const char *spec, const char *status = "{}")
{
    QJsonObject o = parse(R"({"apiVersion": "test.example.org/v1alpha1", "kind": "Widget",
        "metadata": {"name": "w1", "namespace": "default", "labels": {"app": "w"}}})");
    o.insert(QStringLiteral("spec"), parse(spec));
    o.insert(QStringLiteral("status"), parse(status));
    return Object::fromJson(o);
}

WidgetSpec fullWidget()
{
    WidgetSpec w;
    w.name = QStringLiteral("full");
    w.size = 0; // explicit zero: written, since the field has a default
    w.quota = 5'000'000'000;
    w.ratio = 0.25;
    w.paused = true;
    w.tags = QStringList{QStringLiteral("a"), QStringLiteral("b")};
    w.labels = QMap<QString, QString>{{QStringLiteral("k"), QStringLiteral("v")}};
    w.backends = QList<Backend>{Backend{QStringLiteral("b1"), 81}, Backend{QStringLiteral("b2"), 82}};
    w.primary = Backend{QStringLiteral("p"), 80};
    w.mirror = Backend{QStringLiteral("m"), 0};
    w.replicas = 0;
    w.extra = QJsonObject{{QStringLiteral("free"), QJsonArray{1, QStringLiteral("x")}}};
    w.tier = QStringLiteral("gold");
    return w;
}
} // namespace

class tst_CustomResource : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldOmitEmptyFieldsButKeepRequiredAndDefaulted()
    {
        // Go's omitempty for optional fields; required fields, fields with a default marker and
        // structs are always written (so an explicit 0 is never replaced by the server's default).
        const QJsonObject expected = parse(R"({"name": "", "size": 3, "primary": {"host": ""}})");
        QCOMPARE(toJson(WidgetSpec{}), expected);
    }

    void shouldWriteEverySetField()
    {
        const QJsonObject expected = parse(R"({"name": "full", "size": 0, "quota": 5000000000, "ratio": 0.25,
            "paused": true, "tags": ["a", "b"], "labels": {"k": "v"},
            "backends": [{"host": "b1", "port": 81}, {"host": "b2", "port": 82}],
            "primary": {"host": "p", "port": 80}, "mirror": {"host": "m"}, "replicas": 0,
            "extra": {"free": [1, "x"]}, "tier": "gold"})");
        QCOMPARE(toJson(fullWidget()), expected);
    }

    void shouldRoundTripThroughJson()
    {
        const WidgetSpec in = fullWidget();
        WidgetSpec out;
        const Expected<void> r = fromJson(toJson(in), out);
        QVERIFY2(r.ok(), qPrintable(r.error().message()));
        QVERIFY(out == in);
        QCOMPARE(out.mirror->port, 0);
        QCOMPARE(out.replicas, std::optional<int>(0));
    }

    void shouldApplyDefaultMarkersWhenAbsent()
    {
        WidgetSpec out;
        out.size = 42;
        QVERIFY(fromJson(parse(R"({"name": "n"})"), out).ok());
        QCOMPARE(out.size, 3);                                              // the marker's default
        QCOMPARE(out.replicas, std::optional<int>(1));                      // optional with a default
        QCOMPARE(out.mirror.has_value(), false);                            // optional without one stays unset
        QVERIFY(!toJson(WidgetSpec{}).contains(QLatin1String("replicas"))); // unset: the server defaults it
    }

    void shouldEncodeConditionsAsMetav1Condition()
    {
        GuestbookStatus s;
        s.conditions
            = QList<Condition>{Condition{QStringLiteral("Ready"), QStringLiteral("True"), QStringLiteral("Done"),
                                   QString(), QString(), QStringLiteral("2026-01-02T03:04:05Z"), 7},
                Condition{
                    QStringLiteral("Degraded"), QStringLiteral("False"), QStringLiteral("Fine"), QStringLiteral("ok")}};
        const QJsonArray expected = parse(R"({"c": [
            {"type": "Ready", "status": "True", "reason": "Done", "message": "",
             "lastTransitionTime": "2026-01-02T03:04:05Z", "observedGeneration": 7},
            {"type": "Degraded", "status": "False", "reason": "Fine", "message": "ok"}]})")
                                        .value(QLatin1String("c"))
                                        .toArray();
        QCOMPARE(toJson(s).value(QLatin1String("conditions")).toArray(), expected);
        GuestbookStatus back;
        QVERIFY(fromJson(toJson(s), back).ok());
        QVERIFY(back == s);
    }

    void shouldNameEachFieldItCannotRead_data()
    {
        QTest::addColumn<QByteArray>("spec");
        QTest::addColumn<QStringList>("errors");
        QTest::newRow("string for int") << QByteArray(R"({"size": "3"})")
                                        << QStringList{"spec.size: expected an integer, got \"3\""};
        QTest::newRow("fraction") << QByteArray(R"({"size": 2.5})")
                                  << QStringList{"spec.size: expected an integer, got 2.5"};
        QTest::newRow("beyond int32") << QByteArray(R"({"size": 3000000000})")
                                      << QStringList{"spec.size: 3000000000 is out of range [-2147483648, 2147483647]"};
        QTest::newRow("nested in list") << QByteArray(R"({"backends": [{"host": "a"}, {"host": 1}]})")
                                        << QStringList{"spec.backends[1].host: expected a string, got 1"};
        QTest::newRow("map value") << QByteArray(R"({"labels": {"a": "x", "b": true}})")
                                   << QStringList{"spec.labels[b]: expected a string, got true"};
        QTest::newRow("not an array") << QByteArray(R"({"tags": "a"})")
                                      << QStringList{"spec.tags: expected an array, got \"a\""};
        QTest::newRow("not an object") << QByteArray(R"({"primary": [], "mirror": 3})")
                                       << QStringList{"spec.mirror: expected an object, got 3",
                                              "spec.primary: expected an object, got []"};
        QTest::newRow("spec itself") << QByteArray(R"("nope")")
                                     << QStringList{"spec: expected an object, got \"nope\""};
    }
    void shouldNameEachFieldItCannotRead()
    {
        QFETCH(QByteArray, spec);
        QFETCH(QStringList, errors);
        QJsonObject doc = widgetObject(R"({"name": "kept"})").json();
        doc.insert(QStringLiteral("spec"), QJsonDocument::fromJson("[" + spec + "]").array().at(0));
        const Widget w{Object::fromJson(doc)};
        QVERIFY(!w.decodeResult().ok());
        QStringList got;
        for (const StatusCause &c : w.decodeResult().error().details().causes)
            got << c.field + QLatin1String(": ") + c.message;
        got.sort();
        QCOMPARE(got, errors);
        QVERIFY(w.decodeResult().error().message().startsWith(QLatin1String("cannot decode Widget default/w1: spec")));
        QVERIFY(!Widget::fromObject(Object::fromJson(doc)).ok());
    }

    void shouldReadTheFieldsItCanWhenOthersFail()
    {
        const Widget w(widgetObject(R"({"name": "kept", "size": "x", "tags": ["t"]})", R"({"phase": 3})"));
        QCOMPARE(w.spec.name, QStringLiteral("kept"));
        QCOMPARE(w.spec.tags, QStringList{QStringLiteral("t")});
        QCOMPARE(w.spec.size, 3); // the C++ value, not a silent 0
        QCOMPARE(w.decodeResult().error().details().causes.size(), 2);
        QCOMPARE(w.decodeResult().error().details().causes.at(1).field, QStringLiteral("status.phase"));
    }

    void shouldRefuseAnotherKind()
    {
        QJsonObject doc = widgetObject("{}").json();
        doc.insert(QStringLiteral("kind"), QStringLiteral("Gadget"));
        const Expected<Widget> w = Widget::fromObject(Object::fromJson(doc));
        QVERIFY(!w.ok());
        QCOMPARE(
            w.error().message(), QStringLiteral("cannot decode Gadget default/w1 as Widget.v1alpha1.test.example.org"));
    }

    void shouldKeepUndescribedFieldsOnReadModifyWrite()
    {
        // Given fields the description does not list, at the top of spec, inside a nested struct
        // and in status, plus metadata
        Widget w(widgetObject(R"({"name": "old", "future": {"x": 1}, "primary": {"host": "p", "zone": "eu"}})",
            R"({"phase": "Up", "lastProbe": "t"})"));
        QVERIFY(w.decodeResult().ok());
        // When the typed fields change
        w.spec.name = QStringLiteral("new");
        w.spec.primary.port = 8080;
        w.status.phase = QStringLiteral("Down");
        const QJsonObject out = w.toObject().json();
        // Then the change is written and every other field is still there
        const QJsonObject spec = out.value(QLatin1String("spec")).toObject();
        QCOMPARE(spec.value(QLatin1String("name")).toString(), QStringLiteral("new"));
        QCOMPARE(spec.value(QLatin1String("future")).toObject(), parse(R"({"x": 1})"));
        QCOMPARE(
            spec.value(QLatin1String("primary")).toObject(), parse(R"({"host": "p", "zone": "eu", "port": 8080})"));
        QCOMPARE(out.value(QLatin1String("status")).toObject(), parse(R"({"phase": "Down", "lastProbe": "t"})"));
        QCOMPARE(Object::fromJson(out).labels().value(QStringLiteral("app")), QStringLiteral("w"));
    }

    void shouldRemoveAFieldClearedInCpp()
    {
        Widget w(widgetObject(R"({"name": "n", "tags": ["a"], "mirror": {"host": "m"}})"));
        w.spec.tags.clear();
        w.spec.mirror.reset();
        const QJsonObject spec = w.toObject().json().value(QLatin1String("spec")).toObject();
        QVERIFY(!spec.contains(QLatin1String("tags")));
        QVERIFY(!spec.contains(QLatin1String("mirror")));
    }

    void shouldBuildNewObjectsOfItsKind()
    {
        Guestbook gb(QStringLiteral("default"), QStringLiteral("gb1"));
        gb.spec.title = QStringLiteral("Hello");
        const Object o = gb.toObject();
        QCOMPARE(o.apiVersion(), QStringLiteral("webapp.example.org/v1"));
        QCOMPARE(o.kind(), QStringLiteral("Guestbook"));
        QCOMPARE(o.key(), QStringLiteral("default/gb1"));
        QCOMPARE(o.json().value(QLatin1String("spec")).toObject(), parse(R"({"title": "Hello", "port": 80})"));
        QVERIFY(!o.json().contains(QLatin1String("status"))); // nothing to say yet
        QCOMPARE(Guestbook().toObject().kind(), QStringLiteral("Guestbook"));
        QCOMPARE(Tenant(QString(), QStringLiteral("t1")).toObject().key(), QStringLiteral("t1"));
        QVERIFY(!Tenant().toObject().json().contains(QLatin1String("status")));
        QCOMPARE(gvkOf<Tenant>().toString(), QStringLiteral("Tenant.v1.test.example.org"));
        QVERIFY(!Tenant::kindInfo().namespaced);
    }

    void shouldCompareSpecAndStatus()
    {
        Guestbook a(QStringLiteral("default"), QStringLiteral("a"));
        Guestbook b(QStringLiteral("other"), QStringLiteral("b")); // metadata is not compared
        QVERIFY(a == b);
        b.spec.entries.append(QStringLiteral("hi"));
        QVERIFY(!(a == b));
        a.spec = b.spec;
        a.status.observedGeneration = 2;
        QVERIFY(!(a == b));
        const Guestbook c(a.toObject());
        QVERIFY(c == a);
        // The acceptance's way to build a status: designated initializers, describe() or not.
        const GuestbookStatus ready{.phase = QStringLiteral("Ready"), .entries = 2, .observedGeneration = 2};
        QVERIFY(!(a.status == ready));
        a.status = ready;
        QVERIFY(Guestbook(a.toObject()).status == ready);
    }
};

QTEST_GUILESS_MAIN(tst_CustomResource)
#include "tst_customresource.moc"
