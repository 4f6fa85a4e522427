// SPDX-License-Identifier: Apache-2.0
#include "engine/api/object.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace opbench;

class tst_Object : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldDecodeMetadata()
    {
        const QByteArray json
            = R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"default",
            "uid":"u-1","resourceVersion":"42","generation":3,"creationTimestamp":"2024-05-01T10:00:00Z",
            "labels":{"app":"web","tier":"front"},"annotations":{"a":"b"},"finalizers":["example.com/f"],
            "ownerReferences":[{"apiVersion":"example.com/v1alpha1","kind":"MyApplication","name":"web","uid":"o-1","controller":true,"blockOwnerDeletion":true}]},
            "spec":{"replicas":2}})";
        auto parsed = Object::parse(json);
        QVERIFY(parsed.ok());
        const Object o = parsed.value();
        QCOMPARE(o.apiVersion(), QStringLiteral("apps/v1"));
        QCOMPARE(o.kind(), QStringLiteral("Deployment"));
        QCOMPARE(o.gvk().group, QStringLiteral("apps"));
        QCOMPARE(o.name(), QStringLiteral("web"));
        QCOMPARE(o.namespaceName(), QStringLiteral("default"));
        QCOMPARE(o.key(), QStringLiteral("default/web"));
        QCOMPARE(o.uid(), QStringLiteral("u-1"));
        QCOMPARE(o.resourceVersion(), QStringLiteral("42"));
        QCOMPARE(o.generation(), 3);
        QCOMPARE(o.creationTimestamp(), QStringLiteral("2024-05-01T10:00:00Z"));
        QCOMPARE(o.labels().value(QStringLiteral("tier")), QStringLiteral("front"));
        QCOMPARE(o.annotations().value(QStringLiteral("a")), QStringLiteral("b"));
        QCOMPARE(o.finalizers(), QStringList{QStringLiteral("example.com/f")});
        QCOMPARE(o.ownerReferences().size(), 1);
        QVERIFY(o.controllerReference().has_value());
        QCOMPARE(o.controllerReference()->uid, QStringLiteral("o-1"));
        QVERIFY(o.controllerReference()->blockOwnerDeletion);
        QCOMPARE(o.value({QLatin1String("spec"), QLatin1String("replicas")}).toInt(), 2);
        QVERIFY(!o.isBeingDeleted());
    }

    void shouldKeepUnknownFieldsThroughReadModifyWrite()
    {
        const QByteArray json = R"({"apiVersion":"example.com/v1alpha1","kind":"MyApplication","metadata":{"name":"a"},
            "spec":{"image":"nginx","replicas":1,"futureField":{"nested":[1,2.5,"x",null,true]}},"x-extra":"kept"})";
        const Object o = Object::parse(json).value();
        QJsonObject doc = o.json();
        QJsonObject spec = doc.value(QLatin1String("spec")).toObject();
        spec.insert(QLatin1String("replicas"), 3);
        doc.insert(QLatin1String("spec"), spec);
        const Object edited = Object::fromJson(doc);
        QCOMPARE(edited.value({QLatin1String("spec"), QLatin1String("replicas")}).toInt(), 3);
        QCOMPARE(edited.value({QLatin1String("x-extra")}).toString(), QStringLiteral("kept"));
        const QJsonArray nested = edited.value({QLatin1String("spec"), QLatin1String("futureField")})
                                      .toObject()
                                      .value(QLatin1String("nested"))
                                      .toArray();
        QCOMPARE(nested.size(), 5);
        QCOMPARE(nested.at(1).toDouble(), 2.5);
        QVERIFY(nested.at(3).isNull());
        QCOMPARE(o.value({QLatin1String("spec"), QLatin1String("replicas")}).toInt(), 1); // original untouched
    }

    void shouldEscapeStringsWhenReserializing()
    {
        const QByteArray json = "{\"metadata\":{\"name\":\"q\",\"annotations\":{\"k\":\"line1\\nline2 \\\"quoted\\\" "
                                "\\\\ \\u0001 \xc3\xa9\"}}}";
        const Object o = Object::parse(json).value();
        QCOMPARE(
            o.annotations().value(QStringLiteral("k")), QString::fromUtf8("line1\nline2 \"quoted\" \\ \x01 \xc3\xa9"));
        const Object again = Object::parse(o.toJsonBytes()).value();
        QCOMPARE(again, o);
    }

    void shouldReportMalformedJsonWithItsStart()
    {
        auto parsed = Object::parse("{\"metadata\": {\"name\": ");
        QVERIFY(!parsed.ok());
        QVERIFY2(
            parsed.error().message().contains(QLatin1String("invalid JSON")), qPrintable(parsed.error().message()));
        QVERIFY(parsed.error().message().contains(QLatin1String("metadata")));
        QVERIFY(!Object::parse("[1,2]").ok());
    }

    void shouldParseListsAndFillItemKinds()
    {
        const QByteArray json
            = R"({"kind":"DeploymentList","apiVersion":"apps/v1","metadata":{"resourceVersion":"77","continue":"abc","remainingItemCount":5},
            "items":[{"metadata":{"name":"a","namespace":"n","managedFields":[{"manager":"kubectl"}]}},{"metadata":{"name":"b","namespace":"n"}}]})";
        auto list = Object::parseList(json, QStringLiteral("apps/v1"), QStringLiteral("Deployment"), true);
        QVERIFY(list.ok());
        QCOMPARE(list->resourceVersion, QStringLiteral("77"));
        QCOMPARE(list->continueToken, QStringLiteral("abc"));
        QCOMPARE(list->remainingItemCount, 5);
        QCOMPARE(list->items.size(), 2);
        QCOMPARE(list->items.at(0).kind(), QStringLiteral("Deployment"));
        QCOMPARE(list->items.at(0).apiVersion(), QStringLiteral("apps/v1"));
        QVERIFY(!list->items.at(0).toJsonBytes().contains("managedFields"));
        QCOMPARE(list->items.at(1).key(), QStringLiteral("n/b"));
        auto nullItems = Object::parseList(R"({"metadata":{"resourceVersion":"1"},"items":null})");
        QVERIFY(nullItems.ok());
        QCOMPARE(nullItems->items.size(), 0);
    }

    void shouldStripManagedFieldsOnlyFromMetadata()
    {
        const QByteArray json
            = R"({"metadata":{"name":"a","managedFields":[{"manager":"m"}]},"spec":{"managedFields":"user data"}})";
        const Object o = Object::parse(json).value().withoutManagedFields();
        QVERIFY(!o.json().value(QLatin1String("metadata")).toObject().contains(QLatin1String("managedFields")));
        QCOMPARE(
            o.value({QLatin1String("spec"), QLatin1String("managedFields")}).toString(), QStringLiteral("user data"));
    }

    void shouldCostLessThanItsWireBytes()
    {
        // A realistic Deployment as a server sends it (managedFields included), ~3 KB.
        QFile f(QStringLiteral(OPBENCH_SOURCE_DIR "/tests/data/deployment-wire.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray wire = f.readAll();
        const Object o = Object::parse(wire).value().withoutManagedFields();
        QVERIFY2(o.memoryFootprint() < wire.size(),
            qPrintable(QStringLiteral("%1 held vs %2 on the wire").arg(o.memoryFootprint()).arg(wire.size())));
    }

    void nullObjectIsEmpty()
    {
        const Object o;
        QVERIFY(o.isNull());
        QVERIFY(o.name().isEmpty());
        QVERIFY(o.labels().isEmpty());
        QCOMPARE(o.memoryFootprint(), 0);
    }
};

QTEST_GUILESS_MAIN(tst_Object)
#include "tst_object.moc"
