// SPDX-License-Identifier: Apache-2.0
#include "engine/cache/history.h"

#include <QTest>

using namespace opbench;

namespace {
Object cm(const QString &name, const QString &rv, const QString &value)
{
    return Object::fromJson(
        {{QStringLiteral("apiVersion"), QStringLiteral("v1")}, {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
            {QStringLiteral("metadata"),
                QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), QStringLiteral("d")},
                    {QStringLiteral("resourceVersion"), rv}}},
            {QStringLiteral("data"), QJsonObject{{QStringLiteral("v"), value}}}});
}
QString valueOf(const QHash<QString, Object> &content, const QString &key)
{
    return content.value(key).value({QLatin1String("data"), QLatin1String("v")}).toString();
}
} // namespace

class tst_History : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldRebuildTheCacheAtAnEarlierResourceVersion()
    {
        // Given: a at rv 10, b at 11, a modified at 12, b deleted at 13, c added at 14.
        CacheHistory h(100);
        const Object a10 = cm(QStringLiteral("a"), QStringLiteral("10"), QStringLiteral("one"));
        const Object b11 = cm(QStringLiteral("b"), QStringLiteral("11"), QStringLiteral("bee"));
        const Object a12 = cm(QStringLiteral("a"), QStringLiteral("12"), QStringLiteral("two"));
        const Object c14 = cm(QStringLiteral("c"), QStringLiteral("14"), QStringLiteral("sea"));
        using T = CacheChange::Type;
        h.record({T::Added, a10.key(), QStringLiteral("10"), {}, {}, a10});
        h.record({T::Added, b11.key(), QStringLiteral("11"), {}, {}, b11});
        h.record({T::Modified, a12.key(), QStringLiteral("12"), {}, a10, a12});
        h.record({T::Deleted, b11.key(), QStringLiteral("13"), {}, b11, {}});
        h.record({T::Added, c14.key(), QStringLiteral("14"), {}, {}, c14});
        const QHash<QString, Object> now{{a12.key(), a12}, {c14.key(), c14}};

        // When/Then: each earlier version shows exactly what the cache held then.
        auto at11 = h.contentAt(QStringLiteral("11"), now);
        QVERIFY(at11);
        QCOMPARE(at11->size(), 2);
        QCOMPARE(valueOf(*at11, QStringLiteral("d/a")), QStringLiteral("one"));
        QCOMPARE(valueOf(*at11, QStringLiteral("d/b")), QStringLiteral("bee"));
        auto at13 = h.contentAt(QStringLiteral("13"), now);
        QCOMPARE(at13->keys(), QList<QString>{QStringLiteral("d/a")});
        QCOMPARE(valueOf(*at13, QStringLiteral("d/a")), QStringLiteral("two"));
        QCOMPARE(h.contentAt(QStringLiteral("14"), now)->size(), 2);
        QCOMPARE(h.contentAt(QStringLiteral("9"), now)->size(), 0);
        QCOMPARE(h.changesFor(QStringLiteral("d/a")).size(), 2);
    }

    void shouldForgetOldestChangesAndRefuseUnreachableVersions()
    {
        CacheHistory h(2);
        using T = CacheChange::Type;
        for (int rv = 1; rv <= 5; ++rv) {
            const Object o = cm(QStringLiteral("x%1").arg(rv), QString::number(rv), {});
            h.record({T::Added, o.key(), QString::number(rv), {}, {}, o});
        }
        QCOMPARE(int(h.changes().size()), 2);
        QCOMPARE(h.oldestReachable(), QStringLiteral("3"));
        QVERIFY(!h.contentAt(QStringLiteral("2"), {}).has_value());
        QVERIFY(h.contentAt(QStringLiteral("3"), {}).has_value());
    }

    void resourceVersionsCompareNumerically()
    {
        QVERIFY(compareResourceVersions(QStringLiteral("9"), QStringLiteral("10")) < 0);
        QCOMPARE(compareResourceVersions(QStringLiteral("10"), QStringLiteral("10")), 0);
    }

    void disabledHistoryRecordsNothing()
    {
        CacheHistory h;
        const Object o = cm(QStringLiteral("a"), QStringLiteral("1"), {});
        h.record({CacheChange::Type::Added, o.key(), QStringLiteral("1"), {}, {}, o});
        QVERIFY(h.changes().empty());
    }
};

QTEST_GUILESS_MAIN(tst_History)
#include "tst_history.moc"
