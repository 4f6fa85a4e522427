// SPDX-License-Identifier: Apache-2.0
// The g++ 12 coroutine trap, made impossible to hit silently. Inside a co_await expression,
// g++ 12 destroys twice an aggregate temporary with non-trivially-destructible members
// (`Key{ns, name}`) and a lambda's by-value captures (heap-use-after-free; reproduced in
// /work/corotrap). So:
// - compile time: no public type a caller builds inside an awaited call's arguments is an
//   aggregate with non-trivial members (each has a constructor), and callbacks given to awaited
//   calls are refused unless trivially destructible (a static_assert naming the trap);
// - run time: the natural calls, with every such temporary built inside `co_await`, against
//   the embedded API server over loopback. Under ASan (packaging/sanitize.sh) a type that
//   regresses to an aggregate is a heap-use-after-free here.
#include "tests/controller/testkinds.h"
#include "tests/support/testapiserver.h"

#include "engine/controller/client.h"
#include "engine/controller/clientutil.h"

#include <QTest>

#include <type_traits>

using namespace opbench;
using namespace opbench::test;
using testing::TestApiServer;

namespace {

/// Safe inside co_await: not an aggregate, or nothing to destroy.
template<class T> constexpr bool awaitSafe = !std::is_aggregate_v<T> || std::is_trivially_destructible_v<T>;

#define OPBENCH_AWAIT_SAFE(T)                                                                                          \
    static_assert(awaitSafe<T>,                                                                                        \
        #T " is an aggregate with non-trivial members: give it a constructor (g++ 12 "                                 \
           "destroys such temporaries twice inside co_await)")

OPBENCH_AWAIT_SAFE(ObjectKey);
OPBENCH_AWAIT_SAFE(InNamespace);
OPBENCH_AWAIT_SAFE(MatchingLabels);
OPBENCH_AWAIT_SAFE(MatchingLabelsSelector);
OPBENCH_AWAIT_SAFE(MatchingFields);
OPBENCH_AWAIT_SAFE(Limit);
OPBENCH_AWAIT_SAFE(GetOptions);
OPBENCH_AWAIT_SAFE(ListOptions);
OPBENCH_AWAIT_SAFE(CacheListOptions);
OPBENCH_AWAIT_SAFE(WriteOptions);
OPBENCH_AWAIT_SAFE(PatchOptions);
OPBENCH_AWAIT_SAFE(DeleteOptions);
OPBENCH_AWAIT_SAFE(Patch);
OPBENCH_AWAIT_SAFE(Request);
OPBENCH_AWAIT_SAFE(Result);
OPBENCH_AWAIT_SAFE(ReconcileContext);
OPBENCH_AWAIT_SAFE(GroupVersion);
OPBENCH_AWAIT_SAFE(GroupVersionKind);
OPBENCH_AWAIT_SAFE(GroupVersionResource);
OPBENCH_AWAIT_SAFE(KindInfo);
OPBENCH_AWAIT_SAFE(LabelSelector);
OPBENCH_AWAIT_SAFE(FieldSelector);
OPBENCH_AWAIT_SAFE(Backoff);
OPBENCH_AWAIT_SAFE(Object);
OPBENCH_AWAIT_SAFE(TestConfigMap);

/// Records what went wrong without leaving the coroutine.
void expect(QStringList &failures, bool ok, const char *what)
{
    if (!ok)
        failures << QString::fromLatin1(what);
}

/// Every call an operator author writes, with its arguments built inside the co_await.
QCoro::Task<QStringList> naturalCalls(Client *client, RestClient *rest)
{
    QStringList failures;
    const ReconcileContext ctx;
    const QString ns = QStringLiteral("default");
    const QString name = QStringLiteral("await-safety-with-a-name-long-enough-for-the-heap");
    Labels labels;
    labels.insert(QStringLiteral("app"), name);

    TestConfigMap cm(ns, name);
    cm.meta().setLabels(labels);
    Expected<void> created = co_await client->create(ctx, cm, WriteOptions(false, QStringLiteral("await-safety")));
    expect(failures, created.ok(), "create with WriteOptions(…)");

    Expected<Object> live = co_await client->apiReader().get(
        ctx, GroupVersionKind(QString(), QStringLiteral("v1"), QStringLiteral("ConfigMap")), ns, name);
    expect(failures, live.ok(), "apiReader().get(GroupVersionKind(…), …)");
    Expected<QList<Object>> liveList = co_await client->apiReader().list(
        ctx, GroupVersionKind(QString(), QStringLiteral("v1"), QStringLiteral("ConfigMap")), ns, ListOptions());
    expect(failures, liveList.ok(), "apiReader().list(…, ListOptions())");

    Expected<TestConfigMap> byKey = co_await client->get<TestConfigMap>(ctx, ObjectKey(ns, name));
    expect(failures, byKey.ok(), "get<T>(ctx, ObjectKey(ns, name))");
    Expected<TestConfigMap> byRequest = co_await client->get<TestConfigMap>(Request(ns, name));
    expect(failures, byRequest.ok(), "get<T>(Request(ns, name))");
    Expected<QList<TestConfigMap>> listed = co_await client->list<TestConfigMap>(
        ctx, InNamespace(ns), MatchingLabels(labels), MatchingFields(QStringLiteral("metadata.name"), name), Limit(5));
    expect(failures, listed.ok() && listed->size() == 1, "list<T>(InNamespace, MatchingLabels, MatchingFields, Limit)");
    Expected<QList<Object>> untyped
        = co_await client->list(ctx, gvkOf<TestConfigMap>(), CacheListOptions(ns, LabelSelector::fromLabels(labels)));
    expect(failures, untyped.ok() && untyped->size() == 1, "list(ctx, gvk, CacheListOptions(…))");

    TestConfigMap changed = cm;
    changed.setValue(QStringLiteral("k"), name);
    Expected<void> patched
        = co_await client->patch(ctx, cm, Patch::mergeFrom(cm.toObject(), changed.toObject()), PatchOptions());
    expect(failures, patched.ok() && cm.value(QStringLiteral("k")) == name, "patch(ctx, T&, Patch::mergeFrom, …)");

    Expected<TypedOutcome<TestConfigMap>> upserted = co_await client->createOrUpdate(
        ctx, TestConfigMap(ns, name + QStringLiteral("-2")), [&](TestConfigMap &c) { c.setValue(name, name); });
    expect(failures, upserted.ok(), "createOrUpdate(ctx, T(…), [&] mutate)");

    Object target = cm.toObject();
    Expected<Object> retried = co_await retryOnConflict(
        Backoff::defaultRetry(), [&] { return client->update(ctx, target, WriteOptions()); });
    expect(failures, retried.ok(), "retryOnConflict(Backoff, [&] fn)");

    Expected<Object> restGet = co_await rest->get(
        GroupVersionResource(QString(), QStringLiteral("v1"), QStringLiteral("configmaps")), ns, name);
    expect(failures, restGet.ok(), "RestClient::get(GroupVersionResource(…), …)");

    Expected<void> removed = co_await client->remove(ctx, cm, DeleteOptions(QStringLiteral("Background")));
    expect(failures, removed.ok(), "remove(ctx, T, DeleteOptions(…))");
    co_return failures;
}

} // namespace

class tst_AwaitSafety : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void naturalCallsWithTemporariesInsideCoAwait()
    {
        TestApiServer api;
        QVERIFY2(api.start(), qPrintable(api.errorString()));
        auto config = loadConfig(api.kubeconfigPath());
        QVERIFY(config.ok());
        RestClient rest(std::move(*config));
        InformerCacheOptions co;
        co.client = &rest;
        InformerCache cache(std::move(co));
        cache.start();
        Client client(&cache, &rest);
        const QStringList failures = QCoro::waitFor(naturalCalls(&client, &rest));
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QStringLiteral("; "))));
    }
};

QTEST_GUILESS_MAIN(tst_AwaitSafety)
#include "tst_awaitsafety.moc"
