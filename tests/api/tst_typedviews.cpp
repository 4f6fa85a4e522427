// SPDX-License-Identifier: Apache-2.0
#include "engine/api/builtin/builtin.h"
#include "engine/api/configmap.h"
#include "engine/api/deployment.h"
#include "engine/api/event.h"
#include "engine/api/lease.h"
#include "engine/api/namespaceobject.h"
#include "engine/api/pod.h"
#include "engine/api/timeformat.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <QTimeZone>

using namespace opbench;

namespace {
Object wireDeployment()
{
    QFile f(QStringLiteral(OPBENCH_SOURCE_DIR "/tests/data/deployment-wire.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return Object::parse(f.readAll()).value();
}
/// The kind a view says it is, and what its (namespace, name) constructor builds.
template<Kind T> void checkKind(const char *group, const char *version, const char *kind, const char *resource)
{
    const KindInfo &info = T::kindInfo();
    QCOMPARE(info.gvk,
        GroupVersionKind(QString::fromLatin1(group), QString::fromLatin1(version), QString::fromLatin1(kind)));
    QCOMPARE(info.resource, QString::fromLatin1(resource));
    QVERIFY(info.namespaced);
    QCOMPARE(gvkOf<T>(), info.gvk);
    const Object fresh = T(QStringLiteral("shop"), QStringLiteral("a")).toObject();
    QCOMPARE(fresh.apiVersion(), info.apiVersion());
    QCOMPARE(fresh.kind(), info.gvk.kind);
    QCOMPARE(fresh.namespaceName(), QStringLiteral("shop"));
    QCOMPARE(fresh.name(), QStringLiteral("a"));
    QCOMPARE(T(fresh).toObject().json(), fresh.json()); // explicit from Object, nothing lost
    QCOMPARE(T().toObject().kind(), info.gvk.kind);
}

static_assert(!std::is_convertible_v<Object, Deployment> && !std::is_convertible_v<Object, Service>,
    "views are built from an Object explicitly");

} // namespace

class tst_TypedViews : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldReadDeploymentFields()
    {
        const Object o = wireDeployment();
        QVERIFY(!o.isNull());
        const Deployment d(o);
        QCOMPARE(d.name(), QStringLiteral("checkout-service"));
        QVERIFY(d.replicas() >= 0);
        QVERIFY(!d.containers().isEmpty());
        QCOMPARE(d.containers().first().name, QStringLiteral("app"));
        QVERIFY(!d.selectorMatchLabels().isEmpty());
        QVERIFY(d.labelSelector().ok());
        QVERIFY(d.labelSelector()->matches(d.templateLabels()));
    }

    void shouldApplyDeploymentDefaults_data()
    {
        QTest::addColumn<QJsonObject>("spec");
        QTest::addColumn<int>("replicas");
        QTest::addColumn<int>("deadline");
        QTest::addColumn<QString>("strategy");
        QTest::newRow("empty spec") << QJsonObject{} << 1 << 600 << "RollingUpdate";
        QTest::newRow("explicit zero") << QJsonObject{{"replicas", 0}} << 0 << 600 << "RollingUpdate";
        QTest::newRow("all set") << QJsonObject{{"replicas", 5}, {"progressDeadlineSeconds", 30},
            {"strategy", QJsonObject{{"type", "Recreate"}}}}
                                 << 5 << 30 << "Recreate";
    }
    void shouldApplyDeploymentDefaults()
    {
        QFETCH(QJsonObject, spec);
        QFETCH(int, replicas);
        QFETCH(int, deadline);
        QFETCH(QString, strategy);
        const Deployment d(
            Object::fromJson(QJsonObject{{"apiVersion", "apps/v1"}, {"kind", "Deployment"}, {"spec", spec}}));
        QCOMPARE(d.replicas(), replicas);
        QCOMPARE(d.progressDeadlineSeconds(), deadline);
        QCOMPARE(d.strategyType(), strategy);
        QVERIFY(d.labelSelector()->matchesNothing()); // no selector → nothing
    }

    void shouldEditDeploymentKeepingOtherFields()
    {
        const Object original = wireDeployment();
        Deployment d(original);
        QVERIFY(d.setImage(QStringLiteral("app"), QStringLiteral("registry/checkout:2.0")));
        QVERIFY(!d.setImage(QStringLiteral("missing"), QStringLiteral("x")));
        d.setReplicas(7);
        d.meta().setLabel(QStringLiteral("extra"), QStringLiteral("yes"));
        const Object edited = d.toObject();
        QCOMPARE(edited.labels().value(QStringLiteral("extra")), QStringLiteral("yes"));
        QCOMPARE(Deployment(edited).replicas(), 7);
        QCOMPARE(Deployment(edited).containers().first().image, QStringLiteral("registry/checkout:2.0"));
        // Everything else is unchanged: undo the three edits and compare documents.
        QJsonObject a = edited.json();
        QJsonObject b = original.json();
        for (QJsonObject *doc : {&a, &b}) {
            QJsonObject spec = doc->value(QLatin1String("spec")).toObject();
            spec.remove(QLatin1String("replicas"));
            QJsonObject tmpl = spec.value(QLatin1String("template")).toObject();
            QJsonObject podSpec = tmpl.value(QLatin1String("spec")).toObject();
            podSpec.remove(QLatin1String("containers"));
            tmpl.insert(QLatin1String("spec"), podSpec);
            spec.insert(QLatin1String("template"), tmpl);
            doc->insert(QLatin1String("spec"), spec);
            MetaEditor(*doc).removeLabel(QStringLiteral("extra"));
        }
        QCOMPARE(a, b);
        QVERIFY(original.json() != edited.json()); // the original Object is untouched
    }

    void shouldBuildNewDeployment()
    {
        Deployment d;
        d.meta().setName(QStringLiteral("web"));
        d.meta().setNamespace(QStringLiteral("shop"));
        d.setSelectorMatchLabels({{QStringLiteral("app"), QStringLiteral("web")}});
        d.setTemplateLabels({{QStringLiteral("app"), QStringLiteral("web")}});
        d.setContainer(QStringLiteral("app"), QStringLiteral("nginx:1"));
        d.setContainer(QStringLiteral("app"), QStringLiteral("nginx:2"));
        const Object o = d.toObject();
        QCOMPARE(o.apiVersion(), QStringLiteral("apps/v1"));
        QCOMPARE(o.kind(), QStringLiteral("Deployment"));
        QCOMPARE(o.key(), QStringLiteral("shop/web"));
        QCOMPARE(
            Deployment(o).containers(), (QList<ContainerImage>{{QStringLiteral("app"), QStringLiteral("nginx:2")}}));
    }

    void shouldReadAndWriteDeploymentStatus()
    {
        const QDateTime now(QDate(2024, 5, 1), QTime(10, 0), QTimeZone::utc());
        Deployment d;
        QCOMPARE(d.availableReplicas(), 0);
        d.setStatusReplicas(3);
        d.setUpdatedReplicas(3);
        d.setReadyReplicas(2);
        d.setAvailableReplicas(2);
        d.setObservedGeneration(4);
        QVERIFY(d.setCondition(
            {QStringLiteral("Available"), QStringLiteral("False"), QStringLiteral("MinimumReplicasUnavailable"),
                QStringLiteral("Deployment does not have minimum availability."), formatTimestamp(now), {}, 0},
            now));
        const Deployment back(d.toObject());
        QCOMPARE(back.statusReplicas(), 3);
        QCOMPARE(back.updatedReplicas(), 3);
        QCOMPARE(back.readyReplicas(), 2);
        QCOMPARE(back.availableReplicas(), 2);
        QCOMPARE(back.observedGeneration(), 4);
        QCOMPARE(back.conditions().size(), 1);
        QCOMPARE(back.condition(QStringLiteral("Available"))->reason, QStringLiteral("MinimumReplicasUnavailable"));
        QCOMPARE(
            back.condition(QStringLiteral("Available"))->lastTransitionTime, QStringLiteral("2024-05-01T10:00:00Z"));
        QVERIFY(!back.condition(QStringLiteral("Progressing")));
    }

    void shouldHandleLeaseMicroTimes()
    {
        const QDateTime acquired(QDate(2024, 5, 1), QTime(10, 0, 0, 123), QTimeZone::utc());
        Lease l;
        l.meta().setName(QStringLiteral("opbench-leader"));
        l.setHolderIdentity(QStringLiteral("pod-a"));
        l.setLeaseDurationSeconds(15);
        l.setAcquireTime(acquired);
        l.setRenewTime(acquired.addSecs(2));
        l.setLeaseTransitions(3);
        const Object o = l.toObject();
        QCOMPARE(o.apiVersion(), QStringLiteral("coordination.k8s.io/v1"));
        QCOMPARE(o.value({QLatin1String("spec"), QLatin1String("acquireTime")}).toString(),
            QStringLiteral("2024-05-01T10:00:00.123000Z"));
        const Lease back(o);
        QCOMPARE(back.holderIdentity(), QStringLiteral("pod-a"));
        QCOMPARE(back.leaseDurationSeconds(), 15);
        QCOMPARE(back.acquireTime(), acquired);
        QCOMPARE(back.renewTime(), acquired.addSecs(2));
        QCOMPARE(back.leaseTransitions(), 3);
        // Parsing a server-written value with six digits.
        const Lease server(
            Object::fromJson(QJsonObject{{"spec", QJsonObject{{"renewTime", "2024-05-01T10:00:00.654321Z"}}}}));
        QCOMPARE(server.renewTime().time().msec(), 654);
        QVERIFY(!Lease().acquireTime().isValid());
    }

    void shouldBuildCoreEvents()
    {
        const QDateTime now(QDate(2024, 5, 1), QTime(10, 0, 0, 5), QTimeZone::utc());
        const Object target = wireDeployment();
        Event e;
        e.meta().setName(QStringLiteral("checkout-service.17c3"));
        e.meta().setNamespace(QStringLiteral("shop"));
        e.setInvolvedObject(ObjectReference::to(target));
        e.setReason(QStringLiteral("ScalingReplicaSet"));
        e.setMessage(QStringLiteral("Scaled up"));
        e.setType(QStringLiteral("Normal"));
        e.setFirstTimestamp(now);
        e.setLastTimestamp(now);
        e.setEventTime(now);
        e.setSourceComponent(QStringLiteral("opbench-operator"));
        e.setReportingComponent(QStringLiteral("opbench-operator"));
        QCOMPARE(e.count(), 1);
        e.setCount(2);
        const QJsonObject j = e.toObject().json();
        QCOMPARE(j.value(QLatin1String("firstTimestamp")).toString(), QStringLiteral("2024-05-01T10:00:00Z"));
        QCOMPARE(j.value(QLatin1String("eventTime")).toString(), QStringLiteral("2024-05-01T10:00:00.005000Z"));
        QCOMPARE(j.value(QLatin1String("source")).toObject().value(QLatin1String("component")).toString(),
            QStringLiteral("opbench-operator"));
        const Event back(e.toObject());
        QCOMPARE(back.involvedObject().kind, QStringLiteral("Deployment"));
        QCOMPARE(back.involvedObject().namespaceName, QStringLiteral("shop"));
        QCOMPARE(back.involvedObject().uid, target.uid());
        QCOMPARE(back.count(), 2);
        QCOMPARE(back.lastTimestamp(), now.addMSecs(-5));
        QCOMPARE(back.eventTime(), now);
        QCOMPARE(back.reportingComponent(), QStringLiteral("opbench-operator"));
    }

    void shouldTrackPodReadiness()
    {
        const QDateTime now(QDate(2024, 5, 1), QTime(10, 0), QTimeZone::utc());
        Pod p;
        p.meta().setName(QStringLiteral("web-1"));
        p.setContainer(QStringLiteral("app"), QStringLiteral("nginx:1"));
        p.setPhase(QStringLiteral("Running"));
        p.setNodeName(QStringLiteral("node-1"));
        QVERIFY(!p.isReady());
        p.setReady(true, now);
        QVERIFY(p.isReady());
        QCOMPARE(p.condition(QStringLiteral("ContainersReady"))->status, QStringLiteral("True"));
        p.setReady(false, now.addSecs(5));
        const Pod back(p.toObject());
        QVERIFY(!back.isReady());
        QCOMPARE(back.phase(), QStringLiteral("Running"));
        QCOMPARE(back.nodeName(), QStringLiteral("node-1"));
        QCOMPARE(back.containers().first().image, QStringLiteral("nginx:1"));
        QVERIFY(!back.owner());
        const Object rs = Object::parse(
            R"({"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"web-abc","uid":"rs-1"}})")
                              .value();
        Pod owned;
        owned.meta().setControllerReference(rs);
        QCOMPARE(owned.owner()->uid, QStringLiteral("rs-1"));
    }

    void shouldEditConfigMapData()
    {
        const Object o = Object::parse(
            R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"1"},"binaryData":{"b":"AAE="},"immutable":false})")
                             .value();
        ConfigMap c(o);
        QCOMPARE(c.value(QStringLiteral("a")), QStringLiteral("1"));
        c.setValue(QStringLiteral("b"), QStringLiteral("2"));
        c.remove(QStringLiteral("a"));
        const Object edited = c.toObject();
        QCOMPARE(ConfigMap(edited).data(), (QMap<QString, QString>{{QStringLiteral("b"), QStringLiteral("2")}}));
        QCOMPARE(edited.value({QLatin1String("binaryData"), QLatin1String("b")}).toString(), QStringLiteral("AAE="));
        QVERIFY(edited.value({QLatin1String("immutable")}).isBool());
        c.setData({});
        QVERIFY(!c.toObject().json().contains(QLatin1String("data")));
    }

    void shouldViewNamespaces()
    {
        NamespaceView fresh(QStringLiteral("shop"));
        QCOMPARE(fresh.toObject().name(), QStringLiteral("shop"));
        QCOMPARE(fresh.toObject().kind(), QStringLiteral("Namespace"));
        QCOMPARE(fresh.phase(), QStringLiteral("Active"));
        fresh.setPhase(QStringLiteral("Terminating"));
        QVERIFY(NamespaceView(fresh.toObject()).isTerminating());
        static_assert(Kind<NamespaceView>);
        QCOMPARE(NamespaceView::kindInfo().gvk.kind, QStringLiteral("Namespace"));
        QCOMPARE(NamespaceView::kindInfo().resource, QStringLiteral("namespaces"));
        QVERIFY(!NamespaceView::kindInfo().namespaced);
    }

    void shouldKnowTheirKind()
    {
        checkKind<Deployment>("apps", "v1", "Deployment", "deployments");
        checkKind<StatefulSet>("apps", "v1", "StatefulSet", "statefulsets");
        checkKind<Job>("batch", "v1", "Job", "jobs");
        checkKind<Service>("", "v1", "Service", "services");
        checkKind<ConfigMap>("", "v1", "ConfigMap", "configmaps");
        checkKind<Secret>("", "v1", "Secret", "secrets");
        checkKind<ServiceAccount>("", "v1", "ServiceAccount", "serviceaccounts");
        checkKind<Pod>("", "v1", "Pod", "pods");
        checkKind<Event>("", "v1", "Event", "events");
        checkKind<Lease>("coordination.k8s.io", "v1", "Lease", "leases");
    }
};

QTEST_GUILESS_MAIN(tst_TypedViews)
#include "tst_typedviews.moc"
