// SPDX-License-Identifier: Apache-2.0
// ListStreamDecoder: a list decoded while its body arrives gives the same list as decoding the
// whole body (items, kinds defaulted from "<Kind>List", metadata before or after the items),
// whatever the chunking (every split point of small lists); the raw bytes it holds stay bounded
// by one batch, not the body; malformed or truncated bodies are errors naming the byte.
#include "engine/client/liststreamdecoder.h"

#include <QRandomGenerator>
#include <QTest>

using namespace opbench;

namespace {

Expected<Object::List> whole(const QByteArray &body, const QString &apiVersion)
{
    // RestClient's non-streaming decoding: items without kind get it from "<Kind>List".
    Expected<Object::List> list = Object::parseList(body, apiVersion, {}, true);
    if (list && !list->items.isEmpty() && list->items.first().kind().isEmpty()
        && list->kind.endsWith(QLatin1String("List")))
        list = Object::parseList(body, apiVersion, list->kind.chopped(4), true);
    return list;
}

Expected<Object::List> streamed(
    const QByteArray &body, const QString &apiVersion, const QList<qsizetype> &cuts, qsizetype *maxHeld = nullptr)
{
    ListStreamDecoder d(apiVersion, true);
    qsizetype from = 0;
    for (qsizetype cut : cuts) {
        d.feed(QByteArrayView(body).sliced(from, cut - from));
        if (maxHeld)
            *maxHeld = std::max(*maxHeld, d.bytesHeld());
        from = cut;
    }
    d.feed(QByteArrayView(body).sliced(from));
    return d.finish();
}

QByteArray itemsJson(const Object::List &l)
{
    QByteArray out;
    for (const Object &o : l.items)
        out += o.toJsonBytes() + '\n';
    return out;
}

void compareLists(const Expected<Object::List> &a, const Expected<Object::List> &b)
{
    QVERIFY2(a.ok(), a.ok() ? "" : qPrintable(a.error().message()));
    QVERIFY2(b.ok(), b.ok() ? "" : qPrintable(b.error().message()));
    QCOMPARE(a->kind, b->kind);
    QCOMPARE(a->resourceVersion, b->resourceVersion);
    QCOMPARE(a->continueToken, b->continueToken);
    QCOMPARE(a->remainingItemCount, b->remainingItemCount);
    QCOMPARE(a->items.size(), b->items.size());
    QCOMPARE(itemsJson(*a), itemsJson(*b));
}

const QByteArray kDeployments
    = "{\"kind\":\"DeploymentList\",\"apiVersion\":\"apps/"
      "v1\",\"metadata\":{\"resourceVersion\":\"42\",\"continue\":\"c1\",\"remainingItemCount\":3},"
      "\"items\":[{\"metadata\":{\"name\":\"a\",\"namespace\":\"ns\",\"managedFields\":[{\"manager\":\"m\"}]},\"spec\":"
      "{\"replicas\":2}},"
      " {\"metadata\":{\"name\":\"b {\\\"odd\\\"} "
      "[name]\",\"namespace\":\"ns\",\"annotations\":{\"x\":\"}]\\\\\\\"{\"}},\"spec\":{\"template\":{\"spec\":{"
      "\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}}}]}";

} // namespace

class TestListStreamDecoder : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldMatchWholeBodyDecodingAtEverySplit_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("apiVersion");
        QTest::newRow("built-in items without kind") << kDeployments << QStringLiteral("apps/v1");
        QTest::newRow("custom resources with kind") << QByteArray(
            "{\"apiVersion\":\"example.com/v1alpha1\",\"items\":[{\"apiVersion\":\"example.com/"
            "v1alpha1\",\"kind\":\"MyApplication\",\"metadata\":{\"name\":\"x\"},\"spec\":{\"image\":\"nginx\","
            "\"replicas\":1}}],\"kind\":\"MyApplicationList\",\"metadata\":{\"resourceVersion\":\"7\"}}")
                                                    << QStringLiteral("example.com/v1alpha1");
        QTest::newRow("metadata and kind after the items") << QByteArray(
            "{\"items\":[{\"metadata\":{\"name\":\"late\"}}],\"metadata\":{\"resourceVersion\":\"9\"},\"kind\":"
            "\"ConfigMapList\"}") << QStringLiteral("v1");
        QTest::newRow("empty items") << QByteArray(
            "{\"kind\":\"PodList\",\"metadata\":{\"resourceVersion\":\"1\"},\"items\":[]}")
                                     << QStringLiteral("v1");
        QTest::newRow("items null") << QByteArray(
            "{\"kind\":\"PodList\",\"metadata\":{\"resourceVersion\":\"1\"},\"items\":null}")
                                    << QStringLiteral("v1");
        QTest::newRow("pretty-printed") << QByteArray(
            "{\n  \"kind\": \"ServiceList\",\n  \"metadata\": {\"resourceVersion\": \"5\"},\n  \"items\": [\n    "
            "{\"metadata\": {\"name\": \"s\"}},\n    {\"metadata\": {\"name\": \"t\"}}\n  ]\n}\n")
                                        << QStringLiteral("v1");
    }

    void shouldMatchWholeBodyDecodingAtEverySplit()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, apiVersion);
        const Expected<Object::List> expected = whole(body, apiVersion);
        compareLists(streamed(body, apiVersion, {}), expected);
        for (qsizetype cut = 1; cut < body.size(); ++cut)
            compareLists(streamed(body, apiVersion, {cut}), expected);
        QList<qsizetype> everyByte;
        for (qsizetype cut = 1; cut < body.size(); ++cut)
            everyByte.append(cut);
        compareLists(streamed(body, apiVersion, everyByte), expected);
    }

    void shouldHoldOneBatchNotTheBody()
    {
        QByteArray body = "{\"kind\":\"ConfigMapList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"100\"}"
                          ",\"items\":[";
        const QByteArray payload(900, 'x');
        for (int i = 0; i < 5000; ++i) {
            if (i)
                body += ',';
            body += "{\"metadata\":{\"name\":\"cm-" + QByteArray::number(i)
                + "\",\"namespace\":\"default\"},\"data\":{\"v\":\"" + payload + "\"}}";
        }
        body += "]}";
        QVERIFY(body.size() > 4 * 1024 * 1024);
        QList<qsizetype> cuts;
        auto *rng = QRandomGenerator::global();
        for (qsizetype at = rng->bounded(1, 70000); at < body.size(); at += rng->bounded(1, 70000))
            cuts.append(at);
        qsizetype maxHeld = 0;
        const Expected<Object::List> list = streamed(body, QStringLiteral("v1"), cuts, &maxHeld);
        QVERIFY(list.ok());
        QCOMPARE(list->items.size(), 5000);
        QCOMPARE(list->items.last().name(), QStringLiteral("cm-4999"));
        QCOMPARE(list->items.first().kind(), QStringLiteral("ConfigMap"));
        QCOMPARE(list->resourceVersion, QStringLiteral("100"));
        QVERIFY2(maxHeld < 400 * 1024,
            qPrintable(QStringLiteral("held %1 bytes of a %2-byte body").arg(maxHeld).arg(body.size())));
    }

    void shouldNameWhatIsWrong_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("expected");
        QTest::newRow("truncated") << kDeployments.left(120) << QStringLiteral("ended early, after 120 bytes");
        QTest::newRow("not an object") << QByteArray("[1,2]") << QStringLiteral("must be a JSON object (byte 0)");
        QTest::newRow("item not an object")
            << QByteArray("{\"kind\":\"PodList\",\"items\":[{},7]}") << QStringLiteral("not an object (byte 30)");
        QTest::newRow("trailing bytes") << QByteArray("{\"items\":[]} x") << QStringLiteral("bytes after the document");
        QTest::newRow("bad item JSON") << QByteArray("{\"kind\":\"PodList\",\"items\":[{\"metadata\":{\"name\":tru}}]}")
                                       << QStringLiteral("list item");
        QTest::newRow("items not an array")
            << QByteArray("{\"kind\":\"PodList\",\"items\":\"no\"}") << QStringLiteral("not an array");
    }

    void shouldNameWhatIsWrong()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, expected);
        ListStreamDecoder d(QStringLiteral("v1"), true);
        d.feed(body);
        const Expected<Object::List> list = d.finish();
        QVERIFY(!list.ok());
        QVERIFY2(list.error().message().contains(expected), qPrintable(list.error().message()));
    }
};

QTEST_GUILESS_MAIN(TestListStreamDecoder)
#include "tst_liststreamdecoder.moc"
