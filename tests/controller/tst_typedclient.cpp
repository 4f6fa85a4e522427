// SPDX-License-Identifier: Apache-2.0
// The typed Client (SDK 0.3) against the embedded API server over loopback: get<T>/list<T> with
// options, writes that write the server's reply back into the view (so update then
// updateStatus of one view does not conflict), createOrUpdate with a typed mutate (created,
// unchanged without a write, updated, aborted), and remove.
#include "tests/controller/scriptedreconciler.h"
#include "tests/controller/testkinds.h"
#include "tests/support/testapiserver.h"

#include "engine/api/crdmapping.h"
#include "engine/controller/clientutil.h"

#include <QTest>

using namespace opbench;
using namespace opbench::test;
using namespace std::chrono_literals;
using testing::TestApiServer;

class tst_TypedClient : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TestApiServer> m_api;
    std::unique_ptr<RestClient> m_rest;
    std::unique_ptr<InformerCache> m_cache;
    std::unique_ptr<Client> m_client;
    const QString ns = QStringLiteral("default");

    static ReconcileContext tracedContext()
    {
        auto scope = std::make_shared<detail::ReconcileScope>();
        scope->trace.id = QStringLiteral("typed");
        return ReconcileContext(scope);
    }
    template<Kind T> bool cachedAt(const T &view)
    {
        return waitUntil([&] {
            const Expected<T> got = QCoro::waitFor(m_client->get<T>({}, ObjectKey::of(view)));
            return got.ok() && got->resourceVersion() == view.resourceVersion();
        });
    }
    static int writes(const ReconcileContext &ctx)
    {
        int n = 0;
        for (const TraceCall &c : ctx.calls())
            n += c.verb != QLatin1String("get") && c.verb != QLatin1String("list") ? 1 : 0;
        return n;
    }

private Q_SLOTS:
    void init()
    {
        auto options = TestApiServer::plainOptions();
        options.crds << widgetCrd();
        m_api = std::make_unique<TestApiServer>(std::move(options));
        QVERIFY2(m_api->start(), qPrintable(m_api->errorString()));
        auto config = loadConfig(m_api->kubeconfigPath());
        QVERIFY(config.ok());
        m_rest = std::make_unique<RestClient>(std::move(*config));
        InformerCacheOptions co;
        co.client = m_rest.get();
        auto mappings = crdMappings(widgetCrd(), QStringLiteral("the Widget CRD"));
        QVERIFY(mappings.ok());
        for (const ResourceMapping &m : *mappings)
            co.mapper.add(m);
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

    // controller-runtime writes the reply into the object passed: the next write carries the new
    // resourceVersion. Without the write-back, updateStatus after update is a 409 Conflict.
    void writesWriteTheReplyBack()
    {
        const ReconcileContext ctx = tracedContext();
        Widget w(ns, QStringLiteral("w"));
        w.setColor(QStringLiteral("red"));
        QVERIFY(QCoro::waitFor(m_client->create(ctx, w)).ok());
        QVERIFY(!w.uid().isEmpty());
        const QString createdRv = w.resourceVersion();
        QVERIFY(!createdRv.isEmpty());

        w.setColor(QStringLiteral("blue"));
        QVERIFY(w.addFinalizer(QStringLiteral("test.opbench.io/cleanup")));
        const Expected<void> updated = QCoro::waitFor(m_client->update(ctx, w));
        QVERIFY2(updated.ok(), updated.ok() ? "" : qPrintable(updated.error().message()));
        QVERIFY(w.resourceVersion() != createdRv);
        QCOMPARE(w.generation(), qint64(2));

        w.setPhase(QStringLiteral("Ready"));
        const Expected<void> status = QCoro::waitFor(m_client->updateStatus(ctx, w));
        QVERIFY2(status.ok(), status.ok() ? "" : qPrintable(status.error().message()));
        QCOMPARE(w.phase(), QStringLiteral("Ready"));

        Widget patched = w;
        patched.setColor(QStringLiteral("green"));
        const Expected<void> p
            = QCoro::waitFor(m_client->patch(ctx, w, Patch::mergeFrom(w.toObject(), patched.toObject())));
        QVERIFY(p.ok());
        QCOMPARE(w.color(), QStringLiteral("green"));

        const Expected<void> stale = QCoro::waitFor(m_client->update(ctx, patched)); // old resourceVersion
        QVERIFY(!stale.ok());
        QVERIFY(!requeueOnConflict(stale.error()).isError());
    }

    void readsAreTyped()
    {
        const ReconcileContext ctx = tracedContext();
        Labels web;
        web.insert(QStringLiteral("app"), QStringLiteral("web"));
        for (const QString &name : {QStringLiteral("a"), QStringLiteral("b")}) {
            TestConfigMap cm(ns, name);
            cm.setValue(QStringLiteral("k"), name);
            if (name == QLatin1String("a"))
                cm.meta().setLabels(web);
            QVERIFY(QCoro::waitFor(m_client->create(ctx, cm)).ok());
            QVERIFY(cachedAt(cm));
        }
        Request req(ns, QStringLiteral("a"));
        req.ctx = ctx;
        const Expected<TestConfigMap> a = QCoro::waitFor(m_client->get<TestConfigMap>(req));
        QVERIFY(a.ok());
        QCOMPARE(a->value(QStringLiteral("k")), QStringLiteral("a"));

        const auto all = QCoro::waitFor(m_client->list<TestConfigMap>(ctx, InNamespace(ns)));
        QVERIFY(all.ok());
        QVERIFY(all->size() >= 2);
        const auto labelled = QCoro::waitFor(m_client->list<TestConfigMap>(ctx, InNamespace(ns), MatchingLabels(web)));
        QVERIFY(labelled.ok());
        QCOMPARE(labelled->size(), 1);
        QCOMPARE(labelled->first().name(), QStringLiteral("a"));
        const auto none = QCoro::waitFor(m_client->list<TestConfigMap>(ctx, InNamespace(QStringLiteral("elsewhere"))));
        QVERIFY(none.ok() && none->isEmpty());

        const Expected<TestConfigMap> missing
            = QCoro::waitFor(m_client->get<TestConfigMap>(ctx, ObjectKey(ns, QStringLiteral("missing"))));
        QVERIFY(!missing.ok());
        QVERIFY(ignoreNotFound(missing.error()).ok());

        QVERIFY(QCoro::waitFor(m_client->remove(ctx, *a)).ok());
        const Expected<void> again = QCoro::waitFor(m_client->remove(ctx, *a));
        QVERIFY(!again.ok());
        QVERIFY(isNotFound(again.error()));
    }

    // controllerutil.CreateOrUpdate: mutate edits the typed object in place; a write only when
    // its JSON changed; an error from mutate aborts without a write.
    void createOrUpdateIsTyped()
    {
        const ReconcileContext ctx = tracedContext();
        QVERIFY(QCoro::waitFor(m_client->list<TestConfigMap>(ctx)).ok()); // starts the informer
        QString value = QStringLiteral("1");
        auto setValue = [&](TestConfigMap &c) { c.setValue(QStringLiteral("k"), value); };

        auto created = QCoro::waitFor(m_client->createOrUpdate(ctx, TestConfigMap(ns, QStringLiteral("cu")), setValue));
        QVERIFY2(created.ok(), created.ok() ? "" : qPrintable(created.error().message()));
        QCOMPARE(created->result, OperationResult::Created);
        QCOMPARE(created->object.value(QStringLiteral("k")), QStringLiteral("1"));
        QVERIFY(cachedAt(created->object));

        const int writesBefore = writes(ctx);
        auto same = QCoro::waitFor(m_client->createOrUpdate(ctx, TestConfigMap(ns, QStringLiteral("cu")), setValue));
        QVERIFY(same.ok());
        QCOMPARE(same->result, OperationResult::Unchanged);
        QCOMPARE(writes(ctx), writesBefore);

        value = QStringLiteral("2");
        auto updated = QCoro::waitFor(m_client->createOrUpdate(ctx, TestConfigMap(ns, QStringLiteral("cu")), setValue));
        QVERIFY(updated.ok());
        QCOMPARE(updated->result, OperationResult::Updated);
        QCOMPARE(updated->object.value(QStringLiteral("k")), QStringLiteral("2"));
        QCOMPARE(writes(ctx), writesBefore + 1);
        QVERIFY(cachedAt(updated->object));

        auto refuse = [&](TestConfigMap &c) -> Expected<void> {
            c.setValue(QStringLiteral("k"), QStringLiteral("3"));
            return Status::badRequest(QStringLiteral("no"));
        };
        auto aborted = QCoro::waitFor(m_client->createOrUpdate(ctx, TestConfigMap(ns, QStringLiteral("cu")), refuse));
        QVERIFY(!aborted.ok());
        QCOMPARE(aborted.error().message(), QStringLiteral("no"));
        QCOMPARE(writes(ctx), writesBefore + 1);
    }
};

QTEST_GUILESS_MAIN(tst_TypedClient)
#include "tst_typedclient.moc"
