// SPDX-License-Identifier: Apache-2.0
// Lists are decoded item by item (listscanner_p.h) so that a page never needs a DOM of its own:
// whatever the body looks like, the result must be what a whole-document parse gives, and a
// broken body must still be reported, naming where.
#include "engine/api/listscanner_p.h"
#include "engine/api/object.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace opbench;

namespace {

// What a whole-document reading of `json` says the list holds (QJsonDocument, independent of
// the code under test).
QJsonArray expectedItems(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object().value(QLatin1String("items")).toArray();
}

} // namespace

class tst_ListScanner : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldDecodeEveryItemAsTheDocumentSays_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("compact") << QByteArray(
            "{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"9\"},\"items\":[{"
            "\"metadata\":{\"name\":\"a\"}},{\"metadata\":{\"name\":\"b\"}}]}");
        QTest::newRow("pretty") << QByteArray(
            "{\n  \"kind\" : \"PodList\",\n  \"items\" : [\n    { \"metadata\" : { \"name\" : \"a\" } } "
            ",\n\t{\"metadata\":{\"name\":\"b\"}}\r\n  ] ,\n  \"metadata\" : {\"resourceVersion\":\"9\"}\n}\n");
        QTest::newRow("brackets and quotes inside strings")
            << QByteArray("{\"items\":[{\"metadata\":{\"name\":\"a\"},\"data\":{\"x\":\"]}{[\\\"\\\\\",\"y\":\"\\\\\"}}"
                          ",{\"metadata\":{\"name\":\"b\"}}],\"metadata\":{\"resourceVersion\":\"9\"}}");
        QTest::newRow("nested arrays and scalars")
            << QByteArray("{\"items\":[{\"metadata\":{\"name\":\"a\"},\"spec\":{\"n\":[1,[2,[3]],{\"k\":[]}],\"t\":"
                          "true,\"f\":false,\"z\":null,\"e\":-1.5e3}}],\"metadata\":{}}");
        QTest::newRow("empty items") << QByteArray(
            "{\"kind\":\"PodList\",\"metadata\":{\"resourceVersion\":\"3\"},\"items\":[]}");
        QTest::newRow("no items") << QByteArray("{\"kind\":\"PodList\",\"metadata\":{\"resourceVersion\":\"3\"}}");
        QTest::newRow("items null") << QByteArray("{\"metadata\":{\"resourceVersion\":\"3\"},\"items\":null}");
        QTest::newRow("unicode") << QByteArray("{\"items\":[{\"metadata\":{\"name\":\"caf\xc3\xa9\",\"annotations\":{"
                                               "\"a\":\"\\u00e9\\ud83d\\ude00\"}}}]}");
        QTest::newRow("duplicate metadata (whole-document path)")
            << QByteArray("{\"metadata\":{\"resourceVersion\":\"1\"},\"metadata\":{\"resourceVersion\":\"2\"},"
                          "\"items\":[{\"metadata\":{\"name\":\"a\"}}]}");
    }
    void shouldDecodeEveryItemAsTheDocumentSays()
    {
        QFETCH(QByteArray, json);
        const auto list = Object::parseList(json);
        QVERIFY2(list.ok(), qPrintable(list.ok() ? QString() : list.error().message()));
        const QJsonArray expected = expectedItems(json);
        QCOMPARE(list->items.size(), expected.size());
        for (qsizetype i = 0; i < expected.size(); ++i)
            QCOMPARE(list->items.at(i).json(), expected.at(i).toObject());
        const QJsonObject meta = QJsonDocument::fromJson(json).object().value(QLatin1String("metadata")).toObject();
        if (!json.startsWith(
                "{\"metadata\":{\"resourceVersion\":\"1\"},\"metadata\"")) // simdjson reads the first of two
            QCOMPARE(list->resourceVersion, meta.value(QLatin1String("resourceVersion")).toString());
    }

    void shouldReportBrokenBodies_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("broken item names it")
            << QByteArray("{\"items\":[{\"metadata\":{\"name\":\"a\"}},{\"metadata\":{\"name\":}}]}")
            << "list item 1 (bytes 36 to 58 of 60)";
        QTest::newRow("item not an object")
            << QByteArray("{\"items\":[{\"metadata\":{\"name\":\"a\"}},42]}") << "a list item is not an object";
        QTest::newRow("items not an array") << QByteArray("{\"items\":{\"a\":1}}") << "list \"items\" is not an array";
        QTest::newRow("truncated body") << QByteArray("{\"items\":[{\"metadata\":{\"name\":\"a\"}},{\"metad")
                                        << "invalid JSON";
        QTest::newRow("unterminated string")
            << QByteArray("{\"items\":[{\"metadata\":{\"name\":\"a}}]}") << "invalid JSON";
        QTest::newRow("trailing bytes") << QByteArray("{\"items\":[]} x") << "invalid JSON";
        QTest::newRow("not an object") << QByteArray("[1,2]") << "a list must be a JSON object";
        QTest::newRow("empty body") << QByteArray() << "invalid JSON";
    }
    void shouldReportBrokenBodies()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        const auto list = Object::parseList(json);
        QVERIFY(!list.ok());
        QVERIFY2(list.error().message().contains(message), qPrintable(list.error().message()));
    }

    void shouldFindTheBoundariesOfEachPart()
    {
        const std::string_view json
            = " {\"kind\":\"XList\", \"items\" : [ {\"a\":\"}\"} , {\"b\":[1]} ] ,\"metadata\":{\"x\":1}} ";
        const auto layout = listscanner::scan(json);
        QVERIFY(layout.has_value());
        QVERIFY(layout->hasItems);
        QCOMPARE(layout->items.size(), size_t(2));
        QCOMPARE(json.substr(layout->items[0].offset, layout->items[0].size), std::string_view("{\"a\":\"}\"}"));
        QCOMPARE(json.substr(layout->items[1].offset, layout->items[1].size), std::string_view("{\"b\":[1]}"));
        QCOMPARE(json.substr(layout->kind.offset, layout->kind.size), std::string_view("\"XList\""));
        QCOMPARE(json.substr(layout->metadata.offset, layout->metadata.size), std::string_view("{\"x\":1}"));
        QVERIFY(!listscanner::scan("{\"items\":[],\"items\":[]}").has_value()); // duplicates: the full parser decides
        QVERIFY(!listscanner::scan("{\"items\":[{\"a\":1}}").has_value());      // unbalanced
        QVERIFY(!listscanner::scan("{\"items\":[1 2]}").has_value());           // missing comma
    }
};

QTEST_GUILESS_MAIN(tst_ListScanner)
#include "tst_listscanner.moc"
