// SPDX-License-Identifier: Apache-2.0
// Field ownership without HTTP: the fieldsV1 trie, the sets Apply and Update record, conflicts,
// force, removal of fields an applier dropped, list-map keys from the built-in table and from a
// CRD schema.
#include "engine/apiserver/apply/fieldmanager.h"
#include "engine/apiserver/registry/registry.h"
#include "tests/apiserver/tst_fieldmanager_data.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace opbench;
using namespace opbench::apiserver;

namespace {

template<typename... T> QStringList P(T... elements) { return QStringList{QString::fromLatin1(elements)...}; }

QJsonObject json(const char *text) { return QJsonDocument::fromJson(QByteArray(text)).object(); }

ResourceType builtin(const char *group, const char *resource)
{
    static ResourceRegistry registry;
    return *registry.find(
        GroupVersionResource{QString::fromLatin1(group), QStringLiteral("v1"), QString::fromLatin1(resource)});
}

const QJsonObject kDeploymentConfig = json(kJson0);

FieldManagerWrite writer(const char *manager, const char *time = "2026-01-01T00:00:00Z", const char *sub = "")
{
    return FieldManagerWrite{
        QString::fromLatin1(manager), QStringLiteral("apps/v1"), QString::fromLatin1(sub), QString::fromLatin1(time)};
}

QJsonArray managedFieldsOf(const QJsonObject &o)
{
    return o.value(QLatin1String("metadata")).toObject().value(QLatin1String("managedFields")).toArray();
}

QJsonObject entryOf(const QJsonObject &o, const QString &manager, const QString &operation)
{
    for (const QJsonValue &v : managedFieldsOf(o)) {
        const QJsonObject e = v.toObject();
        if (e.value(QLatin1String("manager")).toString() == manager
            && e.value(QLatin1String("operation")).toString() == operation)
            return e;
    }
    return {};
}

FieldSet fieldsOf(const QJsonObject &o, const QString &manager, const QString &operation)
{
    return FieldSet::fromFieldsV1(entryOf(o, manager, operation).value(QLatin1String("fieldsV1")).toObject());
}

QJsonObject withReplicas(QJsonObject config, int replicas)
{
    QJsonObject spec = config.value(QLatin1String("spec")).toObject();
    spec.insert(QStringLiteral("replicas"), replicas);
    config.insert(QStringLiteral("spec"), spec);
    return config;
}

} // namespace

class tst_FieldManager : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldRoundTripFieldsV1AndPrintPaths()
    {
        const QJsonObject fields = json(kJson1);
        const FieldSet s = FieldSet::fromFieldsV1(fields);
        QCOMPARE(s.toFieldsV1(), fields);
        QCOMPARE(s.paths(),
            QStringList({QStringLiteral(".finalizers[=\"a\"]"), QStringLiteral(".metadata.labels"),
                QStringLiteral(".metadata.labels.app"), QStringLiteral(".spec.template.spec.containers[name=\"web\"]"),
                QStringLiteral(".spec.template.spec.containers[name=\"web\"].image")}));
    }

    void shouldComputeSetAlgebraOnMembers()
    {
        FieldSet a = FieldSet::fromFieldsV1(json(kJson2));
        const FieldSet b = FieldSet::fromFieldsV1(json(kJson3));
        QVERIFY(a.intersects(b));
        QCOMPARE(a.intersected(b), b);
        a.subtract(b);
        QCOMPARE(a.paths(), QStringList{QStringLiteral(".spec.paused")});
        QVERIFY(!a.intersects(b));
    }

    void shouldRecordTheFieldsAnApplyConfigurationSets()
    {
        const FieldSet s = appliedFieldSet(builtin("apps", "deployments"), kDeploymentConfig);
        const QJsonObject expected = json(kJson4);
        QCOMPARE(s.toFieldsV1(), expected);
    }

    void shouldRecordAnUpdateAsKubeApiserverDoesOnCreate()
    {
        QJsonObject created = kDeploymentConfig;
        recordUpdate(builtin("apps", "deployments"), QJsonObject(), created, writer("kubectl-create"));
        const QJsonArray mf = managedFieldsOf(created);
        QCOMPARE(mf.size(), 1);
        const QJsonObject e = mf.first().toObject();
        QCOMPARE(e.value(QLatin1String("operation")).toString(), QStringLiteral("Update"));
        QCOMPARE(e.value(QLatin1String("apiVersion")).toString(), QStringLiteral("apps/v1"));
        QCOMPARE(e.value(QLatin1String("fieldsType")).toString(), QStringLiteral("FieldsV1"));
        QCOMPARE(e.value(QLatin1String("time")).toString(), QStringLiteral("2026-01-01T00:00:00Z"));
        const QJsonObject f = e.value(QLatin1String("fieldsV1")).toObject();
        // spec, template and its spec exist in a zero Deployment: not members; labels is.
        QVERIFY(!f.value(QLatin1String("f:spec")).toObject().contains(QLatin1String(".")));
        QVERIFY(f.value(QLatin1String("f:metadata"))
                    .toObject()
                    .value(QLatin1String("f:labels"))
                    .toObject()
                    .contains(QLatin1String(".")));
        QVERIFY(!f.value(QLatin1String("f:metadata")).toObject().contains(QLatin1String("f:name")));
        QVERIFY(FieldSet::fromFieldsV1(f).contains(P("f:spec", "f:replicas")));
        const QJsonObject tmpl
            = f.value(QLatin1String("f:spec")).toObject().value(QLatin1String("f:template")).toObject();
        QVERIFY(!tmpl.contains(QLatin1String(".")));
        QVERIFY(!tmpl.value(QLatin1String("f:spec")).toObject().contains(QLatin1String(".")));
        QVERIFY(FieldSet::fromFieldsV1(f).contains(
            P("f:spec", "f:template", "f:spec", "f:containers", "k:{\"name\":\"web\"}")));
        QVERIFY(FieldSet::fromFieldsV1(f).contains(P("f:spec", "f:selector"))); // atomic: a leaf
    }

    void shouldNotTouchManagedFieldsWhenNothingChanged()
    {
        QJsonObject created = kDeploymentConfig;
        recordUpdate(builtin("apps", "deployments"), QJsonObject(), created, writer("a"));
        QJsonObject again = created;
        recordUpdate(builtin("apps", "deployments"), created, again, writer("b", "2026-02-02T00:00:00Z"));
        QCOMPARE(again, created);
    }

    void shouldConflictWithAnotherApplierAndTakeOverWithForce()
    {
        const ResourceType type = builtin("apps", "deployments");
        auto first = serverSideApply(type, std::nullopt, kDeploymentConfig, writer("alice"), false);
        QVERIFY(first);
        auto conflict = serverSideApply(type, *first, withReplicas(kDeploymentConfig, 5), writer("bob"), false);
        QVERIFY(!conflict);
        QCOMPARE(conflict.error().code(), 409);
        QCOMPARE(conflict.error().message(),
            QStringLiteral("Apply failed with 1 conflict: conflict with \"alice\": .spec.replicas"));
        QCOMPARE(conflict.error().details().causes.size(), 1);
        QCOMPARE(conflict.error().details().causes.first().reason, QStringLiteral("FieldManagerConflict"));
        QCOMPARE(conflict.error().details().causes.first().field, QStringLiteral(".spec.replicas"));

        auto forced = serverSideApply(type, *first, withReplicas(kDeploymentConfig, 5), writer("bob"), true);
        QVERIFY(forced);
        QCOMPARE(forced->value(QLatin1String("spec")).toObject().value(QLatin1String("replicas")).toInt(), 5);
        QVERIFY(
            !fieldsOf(*forced, QStringLiteral("alice"), QStringLiteral("Apply")).contains(P("f:spec", "f:replicas")));
        QVERIFY(fieldsOf(*forced, QStringLiteral("bob"), QStringLiteral("Apply")).contains(P("f:spec", "f:replicas")));
        // fields both apply with the same value are shared, not conflicts
        QVERIFY(fieldsOf(*forced, QStringLiteral("alice"), QStringLiteral("Apply"))
                    .contains(P("f:metadata", "f:labels", "f:app")));
    }

    void shouldListEveryConflictByManager()
    {
        const ResourceType type = builtin("apps", "deployments");
        auto first = serverSideApply(type, std::nullopt, kDeploymentConfig, writer("alice"), false);
        QJsonObject other = withReplicas(kDeploymentConfig, 7);
        other.insert(QStringLiteral("metadata"), json(kJson5));
        auto conflict = serverSideApply(type, *first, other, writer("bob"), false);
        QVERIFY(!conflict);
        QCOMPARE(conflict.error().message(),
            QStringLiteral("Apply failed with 2 conflicts: conflicts with \"alice\":\n"
                           "- .metadata.labels.app\n- .spec.replicas"));
    }

    void shouldRemoveFieldsAnApplierStoppedApplyingUnlessSomeoneElseOwnsThem()
    {
        const ResourceType type = builtin("", "configmaps");
        const QJsonObject both = json(kJson6);
        const QJsonObject onlyA = json(kJson7);
        const QJsonObject onlyB = json(kJson8);
        auto first = serverSideApply(type, std::nullopt, both, writer("alice"), false);
        QVERIFY(first);
        auto dropped = serverSideApply(type, *first, onlyA, writer("alice"), false);
        QVERIFY(dropped);
        QCOMPARE(dropped->value(QLatin1String("data")).toObject(), json(kJson9));

        // bob also applies b: alice dropping it keeps it
        auto shared = serverSideApply(type, *first, onlyB, writer("bob"), false);
        QVERIFY(shared);
        auto kept = serverSideApply(type, *shared, onlyA, writer("alice"), false);
        QVERIFY(kept);
        QCOMPARE(kept->value(QLatin1String("data")).toObject(), json(kJson10));
    }

    void shouldGiveAnUpdateOwnershipAndMakeTheApplierConflictWithIt()
    {
        const ResourceType type = builtin("apps", "deployments");
        auto applied = serverSideApply(type, std::nullopt, kDeploymentConfig, writer("alice"), false);
        QVERIFY(applied);
        QJsonObject edited = withReplicas(*applied, 4);
        recordUpdate(type, *applied, edited, writer("kubectl-edit", "2026-01-02T00:00:00Z"));
        QVERIFY(fieldsOf(edited, QStringLiteral("kubectl-edit"), QStringLiteral("Update"))
                    .contains(P("f:spec", "f:replicas")));
        QVERIFY(
            !fieldsOf(edited, QStringLiteral("alice"), QStringLiteral("Apply")).contains(P("f:spec", "f:replicas")));
        // entries are sorted: Apply first, then Update by time
        QCOMPARE(managedFieldsOf(edited).at(0).toObject().value(QLatin1String("operation")).toString(),
            QStringLiteral("Apply"));
        auto again = serverSideApply(type, edited, kDeploymentConfig, writer("alice"), false);
        QVERIFY(!again);
        QCOMPARE(again.error().message(),
            QStringLiteral(
                "Apply failed with 1 conflict: conflict with \"kubectl-edit\" using apps/v1: .spec.replicas"));
    }

    void shouldBeANoOpWhenTheSameConfigurationIsAppliedAgain()
    {
        const ResourceType type = builtin("apps", "deployments");
        auto first = serverSideApply(type, std::nullopt, kDeploymentConfig, writer("alice"), false);
        auto second = serverSideApply(type, *first, kDeploymentConfig, writer("alice", "2026-03-03T00:00:00Z"), false);
        QVERIFY(second);
        QCOMPARE(*second, *first);
    }

    void shouldMergeListMapsByTheKeysOfTheCrdSchema()
    {
        ResourceType type = builtin("apps", "deployments");
        type.custom = true;
        type.statusSubresource = false;
        type.schema = json(kJson11);
        const QJsonObject a = json(kJson12);
        const QJsonObject b = json(kJson13);
        auto first = serverSideApply(type, std::nullopt, a, writer("alice"), false);
        QVERIFY(first);
        auto second = serverSideApply(type, *first, b, writer("bob"), false);
        QVERIFY2(second, second ? "" : qPrintable(second.error().message()));
        QCOMPARE(second->value(QLatin1String("spec")).toObject().value(QLatin1String("items")).toArray().size(), 2);
        QCOMPARE(second->value(QLatin1String("spec")).toObject().value(QLatin1String("tags")).toArray(),
            QJsonArray({QStringLiteral("x"), QStringLiteral("y")}));
        QVERIFY(fieldsOf(*second, QStringLiteral("bob"), QStringLiteral("Apply"))
                    .contains(P("f:spec", "f:items", "k:{\"type\":\"B\"}")));
        // alice drops her item: only hers goes
        const QJsonObject none = json(kJson14);
        auto third = serverSideApply(type, *second, none, writer("alice"), false);
        QVERIFY(third);
        QCOMPARE(third->value(QLatin1String("spec")).toObject().value(QLatin1String("items")).toArray(),
            QJsonArray({json(kJson15)}));
    }

    void shouldRecordAStatusWriteWithItsSubresource()
    {
        const ResourceType type = builtin("apps", "deployments");
        QJsonObject created = kDeploymentConfig;
        recordUpdate(type, QJsonObject(), created, writer("creator"));
        QJsonObject withStatus = created;
        withStatus.insert(QStringLiteral("status"), json(kJson16));
        recordUpdate(type, created, withStatus, writer("controller", "2026-01-01T00:00:01Z", "status"));
        const QJsonObject e = entryOf(withStatus, QStringLiteral("controller"), QStringLiteral("Update"));
        QCOMPARE(e.value(QLatin1String("subresource")).toString(), QStringLiteral("status"));
        QCOMPARE(e.value(QLatin1String("fieldsV1")).toObject(), json(kJson17));
    }

    void shouldFoldTheOldestUpdateManagersIntoAncientChanges()
    {
        // kube-apiserver keeps 10 Update entries at most; 12 managers each writing one key of a
        // ConfigMap leave m01..m03 folded into "ancient-changes" (with m03's time), m04..m12 kept
        const ResourceType type = builtin("", "configmaps");
        QJsonObject old;
        QJsonObject live
            = json(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default"},"data":{}})");
        for (int i = 1; i <= 12; ++i) {
            QJsonObject next = live;
            QJsonObject data = next.value(QLatin1String("data")).toObject();
            data.insert(QStringLiteral("k%1").arg(i), QStringLiteral("v"));
            next.insert(QStringLiteral("data"), data);
            const QString time = QStringLiteral("2026-01-01T00:00:%1Z").arg(i, 2, 10, QLatin1Char('0'));
            recordUpdate(type, old, next,
                FieldManagerWrite{
                    QStringLiteral("m%1").arg(i, 2, 10, QLatin1Char('0')), QStringLiteral("v1"), QString(), time});
            old = live = next;
            if (i == 10) { // 10 Update entries: nothing folded yet
                QCOMPARE(managedFieldsOf(live).size(), 10);
                QVERIFY(entryOf(live, QStringLiteral("ancient-changes"), QStringLiteral("Update")).isEmpty());
            }
        }
        const QJsonArray entries = managedFieldsOf(live);
        QStringList managers;
        for (const QJsonValue &e : entries)
            managers << e.toObject().value(QLatin1String("manager")).toString();
        QCOMPARE(entries.size(), 10);
        for (const char *gone : {"m01", "m02", "m03"})
            QVERIFY2(!managers.contains(QLatin1String(gone)), gone);
        for (int i = 4; i <= 12; ++i)
            QVERIFY(managers.contains(QStringLiteral("m%1").arg(i, 2, 10, QLatin1Char('0'))));
        const QJsonObject bucket = entryOf(live, QStringLiteral("ancient-changes"), QStringLiteral("Update"));
        QCOMPARE(bucket.value(QLatin1String("time")).toString(), QStringLiteral("2026-01-01T00:00:03Z"));
        QCOMPARE(bucket.value(QLatin1String("apiVersion")).toString(), QStringLiteral("v1"));
        const QJsonObject data
            = bucket.value(QLatin1String("fieldsV1")).toObject().value(QLatin1String("f:data")).toObject();
        for (const char *k : {"f:k1", "f:k2", "f:k3"})
            QVERIFY2(data.contains(QLatin1String(k)), k);
        QVERIFY(!data.contains(QLatin1String("f:k4")));
    }

    void shouldUpgradeClientSideApplyToServerSideApply()
    {
        // `kubectl apply` (client-side) created the ConfigMap: its Update entry owns data.a and
        // data.b, the annotation holds {a: 1, b: 1}; someone else changed b since
        const ResourceType type = builtin("", "configmaps");
        const QJsonObject lastApplied = json(
            R"({"apiVersion":"v1","data":{"a":"1","b":"1"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"c","namespace":"default"}})");
        QJsonObject live = json(
            R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default"},"data":{"a":"1","b":"1"}})");
        QJsonObject liveMeta = live.value(QLatin1String("metadata")).toObject();
        liveMeta.insert(QStringLiteral("annotations"),
            QJsonObject{{QStringLiteral("kubectl.kubernetes.io/last-applied-configuration"),
                QString::fromUtf8(QJsonDocument(lastApplied).toJson(QJsonDocument::Compact))}});
        live.insert(QStringLiteral("metadata"), liveMeta);
        recordUpdate(type, QJsonObject(), live, writer("kubectl-client-side-apply", "2026-01-01T00:00:00Z"));
        const QJsonObject config
            = json(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"2","b":"1"}})");

        // another manager conflicts as before
        const Expected<QJsonObject> other = serverSideApply(type, live, config, writer("other"), false);
        QVERIFY(!other);
        QCOMPARE(other.error().code(), 409);

        // kubectl --server-side takes data.a: it still had its last-applied value
        const Expected<QJsonObject> upgraded
            = serverSideApply(type, live, config, writer("kubectl", "2026-01-01T00:00:05Z"), false);
        QVERIFY2(upgraded, upgraded ? "" : qPrintable(upgraded.error().message()));
        QCOMPARE(upgraded->value(QLatin1String("data")).toObject().value(QLatin1String("a")).toString(),
            QStringLiteral("2"));
        QVERIFY(fieldsOf(*upgraded, QStringLiteral("kubectl"), QStringLiteral("Apply"))
                    .paths()
                    .contains(QStringLiteral(".data.a")));
        QVERIFY(!fieldsOf(*upgraded, QStringLiteral("kubectl-client-side-apply"), QStringLiteral("Update"))
                     .paths()
                     .contains(QStringLiteral(".data.a")));
        // the annotation now holds what kubectl applied
        const QJsonObject annotation
            = QJsonDocument::fromJson(upgraded->value(QLatin1String("metadata"))
                                          .toObject()
                                          .value(QLatin1String("annotations"))
                                          .toObject()
                                          .value(QLatin1String("kubectl.kubernetes.io/last-applied-configuration"))
                                          .toString()
                                          .toUtf8())
                  .object();
        QCOMPARE(annotation.value(QLatin1String("data")).toObject(), json(R"({"a":"2","b":"1"})"));

        // a field changed since the last client-side apply is a real conflict
        QJsonObject edited = live;
        QJsonObject data = edited.value(QLatin1String("data")).toObject();
        data.insert(QStringLiteral("b"), QStringLiteral("9"));
        edited.insert(QStringLiteral("data"), data);
        recordUpdate(type, live, edited, writer("kubectl-client-side-apply", "2026-01-01T00:00:02Z"));
        const Expected<QJsonObject> conflict = serverSideApply(type, edited, config, writer("kubectl"), false);
        QVERIFY(!conflict);
        QCOMPARE(conflict.error().code(), 409);
        QVERIFY2(conflict.error().message().contains(QLatin1String(".data.b"))
                && !conflict.error().message().contains(QLatin1String(".data.a")),
            qPrintable(conflict.error().message()));
    }

    void shouldNameTheManagerFromTheUserAgent()
    {
        QCOMPARE(
            fieldManagerFor(QString(), "kubectl/v1.32.4 (linux/amd64) kubernetes/faecb19"), QStringLiteral("kubectl"));
        QCOMPARE(fieldManagerFor(QStringLiteral("mine"), "kubectl/v1.32.4"), QStringLiteral("mine"));
    }
};

QTEST_GUILESS_MAIN(tst_FieldManager)
#include "tst_fieldmanager.moc"
