// SPDX-License-Identifier: Apache-2.0
#include "engine/api/condition.h"
#include "engine/api/objectmeta.h"
#include "engine/api/timeformat.h"

#include <QJsonArray>
#include <QTest>
#include <QTimeZone>

using namespace opbench;

class tst_ObjectMeta : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldFormatAndParseTimestamps_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QDateTime>("expected");
        const QDateTime base(QDate(2024, 5, 1), QTime(10, 0, 0), QTimeZone::utc());
        QTest::newRow("seconds") << "2024-05-01T10:00:00Z" << base;
        QTest::newRow("micro") << "2024-05-01T10:00:00.123456Z" << base.addMSecs(123);
        QTest::newRow("nano") << "2024-05-01T10:00:00.987654321Z" << base.addMSecs(987);
        QTest::newRow("one digit fraction") << "2024-05-01T10:00:00.5Z" << base.addMSecs(500);
        QTest::newRow("offset") << "2024-05-01T12:00:00+02:00" << base;
        QTest::newRow("negative offset") << "2024-05-01T07:30:00-02:30" << base;
        QTest::newRow("lower z") << "2024-05-01t10:00:00z" << base;
        QTest::newRow("garbage") << "yesterday" << QDateTime();
        QTest::newRow("bad month") << "2024-13-01T10:00:00Z" << QDateTime();
        QTest::newRow("empty") << "" << QDateTime();
    }
    void shouldFormatAndParseTimestamps()
    {
        QFETCH(QString, text);
        QFETCH(QDateTime, expected);
        const QDateTime got = parseTimestamp(text);
        QCOMPARE(got.isValid(), expected.isValid());
        if (expected.isValid()) {
            QCOMPARE(got, expected);
            QCOMPARE(got.timeSpec(), Qt::UTC);
        }
    }

    void shouldWriteKubernetesTimeFormats()
    {
        const QDateTime t(QDate(2024, 5, 1), QTime(12, 0, 0, 123), QTimeZone(7200));
        QCOMPARE(formatTimestamp(t), QStringLiteral("2024-05-01T10:00:00Z"));
        QCOMPARE(formatMicroTime(t), QStringLiteral("2024-05-01T10:00:00.123000Z"));
        QCOMPARE(parseMicroTime(formatMicroTime(t)), t.toUTC());
        QVERIFY(formatTimestamp(QDateTime()).isEmpty());
    }

    void shouldEditMetadataWithoutDroppingFields()
    {
        QJsonObject doc{{"kind", "ConfigMap"},
            {"metadata", QJsonObject{{"name", "a"}, {"x-unknown", "kept"}, {"labels", QJsonObject{{"keep", "1"}}}}},
            {"data", QJsonObject{{"k", "v"}}}};
        MetaEditor m(doc);
        m.setNamespace(QStringLiteral("ns"));
        m.setLabel(QStringLiteral("app"), QStringLiteral("web"));
        m.setAnnotation(QStringLiteral("note"), QStringLiteral("hi"));
        QVERIFY(m.addFinalizer(QStringLiteral("example.com/f")));
        QVERIFY(!m.addFinalizer(QStringLiteral("example.com/f")));
        const QJsonObject meta = doc.value(QLatin1String("metadata")).toObject();
        QCOMPARE(meta.value(QLatin1String("x-unknown")).toString(), QStringLiteral("kept"));
        QCOMPARE(meta.value(QLatin1String("namespace")).toString(), QStringLiteral("ns"));
        QCOMPARE(m.labels(), (Labels{{"keep", "1"}, {"app", "web"}}));
        QCOMPARE(m.annotations().value(QStringLiteral("note")), QStringLiteral("hi"));
        QCOMPARE(doc.value(QLatin1String("data")).toObject().value(QLatin1String("k")).toString(), QStringLiteral("v"));
        QVERIFY(m.removeFinalizer(QStringLiteral("example.com/f")));
        QVERIFY(!doc.value(QLatin1String("metadata")).toObject().contains(QLatin1String("finalizers")));
        m.removeLabel(QStringLiteral("keep"));
        m.removeLabel(QStringLiteral("app"));
        QVERIFY(!doc.value(QLatin1String("metadata")).toObject().contains(QLatin1String("labels")));
    }

    void shouldManageOwnerReferences()
    {
        const Object owner = Object::parse(
            R"({"apiVersion":"example.com/v1alpha1","kind":"MyApplication","metadata":{"name":"app","uid":"u-1"}})")
                                 .value();
        const Object other
            = Object::parse(R"({"apiVersion":"v1","kind":"Other","metadata":{"name":"o","uid":"u-2"}})").value();
        QJsonObject doc{{"metadata", QJsonObject{{"name", "dep"}}}};
        MetaEditor m(doc);
        QVERIFY(m.setControllerReference(owner));
        QCOMPARE(m.ownerReferences().size(), 1);
        QVERIFY(m.ownerReferences().first().controller);
        QVERIFY(m.ownerReferences().first().blockOwnerDeletion);
        QCOMPARE(m.ownerReferences().first().kind, QStringLiteral("MyApplication"));
        QVERIFY(m.setControllerReference(owner)); // idempotent
        QCOMPARE(m.ownerReferences().size(), 1);
        QVERIFY(!m.setControllerReference(other)); // another controller already
        QVERIFY(m.upsertOwnerReference(
            {QStringLiteral("v1"), QStringLiteral("Other"), QStringLiteral("o"), QStringLiteral("u-2"), false, false}));
        QCOMPARE(m.ownerReferences().size(), 2);
        QVERIFY(m.removeOwnerReference(QStringLiteral("u-1")));
        QVERIFY(!m.removeOwnerReference(QStringLiteral("u-1")));
        QCOMPARE(m.ownerReferences().size(), 1);
    }

    void shouldSetConditionsWithTransitionTimes()
    {
        const QDateTime t1(QDate(2024, 5, 1), QTime(10, 0), QTimeZone::utc());
        const QDateTime t2 = t1.addSecs(60);
        QJsonArray cs;
        QVERIFY(setCondition(cs, Condition{"Available", "False", "MinimumReplicasUnavailable", "no", {}, {}, 0}, t1));
        QCOMPARE(
            findCondition(cs, QStringLiteral("Available"))->lastTransitionTime, QStringLiteral("2024-05-01T10:00:00Z"));
        // Same status, new message: transition time kept.
        QVERIFY(
            setCondition(cs, Condition{"Available", "False", "MinimumReplicasUnavailable", "still no", {}, {}, 0}, t2));
        QCOMPARE(
            findCondition(cs, QStringLiteral("Available"))->lastTransitionTime, QStringLiteral("2024-05-01T10:00:00Z"));
        QCOMPARE(findCondition(cs, QStringLiteral("Available"))->message, QStringLiteral("still no"));
        // Nothing changed: reports false.
        QVERIFY(!setCondition(
            cs, Condition{"Available", "False", "MinimumReplicasUnavailable", "still no", {}, {}, 0}, t2));
        // Status flips: transition time moves.
        QVERIFY(setCondition(cs, Condition{"Available", "True", "MinimumReplicasAvailable", "ok", {}, {}, 0}, t2));
        QCOMPARE(
            findCondition(cs, QStringLiteral("Available"))->lastTransitionTime, QStringLiteral("2024-05-01T10:01:00Z"));
        QVERIFY(findCondition(cs, QStringLiteral("Available"))->isTrue());
        QCOMPARE(cs.size(), 1);
        QVERIFY(!findCondition(cs, QStringLiteral("Progressing")));
    }
};

QTEST_GUILESS_MAIN(tst_ObjectMeta)
#include "tst_objectmeta.moc"
