// SPDX-License-Identifier: Apache-2.0
// The traced Client and its helpers against the embedded API server over real HTTP: writes
// with diffs, createOrUpdate / createOrPatch results, conflicts and retryOnConflict, deletes,
// and a controller reconciling from informers end to end.
#include "tests/controller/scriptedreconciler.h"
#include "tests/support/testapiserver.h"

#include "engine/controller/builder.h"
#include "engine/controller/clientutil.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using namespace opbench;
using namespace opbench::test;
using namespace std::chrono_literals;
using testing::TestApiServer;

namespace {

GroupVersionKind myAppGvk()
{
    return {QStringLiteral("example.com"), QStringLiteral("v1alpha1"), QStringLiteral("MyApplication")};
}

Object withData(const Object &o, const QString &k, const QString &v)
{
    QJsonObject j = o.json();
    QJsonObject data = j.value(QLatin1String("data")).toObject();
    data.insert(k, v);
    j.insert(QStringLiteral("data"), data);
    return Object::fromJson(j);
}

Object bareConfigMap(const QString &ns, const QString &name)
{
    return Object::fromJson(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), ns}}}});
}

Object myApp(const QString &name, const QString &image)
{
    return Object::fromJson(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("example.com/v1alpha1")},
        {QStringLiteral("kind"), QStringLiteral("MyApplication")},
        {QStringLiteral("metadata"),
            QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), QStringLiteral("default")}}},
        {QStringLiteral("spec"), QJsonObject{{QStringLiteral("image"), image}, {QStringLiteral("replicas"), 1}}}});
}

Object withPath(const Object &o, const QString &section, const QString &key, const QJsonValue &v)
{
    QJsonObject j = o.json();
    QJsonObject s = j.value(section).toObject();
    s.insert(key, v);
    j.insert(section, s);
    return Object::fromJson(j);
}

/// Reads `obj` live and writes it back with a new label (a retryOnConflict body).
QCoro::Task<Expected<Object>> relabel(Client *client, ReconcileContext ctx, QString ns, QString name, QString value)
{
    Expected<Object> fresh = co_await client->apiReader().get(ctx, configMapGvk(), ns, name);
    if (!fresh.ok())
        co_return fresh.error();
    const QString metadata = QStringLiteral("metadata");
    const QString labels = QStringLiteral("labels");
    const QString key = QStringLiteral("v");
    const Object changed = withPath(*fresh, metadata, labels, QJsonObject{{key, value}});
    co_return co_await client->update(ctx, changed);
}

} // namespace

class tst_ClientIntegration : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TestApiServer> m_api;
    std::unique_ptr<RestClient> m_rest;
    std::unique_ptr<InformerCache> m_cache;
    std::unique_ptr<Client> m_client;

    static ReconcileContext tracedContext()
    {
        auto scope = std::make_shared<detail::ReconcileScope>();
        scope->trace.id = QStringLiteral("it");
        return ReconcileContext(scope);
    }
    bool cached(const GroupVersionKind &gvk, const QString &name, const QString &rv)
    {
        return waitUntil([&] {
            const Expected<Object> o = QCoro::waitFor(m_client->get({}, gvk, QStringLiteral("default"), name));
            return o.ok() && (rv.isEmpty() || o->resourceVersion() == rv);
        });
    }

private Q_SLOTS:
    void init()
    {
        m_api = std::make_unique<TestApiServer>();
        QVERIFY2(m_api->start(), qPrintable(m_api->errorString()));
        auto config = loadConfig(m_api->kubeconfigPath());
        QVERIFY(config.ok());
        m_rest = std::make_unique<RestClient>(std::move(*config));
        InformerCacheOptions co;
        co.client = m_rest.get();
        co.mapper.add(ResourceMapping{
            {QStringLiteral("example.com"), QStringLiteral("v1alpha1"), QStringLiteral("myapplications")},
            QStringLiteral("MyApplication"), {}, {}, {QStringLiteral("myapp")}, {}, {}, {QStringLiteral("status")},
            true});
        m_cache = std::make_unique<InformerCache>(std::move(co));
        m_cache->start();
        m_client = std::make_unique<Client>(m_cache.get(), m_rest.get());
    }
    void cleanup()
    {
        m_client.reset();
        m_cache.reset();
        m_rest.reset();
        m_api.reset();
    }

    void shouldTraceWritesWithDiffs()
    {
        const ReconcileContext ctx = tracedContext();
        QVERIFY(QCoro::waitFor(m_client->list(ctx, configMapGvk())).ok()); // starts the informer
        auto created = QCoro::waitFor(m_client->create(ctx,
            withData(bareConfigMap(QStringLiteral("default"), QStringLiteral("cm")), QStringLiteral("k"),
                QStringLiteral("1"))));
        QVERIFY2(created.ok(), created.ok() ? "" : qPrintable(created.error().toString()));
        QVERIFY(cached(configMapGvk(), QStringLiteral("cm"), created->resourceVersion()));
        auto updated
            = QCoro::waitFor(m_client->update(ctx, withData(*created, QStringLiteral("k"), QStringLiteral("2"))));
        QVERIFY(updated.ok());
        QVERIFY(cached(configMapGvk(), QStringLiteral("cm"), updated->resourceVersion()));
        auto patched = QCoro::waitFor(m_client->patch(
            ctx, *updated, Patch::mergeFrom(*updated, withData(*updated, QStringLiteral("p"), QStringLiteral("x")))));
        QVERIFY(patched.ok());
        QCOMPARE(patched->json().value(QLatin1String("data")).toObject().value(QLatin1String("p")).toString(),
            QStringLiteral("x"));
        auto removed = QCoro::waitFor(m_client->remove(ctx, *patched));
        QVERIFY(removed.ok());
        QVERIFY(removed->gone());

        const QList<TraceCall> calls = ctx.calls();
        QCOMPARE(calls.size(), 5);
        QCOMPARE(calls.at(1).verb, QStringLiteral("create"));
        QCOMPARE(calls.at(1).code, 201);
        QVERIFY(!calls.at(1).fromCache);
        bool sawData = false;
        for (const DiffEntry &d : calls.at(1).diff())
            sawData = sawData || (d.path == QLatin1String("data.k") && d.newValue.toString() == QLatin1String("1"));
        QVERIFY(sawData);
        QCOMPARE(calls.at(2).verb, QStringLiteral("update"));
        bool sawChange = false;
        for (const DiffEntry &d : calls.at(2).diff())
            sawChange = sawChange
                || (d.path == QLatin1String("data.k") && d.oldValue.toString() == QLatin1String("1")
                    && d.newValue.toString() == QLatin1String("2"));
        QVERIFY(sawChange);
        QCOMPARE(calls.at(3).verb, QStringLiteral("patch"));
        QVERIFY(calls.at(3).patch.contains("\"p\":\"x\""));
        QCOMPARE(calls.at(4).verb, QStringLiteral("delete"));
        QCOMPARE(calls.at(4).code, 200);
    }

    void shouldReportCreateOrUpdateResults()
    {
        const ReconcileContext ctx = tracedContext();
        QVERIFY(QCoro::waitFor(m_client->list(ctx, configMapGvk())).ok());
        const auto mutate
            = [](const Object &o) -> Expected<Object> { return withData(o, QStringLiteral("k"), QStringLiteral("v")); };
        auto first = QCoro::waitFor(createOrUpdate(
            m_client.get(), ctx, bareConfigMap(QStringLiteral("default"), QStringLiteral("cu")), mutate));
        QVERIFY(first.ok());
        QCOMPARE(first->result, OperationResult::Created);
        QVERIFY(cached(configMapGvk(), QStringLiteral("cu"), first->object.resourceVersion()));
        auto second = QCoro::waitFor(createOrUpdate(
            m_client.get(), ctx, bareConfigMap(QStringLiteral("default"), QStringLiteral("cu")), mutate));
        QCOMPARE(second->result, OperationResult::Unchanged);
        const auto mutate2
            = [](const Object &o) -> Expected<Object> { return withData(o, QStringLiteral("k"), QStringLiteral("w")); };
        auto third = QCoro::waitFor(createOrUpdate(
            m_client.get(), ctx, bareConfigMap(QStringLiteral("default"), QStringLiteral("cu")), mutate2));
        QVERIFY(third.ok());
        QCOMPARE(third->result, OperationResult::Updated);
        QCOMPARE(operationResultName(third->result), QStringLiteral("updated"));
        const auto rename = [](const Object &o) -> Expected<Object> {
            return withPath(o, QStringLiteral("metadata"), QStringLiteral("name"), QStringLiteral("other"));
        };
        auto bad = QCoro::waitFor(createOrUpdate(
            m_client.get(), ctx, bareConfigMap(QStringLiteral("default"), QStringLiteral("cu")), rename));
        QVERIFY(!bad.ok());
    }

    void shouldReportCreateOrPatchResults()
    {
        const ReconcileContext ctx = tracedContext();
        QVERIFY(QCoro::waitFor(m_client->list(ctx, myAppGvk())).ok());
        const auto same = [](const Object &o) -> Expected<Object> { return o; };
        auto created = QCoro::waitFor(
            createOrPatch(m_client.get(), ctx, myApp(QStringLiteral("app"), QStringLiteral("nginx:1")), same));
        QVERIFY2(created.ok(), created.ok() ? "" : qPrintable(created.error().toString()));
        QCOMPARE(created->result, OperationResult::Created);
        QVERIFY(cached(myAppGvk(), QStringLiteral("app"), created->object.resourceVersion()));
        const auto both = [](const Object &o) -> Expected<Object> {
            return withPath(withPath(o, QStringLiteral("spec"), QStringLiteral("image"), QStringLiteral("nginx:2")),
                QStringLiteral("status"), QStringLiteral("phase"), QStringLiteral("Pending"));
        };
        auto r1 = QCoro::waitFor(createOrPatch(m_client.get(), ctx, myApp(QStringLiteral("app"), {}), both));
        QVERIFY2(r1.ok(), r1.ok() ? "" : qPrintable(r1.error().toString()));
        QCOMPARE(r1->result, OperationResult::UpdatedStatus);
        QCOMPARE(
            r1->object.value({QLatin1String("status"), QLatin1String("phase")}).toString(), QStringLiteral("Pending"));
        QVERIFY(cached(myAppGvk(), QStringLiteral("app"), r1->object.resourceVersion()));
        const auto statusOnly = [](const Object &o) -> Expected<Object> {
            return withPath(o, QStringLiteral("status"), QStringLiteral("phase"), QStringLiteral("Running"));
        };
        auto r2 = QCoro::waitFor(createOrPatch(m_client.get(), ctx, myApp(QStringLiteral("app"), {}), statusOnly));
        QVERIFY(r2.ok());
        QCOMPARE(r2->result, OperationResult::UpdatedStatusOnly);
        QVERIFY(cached(myAppGvk(), QStringLiteral("app"), r2->object.resourceVersion()));
        auto r3 = QCoro::waitFor(createOrPatch(m_client.get(), ctx, myApp(QStringLiteral("app"), {}), same));
        QCOMPARE(r3->result, OperationResult::Unchanged);
        bool sawStatusPatch = false;
        for (const TraceCall &c : ctx.calls())
            sawStatusPatch = sawStatusPatch || c.verb == QLatin1String("patchStatus");
        QVERIFY(sawStatusPatch);
    }

    void shouldAbsorbConflictsWithRetry()
    {
        const ReconcileContext ctx = tracedContext();
        auto created
            = QCoro::waitFor(m_client->create(ctx, bareConfigMap(QStringLiteral("default"), QStringLiteral("race"))));
        QVERIFY(created.ok());
        QVERIFY(
            QCoro::waitFor(m_client->update(ctx, withData(*created, QStringLiteral("a"), QStringLiteral("1")))).ok());
        auto stale
            = QCoro::waitFor(m_client->update(ctx, withData(*created, QStringLiteral("a"), QStringLiteral("2"))));
        QVERIFY(!stale.ok());
        QVERIFY(isConflict(stale.error()));
        QCOMPARE(ctx.calls().last().code, 409);
        // A std::function, not the bind object: its bound QStrings are not trivially destructible,
        // which the template overload refuses (it would be a g++ 12 trap inside co_await).
        const std::function<QCoro::Task<Expected<Object>>()> body = std::bind(
            relabel, m_client.get(), ctx, QStringLiteral("default"), QStringLiteral("race"), QStringLiteral("x"));
        auto retried = QCoro::waitFor(retryOnConflict(Backoff::defaultRetry(), body));
        QVERIFY(retried.ok());
        QCOMPARE(retried->labels().value(QStringLiteral("v")), QStringLiteral("x"));
        QVERIFY(!ctx.calls().last().fromCache);
    }

    void shouldReconcileFromInformersEndToEnd()
    {
        auto rec = std::make_shared<ScriptedReconciler>();
        rec->client = m_client.get();
        QObject parent;
        ControllerOptions o;
        o.skipNameValidation = true;
        auto built = ControllerBuilder(m_cache.get())
                         .forKind(configMapGvk())
                         .named(QStringLiteral("e2e"))
                         .withOptions(std::move(o))
                         .build(rec, &parent);
        QVERIFY(built.ok());
        QSignalSpy finished(*built, &Controller::reconcileFinished);
        auto created
            = QCoro::waitFor(m_client->create({}, bareConfigMap(QStringLiteral("default"), QStringLiteral("seen"))));
        QVERIFY(created.ok());
        rec->reads = {QStringLiteral("default/seen")};
        QVERIFY(QCoro::waitFor((*built)->start()).ok());
        QTRY_VERIFY_WITH_TIMEOUT(!rec->finishedKeys.filter(QStringLiteral("default/seen")).isEmpty(), 5000);
        QTRY_VERIFY(!finished.isEmpty());
        ReconcileTrace t;
        for (const auto &args : std::as_const(finished))
            if (args.at(0).value<ReconcileTrace>().request.name == QLatin1String("seen"))
                t = args.at(0).value<ReconcileTrace>();
        QVERIFY(!t.cacheResourceVersion.isEmpty());
        QCOMPARE(t.calls.size(), 1);
        QCOMPARE(t.calls.at(0).code, 200);
        QVERIFY(!t.causes.isEmpty());
        QCoro::waitFor((*built)->shutdown());
    }
};

QTEST_GUILESS_MAIN(tst_ClientIntegration)
#include "tst_client_integration.moc"
