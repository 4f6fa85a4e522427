// SPDX-License-Identifier: Apache-2.0
// WatchDecoder: NDJSON events split at every byte offset, malformed lines, ERROR and BOOKMARK.
#include "engine/client/watchdecoder.h"
#include "tests/client/testutil.h"

#include <QTest>

using namespace opbench;

namespace {

QByteArray stream()
{
    return QByteArray(
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\","
        "\"namespace\":\"ns\",\"resourceVersion\":\"11\"},\"data\":{\"k\":\"v\"}}}\n"
        "{\"type\":\"MODIFIED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\","
        "\"namespace\":\"ns\",\"resourceVersion\":\"12\"},\"data\":{\"k\":\"\xc3\xa9t\xc3\xa9\"}}}\n"
        "{\"type\":\"BOOKMARK\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{"
        "\"resourceVersion\":\"15\"}}}\r\n"
        "{\"type\":\"DELETED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\","
        "\"namespace\":\"ns\",\"resourceVersion\":\"16\"}}}\n"
        "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":"
        "\"Failure\",\"message\":\"too old resource version: 1 (16)\",\"reason\":\"Expired\",\"code\":410}}\n");
}

QString summary(const QList<WatchEvent> &events)
{
    QStringList parts;
    for (const WatchEvent &e : events) {
        QString s = WatchEvent::typeName(e.type) + u':' + e.resourceVersion;
        if (e.type == WatchEvent::Type::Error)
            s += u':' + e.error.reason() + u':' + QString::number(e.error.code());
        else if (!e.object.name().isEmpty())
            s += u':' + e.object.name() + u':' + e.object.value({QLatin1String("data"), QLatin1String("k")}).toString();
        parts << s;
    }
    return parts.join(u'|');
}

const QString kExpected
    = QStringLiteral("ADDED:11:a:v|MODIFIED:12:a:\u00e9t\u00e9|BOOKMARK:15|DELETED:16:a:|ERROR::Expired:410");

} // namespace

class TestWatchDecoder : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldDecodeWholeStream()
    {
        WatchDecoder d;
        QList<WatchEvent> events = d.feed(stream());
        events += d.finish();
        QCOMPARE(summary(events), kExpected);
        QVERIFY(d.takeErrors().isEmpty());
        QCOMPARE(events.last().error.message(), QStringLiteral("too old resource version: 1 (16)"));
    }

    void shouldDecodeWhenSplitAtEveryByteOffset()
    {
        const QByteArray all = stream();
        for (qsizetype cut = 0; cut <= all.size(); ++cut) {
            WatchDecoder d;
            QList<WatchEvent> events = d.feed(all.left(cut));
            events += d.feed(all.mid(cut));
            events += d.finish();
            QVERIFY2(summary(events) == kExpected,
                qPrintable(QStringLiteral("split at %1: %2").arg(cut).arg(summary(events))));
        }
    }

    void shouldDecodeWhenFedOneByteAtATime()
    {
        const QByteArray all = stream();
        WatchDecoder d;
        QList<WatchEvent> events;
        for (char c : all)
            events += d.feed(QByteArray(1, c));
        QCOMPARE(d.pendingBytes(), 0);
        QCOMPARE(summary(events), kExpected);
    }

    void shouldDecodeAFinalLineWithoutNewline()
    {
        QByteArray all = stream();
        all.chop(1);
        WatchDecoder d;
        QList<WatchEvent> events = d.feed(all);
        QCOMPARE(events.size(), 4);
        events += d.finish();
        QCOMPARE(summary(events), kExpected);
    }

    void shouldReportMalformedLinesAndGoOn_data()
    {
        QTest::addColumn<QByteArray>("bad");
        QTest::addColumn<QString>("why");
        QTest::newRow("not json") << QByteArray("{\"type\":\"ADDED\",\"object\":{broken") << QStringLiteral("offset");
        QTest::newRow("unknown type") << QByteArray("{\"type\":\"EXPLODED\",\"object\":{}}")
                                      << QStringLiteral("unknown type \"EXPLODED\"");
        QTest::newRow("no object") << QByteArray("{\"type\":\"ADDED\"}") << QStringLiteral("no \"object\"");
        QTest::newRow("array") << QByteArray("[1,2]") << QStringLiteral("not a JSON object");
    }

    void shouldReportMalformedLinesAndGoOn()
    {
        QFETCH(QByteArray, bad);
        QFETCH(QString, why);
        const QByteArray all = stream();
        const qsizetype firstNl = all.indexOf('\n') + 1;
        WatchDecoder d;
        QList<WatchEvent> events = d.feed(all.left(firstNl) + bad + '\n' + all.mid(firstNl));
        events += d.finish();
        QCOMPARE(summary(events), kExpected);
        const QStringList errors = d.takeErrors();
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.first().contains(why), qPrintable(errors.first()));
        QVERIFY2(errors.first().contains(QString::fromUtf8(bad.left(10))), qPrintable(errors.first()));
        QVERIFY(d.takeErrors().isEmpty());
    }

    void shouldDecodeOtherKeyOrdersAndSpacing()
    {
        WatchDecoder d;
        QList<WatchEvent> events = d.feed(
            "{\"object\":{\"metadata\":{\"name\":\"a\",\"resourceVersion\":\"11\"},\"data\":{\"k\":\"v\"}},\"type\":"
            "\"ADDED\"}\n"
            "{ \"type\" : \"DELETED\", \"object\" : {\"metadata\":{\"name\":\"a\",\"resourceVersion\":\"12\"}} }\n"
            "{\"type\":\"MODIFIED\",\"object\":{\"metadata\":{\"name\":\"b\",\"resourceVersion\":\"13\"}},\"extra\":1}"
            "\n");
        QCOMPARE(summary(events), QStringLiteral("ADDED:11:a:v|DELETED:12:a:|MODIFIED:13:b:"));
        QVERIFY(d.takeErrors().isEmpty());
    }

    void shouldSkipBlankLines()
    {
        WatchDecoder d;
        QList<WatchEvent> events = d.feed("\n\r\n" + stream() + "\n\n");
        QCOMPARE(summary(events), kExpected);
        QVERIFY(d.takeErrors().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestWatchDecoder)
#include "tst_watchdecoder.moc"
