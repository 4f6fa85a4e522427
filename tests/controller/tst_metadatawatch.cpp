// SPDX-License-Identifier: Apache-2.0
// builder.OnlyMetadata against the embedded API server over real HTTP: a controller that owns
// Deployments metadata-only is enqueued for the owner of a Deployment that is added or changed,
// while the cache holds the Deployments' metadata only (no spec, no status) and no full
// Deployment informer; the Client's metadata reads come from that informer.
#include "tests/controller/scriptedreconciler.h"
#include "tests/support/testapiserver.h"

#include "engine/controller/builder.h"

#include <QJsonArray>
#include <QTest>

using namespace opbench;
using namespace opbench::test;
using namespace std::chrono_literals;
using testing::TestApiServer;

namespace {

const GroupVersionKind DeploymentKind{QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("Deployment")};
const GroupVersionResource ConfigMaps{QString(), QStringLiteral("v1"), QStringLiteral("configmaps")};
const GroupVersionResource Deployments{QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("deployments")};
const QString Default = QStringLiteral("default");

Object ownerConfigMap()
{
    return Object::fromJson({{QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
        {QStringLiteral("metadata"),
            QJsonObject{{QStringLiteral("name"), QStringLiteral("owner")}, {QStringLiteral("namespace"), Default}}}});
}

/// A Deployment controlled by `owner`, labelled tier=`tier`.
Object ownedDeployment(const Object &owner, const QString &tier)
{
    const QJsonObject podLabels{{QStringLiteral("app"), QStringLiteral("child")}};
    QJsonObject meta{{QStringLiteral("name"), QStringLiteral("child")}, {QStringLiteral("namespace"), Default},
        {QStringLiteral("labels"), QJsonObject{{QStringLiteral("tier"), tier}}},
        {QStringLiteral("ownerReferences"),
            QJsonArray{QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                {QStringLiteral("kind"), QStringLiteral("ConfigMap")}, {QStringLiteral("name"), owner.name()},
                {QStringLiteral("uid"), owner.uid()}, {QStringLiteral("controller"), true}}}}};
    const QJsonObject container{
        {QStringLiteral("name"), QStringLiteral("app")}, {QStringLiteral("image"), QStringLiteral("nginx:1.27")}};
    return Object::fromJson({{QStringLiteral("apiVersion"), QStringLiteral("apps/v1")},
        {QStringLiteral("kind"), QStringLiteral("Deployment")}, {QStringLiteral("metadata"), meta},
        {QStringLiteral("spec"),
            QJsonObject{{QStringLiteral("replicas"), 0},
                {QStringLiteral("selector"), QJsonObject{{QStringLiteral("matchLabels"), podLabels}}},
                {QStringLiteral("template"),
                    QJsonObject{{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("labels"), podLabels}}},
                        {QStringLiteral("spec"),
                            QJsonObject{{QStringLiteral("containers"), QJsonArray{container}}}}}}}}});
}

/// Requests for default/owner caused by an event of the Deployment default/child of type `event`.
int ownerRequestsFromChild(const ScriptedReconciler &rec, Cause::EventType event)
{
    int n = 0;
    for (const Request &r : rec.requests) {
        if (r.namespaceName != Default || r.name != QLatin1String("owner"))
            continue;
        for (int i = 0; i < r.causes.size(); ++i) {
            const Cause &c = r.causes.at(i);
            if (c.kind == Cause::Kind::OwnerMapping && c.event == event
                && c.sourceKey == QLatin1String("default/child"))
                ++n;
        }
    }
    return n;
}

QStringList topLevelKeys(const Object &o)
{
    QStringList keys = o.json().keys();
    keys.sort();
    return keys;
}

const QStringList MetadataOnlyKeys{QStringLiteral("apiVersion"), QStringLiteral("kind"), QStringLiteral("metadata")};

} // namespace

class tst_MetadataWatch : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<TestApiServer> m_api;
    std::unique_ptr<RestClient> m_rest;
    std::unique_ptr<InformerCache> m_cache;
    std::unique_ptr<Client> m_client;

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

    void shouldEnqueueTheOwnerOfAMetadataOnlyChild()
    {
        auto owner = QCoro::waitFor(m_rest->create(ConfigMaps, Default, ownerConfigMap()));
        QVERIFY(owner.ok());
        auto rec = std::make_shared<ScriptedReconciler>();
        QObject parent;
        ControllerOptions o;
        o.skipNameValidation = true;
        auto built = ControllerBuilder(m_cache.get())
                         .forKind(configMapGvk())
                         .owns(DeploymentKind, OnlyMetadata)
                         .named(QStringLiteral("metadata-owner"))
                         .withOptions(std::move(o))
                         .build(rec, &parent);
        QVERIFY2(built.ok(), built.ok() ? "" : qPrintable(built.error().message()));
        QVERIFY(QCoro::waitFor((*built)->start()).ok());
        QTRY_VERIFY_WITH_TIMEOUT(rec->finishedKeys.contains(QStringLiteral("default/owner")), 10000);

        // The Deployments are watched through the metadata-only informer, and only that one.
        QVERIFY(m_cache->metadataKinds().contains(DeploymentKind));
        QVERIFY(!m_cache->kinds().contains(DeploymentKind));
        Informer *deployments = m_cache->informerFor(DeploymentKind, ObjectProjection::Metadata).value();
        QVERIFY(deployments->options().metadataOnly);

        auto child = QCoro::waitFor(m_rest->create(Deployments, Default, ownedDeployment(*owner, QStringLiteral("a"))));
        QVERIFY2(child.ok(), child.ok() ? "" : qPrintable(child.error().message()));
        QTRY_VERIFY_WITH_TIMEOUT(ownerRequestsFromChild(*rec, Cause::EventType::Added) >= 1, 10000);

        // The cache holds what an owner-tracking watch needs, nothing more.
        const Object cached = deployments->store().get(QStringLiteral("default/child"));
        QVERIFY(!cached.isNull());
        QCOMPARE(topLevelKeys(cached), MetadataOnlyKeys);
        QCOMPARE(cached.kind(), QStringLiteral("Deployment"));
        QCOMPARE(cached.apiVersion(), QStringLiteral("apps/v1"));
        QCOMPARE(cached.controllerReference().value().uid, owner->uid());

        // A change of the child's metadata (a label) enqueues the owner again.
        auto updated = QCoro::waitFor(m_rest->patch(Deployments, Default, QStringLiteral("child"), PatchType::Merge,
            R"({"metadata":{"labels":{"tier":"b"}}})"));
        QVERIFY2(updated.ok(), updated.ok() ? "" : qPrintable(updated.error().message()));
        QTRY_VERIFY_WITH_TIMEOUT(ownerRequestsFromChild(*rec, Cause::EventType::Modified) >= 1, 10000);
        QTRY_COMPARE(deployments->store().get(QStringLiteral("default/child")).labels().value(QStringLiteral("tier")),
            QStringLiteral("b"));

        // The Client's metadata reads use that informer: no full Deployment informer appears.
        auto read = QCoro::waitFor(m_client->getMetadata({}, DeploymentKind, Default, QStringLiteral("child")));
        QVERIFY(read.ok());
        QCOMPARE(topLevelKeys(*read), MetadataOnlyKeys);
        QCOMPARE(read->kind(), QStringLiteral("Deployment"));
        auto listed = QCoro::waitFor(m_client->listMetadata({}, DeploymentKind));
        QVERIFY(listed.ok());
        QCOMPARE(listed->size(), 1);
        QVERIFY(!m_cache->kinds().contains(DeploymentKind));
        QCOMPARE(m_cache->informers().size(), 2); // ConfigMap (full) and Deployment (metadata)

        // A full read is a different informer, with the spec.
        auto full = QCoro::waitFor(m_client->get({}, DeploymentKind, Default, QStringLiteral("child")));
        QVERIFY(full.ok());
        QVERIFY(full->json().contains(QLatin1String("spec")));
        QCOMPARE(m_cache->informers().size(), 3);
        QCoro::waitFor((*built)->shutdown());
    }
};

QTEST_GUILESS_MAIN(tst_MetadataWatch)
#include "tst_metadatawatch.moc"
