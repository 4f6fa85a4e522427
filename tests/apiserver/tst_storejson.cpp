// SPDX-License-Identifier: Apache-2.0
// Store::jsonOf(): the decoded document of the object asked for, never that of an earlier version
// of the same object or of another object (the store remembers the last few it decoded).
#include "engine/apiserver/storage/store.h"
#include "engine/testing/fakeclock.h"

#include <QtTest>

using namespace opbench;
using namespace opbench::apiserver;

namespace {
const GroupVersionResource kConfigMaps{QString(), QStringLiteral("v1"), QStringLiteral("configmaps")};
const QString kNs = QStringLiteral("default");

QJsonObject configMap(const QString &name, const QString &value)
{
    return {{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}},
        {QStringLiteral("data"), QJsonObject{{QStringLiteral("k"), value}}}};
}
} // namespace

class TestStoreJson : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldDecodeEachVersionOfAnObject()
    {
        testing::FakeClock clock;
        Store store(&clock);
        auto first = store.create(kConfigMaps, kNs, configMap(QStringLiteral("a"), QStringLiteral("one")));
        QVERIFY(first);
        QCOMPARE(store.jsonOf(*first), first->json());
        auto second = store.update(
            kConfigMaps, kNs, QStringLiteral("a"), configMap(QStringLiteral("a"), QStringLiteral("two")));
        QVERIFY(second);
        // same key, a new version: decoded anew, not the remembered first one
        QCOMPARE(store.jsonOf(*second), second->json());
        QCOMPARE(store.jsonOf(*second).value(QLatin1String("data")).toObject().value(QLatin1String("k")).toString(),
            QStringLiteral("two"));
        QCOMPARE(store.jsonOf(*first), first->json());
    }

    void shouldDecodeManyObjectsInTurn()
    {
        testing::FakeClock clock;
        Store store(&clock);
        QList<Object> objects;
        for (int i = 0; i < 40; ++i) {
            auto o = store.create(kConfigMaps, kNs, configMap(QStringLiteral("c%1").arg(i), QString::number(i)));
            QVERIFY(o);
            objects << *o;
        }
        for (int round = 0; round < 2; ++round) {
            for (const Object &o : std::as_const(objects))
                QCOMPARE(store.jsonOf(o), o.json());
        }
        QCOMPARE(store.jsonOf(Object()), QJsonObject());
    }

    void shouldTellAConvertedCopyFromTheStoredObject()
    {
        // the same name and resourceVersion, another document (a served form, say)
        testing::FakeClock clock;
        Store store(&clock);
        auto stored = store.create(kConfigMaps, kNs, configMap(QStringLiteral("b"), QStringLiteral("x")));
        QVERIFY(stored);
        QCOMPARE(store.jsonOf(*stored), stored->json());
        QJsonObject changed = stored->json();
        changed.insert(QStringLiteral("apiVersion"), QStringLiteral("v1beta1"));
        const Object copy = Object::fromJson(changed);
        QCOMPARE(copy.resourceVersion(), stored->resourceVersion());
        QCOMPARE(store.jsonOf(copy), changed);
    }
};

QTEST_GUILESS_MAIN(TestStoreJson)
#include "tst_storejson.moc"
