// SPDX-License-Identifier: Apache-2.0
// Server-side apply with field ownership through HTTP: managedFields on every write, 409
// FieldManagerConflict with kube-apiserver's wording, force, removal of dropped fields, shared
// ownership, Update after Apply, status subresource entries, and the no-op re-apply.
#include "tests/apiserver/apiserverfixture.h"

#include "engine/cache/informer.h"
#include "engine/client/restclient.h"

#include <QJsonArray>
#include <QtTest>

#include <qcoro/qcorotask.h>

using namespace opbench;
using namespace opbench::testing;

namespace {

const QString kConfigMaps = QStringLiteral("/api/v1/namespaces/default/configmaps");
const QString kDeploys = QStringLiteral("/apis/apps/v1/namespaces/default/deployments");
const QString kApps = QStringLiteral("/apis/example.com/v1alpha1/namespaces/default/myapplications");
const QByteArray kApply = "application/apply-patch+yaml";

QByteArray configMap(const char *name, const QByteArray &data)
{
    return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + QByteArray(name) + "\ndata:\n" + data;
}

QByteArray deployment(const char *name, int replicas, const char *image)
{
    return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + QByteArray(name)
        + "\nspec:\n  replicas: " + QByteArray::number(replicas)
        + "\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n"
          "    spec:\n      containers:\n      - name: web\n        image: "
        + QByteArray(image) + "\n";
}

QJsonArray managedFields(const QJsonObject &o)
{
    return o.value(QLatin1String("metadata")).toObject().value(QLatin1String("managedFields")).toArray();
}

QJsonObject entry(const QJsonObject &o, const QString &manager)
{
    for (const QJsonValue &v : managedFields(o)) {
        if (v.toObject().value(QLatin1String("manager")).toString() == manager)
            return v.toObject();
    }
    return {};
}

QJsonObject fieldsV1(const QJsonObject &o, const QString &manager)
{
    return entry(o, manager).value(QLatin1String("fieldsV1")).toObject();
}

QString rvOf(const QJsonObject &o)
{
    return o.value(QLatin1String("metadata")).toObject().value(QLatin1String("resourceVersion")).toString();
}

} // namespace

class TestApiServerApply : public QObject, private ApiServerFixture
{
    Q_OBJECT

    HttpReply apply(const QString &path, const QByteArray &body, const QString &manager, bool force = false)
    {
        return m_http.call("PATCH",
            path + QStringLiteral("?fieldManager=") + manager + (force ? QStringLiteral("&force=true") : QString()),
            body, kApply);
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_api.start(), qPrintable(m_api.errorString())); }

    void shouldRecordAnUpdateEntryForACreate()
    {
        const QJsonObject cm{
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("created")}}},
            {QStringLiteral("data"), QJsonObject{{QStringLiteral("a"), QStringLiteral("1")}}}};
        const HttpReply r = m_http.post(kConfigMaps + QStringLiteral("?fieldManager=kubectl-create"), cm);
        QCOMPARE(r.code, 201);
        const QJsonArray mf = managedFields(r.json());
        QCOMPARE(mf.size(), 1);
        const QJsonObject e = mf.first().toObject();
        QCOMPARE(e.value(QLatin1String("manager")).toString(), QStringLiteral("kubectl-create"));
        QCOMPARE(e.value(QLatin1String("operation")).toString(), QStringLiteral("Update"));
        QCOMPARE(e.value(QLatin1String("apiVersion")).toString(), QStringLiteral("v1"));
        QCOMPARE(e.value(QLatin1String("fieldsType")).toString(), QStringLiteral("FieldsV1"));
        QVERIFY(!e.value(QLatin1String("time")).toString().isEmpty());
        QCOMPARE(e.value(QLatin1String("fieldsV1")).toObject(),
            QJsonObject({{QStringLiteral("f:data"),
                QJsonObject{{QStringLiteral("."), QJsonObject()}, {QStringLiteral("f:a"), QJsonObject()}}}}));
        // the same object read back carries it too
        QCOMPARE(managedFields(m_http.get(kConfigMaps + QStringLiteral("/created")).json()), mf);
    }

    void shouldNameTheManagerFromTheUserAgentWithoutFieldManager()
    {
        const QJsonObject cm{
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("by-agent")}}},
            {QStringLiteral("data"), QJsonObject{{QStringLiteral("a"), QStringLiteral("1")}}}};
        const HttpReply r = m_http.call("POST", kConfigMaps, TestHttp::toBytes(cm), "application/json",
            {{"User-Agent", "kubectl/v1.32.4 (linux/amd64) kubernetes/faecb19"}});
        QCOMPARE(r.code, 201);
        QCOMPARE(managedFields(r.json()).first().toObject().value(QLatin1String("manager")).toString(),
            QStringLiteral("kubectl"));
    }

    void shouldAnswerAConflictAsKubeApiserverDoesAndTakeOverWithForce()
    {
        const QString path = kDeploys + QStringLiteral("/conflict");
        QCOMPARE(apply(path, deployment("conflict", 2, "nginx:1"), QStringLiteral("alice")).code, 201);
        const HttpReply conflict = apply(path, deployment("conflict", 5, "nginx:1"), QStringLiteral("bob"));
        QCOMPARE(conflict.code, 409);
        const QJsonObject status = conflict.json();
        QCOMPARE(status.value(QLatin1String("reason")).toString(), QStringLiteral("Conflict"));
        QCOMPARE(status.value(QLatin1String("message")).toString(),
            QStringLiteral("Apply failed with 1 conflict: conflict with \"alice\": .spec.replicas"));
        const QJsonArray causes
            = status.value(QLatin1String("details")).toObject().value(QLatin1String("causes")).toArray();
        QCOMPARE(causes.size(), 1);
        QCOMPARE(causes.first().toObject().value(QLatin1String("reason")).toString(),
            QStringLiteral("FieldManagerConflict"));
        QCOMPARE(causes.first().toObject().value(QLatin1String("message")).toString(),
            QStringLiteral("conflict with \"alice\""));
        QCOMPARE(causes.first().toObject().value(QLatin1String("field")).toString(), QStringLiteral(".spec.replicas"));
        QCOMPARE(
            m_http.get(path).json().value(QLatin1String("spec")).toObject().value(QLatin1String("replicas")).toInt(),
            2);

        const HttpReply forced = apply(path, deployment("conflict", 5, "nginx:1"), QStringLiteral("bob"), true);
        QCOMPARE(forced.code, 200);
        const QJsonObject o = forced.json();
        QCOMPARE(o.value(QLatin1String("spec")).toObject().value(QLatin1String("replicas")).toInt(), 5);
        QVERIFY(fieldsV1(o, QStringLiteral("bob"))
                    .value(QLatin1String("f:spec"))
                    .toObject()
                    .contains(QLatin1String("f:replicas")));
        QVERIFY(!fieldsV1(o, QStringLiteral("alice"))
                     .value(QLatin1String("f:spec"))
                     .toObject()
                     .contains(QLatin1String("f:replicas")));
        // the image both apply with the same value is shared: still alice's too
        const QJsonObject container = fieldsV1(o, QStringLiteral("alice"))
                                          .value(QLatin1String("f:spec"))
                                          .toObject()
                                          .value(QLatin1String("f:template"))
                                          .toObject()
                                          .value(QLatin1String("f:spec"))
                                          .toObject()
                                          .value(QLatin1String("f:containers"))
                                          .toObject()
                                          .value(QLatin1String("k:{\"name\":\"web\"}"))
                                          .toObject();
        QVERIFY(container.contains(QLatin1String("f:image")));
        QVERIFY(container.contains(QLatin1String(".")));
    }

    void shouldRemoveFieldsAManagerStopsApplyingUnlessSharedWithAnother()
    {
        const QString path = kConfigMaps + QStringLiteral("/pruned");
        QCOMPARE(apply(path, configMap("pruned", "  a: '1'\n  b: '2'\n  c: '3'\n"), QStringLiteral("alice")).code, 201);
        QCOMPARE(apply(path, configMap("pruned", "  c: '3'\n"), QStringLiteral("bob")).code, 200); // shares c
        const HttpReply dropped = apply(path, configMap("pruned", "  a: '1'\n"), QStringLiteral("alice"));
        QCOMPARE(dropped.code, 200);
        QCOMPARE(dropped.json().value(QLatin1String("data")).toObject(),
            QJsonObject({{QStringLiteral("a"), QStringLiteral("1")}, {QStringLiteral("c"), QStringLiteral("3")}}));
    }

    void shouldBeANoOpToApplyTheSameConfigurationAgain()
    {
        const QString path = kConfigMaps + QStringLiteral("/same");
        const HttpReply first = apply(path, configMap("same", "  a: '1'\n"), QStringLiteral("alice"));
        QCOMPARE(first.code, 201);
        const HttpReply second = apply(path, configMap("same", "  a: '1'\n"), QStringLiteral("alice"));
        QCOMPARE(second.code, 200);
        QCOMPARE(rvOf(second.json()), rvOf(first.json()));
        QCOMPARE(managedFields(second.json()), managedFields(first.json()));
    }

    void shouldLetAnUpdateTakeAFieldSoTheApplierConflictsWithIt()
    {
        const QString path = kConfigMaps + QStringLiteral("/edited");
        QCOMPARE(apply(path, configMap("edited", "  a: '1'\n"), QStringLiteral("alice")).code, 201);
        QJsonObject live = m_http.get(path).json();
        live.insert(QStringLiteral("data"), QJsonObject{{QStringLiteral("a"), QStringLiteral("2")}});
        const HttpReply put = m_http.put(path + QStringLiteral("?fieldManager=kubectl-edit"), live);
        QCOMPARE(put.code, 200);
        QCOMPARE(entry(put.json(), QStringLiteral("kubectl-edit")).value(QLatin1String("operation")).toString(),
            QStringLiteral("Update"));
        QVERIFY(entry(put.json(), QStringLiteral("alice")).isEmpty()); // alice owned only data.a
        // entries are sorted Apply before Update; alice has none left, so the editor is alone
        const HttpReply again = apply(path, configMap("edited", "  a: '1'\n  b: '1'\n"), QStringLiteral("alice"));
        QCOMPARE(again.code, 409);
        QCOMPARE(again.json().value(QLatin1String("message")).toString(),
            QStringLiteral("Apply failed with 1 conflict: conflict with \"kubectl-edit\" using v1: .data.a"));
    }

    void shouldMergeListMapItemsOfTwoManagersByKey()
    {
        const QString path = kDeploys + QStringLiteral("/sidecar");
        QCOMPARE(apply(path, deployment("sidecar", 1, "nginx:1"), QStringLiteral("alice")).code, 201);
        const QByteArray sidecar
            = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: sidecar\nspec:\n  template:\n    spec:\n"
              "      containers:\n      - name: proxy\n        image: envoy\n";
        const HttpReply r = apply(path, sidecar, QStringLiteral("bob"));
        QCOMPARE(r.code, 200);
        const QJsonArray containers = r.json()
                                          .value(QLatin1String("spec"))
                                          .toObject()
                                          .value(QLatin1String("template"))
                                          .toObject()
                                          .value(QLatin1String("spec"))
                                          .toObject()
                                          .value(QLatin1String("containers"))
                                          .toArray();
        QCOMPARE(containers.size(), 2);
        // bob drops his container: only his goes
        const QByteArray nothing = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: sidecar\n";
        const HttpReply dropped = apply(path, nothing, QStringLiteral("bob"));
        QCOMPARE(dropped.code, 200);
        const QJsonArray left = dropped.json()
                                    .value(QLatin1String("spec"))
                                    .toObject()
                                    .value(QLatin1String("template"))
                                    .toObject()
                                    .value(QLatin1String("spec"))
                                    .toObject()
                                    .value(QLatin1String("containers"))
                                    .toArray();
        QCOMPARE(left.size(), 1);
        QCOMPARE(left.first().toObject().value(QLatin1String("name")).toString(), QStringLiteral("web"));
    }

    void shouldRecordStatusWritesWithTheirSubresource()
    {
        const QJsonObject app{{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("st")}}},
            {QStringLiteral("spec"),
                QJsonObject{{QStringLiteral("image"), QStringLiteral("nginx")}, {QStringLiteral("replicas"), 1}}}};
        QCOMPARE(m_http.post(kApps + QStringLiteral("?fieldManager=creator"), app).code, 201);
        const HttpReply r = m_http.call("PATCH", kApps + QStringLiteral("/st/status?fieldManager=operator"),
            R"({"status":{"phase":"Running"}})", "application/merge-patch+json");
        QCOMPARE(r.code, 200);
        const QJsonObject e = entry(r.json(), QStringLiteral("operator"));
        QCOMPARE(e.value(QLatin1String("subresource")).toString(), QStringLiteral("status"));
        QCOMPARE(e.value(QLatin1String("apiVersion")).toString(), QStringLiteral("example.com/v1alpha1"));
        QVERIFY(e.value(QLatin1String("fieldsV1"))
                    .toObject()
                    .value(QLatin1String("f:status"))
                    .toObject()
                    .contains(QLatin1String("f:phase")));
        QVERIFY(!fieldsV1(r.json(), QStringLiteral("creator")).contains(QLatin1String("f:status")));
    }

    void shouldKeepManagedFieldsOutOfTheInformerCache()
    {
        // The server records managedFields on every write; opbench's informers strip them by
        // default (the cache's transform), so the cache holds what controllers read.
        auto config = loadConfig(m_api.kubeconfigPath());
        QVERIFY2(config.ok(), config.ok() ? "" : qPrintable(config.error().message()));
        RestClient client(std::move(*config));
        InformerOptions o;
        o.resource = GroupVersionResource{QString(), QStringLiteral("v1"), QStringLiteral("configmaps")};
        o.kind = QStringLiteral("ConfigMap");
        o.namespaceName = QStringLiteral("default");
        o.fieldSelector = QStringLiteral("metadata.name=cached");
        o.client = &client;
        Informer informer(std::move(o));
        informer.start();
        QTRY_VERIFY_WITH_TIMEOUT(informer.hasSynced(), 10000);
        QCOMPARE(
            apply(kConfigMaps + QStringLiteral("/cached"), configMap("cached", "  a: '1'\n"), QStringLiteral("alice"))
                .code,
            201);
        QTRY_COMPARE_WITH_TIMEOUT(informer.store().size(), 1, 10000);
        QVERIFY(!managedFields(m_http.get(kConfigMaps + QStringLiteral("/cached")).json()).isEmpty());
        const Object cached = informer.store().list().first();
        QVERIFY(!cached.json().value(QLatin1String("metadata")).toObject().contains(QLatin1String("managedFields")));
        informer.stop();
    }
};

QTEST_GUILESS_MAIN(TestApiServerApply)
#include "tst_apiserver_apply.moc"
