// SPDX-License-Identifier: Apache-2.0
// Object keeps its document packed (keys as dictionary tokens) and reads metadata from it on
// demand: every accessor must give what the JSON says, on awkward inputs too.
#include "engine/api/object.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <thread>
#include <vector>

using namespace opbench;

namespace {

QJsonObject metaOf(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object().value(QLatin1String("metadata")).toObject();
}

Labels stringMap(const QJsonObject &o)
{
    Labels out;
    for (auto it = o.begin(); it != o.end(); ++it)
        if (it.value().isString())
            out.insert(it.key(), it.value().toString());
    return out;
}

} // namespace

class tst_ObjectEncoding : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldReadMetadataAsTheJsonSays_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("plain") << QByteArray(
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\",\"namespace\":\"ns\",\"uid\":"
            "\"u\","
            "\"resourceVersion\":\"7\",\"generation\":2,\"labels\":{\"x\":\"y\"},\"finalizers\":[\"f\"]}}");
        QTest::newRow("escapes in name, labels, annotations") << QByteArray(
            "{\"metadata\":{\"name\":\"we\\\"ird\\\\na\\/me\\n\",\"namespace\":\"n\\u0041s\",\"uid\":\"\\u0001\","
            "\"labels\":{\"k\\\"ey\":\"v\\\\al\",\"tab\\tkey\":\"a\\u00e9b\"},"
            "\"annotations\":{\"note\":\"line1\\nline2 \\\"q\\\"\"},\"resourceVersion\":\"1\\u0032\"}}");
        QTest::newRow("unicode") << QByteArray(
            "{\"metadata\":{\"name\":\"caf\xc3\xa9-\xe6\x97\xa5\xe6\x9c\xac\",\"namespace\":\"\\ud83d\\ude00\","
            "\"labels\":{\"\xc3\xa9t\xc3\xa9\":\"\xf0\x9f\x98\x80\"},\"generateName\":\"g\xc3\xa9-\"}}");
        QTest::newRow("no metadata") << QByteArray("{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"code\":404}");
        QTest::newRow("metadata not an object") << QByteArray("{\"metadata\":[1,2],\"name\":\"top\"}");
        QTest::newRow("fields of the wrong type") << QByteArray(
            "{\"metadata\":{\"name\":5,\"namespace\":true,\"uid\":null,\"labels\":[\"a\"],\"finalizers\":{\"a\":1},"
            "\"ownerReferences\":\"x\",\"generation\":\"3\",\"annotations\":{\"n\":1,\"s\":\"t\"}}}");
        QTest::newRow("large numbers") << QByteArray(
            "{\"metadata\":{\"name\":\"n\",\"generation\":9223372036854775807},\"spec\":{\"big\":18446744073709551615,"
            "\"neg\":-9223372036854775808,\"f\":1.5e300,\"tiny\":-2.5e-300}}");
        QTest::newRow("empty strings and maps") << QByteArray(
            "{\"metadata\":{\"name\":\"\",\"namespace\":\"\",\"labels\":{},\"finalizers\":[],\"ownerReferences\":[]}}");
        QTest::newRow("metadata keys nested elsewhere")
            << QByteArray("{\"spec\":{\"metadata\":{\"name\":\"inner\"}},\"metadata\":{\"name\":\"outer\",\"spec\":{"
                          "\"name\":\"x\"}}}");
        QTest::newRow("owner references") << QByteArray(
            "{\"metadata\":{\"name\":\"rs\",\"ownerReferences\":[{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\","
            "\"name\":\"d\\\"1\",\"uid\":\"o1\",\"controller\":true},{\"apiVersion\":\"v1\",\"kind\":\"X\",\"name\":"
            "\"e\","
            "\"uid\":\"o2\",\"blockOwnerDeletion\":true,\"extra\":{\"a\":[1]}}]}}");
        QTest::newRow("keys that need escaping")
            << QByteArray("{\"we\\\"ird\":1,\"metadata\":{\"name\":\"n\",\"labels\":{\"a\\\\b\":\"c\",\"\\n\":\"nl\"}},"
                          "\"\\u0000zero\":\"z\",\"\":\"empty key\"}");
    }
    void shouldReadMetadataAsTheJsonSays()
    {
        QFETCH(QByteArray, json);
        auto parsed = Object::parse(json);
        QVERIFY2(parsed.ok(), qPrintable(parsed.ok() ? QString() : parsed.error().message()));
        const Object o = parsed.value();
        const QJsonObject doc = QJsonDocument::fromJson(json).object();
        const QJsonObject meta = metaOf(json);
        QCOMPARE(o.apiVersion(), doc.value(QLatin1String("apiVersion")).toString());
        QCOMPARE(o.kind(), doc.value(QLatin1String("kind")).toString());
        QCOMPARE(o.name(), meta.value(QLatin1String("name")).toString());
        QCOMPARE(o.generateName(), meta.value(QLatin1String("generateName")).toString());
        QCOMPARE(o.namespaceName(), meta.value(QLatin1String("namespace")).toString());
        QCOMPARE(o.uid(), meta.value(QLatin1String("uid")).toString());
        QCOMPARE(o.resourceVersion(), meta.value(QLatin1String("resourceVersion")).toString());
        QCOMPARE(o.generation(), meta.value(QLatin1String("generation")).toInteger());
        QCOMPARE(o.labels(), stringMap(meta.value(QLatin1String("labels")).toObject()));
        QCOMPARE(o.annotations(), stringMap(meta.value(QLatin1String("annotations")).toObject()));
        QStringList finalizers;
        for (const QJsonValue &v : meta.value(QLatin1String("finalizers")).toArray())
            finalizers << v.toString();
        QCOMPARE(o.finalizers(), finalizers);
        QList<OwnerReference> refs;
        QStringList uids;
        for (const QJsonValue &v : meta.value(QLatin1String("ownerReferences")).toArray()) {
            refs << OwnerReference::fromJson(v.toObject());
            uids << refs.last().uid;
        }
        QCOMPARE(o.ownerReferences(), refs);
        QCOMPARE(o.ownerReferenceUids(), uids);
        // The document itself survives: same JSON value, and packing is stable.
        QCOMPARE(o.json(), doc);
        const Object again = Object::parse(o.toJsonBytes()).value();
        QCOMPARE(again.toJsonBytes(), o.toJsonBytes());
        QVERIFY(again == o);
    }

    void shouldKeepTheCompactTextByteForByte()
    {
        // Key order is kept (QJsonDocument would sort), numbers and escapes are as written compactly.
        const QByteArray json = "{\"kind\":\"K\",\"apiVersion\":\"v\",\"metadata\":{\"name\":\"a\\\"b\",\"labels\":{"
                                "\"z\":\"1\",\"a\":\"2\"}},"
                                "\"spec\":{\"n\":[1,-2,3.5,true,false,null,\"s\\n\"],\"e\":{},\"l\":[]}}";
        const Object o = Object::parse(json).value();
        QCOMPARE(o.toJsonBytes(), json);
        QCOMPARE(Object::parse(" { \"a\" : [ 1 , { \"b\" : \"c\" } ] } ").value().toJsonBytes(),
            QByteArray("{\"a\":[1,{\"b\":\"c\"}]}"));
        QByteArray body = "[";
        o.appendJsonTo(body);
        body += ',';
        o.appendJsonTo(body);
        Object().appendJsonTo(body); // a null object appends nothing
        QCOMPARE(body, "[" + json + "," + json);
    }

    void shouldCompareByDocument()
    {
        const QByteArray a = "{\"metadata\":{\"name\":\"a\",\"labels\":{\"fresh-key-for-equality\":\"1\"}}}";
        const Object first = Object::parse(a).value();
        const Object second = Object::parse(a).value(); // the key is in the dictionary by now
        QVERIFY(first == second);
        QVERIFY(!(first
            == Object::parse("{\"metadata\":{\"name\":\"a\",\"labels\":{\"fresh-key-for-equality\":\"2\"}}}").value()));
        QVERIFY(!(first == Object()));
        QVERIFY(Object() == Object());
    }

    void shouldFillMissingApiVersionAndKindOfListItems()
    {
        const QByteArray list
            = "{\"kind\":\"DeploymentList\",\"items\":[{\"metadata\":{\"name\":\"a\",\"labels\":{\"l\":\"1\"}}},"
              "{\"kind\":\"Other\",\"metadata\":{\"name\":\"b\"}}]}";
        const auto parsed = Object::parseList(list, QStringLiteral("apps/v1"), QStringLiteral("Deployment"));
        QVERIFY(parsed.ok());
        const Object a = parsed->items.at(0);
        QCOMPARE(a.apiVersion(), QStringLiteral("apps/v1"));
        QCOMPARE(a.kind(), QStringLiteral("Deployment"));
        QCOMPARE(a.name(), QStringLiteral("a")); // metadata positions account for the inserted fields
        QCOMPARE(a.labels().value(QStringLiteral("l")), QStringLiteral("1"));
        QCOMPARE(a.json().value(QLatin1String("kind")).toString(), QStringLiteral("Deployment"));
        QCOMPARE(parsed->items.at(1).kind(), QStringLiteral("Other")); // an item's own kind wins
        QCOMPARE(parsed->items.at(1).json().value(QLatin1String("kind")).toString(), QStringLiteral("Other"));
        // The inserted fields pack as if the item had them: equal documents, equal objects.
        const Object explicitly
            = Object::parse("{\"apiVersion\":\"apps/"
                            "v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"a\",\"labels\":{\"l\":\"1\"}}}")
                  .value();
        QVERIFY(a == explicitly);
    }

    // Timestamps and enum-like string values are tokens in the packed form: the document must
    // come back byte for byte, near misses must stay text, and accessors must read through them.
    void shouldRoundTripTokenizedValues_data()
    {
        QTest::addColumn<QByteArray>("json");
        const auto withStamp = [](const char *stamp) {
            return "{\"metadata\":{\"name\":\"a\",\"creationTimestamp\":\"" + QByteArray(stamp) + "\"},\"s\":[\""
                + stamp + "\"]}";
        };
        QTest::newRow("canonical time") << withStamp("2024-05-01T10:00:00Z");
        QTest::newRow("earliest") << withStamp("0000-01-01T00:00:00Z");
        QTest::newRow("latest, leap second") << withStamp("9999-12-31T23:59:60Z");
        QTest::newRow("month 13 stays text") << withStamp("2024-13-01T10:00:00Z");
        QTest::newRow("hour 24 stays text") << withStamp("2024-05-01T24:00:00Z");
        QTest::newRow("fraction stays text") << withStamp("2024-05-01T10:00:00.5Z");
        QTest::newRow("offset stays text") << withStamp("2024-05-01T10:00:00+02:00");
        QTest::newRow("lower-case z stays text") << withStamp("2024-05-01T10:00:00z");
        QTest::newRow("space stays text") << withStamp("2024-05-01 10:00:00Z");
        QTest::newRow("enum values") << QByteArray(
            "{\"apiVersion\":\"apps/"
            "v1\",\"kind\":\"Deployment\",\"spec\":{\"containers\":[{\"imagePullPolicy\":\"IfNotPresent\","
            "\"ports\":[{\"protocol\":\"TCP\"},{\"protocol\":\"UDP\"}],\"resources\":{\"limits\":{\"cpu\":\"100m\"}}}]}"
            ","
            "\"status\":{\"conditions\":[{\"type\":\"Available\",\"status\":\"True\",\"reason\":"
            "\"MinimumReplicasAvailable\"}]}}");
        QTest::newRow("enum keys, odd values") << QByteArray(
            "{\"type\":\"a\\\"b\",\"status\":\"\",\"reason\":{\"nested\":\"x\"},\"kind\":7,\"phase\":null,"
            "\"protocol\":\"\\u0001\",\"cpu\":\""
            + QByteArray(80, 'c') + "\"}");
        QTest::newRow("timestamp under an enum key")
            << QByteArray("{\"type\":\"2024-05-01T10:00:00Z\",\"status\":\"2024-05-01T10:00:0Z\"}");
    }
    void shouldRoundTripTokenizedValues()
    {
        QFETCH(QByteArray, json);
        const Object o = Object::parse(json).value();
        QCOMPARE(o.toJsonBytes(), json);
        QCOMPARE(o.json(), QJsonDocument::fromJson(json).object());
        QVERIFY(Object::parse(o.toJsonBytes()).value() == o);
        QCOMPARE(o.creationTimestamp(), metaOf(json).value(QLatin1String("creationTimestamp")).toString());
    }

    void shouldPackATimestampInSixBytes()
    {
        const auto footprint = [](const char *stamp) {
            return Object::parse(
                QByteArray("{\"metadata\":{\"name\":\"a\",\"annotations\":{\"at\":\"") + stamp + "\"}}}")
                .value()
                .memoryFootprint();
        };
        // 22 bytes of JSON text become 6; a string of the same length that is not a timestamp stays.
        QCOMPARE(footprint("2024-05-01T10:00:00Z") + 16, footprint("2024-05-01T10:00:00X"));
        const Object o = Object::parse("{\"metadata\":{\"name\":\"a\",\"deletionTimestamp\":\"2024-05-01T10:00:09Z\","
                                       "\"annotations\":{\"at\":\"2024-05-01T10:00:00Z\"}}}")
                             .value();
        QCOMPARE(o.deletionTimestamp(), QStringLiteral("2024-05-01T10:00:09Z"));
        QVERIFY(o.isBeingDeleted());
        QCOMPARE(o.annotations().value(QStringLiteral("at")), QStringLiteral("2024-05-01T10:00:00Z"));
    }

    void shouldStripManagedFieldsAndKeepMetadataPositions()
    {
        const QByteArray json
            = "{\"metadata\":{\"managedFields\":[{\"manager\":\"m\",\"fieldsV1\":{\"f:x\":{}}}],\"name\":\"n\","
              "\"labels\":{\"a\":\"b\"}},\"spec\":{\"managedFields\":1}}";
        const Object full = Object::parse(json).value();
        QVERIFY(full.json().value(QLatin1String("metadata")).toObject().contains(QLatin1String("managedFields")));
        const Object stripped = full.withoutManagedFields();
        QVERIFY(stripped.memoryFootprint() < full.memoryFootprint());
        QVERIFY(!stripped.json().value(QLatin1String("metadata")).toObject().contains(QLatin1String("managedFields")));
        QCOMPARE(stripped.value({QLatin1String("spec"), QLatin1String("managedFields")}).toInt(), 1);
        QCOMPARE(stripped.name(), QStringLiteral("n"));
        QCOMPARE(stripped.labels().value(QStringLiteral("a")), QStringLiteral("b"));
        const Object plain = Object::parse("{\"metadata\":{\"name\":\"n\"},\"spec\":{\"managedFields\":1}}").value();
        QVERIFY(plain.withoutManagedFields() == plain);
    }

    void shouldCountDecodedListsInTheFootprint()
    {
        const Object o
            = Object::parse("{\"metadata\":{\"name\":\"n\",\"labels\":{\"a\":\"some-value-1\",\"b\":\"other-value-2\"},"
                            "\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"K\",\"name\":\"owner-name\","
                            "\"uid\":\"0000-1111\"}]}}")
                  .value();
        const qsizetype before = o.memoryFootprint();
        QCOMPARE(o.ownerReferenceUids(), QStringList{QStringLiteral("0000-1111")});
        QCOMPARE(o.memoryFootprint(), before); // nothing kept
        QCOMPARE(o.labels().size(), 2);
        const qsizetype withLabels = o.memoryFootprint();
        QVERIFY(withLabels > before);
        QCOMPARE(o.ownerReferences().size(), 1);
        QVERIFY(o.memoryFootprint() > withLabels);
        QCOMPARE(&o.labels(), &o.labels()); // kept: the same map on every call
    }

    void shouldDecodeLazilyFromManyThreads()
    {
        const Object o = Object::parse(
            "{\"metadata\":{\"name\":\"n\",\"labels\":{\"a\":\"1\",\"b\":\"2\"},\"finalizers\":[\"x\",\"y\"]}}")
                             .value();
        std::vector<const Labels *> seen(4, nullptr);
        std::vector<int> ok(4, 0);
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&o, &seen, &ok, t] {
                seen[size_t(t)] = &o.labels();
                ok[size_t(t)] = int(o.labels().value(QStringLiteral("b")) == QLatin1String("2")
                    && o.finalizers().size() == 2 && o.name() == QLatin1String("n"));
            });
        for (std::thread &th : threads)
            th.join();
        for (int t = 0; t < 4; ++t) {
            QVERIFY(ok[size_t(t)]);
            QCOMPARE(seen[size_t(t)], seen[0]);
        }
    }

    // Fills the process-wide value dictionary, after which new enum-like values stay as text.
    void shouldRoundTripOnceTheValueDictionaryIsFull()
    {
        for (int round = 0; round < 2; ++round) {
            QByteArray json = "{\"metadata\":{\"name\":\"many\"},\"conditions\":[";
            for (int i = 0; i < 1500; ++i)
                json += QByteArray(i ? "," : "") + "{\"type\":\"T" + QByteArray::number(round) + "-"
                    + QByteArray::number(i) + "\"}";
            json += "]}";
            const Object o = Object::parse(json).value();
            QCOMPARE(o.toJsonBytes(), json);
            QVERIFY(Object::parse(json).value() == o);
        }
        const QByteArray after
            = "{\"metadata\":{\"name\":\"x\"},\"status\":{\"phase\":\"AValueSeenOnlyNow\",\"reason\":\"Available\"}}";
        const Object o = Object::parse(after).value();
        QCOMPARE(o.toJsonBytes(), after);
        QVERIFY(Object::parse(after).value() == o);
    }

    // Last: fills the process-wide key dictionary, after which new keys stay as text.
    void shouldRoundTripOnceTheKeyDictionaryIsFull()
    {
        for (int round = 0; round < 3; ++round) {
            QByteArray json = "{\"metadata\":{\"name\":\"many\",\"labels\":{\"late\":\"v\"}},\"data\":{";
            for (int i = 0; i < 4000; ++i) {
                if (i > 0)
                    json += ',';
                json += "\"key-" + QByteArray::number(round) + "-" + QByteArray::number(i) + "\":\""
                    + QByteArray::number(i) + "\"";
            }
            json += "}}";
            const Object o = Object::parse(json).value();
            QCOMPARE(o.toJsonBytes(), json);
            QCOMPARE(o.name(), QStringLiteral("many"));
            QCOMPARE(o.labels().value(QStringLiteral("late")), QStringLiteral("v"));
            QVERIFY(Object::parse(json).value() == o);
        }
        const QByteArray after = "{\"metadata\":{\"name\":\"x\",\"labels\":{\"a-key-seen-only-now\":\"1\"}}}";
        const Object o = Object::parse(after).value();
        QCOMPARE(o.toJsonBytes(), after);
        QCOMPARE(o.labels().value(QStringLiteral("a-key-seen-only-now")), QStringLiteral("1"));
        QVERIFY(Object::parse(after).value() == o);
    }
};

QTEST_GUILESS_MAIN(tst_ObjectEncoding)
#include "tst_objectencoding.moc"
