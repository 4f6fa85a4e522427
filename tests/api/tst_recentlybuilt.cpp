// SPDX-License-Identifier: Apache-2.0
// RecentlyBuilt (engine/base/recentlybuilt.h): a value built for a key is returned again without
// building, shared (a QJsonObject's data is the same), and the oldest key makes room for a new
// one once N are kept.
#include "engine/base/recentlybuilt.h"

#include <QJsonObject>
#include <QTest>

#include <tuple>

using opbench::RecentlyBuilt;

class TestRecentlyBuilt : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void shouldBuildEachKeyOnceAndShareTheValue()
    {
        RecentlyBuilt<std::tuple<QString, bool>, QJsonObject, 4> recent;
        int builds = 0;
        const auto build = [&builds](const QString &name, bool flag) {
            ++builds;
            return QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("flag"), flag}};
        };
        const auto get = [&](const QString &name, bool flag) {
            return recent.get(std::tuple(name, flag), [&] { return build(name, flag); });
        };
        const QJsonObject a = get(QStringLiteral("a"), true);
        const QJsonObject again = get(QStringLiteral("a"), true);
        QCOMPARE(builds, 1);
        QCOMPARE(again, a);
        QCOMPARE(again.value(QLatin1String("name")).toString(), QStringLiteral("a"));
        const QJsonObject other = get(QStringLiteral("a"), false); // every part of the key counts
        QCOMPARE(builds, 2);
        QCOMPARE(other.value(QLatin1String("flag")).toBool(), false);
        QCOMPARE(recent.size(), std::size_t(2));
    }

    void shouldForgetTheOldestKeyWhenFull()
    {
        RecentlyBuilt<int, int, 3> recent;
        int builds = 0;
        const auto get = [&](int key) { return recent.get(key, [&] { return ++builds, key * 10; }); };
        QCOMPARE(get(1), 10);
        QCOMPARE(get(2), 20);
        QCOMPARE(get(3), 30);
        QCOMPARE(builds, 3);
        QCOMPARE(get(4), 40); // replaces 1, the oldest
        QCOMPARE(recent.size(), std::size_t(3));
        QCOMPARE(get(2), 20);
        QCOMPARE(get(3), 30);
        QCOMPARE(builds, 4);
        QCOMPARE(get(1), 10); // built again
        QCOMPARE(builds, 5);
    }
};

QTEST_GUILESS_MAIN(TestRecentlyBuilt)
#include "tst_recentlybuilt.moc"
