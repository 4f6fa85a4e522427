// SPDX-License-Identifier: Apache-2.0
// Cached reads over informers fed directly (network side: tst_reflector).
#include "engine/cache/informercache.h"
#include "engine/testing/fakeclock.h"
#include "tests/support/eventloop.h"

#include <QJsonArray>
#include <QTest>

#include <qcoro/qcorotask.h>

using namespace opbench;

namespace {
const GroupVersionKind PodKind{QString(), QStringLiteral("v1"), QStringLiteral("Pod")};

Object pod(const QString &ns, const QString &name, const QString &node, const QString &app)
{
    return Object::fromJson(
        {{QStringLiteral("apiVersion"), QStringLiteral("v1")}, {QStringLiteral("kind"), QStringLiteral("Pod")},
            {QStringLiteral("metadata"),
                QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), ns},
                    {QStringLiteral("resourceVersion"), QStringLiteral("1")},
                    {QStringLiteral("labels"), QJsonObject{{QStringLiteral("app"), app}}}}},
            {QStringLiteral("spec"), QJsonObject{{QStringLiteral("nodeName"), node}}}});
}

QStringList keys(const QList<Object> &objs)
{
    QStringList out;
    for (const Object &o : objs)
        out << o.key();
    out.sort();
    return out;
}

CacheListOptions opts(const QString &ns, const QString &labels, const QString &fields)
{
    CacheListOptions o;
    o.namespaceName = ns;
    o.labelSelector = LabelSelector::parse(labels).value();
    o.fieldSelector = FieldSelector::parse(fields).value();
    return o;
}
} // namespace

namespace {
QCoro::Task<void> readInto(InformerCache *cache, std::optional<Expected<Object>> *out)
{
    Expected<Object> r = co_await cache->get(
        {QString(), QStringLiteral("v1"), QStringLiteral("ConfigMap")}, QStringLiteral("a"), QStringLiteral("x"));
    out->emplace(std::move(r));
}
QCoro::Task<void> waitInto(InformerCache *cache, std::chrono::milliseconds timeout, std::optional<bool> *out)
{
    const bool r = co_await cache->waitForCacheSync(timeout);
    *out = r;
}
} // namespace

class tst_InformerCache : public QObject
{
    Q_OBJECT
private:
    InformerCache *m_cache = nullptr;

private Q_SLOTS:
    void init()
    {
        InformerCacheOptions o;
        o.syncTimeout = std::chrono::milliseconds(200);
        m_cache = new InformerCache(std::move(o), this);
        Informer *inf = m_cache->informerFor(PodKind).value();
        QVERIFY(m_cache
                    ->indexField(PodKind, QStringLiteral("spec.nodeName"),
                        [](const Object &p) {
                            return QStringList{p.value({QLatin1String("spec"), QLatin1String("nodeName")}).toString()};
                        })
                    .ok());
        inf->replaceAll({pod(QStringLiteral("a"), QStringLiteral("p1"), QStringLiteral("n1"), QStringLiteral("web")),
                            pod(QStringLiteral("a"), QStringLiteral("p2"), QStringLiteral("n2"), QStringLiteral("web")),
                            pod(QStringLiteral("b"), QStringLiteral("p3"), QStringLiteral("n1"), QStringLiteral("db"))},
            QStringLiteral("10"));
    }
    void cleanup() { delete m_cache; }

    // Finding 9: a read outside the cached namespace says so; NotFound would make a reconciler
    // create what already exists (409), and an empty list would hide everything.
    void shouldRefuseReadsOutsideTheCachedNamespace()
    {
        InformerCacheOptions o;
        o.defaultScope.namespaceName = QStringLiteral("a");
        o.syncTimeout = std::chrono::milliseconds(200);
        InformerCache cache(std::move(o));
        cache.informerFor(PodKind).value()->replaceAll(
            {pod(QStringLiteral("a"), QStringLiteral("p1"), QStringLiteral("n1"), QStringLiteral("web"))},
            QStringLiteral("10"));
        QVERIFY(QCoro::waitFor(cache.get(PodKind, QStringLiteral("a"), QStringLiteral("p1"))).ok());
        auto other = QCoro::waitFor(cache.get(PodKind, QStringLiteral("b"), QStringLiteral("p3")));
        QVERIFY(!other.ok());
        QVERIFY(!isNotFound(other.error()));
        QVERIFY(isUnknownNamespace(other.error()));
        QCOMPARE(
            other.error().message(), QStringLiteral("unable to get: b/p3 because of unknown namespace for the cache"));
        auto listOther = QCoro::waitFor(cache.list(PodKind, opts(QStringLiteral("b"), {}, {})));
        QVERIFY(!listOther.ok());
        QVERIFY(isUnknownNamespace(listOther.error()));
        auto all = QCoro::waitFor(cache.list(PodKind));
        QVERIFY(all.ok());
        QCOMPARE(keys(*all), QStringList{QStringLiteral("a/p1")});
    }

    void shouldReadEveryNamespaceOfASeveralNamespaceScope()
    {
        InformerCacheOptions o;
        o.defaultScope.namespaces = {QStringLiteral("a"), QStringLiteral("b")};
        o.syncTimeout = std::chrono::milliseconds(200);
        InformerCache cache(std::move(o));
        Informer *inf = cache.informerFor(PodKind).value();
        QCOMPARE(inf->options().namespaces, (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
        inf->replaceAll({pod(QStringLiteral("a"), QStringLiteral("p1"), QStringLiteral("n1"), QStringLiteral("web")),
                            pod(QStringLiteral("b"), QStringLiteral("p3"), QStringLiteral("n1"), QStringLiteral("db"))},
            QStringLiteral("10"));
        QVERIFY(QCoro::waitFor(cache.get(PodKind, QStringLiteral("a"), QStringLiteral("p1"))).ok());
        QVERIFY(QCoro::waitFor(cache.get(PodKind, QStringLiteral("b"), QStringLiteral("p3"))).ok());
        auto missing = QCoro::waitFor(cache.get(PodKind, QStringLiteral("b"), QStringLiteral("nope")));
        QVERIFY(!missing.ok());
        QVERIFY(isNotFound(missing.error())); // inside the scope: a plain NotFound
        auto outside = QCoro::waitFor(cache.get(PodKind, QStringLiteral("c"), QStringLiteral("p9")));
        QVERIFY(!outside.ok());
        QVERIFY(isUnknownNamespace(outside.error()));
        auto inB = QCoro::waitFor(cache.list(PodKind, opts(QStringLiteral("b"), {}, {})));
        QVERIFY(inB.ok());
        QCOMPARE(keys(*inB), QStringList{QStringLiteral("b/p3")});
        QVERIFY(!QCoro::waitFor(cache.list(PodKind, opts(QStringLiteral("c"), {}, {}))).ok());
    }

    // The related low finding: a cluster-scoped kind read with a namespace (controller-runtime
    // drops it) finds the object instead of saying NotFound.
    void shouldIgnoreTheNamespaceOfAClusterScopedRead()
    {
        const GroupVersionKind nsKind{QString(), QStringLiteral("v1"), QStringLiteral("Namespace")};
        InformerCacheOptions o;
        o.defaultScope.namespaceName = QStringLiteral("a");
        o.syncTimeout = std::chrono::milliseconds(200);
        InformerCache cache(std::move(o));
        cache.informerFor(nsKind).value()->replaceAll(
            {Object::fromJson({{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                {QStringLiteral("kind"), QStringLiteral("Namespace")},
                {QStringLiteral("metadata"),
                    QJsonObject{{QStringLiteral("name"), QStringLiteral("team-x")},
                        {QStringLiteral("resourceVersion"), QStringLiteral("1")}}}})},
            QStringLiteral("10"));
        auto got = QCoro::waitFor(cache.get(nsKind, QStringLiteral("a"), QStringLiteral("team-x")));
        QVERIFY2(got.ok(), got.ok() ? "" : qPrintable(got.error().message()));
        QCOMPARE(got->name(), QStringLiteral("team-x"));
        auto listed = QCoro::waitFor(cache.list(nsKind, opts(QStringLiteral("b"), {}, {})));
        QVERIFY(listed.ok());
        QCOMPARE(listed->size(), 1);
    }

    void shouldShareOneInformerPerKind()
    {
        QCOMPARE(m_cache->informerFor(PodKind).value(), m_cache->informerFor(PodKind).value());
        QCOMPARE(m_cache->informers().size(), 1);
        QVERIFY(m_cache->hasSynced());
    }

    void getShouldReadTheCacheAndSayNotFoundLikeTheServer()
    {
        auto found = QCoro::waitFor(m_cache->get(PodKind, QStringLiteral("a"), QStringLiteral("p2")));
        QVERIFY(found.ok());
        QCOMPARE(found->name(), QStringLiteral("p2"));
        auto missing = QCoro::waitFor(m_cache->get(PodKind, QStringLiteral("a"), QStringLiteral("nope")));
        QVERIFY(!missing.ok());
        QVERIFY(isNotFound(missing.error()));
        QCOMPARE(missing.error().message(), QStringLiteral("pods \"nope\" not found"));
    }

    void listShouldFilterByNamespaceLabelsAndIndexedFields_data()
    {
        QTest::addColumn<QString>("ns");
        QTest::addColumn<QString>("labels");
        QTest::addColumn<QString>("fields");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("all") << ""
                             << ""
                             << "" << QStringList{"a/p1", "a/p2", "b/p3"};
        QTest::newRow("namespace") << "a"
                                   << ""
                                   << "" << QStringList{"a/p1", "a/p2"};
        QTest::newRow("labels") << ""
                                << "app=web"
                                << "" << QStringList{"a/p1", "a/p2"};
        QTest::newRow("label notin") << ""
                                     << "app notin (web)"
                                     << "" << QStringList{"b/p3"};
        QTest::newRow("indexed field all ns") << ""
                                              << ""
                                              << "spec.nodeName=n1" << QStringList{"a/p1", "b/p3"};
        QTest::newRow("indexed field in ns") << "a"
                                             << ""
                                             << "spec.nodeName=n1" << QStringList{"a/p1"};
        QTest::newRow("field and labels") << ""
                                          << "app=db"
                                          << "spec.nodeName=n1" << QStringList{"b/p3"};
        QTest::newRow("metadata.name") << ""
                                       << ""
                                       << "metadata.name=p2" << QStringList{"a/p2"};
        QTest::newRow("indexed != ") << ""
                                     << ""
                                     << "spec.nodeName=n1,metadata.namespace!=a" << QStringList{"b/p3"};
    }
    void listShouldFilterByNamespaceLabelsAndIndexedFields()
    {
        QFETCH(QString, ns);
        QFETCH(QString, labels);
        QFETCH(QString, fields);
        QFETCH(QStringList, expected);
        auto r = QCoro::waitFor(m_cache->list(PodKind, opts(ns, labels, fields)));
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message()));
        QCOMPARE(keys(*r), expected);
    }

    void listByAnUnindexedFieldShouldSayWhichFieldToIndex()
    {
        auto r = QCoro::waitFor(m_cache->list(PodKind, opts({}, {}, QStringLiteral("status.phase=Running"))));
        QVERIFY(!r.ok());
        QVERIFY(isBadRequest(r.error()));
        QVERIFY(r.error().message().contains(QLatin1String("status.phase")));
    }

    void syncTimeoutShouldRunOnTheCachesClock()
    {
        // Runtime review #18: a read of a kind that never syncs gives up after syncTimeout on the
        // injected clock (it used real time: a FakeClock test could not reach the timeout).
        testing::FakeClock clock;
        InformerCacheOptions o;
        o.clock = &clock;
        o.syncTimeout = std::chrono::minutes(2);
        InformerCache cache(std::move(o));
        std::optional<Expected<Object>> read;
        readInto(&cache, &read);
        testing::drainEventLoop(); // everything queued ran; only the fake clock can end the wait
        QVERIFY(!read.has_value());
        clock.advance(std::chrono::minutes(2));
        QTRY_VERIFY_WITH_TIMEOUT(read.has_value(), 3000);
        QVERIFY(!read->ok());
        QVERIFY(isTimeout(read->error()));
        // waitForCacheSync likewise.
        std::optional<bool> synced;
        waitInto(&cache, std::chrono::minutes(1), &synced);
        testing::drainEventLoop();
        QVERIFY(!synced.has_value());
        clock.advance(std::chrono::minutes(1));
        QTRY_VERIFY_WITH_TIMEOUT(synced.has_value(), 3000);
        QVERIFY(!*synced);
    }

    void unknownKindsAndUnsyncedCachesFailClearly()
    {
        auto unknown
            = m_cache->informerFor({QStringLiteral("example.com"), QStringLiteral("v1"), QStringLiteral("Widget")});
        QVERIFY(!unknown.ok());
        QVERIFY(unknown.error().message().contains(QLatin1String("Widget")));
        // A kind nobody feeds never syncs: the read times out (syncTimeout 200 ms) with a 504.
        auto r = QCoro::waitFor(m_cache->get(
            {QString(), QStringLiteral("v1"), QStringLiteral("ConfigMap")}, QStringLiteral("a"), QStringLiteral("x")));
        QVERIFY(!r.ok());
        QVERIFY(isTimeout(r.error()));
        QVERIFY(r.error().message().contains(QLatin1String("ConfigMap")));
    }
};

QTEST_GUILESS_MAIN(tst_InformerCache)
#include "tst_informercache.moc"
