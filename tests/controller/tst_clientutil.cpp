// SPDX-License-Identifier: Apache-2.0
// Client helpers and the traced cached reads: owner references, finalizers, merge patches,
// JSON diffs, retryOnConflict on a FakeClock, trace recording and cancellation.
#include "engine/testing/fakeclock.h"
#include "tests/controller/scriptedreconciler.h"

#include "engine/controller/clientutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace opbench;
using namespace opbench::test;
using namespace std::chrono_literals;

namespace {

Object myApp(const QString &ns, const QString &name, const QString &apiVersion = QStringLiteral("example.com/v1alpha1"))
{
    return Object::fromJson(QJsonObject{{QStringLiteral("apiVersion"), apiVersion},
        {QStringLiteral("kind"), QStringLiteral("MyApplication")},
        {QStringLiteral("metadata"),
            QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), ns},
                {QStringLiteral("uid"), QStringLiteral("uid-") + name}}}});
}

QCoro::Task<Expected<Object>> conflictThenOk(int *calls, int conflicts)
{
    ++*calls;
    if (*calls <= conflicts)
        co_return Status::modifiedConflict(QString(), QStringLiteral("configmaps"), QStringLiteral("a"));
    co_return configMap(QStringLiteral("ns"), QStringLiteral("a"));
}

QCoro::Task<Expected<Object>> notFound(int *calls)
{
    ++*calls;
    co_return Status::notFound(QString(), QStringLiteral("configmaps"), QStringLiteral("a"));
}

} // namespace

class tst_ClientUtil : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void shouldSetControllerReference()
    {
        const Object owner = myApp(QStringLiteral("ns"), QStringLiteral("web"));
        auto r = setControllerReference(owner, configMap(QStringLiteral("ns"), QStringLiteral("child")));
        QVERIFY(r.ok());
        QCOMPARE(r->ownerReferences().size(), 1);
        const OwnerReference ref = r->ownerReferences().first();
        QCOMPARE(ref.apiVersion, QStringLiteral("example.com/v1alpha1"));
        QCOMPARE(ref.kind, QStringLiteral("MyApplication"));
        QCOMPARE(ref.name, QStringLiteral("web"));
        QCOMPARE(ref.uid, QStringLiteral("uid-web"));
        QVERIFY(ref.controller);
        QVERIFY(ref.blockOwnerDeletion);
        // The same owner under another version is replaced in place.
        auto again = setControllerReference(
            myApp(QStringLiteral("ns"), QStringLiteral("web"), QStringLiteral("example.com/v1")), *r);
        QVERIFY(again.ok());
        QCOMPARE(again->ownerReferences().size(), 1);
        QCOMPARE(again->ownerReferences().first().apiVersion, QStringLiteral("example.com/v1"));
    }

    void shouldRefuseOwnerReferencesAgainstTheRules()
    {
        const Object owner = myApp(QStringLiteral("ns"), QStringLiteral("web"));
        auto cross = setControllerReference(owner, configMap(QStringLiteral("other"), QStringLiteral("child")));
        QVERIFY(!cross.ok());
        QVERIFY(cross.error().message().contains(QStringLiteral("cross-namespace")));
        auto cluster = setControllerReference(owner, configMap(QString(), QStringLiteral("child")));
        QVERIFY(!cluster.ok());
        QVERIFY(cluster.error().message().contains(QStringLiteral("cluster-scoped")));
        auto owned = setControllerReference(owner, configMap(QStringLiteral("ns"), QStringLiteral("child")));
        auto stolen = setControllerReference(myApp(QStringLiteral("ns"), QStringLiteral("other")), *owned);
        QVERIFY(!stolen.ok());
        QVERIFY(isAlreadyOwned(stolen.error()));
        QVERIFY(
            stolen.error().message().contains(QStringLiteral("already owned by another MyApplication controller web")));
        // A cluster-scoped owner may own a namespaced object.
        auto ns = Object::fromJson(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("Namespace")},
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("ns")}}}});
        QVERIFY(setControllerReference(ns, configMap(QStringLiteral("ns"), QStringLiteral("child"))).ok());
        // A plain owner reference next to the controller one.
        auto withOwner = setOwnerReference(myApp(QStringLiteral("ns"), QStringLiteral("other")), *owned);
        QVERIFY(withOwner.ok());
        QCOMPARE(withOwner->ownerReferences().size(), 2);
        QCOMPARE(withOwner->controllerReference()->name, QStringLiteral("web"));
    }

    void shouldAddAndRemoveFinalizers()
    {
        const Object cm = configMap(QStringLiteral("ns"), QStringLiteral("a"));
        QVERIFY(!containsFinalizer(cm, QStringLiteral("example.com/cleanup")));
        auto added = addFinalizer(cm, QStringLiteral("example.com/cleanup"));
        QVERIFY(added.changed);
        QVERIFY(containsFinalizer(added.object, QStringLiteral("example.com/cleanup")));
        QVERIFY(!addFinalizer(added.object, QStringLiteral("example.com/cleanup")).changed);
        auto removed = removeFinalizer(added.object, QStringLiteral("example.com/cleanup"));
        QVERIFY(removed.changed);
        QVERIFY(removed.object.finalizers().isEmpty());
        QVERIFY(!removeFinalizer(removed.object, QStringLiteral("example.com/cleanup")).changed);
    }

    void shouldComputeMergePatches()
    {
        const QJsonObject a{
            {QStringLiteral("spec"), QJsonObject{{QStringLiteral("replicas"), 1}, {QStringLiteral("paused"), true}}},
            {QStringLiteral("list"), QJsonArray{1, 2}}};
        const QJsonObject b{{QStringLiteral("spec"), QJsonObject{{QStringLiteral("replicas"), 3}}},
            {QStringLiteral("list"), QJsonArray{1}}};
        const QJsonObject p = createMergePatch(a, b);
        QCOMPARE(p.value(QLatin1String("spec")).toObject().value(QLatin1String("replicas")).toInt(), 3);
        QVERIFY(p.value(QLatin1String("spec")).toObject().value(QLatin1String("paused")).isNull());
        QCOMPARE(p.value(QLatin1String("list")).toArray(), QJsonArray{1});
        QVERIFY(createMergePatch(a, a).isEmpty());

        const Object orig = configMap(QStringLiteral("ns"), QStringLiteral("a"), QStringLiteral("17"));
        const Object mod = configMap(QStringLiteral("ns"), QStringLiteral("a"), QStringLiteral("17"), 1,
            {{QStringLiteral("x"), QStringLiteral("y")}});
        const Patch plain = Patch::mergeFrom(orig, mod);
        QCOMPARE(plain.type(), PatchType::Merge);
        QCOMPARE(plain.data(), QByteArray(R"({"metadata":{"labels":{"x":"y"}}})"));
        const Patch locked = Patch::mergeFrom(orig, mod, true);
        QCOMPARE(QJsonDocument::fromJson(locked.data())
                     .object()
                     .value(QLatin1String("metadata"))
                     .toObject()
                     .value(QLatin1String("resourceVersion"))
                     .toString(),
            QStringLiteral("17"));
        QVERIFY(Patch::mergeFrom(orig, orig).isEmpty());
    }

    void shouldDiffJsonByPath()
    {
        const QJsonObject a{
            {QStringLiteral("spec"),
                QJsonObject{{QStringLiteral("replicas"), 1},
                    {QStringLiteral("containers"),
                        QJsonArray{QJsonObject{{QStringLiteral("image"), QStringLiteral("nginx:1")}}}}}},
            {QStringLiteral("gone"), true}};
        const QJsonObject b{
            {QStringLiteral("spec"),
                QJsonObject{{QStringLiteral("replicas"), 2},
                    {QStringLiteral("containers"),
                        QJsonArray{QJsonObject{{QStringLiteral("image"), QStringLiteral("nginx:2")}}}}}},
            {QStringLiteral("added"), QStringLiteral("x")}};
        const QList<DiffEntry> d = jsonDiff(a, b);
        QCOMPARE(d.size(), 4);
        QCOMPARE(d.at(0).path, QStringLiteral("added"));
        QVERIFY(d.at(0).oldValue.isUndefined());
        QCOMPARE(d.at(1).path, QStringLiteral("gone"));
        QVERIFY(d.at(1).newValue.isUndefined());
        QCOMPARE(d.at(2).path, QStringLiteral("spec.containers[0].image"));
        QCOMPARE(d.at(2).newValue.toString(), QStringLiteral("nginx:2"));
        QCOMPARE(d.at(3).path, QStringLiteral("spec.replicas"));
        QCOMPARE(d.at(3).oldValue.toInt(), 1);
        QVERIFY(jsonDiff(a, a).isEmpty());
    }

    void shouldRetryOnConflict_data()
    {
        QTest::addColumn<int>("conflicts");
        QTest::addColumn<int>("expectedCalls");
        QTest::addColumn<bool>("ok");
        QTest::newRow("no conflict") << 0 << 1 << true;
        QTest::newRow("two conflicts") << 2 << 3 << true;
        QTest::newRow("always") << 100 << 5 << false;
    }
    void shouldRetryOnConflict()
    {
        QFETCH(int, conflicts);
        QFETCH(int, expectedCalls);
        QFETCH(bool, ok);
        testing::FakeClock clock;
        int calls = 0;
        std::optional<Expected<Object>> result;
        auto task = retryOnConflict(Backoff::defaultRetry(), std::bind(conflictThenOk, &calls, conflicts), &clock)
                        .then([&result](Expected<Object> r) { result = std::move(r); });
        for (int i = 0; i < 20 && !result; ++i) {
            clock.advance(10ms); // DefaultRetry waits 10-11 ms between tries
            clock.advance(2ms);
            QCoreApplication::processEvents();
        }
        QVERIFY(result);
        QCOMPARE(calls, expectedCalls);
        QCOMPARE(result->ok(), ok);
        if (!ok)
            QVERIFY(isConflict(result->error()));
    }

    void shouldNotRetryOtherErrors()
    {
        testing::FakeClock clock;
        int calls = 0;
        const Expected<Object> r
            = QCoro::waitFor(retryOnConflict(Backoff::defaultRetry(), std::bind(notFound, &calls), &clock));
        QCOMPARE(calls, 1);
        QVERIFY(isNotFound(r.error()));
        QCOMPARE(Backoff::defaultBackoff().steps, 4);
        const Backoff noJitter{10ms, 5.0, 0.0, 4};
        QCOMPARE(noJitter.waitAfter(1), Clock::Duration(10ms));
        QCOMPARE(noJitter.waitAfter(3), Clock::Duration(250ms));
    }

    void shouldTraceCachedReads()
    {
        testing::FakeClock clock;
        InformerCache cache(InformerCacheOptions{});
        (*cache.informerFor(configMapGvk()))
            ->replaceAll({configMap(QStringLiteral("ns"), QStringLiteral("a"))}, QStringLiteral("3"));
        Client client(&cache, nullptr, &clock);
        auto scope = std::make_shared<detail::ReconcileScope>();
        scope->trace.id = QStringLiteral("r1");
        const ReconcileContext ctx(scope);
        QVERIFY(QCoro::waitFor(client.get(ctx, configMapGvk(), QStringLiteral("ns"), QStringLiteral("a"))).ok());
        const Expected<Object> missing
            = QCoro::waitFor(client.get(ctx, configMapGvk(), QStringLiteral("ns"), QStringLiteral("b")));
        QVERIFY(isNotFound(missing.error()));
        CacheListOptions lo;
        lo.namespaceName = QStringLiteral("ns");
        const auto listed = QCoro::waitFor(client.list(ctx, configMapGvk(), lo));
        QCOMPARE(listed->size(), 1);
        const QList<TraceCall> calls = ctx.calls();
        QCOMPARE(calls.size(), 3);
        QCOMPARE(calls.at(0).verb, QStringLiteral("get"));
        QCOMPARE(calls.at(0).key, QStringLiteral("ns/a"));
        QVERIFY(calls.at(0).fromCache);
        QCOMPARE(calls.at(0).code, 200);
        QCOMPARE(calls.at(1).code, 404);
        QCOMPARE(calls.at(1).reason, QStringLiteral("NotFound"));
        QCOMPARE(calls.at(2).verb, QStringLiteral("list"));
        QCOMPARE(calls.at(2).items, 1);
        // The background context records nothing.
        QVERIFY(
            QCoro::waitFor(client.get(ReconcileContext(), configMapGvk(), QStringLiteral("ns"), QStringLiteral("a")))
                .ok());
        QCOMPARE(ctx.calls().size(), 3);
    }

    void shouldFailFastWhenCancelled()
    {
        testing::FakeClock clock;
        InformerCache cache(InformerCacheOptions{});
        (*cache.informerFor(configMapGvk()))
            ->replaceAll({configMap(QStringLiteral("ns"), QStringLiteral("a"))}, QStringLiteral("3"));
        Client client(&cache, nullptr, &clock);
        auto scope = std::make_shared<detail::ReconcileScope>();
        scope->cancelled = true;
        scope->cancelReason = QStringLiteral("context deadline exceeded");
        const ReconcileContext ctx(scope);
        const Expected<Object> r
            = QCoro::waitFor(client.get(ctx, configMapGvk(), QStringLiteral("ns"), QStringLiteral("a")));
        QVERIFY(!r.ok());
        QCOMPARE(r.error().reason(), QStringLiteral("Cancelled"));
        QCOMPARE(r.error().message(), QStringLiteral("context deadline exceeded"));
        QCOMPARE(ctx.calls().size(), 1);
        // Writes of an unknown kind fail before reaching the server.
        const Expected<Object> w
            = QCoro::waitFor(client.create(ReconcileContext(), myApp(QStringLiteral("ns"), QStringLiteral("x"))));
        QVERIFY(isNotFound(w.error()));
        QVERIFY(w.error().message().contains(QStringLiteral("no matches for kind")));
    }
};

QTEST_GUILESS_MAIN(tst_ClientUtil)
#include "tst_clientutil.moc"
