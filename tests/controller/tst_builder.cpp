// SPDX-License-Identifier: Apache-2.0
// Builder, event handlers and predicates: what gets queued, with which cause and priority.
#include "engine/testing/fakeclock.h"
#include "tests/controller/scriptedreconciler.h"

#include "engine/cache/informercache.h"
#include "engine/controller/builder.h"
#include "tests/support/eventloop.h"

#include <QJsonArray>
#include <QTest>

using namespace opbench;
using namespace opbench::test;

namespace {

GroupVersionKind deploymentGvk()
{
    return {QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("Deployment")};
}
GroupVersionKind podGvk() { return {QString(), QStringLiteral("v1"), QStringLiteral("Pod")}; }

Object withOwners(const Object &o, const QList<OwnerReference> &refs)
{
    QJsonObject j = o.json();
    QJsonObject meta = j.value(QLatin1String("metadata")).toObject();
    QJsonArray a;
    for (const OwnerReference &r : refs)
        a.append(r.toJson());
    meta.insert(QStringLiteral("ownerReferences"), a);
    j.insert(QStringLiteral("metadata"), meta);
    return Object::fromJson(j);
}

Object withAnnotation(const Object &o, const QString &k, const QString &v)
{
    QJsonObject j = o.json();
    QJsonObject meta = j.value(QLatin1String("metadata")).toObject();
    meta.insert(QStringLiteral("annotations"), QJsonObject{{k, v}});
    j.insert(QStringLiteral("metadata"), meta);
    return Object::fromJson(j);
}

Object typed(const Object &o, const QString &apiVersion, const QString &kind)
{
    QJsonObject j = o.json();
    j.insert(QStringLiteral("apiVersion"), apiVersion);
    j.insert(QStringLiteral("kind"), kind);
    return Object::fromJson(j);
}

ObjectEvent update(const Object &o, const Object &n)
{
    ObjectEvent e;
    e.type = ObjectEvent::Type::Update;
    e.oldObject = o;
    e.object = n;
    return e;
}

ObjectEvent create(const Object &o)
{
    ObjectEvent e;
    e.type = ObjectEvent::Type::Create;
    e.object = o;
    return e;
}

OwnerReference ref(const QString &apiVersion, const QString &kind, const QString &name, bool controller)
{
    return OwnerReference{apiVersion, kind, name, QStringLiteral("uid-") + name, controller, controller};
}

} // namespace

class tst_Builder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void shouldFilterWithPredicates_data()
    {
        QTest::addColumn<QString>("predicate");
        QTest::addColumn<bool>("sameGen");
        QTest::addColumn<bool>("newGen");
        QTest::addColumn<bool>("labels");
        QTest::addColumn<bool>("annotations");
        QTest::addColumn<bool>("onCreate");
        // Expected results for: an update changing only the RV, an update bumping the
        // generation, an update changing labels, one changing annotations, and a create.
        QTest::newRow("generation") << "generation" << false << true << false << false << true;
        QTest::newRow("resourceVersion") << "resourceVersion" << true << true << true << true << true;
        QTest::newRow("label") << "label" << false << false << true << false << true;
        QTest::newRow("annotation") << "annotation" << false << false << false << true << true;
        QTest::newRow("not generation") << "notGeneration" << true << false << true << true << false;
        QTest::newRow("label or annotation") << "labelOrAnnotation" << false << false << true << true << true;
        QTest::newRow("generation and label") << "generationAndLabel" << false << false << false << false << true;
    }
    void shouldFilterWithPredicates()
    {
        QFETCH(QString, predicate);
        QFETCH(bool, sameGen);
        QFETCH(bool, newGen);
        QFETCH(bool, labels);
        QFETCH(bool, annotations);
        QFETCH(bool, onCreate);
        const QHash<QString, Predicate> ps{
            {QStringLiteral("generation"), predicates::generationChanged()},
            {QStringLiteral("resourceVersion"), predicates::resourceVersionChanged()},
            {QStringLiteral("label"), predicates::labelChanged()},
            {QStringLiteral("annotation"), predicates::annotationChanged()},
            {QStringLiteral("notGeneration"), predicates::negate(predicates::generationChanged())},
            {QStringLiteral("labelOrAnnotation"),
                predicates::anyOf({predicates::labelChanged(), predicates::annotationChanged()})},
            {QStringLiteral("generationAndLabel"),
                predicates::allOf({predicates::generationChanged(), predicates::labelChanged()})},
        };
        const Predicate p = ps.value(predicate);
        const Object base = configMap(QStringLiteral("ns"), QStringLiteral("a"), QStringLiteral("1"), 1);
        QCOMPARE(
            p(update(base, configMap(QStringLiteral("ns"), QStringLiteral("a"), QStringLiteral("2"), 1))), sameGen);
        QCOMPARE(p(update(base, configMap(QStringLiteral("ns"), QStringLiteral("a"), QStringLiteral("2"), 2))), newGen);
        QCOMPARE(p(update(base,
                     configMap(QStringLiteral("ns"), QStringLiteral("a"), QStringLiteral("2"), 1,
                         {{QStringLiteral("app"), QStringLiteral("web")}}))),
            labels);
        QCOMPARE(p(update(base,
                     withAnnotation(configMap(QStringLiteral("ns"), QStringLiteral("a"), QStringLiteral("2"), 1),
                         QStringLiteral("note"), QStringLiteral("x")))),
            annotations);
        QCOMPARE(p(create(base)), onCreate);
    }

    void shouldMatchLabelSelectorOnEveryEventType()
    {
        const Predicate p = predicates::labelSelector(*LabelSelector::parse(QStringLiteral("app=web")));
        const Object web = configMap(QStringLiteral("ns"), QStringLiteral("a"), QStringLiteral("1"), 1,
            {{QStringLiteral("app"), QStringLiteral("web")}});
        const Object db = configMap(QStringLiteral("ns"), QStringLiteral("b"), QStringLiteral("1"), 1,
            {{QStringLiteral("app"), QStringLiteral("db")}});
        QVERIFY(p(create(web)));
        QVERIFY(!p(create(db)));
        QVERIFY(p(update(db, web)));
        ObjectEvent del;
        del.type = ObjectEvent::Type::Delete;
        del.object = db;
        QVERIFY(!p(del));
    }

    void shouldEnqueueControllingOwnerMatchedByGroupAndKind()
    {
        auto queue = makeWorkQueue(WorkQueue::Kind::Plain);
        RequestQueue rq(queue.get());
        auto handler = enqueueRequestForOwner(
            {QStringLiteral("example.com"), QStringLiteral("v1alpha1"), QStringLiteral("MyApplication")});
        const Object pod = configMap(QStringLiteral("ns"), QStringLiteral("child"), QStringLiteral("7"));
        // The controller ref (other version: still matches), a non-controller ref, another group.
        ObjectEvent e = create(withOwners(pod,
            {ref(QStringLiteral("example.com/v1"), QStringLiteral("MyApplication"), QStringLiteral("app"), true),
                ref(QStringLiteral("example.com/v1alpha1"), QStringLiteral("MyApplication"), QStringLiteral("other"),
                    false),
                ref(QStringLiteral("other.io/v1alpha1"), QStringLiteral("MyApplication"), QStringLiteral("foreign"),
                    true)}));
        e.gvk = configMapGvk();
        handler->handle(e, rq);
        QCOMPARE(queue->len(), 1);
        auto item = queue->tryGet();
        QVERIFY(item);
        QCOMPARE(item->key.toString(), QStringLiteral("ns/app"));
        QCOMPARE(item->causes.size(), 1);
        QCOMPARE(item->causes.at(0).kind, Cause::Kind::OwnerMapping);
        QCOMPARE(item->causes.at(0).sourceKey, QStringLiteral("ns/child"));
        QCOMPARE(item->causes.at(0).resourceVersion, QStringLiteral("7"));
        queue->done(item->key);

        // Every owner (not only the controller) when asked.
        auto all = enqueueRequestForOwner(
            {QStringLiteral("example.com"), QStringLiteral("v1alpha1"), QStringLiteral("MyApplication")}, true, false);
        all->handle(e, rq);
        QCOMPARE(queue->len(), 2);
    }

    void shouldEnqueueOwnersOfOldAndNewOnUpdate()
    {
        auto queue = makeWorkQueue(WorkQueue::Kind::Plain);
        RequestQueue rq(queue.get());
        auto handler = enqueueRequestForOwner(deploymentGvk());
        const Object base = configMap(QStringLiteral("ns"), QStringLiteral("pod"), QStringLiteral("1"));
        ObjectEvent e
            = update(withOwners(base,
                         {ref(QStringLiteral("apps/v1"), QStringLiteral("Deployment"), QStringLiteral("old"), true)}),
                withOwners(configMap(QStringLiteral("ns"), QStringLiteral("pod"), QStringLiteral("2")),
                    {ref(QStringLiteral("apps/v1"), QStringLiteral("Deployment"), QStringLiteral("new"), true)}));
        handler->handle(e, rq);
        QCOMPARE(queue->len(), 2);
        QStringList keys;
        while (auto item = queue->tryGet())
            keys << item->key.toString();
        keys.sort();
        QCOMPARE(keys, (QStringList{QStringLiteral("ns/new"), QStringLiteral("ns/old")}));
    }

    void shouldUseNoNamespaceForClusterScopedOwners()
    {
        auto queue = makeWorkQueue(WorkQueue::Kind::Plain);
        RequestQueue rq(queue.get());
        auto handler = enqueueRequestForOwner({QString(), QStringLiteral("v1"), QStringLiteral("Namespace")}, false);
        handler->handle(create(withOwners(configMap(QStringLiteral("ns"), QStringLiteral("x")),
                            {ref(QStringLiteral("v1"), QStringLiteral("Namespace"), QStringLiteral("ns"), true)})),
            rq);
        auto item = queue->tryGet();
        QVERIFY(item);
        QCOMPARE(item->key.ns, QString());
        QCOMPARE(item->key.name, QStringLiteral("ns"));
    }

    void shouldMapBothOldAndNewWithMapFunc()
    {
        auto queue = makeWorkQueue(WorkQueue::Kind::Plain);
        RequestQueue rq(queue.get());
        auto handler = enqueueRequestsFromMapFunc([](const Object &o) {
            return QList<QueueKey>{{o.namespaceName(), o.labels().value(QStringLiteral("app"))}};
        });
        handler->handle(update(configMap(QStringLiteral("ns"), QStringLiteral("c"), QStringLiteral("1"), 1,
                                   {{QStringLiteral("app"), QStringLiteral("one")}}),
                            configMap(QStringLiteral("ns"), QStringLiteral("c"), QStringLiteral("2"), 1,
                                {{QStringLiteral("app"), QStringLiteral("two")}})),
            rq);
        QCOMPARE(queue->len(), 2);
    }

    void shouldWireForOwnsAndFilters()
    {
        testing::FakeClock clock;
        MetricsRegistry metrics;
        QObject parent;
        InformerCache cache(InformerCacheOptions{});
        Informer *deployments = *cache.informerFor(deploymentGvk());
        Informer *pods = *cache.informerFor(podGvk());
        const Object web = typed(configMap(QStringLiteral("ns"), QStringLiteral("web"), QStringLiteral("10"), 1),
            QStringLiteral("apps/v1"), QStringLiteral("Deployment"));
        deployments->replaceAll({web}, QStringLiteral("10"));
        pods->replaceAll({}, QStringLiteral("10"));
        auto rec = std::make_shared<ScriptedReconciler>();
        ControllerOptions o = testOptions(QString(), &clock, &metrics, WorkQueue::Kind::Priority);
        auto built = ControllerBuilder(&cache)
                         .forKind(deploymentGvk())
                         .owns(podGvk())
                         .withEventFilter(predicates::generationChanged())
                         .withOptions(std::move(o))
                         .build(rec, &parent);
        QVERIFY2(built.ok(), built.ok() ? "" : qPrintable(built.error().message()));
        Controller *c = *built;
        QCOMPARE(c->name(), QStringLiteral("deployment"));
        c->pause();
        QVERIFY(QCoro::waitFor(c->start()).ok());
        // Initial list: low priority, InitialList cause.
        const QueueKey webKey{QStringLiteral("ns"), QStringLiteral("web")};
        KeyState s = c->queue()->state(webKey);
        QVERIFY(s.queued);
        QCOMPARE(s.priority, LowPriority);
        QCOMPARE(s.causes.size(), 1);
        QCOMPARE(s.causes.at(0).kind, Cause::Kind::InitialList);
        QCOMPARE(s.causes.at(0).sourceKey, QStringLiteral("ns/web"));
        // A status-only change (same generation) is filtered; a spec change is not.
        deployments->modified(typed(configMap(QStringLiteral("ns"), QStringLiteral("web"), QStringLiteral("11"), 1),
            QStringLiteral("apps/v1"), QStringLiteral("Deployment")));
        QCOMPARE(c->queue()->state(webKey).causes.size(), 1);
        deployments->modified(typed(configMap(QStringLiteral("ns"), QStringLiteral("web"), QStringLiteral("12"), 2),
            QStringLiteral("apps/v1"), QStringLiteral("Deployment")));
        s = c->queue()->state(webKey);
        QCOMPARE(s.causes.size(), 2);
        QCOMPARE(s.causes.at(1).kind, Cause::Kind::WatchEvent);
        QCOMPARE(s.causes.at(1).event, Cause::EventType::Modified);
        QCOMPARE(s.causes.at(1).resourceVersion, QStringLiteral("12"));
        // An owned Pod maps to its Deployment.
        const Object pod
            = withOwners(typed(configMap(QStringLiteral("ns"), QStringLiteral("web-1"), QStringLiteral("13"), 1),
                             QStringLiteral("v1"), QStringLiteral("Pod")),
                {ref(QStringLiteral("apps/v1"), QStringLiteral("Deployment"), QStringLiteral("web"), true)});
        pods->added(pod);
        s = c->queue()->state(webKey);
        QCOMPARE(s.causes.size(), 3);
        QCOMPARE(s.causes.at(2).kind, Cause::Kind::OwnerMapping);
        QCOMPARE(s.causes.at(2).sourceKey, QStringLiteral("ns/web-1"));
        QCOMPARE(s.priority, 0); // a real change raised it
        c->resume();
        QTRY_COMPARE(rec->requests.size(), 1);
        QCOMPARE(rec->requests.at(0).causes.size(), 3);
    }

    void shouldCreateNoInformerBeforeTheControllerStarts()
    {
        // Runtime review #10: build() checks the kinds but leaves the informers to start(), so a
        // manager standing by for the lease lists and watches nothing for its controllers.
        testing::FakeClock clock;
        MetricsRegistry metrics;
        QObject parent;
        InformerCache cache(InformerCacheOptions{});
        auto rec = std::make_shared<ScriptedReconciler>();
        auto built = ControllerBuilder(&cache)
                         .forKind(deploymentGvk())
                         .owns(podGvk())
                         .withOptions(testOptions(QString(), &clock, &metrics, WorkQueue::Kind::Priority))
                         .build(rec, &parent);
        QVERIFY2(built.ok(), built.ok() ? "" : qPrintable(built.error().message()));
        QVERIFY(cache.informers().isEmpty());
        QVERIFY((*built)->warmup().ok()); // enableWarmup off: nothing starts
        QVERIFY(cache.informers().isEmpty());
        (*built)->start(); // waits for the sync (nobody feeds these informers)
        QCOMPARE(cache.kinds().size(), 2);
        QVERIFY(cache.kinds().contains(deploymentGvk()));
        QVERIFY(cache.kinds().contains(podGvk()));
    }

    void warmupShouldCreateTheInformersAndQueueWithoutReconciling()
    {
        testing::FakeClock clock;
        MetricsRegistry metrics;
        QObject parent;
        InformerCache cache(InformerCacheOptions{});
        auto rec = std::make_shared<ScriptedReconciler>();
        ControllerOptions o = testOptions(QString(), &clock, &metrics, WorkQueue::Kind::Priority);
        o.enableWarmup = true;
        auto built = ControllerBuilder(&cache).forKind(deploymentGvk()).withOptions(std::move(o)).build(rec, &parent);
        QVERIFY(built.ok());
        Controller *c = *built;
        QVERIFY(c->warmup().ok());
        QCOMPARE(cache.kinds(), QList<GroupVersionKind>{deploymentGvk()});
        Informer *deployments = *cache.informerFor(deploymentGvk());
        deployments->replaceAll({typed(configMap(QStringLiteral("ns"), QStringLiteral("web"), QStringLiteral("10"), 1),
                                    QStringLiteral("apps/v1"), QStringLiteral("Deployment"))},
            QStringLiteral("10"));
        QCOMPARE(c->queue()->len(), 1);
        testing::drainEventLoop(); // a controller that reconciled before start() would have by now
        QVERIFY(rec->requests.isEmpty());
        QVERIFY(QCoro::waitFor(c->start()).ok());
        QTRY_COMPARE(rec->requests.size(), 1);
    }

    void asyncMapFuncShouldReadThroughTheCache()
    {
        // Runtime review #18: a map function can await a cached read, as controller-runtime's
        // map functions call client.List: every Deployment in a Pod's namespace is queued.
        testing::FakeClock clock;
        MetricsRegistry metrics;
        QObject parent;
        InformerCache cache(InformerCacheOptions{});
        Informer *deployments = *cache.informerFor(deploymentGvk());
        Informer *pods = *cache.informerFor(podGvk());
        deployments->replaceAll(
            {typed(configMap(QStringLiteral("ns"), QStringLiteral("web"), QStringLiteral("10"), 1),
                 QStringLiteral("apps/v1"), QStringLiteral("Deployment")),
                typed(configMap(QStringLiteral("ns"), QStringLiteral("api"), QStringLiteral("11"), 1),
                    QStringLiteral("apps/v1"), QStringLiteral("Deployment")),
                typed(configMap(QStringLiteral("other"), QStringLiteral("db"), QStringLiteral("12"), 1),
                    QStringLiteral("apps/v1"), QStringLiteral("Deployment"))},
            QStringLiteral("12"));
        pods->replaceAll({}, QStringLiteral("12"));
        InformerCache *c = &cache;
        auto rec = std::make_shared<ScriptedReconciler>();
        auto built = ControllerBuilder(&cache)
                         .forKind(deploymentGvk(), {[](const ObjectEvent &) { return false; }}) // only the pods queue
                         .watchesAsync(podGvk(),
                             [c](Object pod) -> QCoro::Task<QList<QueueKey>> {
                                 CacheListOptions lo;
                                 lo.namespaceName = pod.namespaceName();
                                 const Expected<QList<Object>> found = co_await c->list(deploymentGvk(), lo);
                                 QList<QueueKey> keys;
                                 if (found.ok())
                                     for (const Object &d : *found)
                                         keys.append({d.namespaceName(), d.name()});
                                 co_return keys;
                             })
                         .withOptions(testOptions(QString(), &clock, &metrics, WorkQueue::Kind::Plain))
                         .build(rec, &parent);
        QVERIFY2(built.ok(), built.ok() ? "" : qPrintable(built.error().message()));
        Controller *ctrl = *built;
        ctrl->pause();
        QVERIFY(QCoro::waitFor(ctrl->start()).ok());
        QCOMPARE(ctrl->queue()->len(), 0);
        pods->added(configMap(QStringLiteral("ns"), QStringLiteral("pod-1"), QStringLiteral("13"), 1));
        QTRY_COMPARE(ctrl->queue()->len(), 2);
        const KeyState web = ctrl->queue()->state({QStringLiteral("ns"), QStringLiteral("web")});
        QVERIFY(web.queued);
        QCOMPARE(web.causes.at(0).kind, Cause::Kind::OwnerMapping);
        QCOMPARE(web.causes.at(0).sourceKey, QStringLiteral("ns/pod-1"));
        QVERIFY(ctrl->queue()->state({QStringLiteral("ns"), QStringLiteral("api")}).queued);
        QVERIFY(!ctrl->queue()->state({QStringLiteral("other"), QStringLiteral("db")}).queued);
    }

    void shouldBuildAControllerWithWatchesOnly()
    {
        // controller-runtime allows Named() + Watches() with no For().
        testing::FakeClock clock;
        MetricsRegistry metrics;
        QObject parent;
        InformerCache cache(InformerCacheOptions{});
        auto rec = std::make_shared<ScriptedReconciler>();
        auto built = ControllerBuilder(&cache)
                         .named(QStringLiteral("pod-to-node"))
                         .watches(podGvk(),
                             [](const Object &o) {
                                 return QList<QueueKey>{{QString(), o.name() + QStringLiteral("-node")}};
                             })
                         .withOptions(testOptions(QString(), &clock, &metrics, WorkQueue::Kind::Plain))
                         .build(rec, &parent);
        QVERIFY2(built.ok(), built.ok() ? "" : qPrintable(built.error().message()));
        Controller *c = *built;
        QCOMPARE(c->name(), QStringLiteral("pod-to-node"));
        (*cache.informerFor(podGvk()))
            ->replaceAll(
                {configMap(QStringLiteral("ns"), QStringLiteral("p"), QStringLiteral("3"), 1)}, QStringLiteral("3"));
        QVERIFY(QCoro::waitFor(c->start()).ok());
        QTRY_COMPARE(rec->requests.size(), 1);
        QCOMPARE(rec->requests.at(0).name, QStringLiteral("p-node"));
        // Without For: a name is required, owns() is refused, and so is a controller with no watch.
        auto unnamed = ControllerBuilder(&cache)
                           .watches(podGvk(), [](const Object &) { return QList<QueueKey>{}; })
                           .build(rec, &parent);
        QVERIFY(!unnamed.ok());
        QVERIFY(unnamed.error().message().contains(QLatin1String("named()")));
        auto nothing = ControllerBuilder(&cache).named(QStringLiteral("idle")).build(rec, &parent);
        QVERIFY(!nothing.ok());
        QVERIFY(nothing.error().message().contains(QLatin1String("no watches")));
    }

    void shouldRejectMissingForAndDuplicateNames()
    {
        InformerCache cache(InformerCacheOptions{});
        auto rec = std::make_shared<ScriptedReconciler>();
        auto noFor = ControllerBuilder(&cache).owns(podGvk()).build(rec);
        QVERIFY(!noFor.ok());
        QVERIFY(noFor.error().message().contains(QStringLiteral("forKind")));
        auto first = ControllerBuilder(&cache).forKind(podGvk()).named(QStringLiteral("pods-unique")).build(rec);
        QVERIFY(first.ok());
        auto second = ControllerBuilder(&cache).forKind(podGvk()).named(QStringLiteral("pods-unique")).build(rec);
        QVERIFY(!second.ok());
        delete *first;
        auto unknown = ControllerBuilder(&cache)
                           .forKind({QStringLiteral("nope.io"), QStringLiteral("v1"), QStringLiteral("Nope")})
                           .build(rec);
        QVERIFY(!unknown.ok());
    }
};

QTEST_GUILESS_MAIN(tst_Builder)
#include "tst_builder.moc"
