// SPDX-License-Identifier: Apache-2.0
// Object::fromJson(QJsonObject) packs the QJsonObject directly. It must give exactly the Object
// that parsing its compact JSON gives (equal packed bytes, so equal documents still compare
// equal and "unchanged" checks still hold): numbers of every shape (integers, doubles with and
// without fractions, exponents, -0, huge), strings with escapes, control characters and non-ASCII
// text, timestamps, enum-like values, nested arrays, and every recorded metadata field.
#include "engine/api/object.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

#include <limits>

using namespace opbench;

namespace {

Object viaText(const QJsonObject &o)
{
    Expected<Object> parsed = Object::parse(QJsonDocument(o).toJson(QJsonDocument::Compact));
    return parsed.ok() ? *parsed : Object();
}

QJsonValue randomValue(QRandomGenerator &rng, int depth)
{
    static const QStringList strings{QStringLiteral("Running"), QStringLiteral("apps/v1"),
        QStringLiteral("2026-12-03T07:40:01Z"), QStringLiteral("2026-13-03T07:40:01Z"),
        QStringLiteral("tab\there \"quoted\" \\ back"), QStringLiteral("ünïcødé ✓ 𝄞"),
        QString(QChar(0x01)) + QStringLiteral("ctl"), QString(), QStringLiteral("IfNotPresent"), QStringLiteral("100m"),
        QStringLiteral("}{][,:")};
    static const QList<double> doubles{0.0, -0.0, 1.0, 3.0, 1.5, -2.25, 1e20, 1e-7, 123456789012345678.0, 0.1, 1e300,
        9007199254740993.0, -1e16, 2.5e-5};
    static const QList<qint64> ints{0, 1, -1, 42, 1000000, std::numeric_limits<qint64>::max(),
        std::numeric_limits<qint64>::min(), 100000000000000000LL};
    const int pick = int(rng.bounded(depth > 3 ? 6 : 8));
    switch (pick) {
    case 0:
        return strings[rng.bounded(int(strings.size()))];
    case 1:
        return doubles[rng.bounded(int(doubles.size()))];
    case 2:
        return QJsonValue(ints[rng.bounded(int(ints.size()))]);
    case 3:
        return rng.bounded(2) == 1;
    case 4:
        return QJsonValue(QJsonValue::Null);
    case 5:
        return int(rng.bounded(1000));
    case 6: {
        QJsonArray a;
        for (int i = int(rng.bounded(4)); i > 0; --i)
            a.append(randomValue(rng, depth + 1));
        return a;
    }
    default: {
        static const QStringList keys{QStringLiteral("status"), QStringLiteral("image"), QStringLiteral("type"),
            QStringLiteral("x"), QStringLiteral("weird key \"q\""), QStringLiteral("cpu"), QStringLiteral("name"),
            QStringLiteral("ключ")};
        QJsonObject o;
        for (int i = int(rng.bounded(5)); i > 0; --i)
            o.insert(keys[rng.bounded(int(keys.size()))], randomValue(rng, depth + 1));
        return o;
    }
    }
}

void compareBothWays(const QJsonObject &o)
{
    const Object direct = Object::fromJson(o);
    const Object text = viaText(o);
    QVERIFY(!direct.isNull());
    QCOMPARE(direct.toJsonBytes(), text.toJsonBytes());
    QVERIFY2(direct == text, direct.toJsonBytes().constData()); // the packed bytes
    QCOMPARE(direct.apiVersion(), text.apiVersion());
    QCOMPARE(direct.kind(), text.kind());
    QCOMPARE(direct.name(), text.name());
    QCOMPARE(direct.generateName(), text.generateName());
    QCOMPARE(direct.namespaceName(), text.namespaceName());
    QCOMPARE(direct.uid(), text.uid());
    QCOMPARE(direct.resourceVersion(), text.resourceVersion());
    QCOMPARE(direct.generation(), text.generation());
    QCOMPARE(direct.creationTimestamp(), text.creationTimestamp());
    QCOMPARE(direct.deletionTimestamp(), text.deletionTimestamp());
    QCOMPARE(direct.labels(), text.labels());
    QCOMPARE(direct.ownerReferences(), text.ownerReferences());
    QCOMPARE(direct.finalizers(), text.finalizers());
    QCOMPARE(direct.memoryFootprint(), text.memoryFootprint());
}

} // namespace

class TestObjectFromJson : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldPackARealDeploymentAsItsTextWould()
    {
        QFile f(QStringLiteral(OPBENCH_SOURCE_DIR "/tests/data/deployment-wire.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
        QVERIFY(!o.isEmpty());
        compareBothWays(o);
    }

    void shouldRecordEveryMetadataField()
    {
        const QJsonObject o = QJsonDocument::fromJson(R"({"apiVersion":"example.com/v1alpha1","kind":"MyApplication",
            "metadata":{"name":"a","generateName":"a-","namespace":"team","uid":"u-1","resourceVersion":"77","generation":3.0,
            "creationTimestamp":"2026-12-03T07:00:00Z","deletionTimestamp":"2026-12-03T08:00:00Z","labels":{"app":"a"},
            "annotations":{"k":"v"},"ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"o","uid":"u0","controller":true}],
            "finalizers":["f/one"],"managedFields":[{"manager":"kubectl","operation":"Apply"}]},
            "spec":{"image":"nginx:1.27","replicas":2},"status":{"phase":"Running"}})")
                                  .object();
        compareBothWays(o);
        QCOMPARE(Object::fromJson(o).generation(), 3);
    }

    void shouldMatchOnRandomDocuments()
    {
        QRandomGenerator rng(20261203);
        for (int i = 0; i < 3000; ++i) {
            QJsonObject o = randomValue(rng, 0).toObject();
            if (rng.bounded(2) == 1) {
                QJsonObject meta = randomValue(rng, 1).toObject();
                meta.insert(QStringLiteral("name"), QStringLiteral("n%1").arg(i));
                if (rng.bounded(2) == 1)
                    meta.insert(QStringLiteral("generation"),
                        randomValue(rng, 3).isDouble() ? QJsonValue(1e20) : QJsonValue(7));
                o.insert(QStringLiteral("metadata"), meta);
            }
            compareBothWays(o);
            if (QTest::currentTestFailed()) {
                qWarning("document %d: %s", i, QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
                return;
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestObjectFromJson)
#include "tst_objectfromjson.moc"
