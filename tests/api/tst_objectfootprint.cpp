// SPDX-License-Identifier: Apache-2.0
// The cache holds Objects: each must cost less than its wire form (see bench object-memory).
#include "engine/api/object.h"

#include <QFile>
#include <QTest>

using namespace opbench;

class tst_ObjectFootprint : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldHoldLessThanTheWireForm()
    {
        QFile f(QStringLiteral(OPBENCH_SOURCE_DIR "/tests/data/deployment-wire.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray one = f.readAll().trimmed();
        QByteArray list = "{\"items\":[";
        const int n = 200;
        for (int i = 0; i < n; ++i) {
            if (i > 0)
                list += ',';
            QByteArray item = one;
            item.replace("checkout-service", "svc-" + QByteArray::number(i)); // varied names
            list += item;
        }
        list += "]}";
        auto parsed = Object::parseList(list, {}, {}, true);
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->items.size(), n);
        qint64 held = 0;
        for (const Object &o : parsed->items)
            held += o.memoryFootprint();
        const double wirePerObject = double(list.size()) / n;
        const double heldPerObject = double(held) / n;
        // managedFields stripped, keys packed as tokens: well below the wire size (about 34 %).
        QVERIFY2(heldPerObject < 0.5 * wirePerObject,
            qPrintable(QStringLiteral("held %1 B, wire %2 B").arg(heldPerObject).arg(wirePerObject)));
        // Sharing must not change what the accessors return.
        const Object &o = parsed->items.at(7);
        QCOMPARE(o.name(), QStringLiteral("svc-7"));
        QCOMPARE(o.labels().value(QStringLiteral("app.kubernetes.io/name")), QStringLiteral("svc-7"));
        QCOMPARE(o.ownerReferences().first().name, QStringLiteral("svc-7"));
        QCOMPARE(o.creationTimestamp(), QStringLiteral("2026-10-01T09:12:44Z"));
        QCOMPARE(o.namespaceName(), QStringLiteral("shop"));
        QVERIFY(!o.toJsonBytes().contains("managedFields"));
    }

    void shouldKeepCreationTimestampOfAnyLength_data()
    {
        QTest::addColumn<QString>("timestamp");
        QTest::newRow("canonical") << "2024-05-01T10:00:00Z";
        QTest::newRow("nanos and offset") << "2024-05-01T10:00:00.123456789+02:00";
        QTest::newRow("longer than inline storage") << "2024-05-01T10:00:00.123456789123456789+02:00";
        QTest::newRow("empty") << "";
    }
    void shouldKeepCreationTimestampOfAnyLength()
    {
        QFETCH(QString, timestamp);
        const QByteArray json = "{\"metadata\":{\"name\":\"a\",\"creationTimestamp\":\"" + timestamp.toUtf8() + "\"}}";
        const Object o = Object::parse(json).value();
        QCOMPARE(o.creationTimestamp(), timestamp);
        QVERIFY(Object::parse("{\"metadata\":{\"name\":\"a\"}}").value().creationTimestamp().isEmpty());
    }
};

QTEST_GUILESS_MAIN(tst_ObjectFootprint)
#include "tst_objectfootprint.moc"
