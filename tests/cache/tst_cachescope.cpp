// SPDX-License-Identifier: Apache-2.0
// A cache over several namespaces against the embedded API server over real HTTP: one list +
// watch per namespace into one store, nothing from the others, and reads outside the scope
// refused as "unknown namespace" (controller-runtime's multi-namespace cache).
#include "engine/cache/informercache.h"
#include "engine/client/restclient.h"
#include "tests/support/testapiserver.h"

#include <QTest>

#include <qcoro/qcorotask.h>

using namespace opbench;
using testing::TestApiServer;

namespace {
const GroupVersionResource ConfigMaps{QString(), QStringLiteral("v1"), QStringLiteral("configmaps")};
const GroupVersionResource Namespaces{QString(), QStringLiteral("v1"), QStringLiteral("namespaces")};
const GroupVersionKind ConfigMapKind{QString(), QStringLiteral("v1"), QStringLiteral("ConfigMap")};

Object configMap(const QString &ns, const QString &name)
{
    return Object::fromJson({{QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), ns}}}});
}

Object namespaceObject(const QString &name)
{
    return Object::fromJson(
        {{QStringLiteral("apiVersion"), QStringLiteral("v1")}, {QStringLiteral("kind"), QStringLiteral("Namespace")},
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}}});
}
} // namespace

class tst_CacheScope : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<TestApiServer> m_api;
    std::unique_ptr<RestClient> m_client;

    QStringList cachedKeys(InformerCache &cache)
    {
        auto all = QCoro::waitFor(cache.list(ConfigMapKind));
        QStringList out;
        if (all.ok())
            for (const Object &o : *all)
                out << o.key();
        out.sort();
        return out;
    }

private Q_SLOTS:
    void init()
    {
        m_api = std::make_unique<TestApiServer>();
        QVERIFY2(m_api->start(), qPrintable(m_api->errorString()));
        auto config = loadConfig(m_api->kubeconfigPath());
        QVERIFY(config.ok());
        m_client = std::make_unique<RestClient>(std::move(*config));
        for (const QString &ns : {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}) {
            (void)QCoro::waitFor(m_client->create(Namespaces, QString(), namespaceObject(ns))); // may exist already
            auto created = QCoro::waitFor(m_client->create(ConfigMaps, ns, configMap(ns, QStringLiteral("one"))));
            QVERIFY2(created.ok(), created.ok() ? "" : qPrintable(created.error().message()));
        }
    }
    void cleanup()
    {
        m_client.reset();
        m_api.reset();
    }

    void shouldCacheExactlyTheNamespacesAskedFor()
    {
        InformerCacheOptions o;
        o.client = m_client.get();
        o.defaultScope.namespaces = {QStringLiteral("a"), QStringLiteral("b")};
        InformerCache cache(std::move(o));
        cache.start();
        QCOMPARE(cachedKeys(cache), (QStringList{QStringLiteral("a/one"), QStringLiteral("b/one")}));
        QVERIFY(cache.hasSynced());

        // Changes in either namespace arrive through its own watch; the third stays out.
        QVERIFY(QCoro::waitFor(
            m_client->create(ConfigMaps, QStringLiteral("b"), configMap(QStringLiteral("b"), QStringLiteral("two"))))
                    .ok());
        QVERIFY(QCoro::waitFor(
            m_client->create(ConfigMaps, QStringLiteral("c"), configMap(QStringLiteral("c"), QStringLiteral("two"))))
                    .ok());
        QVERIFY(QCoro::waitFor(m_client->remove(ConfigMaps, QStringLiteral("a"), QStringLiteral("one"))).ok());
        QTRY_COMPARE(cachedKeys(cache), (QStringList{QStringLiteral("b/one"), QStringLiteral("b/two")}));

        auto outside = QCoro::waitFor(cache.get(ConfigMapKind, QStringLiteral("c"), QStringLiteral("one")));
        QVERIFY(!outside.ok());
        QVERIFY(isUnknownNamespace(outside.error()));
        QVERIFY(!isNotFound(outside.error()));
        auto listOutside = QCoro::waitFor(cache.list(ConfigMapKind, CacheListOptions{QStringLiteral("c"), {}, {}, 0}));
        QVERIFY(!listOutside.ok());
        QVERIFY(isUnknownNamespace(listOutside.error()));
        auto inside = QCoro::waitFor(cache.get(ConfigMapKind, QStringLiteral("b"), QStringLiteral("two")));
        QVERIFY(inside.ok());
    }
};

QTEST_GUILESS_MAIN(tst_CacheScope)
#include "tst_cachescope.moc"
