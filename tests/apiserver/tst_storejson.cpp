// SPDX-License-Identifier: Apache-2.0
// Store::jsonOf(): the decoded document of the object asked for, never that of an earlier version
// of the same object or of another object (the store remembers the last few it decoded).
#include "engine/apiserver/storage/store.h"
#include "engine/testing/fakeclock.h"

#include <QtTest>

#include <memory>
#include <optional>

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
    testing::FakeClock m_clock;
    std::unique_ptr<Store> m_store;

    /// Creates ConfigMap `name` and checks that its first decode is its own document.
    std::optional<Object> createChecked(const QString &name, const QString &value)
    {
        auto o = m_store->create(kConfigMaps, kNs, configMap(name, value));
        if (!o || m_store->jsonOf(*o) != o->json())
            return std::nullopt;
        return *o;
    }

private Q_SLOTS:
    void init() { m_store = std::make_unique<Store>(&m_clock); }

    void shouldDecodeEachVersionOfAnObject()
    {
        auto first = createChecked(QStringLiteral("a"), QStringLiteral("one"));
        QVERIFY(first);
        Store &store = *m_store;
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
        Store &store = *m_store;
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
        auto stored = createChecked(QStringLiteral("b"), QStringLiteral("x"));
        QVERIFY(stored);
        Store &store = *m_store;
        QJsonObject changed = stored->json();
        changed.insert(QStringLiteral("apiVersion"), QStringLiteral("v1beta1"));
        const Object copy = Object::fromJson(changed);
        QCOMPARE(copy.resourceVersion(), stored->resourceVersion());
        QCOMPARE(store.jsonOf(copy), changed);
    }
};

QTEST_GUILESS_MAIN(TestStoreJson)
#include "tst_storejson.moc"
