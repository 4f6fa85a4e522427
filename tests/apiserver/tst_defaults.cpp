// SPDX-License-Identifier: Apache-2.0
// Built-in defaulting (engine/apiserver/validation/defaults.h, servicedefaults.h): the rules kind by kind
// (table-driven, including "a client value is kept"), imagePullPolicy, cluster IP / node port
// allocation, and the Store applying them on create, update, dryRun and restore so that a write
// omitting only defaulted fields is a no-op (same RV, no event).
#include "engine/apiserver/storage/store.h"
#include "engine/apiserver/validation/defaults.h"
#include "engine/apiserver/validation/servicedefaults.h"
#include "engine/base/clock.h"
#include "engine/testing/fakeclock.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

using namespace opbench;
using namespace opbench::apiserver;

namespace {

const GroupVersionResource kDeployments{QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("deployments")};
const GroupVersionResource kServices{QString(), QStringLiteral("v1"), QStringLiteral("services")};
const QString kNs = QStringLiteral("default");
const QByteArray kAbsent = "<absent>";

QJsonObject parse(const QByteArray &json) { return QJsonDocument::fromJson(json).object(); }

/// The value at a dotted path ("spec.template.spec.containers.0.image"); undefined when absent.
QJsonValue valueAt(const QJsonObject &root, const QString &path)
{
    QJsonValue v = root;
    for (const QString &part : path.split(u'.')) {
        bool isIndex = false;
        const int index = part.toInt(&isIndex);
        if (isIndex && v.isArray())
            v = index < v.toArray().size() ? v.toArray().at(index) : QJsonValue(QJsonValue::Undefined);
        else if (v.isObject() && v.toObject().contains(part))
            v = v.toObject().value(part);
        else
            return QJsonValue(QJsonValue::Undefined);
    }
    return v;
}

QByteArray show(const QJsonValue &v)
{
    if (v.isUndefined())
        return kAbsent;
    return QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact).mid(1).chopped(1);
}

QJsonObject defaulted(const QString &resource, const QByteArray &input)
{
    const ResourceRegistry registry;
    const QStringList parts = resource.split(u'/');
    const GroupVersionResource gvr = parts.size() == 2
        ? GroupVersionResource{parts[0], QStringLiteral("v1"), parts[1]}
        : GroupVersionResource{QString(), QStringLiteral("v1"), parts[0]};
    const auto type = registry.find(gvr);
    QJsonObject o = parse(input);
    if (type)
        defaults::applyDefaults(*type, o);
    return o;
}

const QByteArray kDeploy = R"({"spec":{"template":{"spec":{"containers":[{"name":"app","image":"nginx:1.25"}]}}}})";
const QByteArray kPodTemplateDeploy = R"({"spec":{"template":{"spec":{"containers":[{"name":"app","image":"nginx",
  "ports":[{"containerPort":80},{"containerPort":53,"protocol":"UDP"}],
  "env":[{"name":"N","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}],
  "livenessProbe":{"httpGet":{"port":80}},"readinessProbe":{"periodSeconds":5,"grpc":{"port":9}},
  "lifecycle":{"preStop":{"httpGet":{"port":80,"path":"/stop"}}}}],
  "initContainers":[{"name":"init","image":"busybox:latest","imagePullPolicy":"Never"}],
  "volumes":[{"name":"bare"},{"name":"cm","configMap":{"name":"c"}},{"name":"s","secret":{"secretName":"s","defaultMode":256}},
  {"name":"h","hostPath":{"path":"/x"}},{"name":"p","projected":{"sources":[{"serviceAccountToken":{"path":"t"}},
  {"downwardAPI":{"items":[{"path":"n","fieldRef":{"fieldPath":"metadata.name"}}]}}]}}]}}}})";
const QByteArray kPod
    = R"({"spec":{"restartPolicy":"Never","hostNetwork":true,"containers":[{"name":"a","image":"nginx:1.25",
  "ports":[{"containerPort":8080}],"resources":{"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"500m"}}}]}})";

} // namespace

class TestDefaults : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldDefaultBuiltins_data()
    {
        QTest::addColumn<QString>("resource");
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("expected");
        const auto row
            = [](const char *name, const char *res, const QByteArray &in, const char *path, const QByteArray &want) {
                  QTest::newRow(name) << QString::fromLatin1(res) << in << QString::fromLatin1(path) << want;
              };
        const char *d = "apps/deployments";
        row("deploy replicas", d, kDeploy, "spec.replicas", "1");
        row("deploy replicas 0 kept", d, R"({"spec":{"replicas":0}})", "spec.replicas", "0");
        row("deploy strategy type", d, kDeploy, "spec.strategy.type", "\"RollingUpdate\"");
        row("deploy rollingUpdate", d, kDeploy, "spec.strategy.rollingUpdate",
            R"({"maxSurge":"25%","maxUnavailable":"25%"})");
        row("deploy maxSurge kept", d, R"({"spec":{"strategy":{"rollingUpdate":{"maxSurge":1}}}})",
            "spec.strategy.rollingUpdate", R"({"maxSurge":1,"maxUnavailable":"25%"})");
        row("deploy Recreate: no rollingUpdate", d, R"({"spec":{"strategy":{"type":"Recreate"}}})", "spec.strategy",
            R"({"type":"Recreate"})");
        row("deploy history", d, kDeploy, "spec.revisionHistoryLimit", "10");
        row("deploy history kept", d, R"({"spec":{"revisionHistoryLimit":2}})", "spec.revisionHistoryLimit", "2");
        row("deploy deadline", d, kDeploy, "spec.progressDeadlineSeconds", "600");
        row("deploy deadline kept", d, R"({"spec":{"progressDeadlineSeconds":60}})", "spec.progressDeadlineSeconds",
            "60");
        row("template restartPolicy", d, kDeploy, "spec.template.spec.restartPolicy", "\"Always\"");
        row("template grace", d, kDeploy, "spec.template.spec.terminationGracePeriodSeconds", "30");
        row("template dnsPolicy", d, kDeploy, "spec.template.spec.dnsPolicy", "\"ClusterFirst\"");
        row("template securityContext", d, kDeploy, "spec.template.spec.securityContext", "{}");
        row("template schedulerName", d, kDeploy, "spec.template.spec.schedulerName", "\"default-scheduler\"");
        row("template: no enableServiceLinks", d, kDeploy, "spec.template.spec.enableServiceLinks", kAbsent);
        row("template: no template metadata", d, kDeploy, "spec.template.metadata", kAbsent);
        row("container pull policy", d, kDeploy, "spec.template.spec.containers.0.imagePullPolicy", "\"IfNotPresent\"");
        row("container message path", d, kDeploy, "spec.template.spec.containers.0.terminationMessagePath",
            "\"/dev/termination-log\"");
        row("container message policy", d, kDeploy, "spec.template.spec.containers.0.terminationMessagePolicy",
            "\"File\"");
        row("container: no resources", d, kDeploy, "spec.template.spec.containers.0.resources", kAbsent);
        const char *c = "spec.template.spec.containers.0.";
        const auto crow = [&](const char *name, const char *sub, const QByteArray &want) {
            row(name, d, kPodTemplateDeploy, (QByteArray(c) + sub).constData(), want);
        };
        crow("latest image pulls Always", "imagePullPolicy", "\"Always\"");
        crow("port protocol", "ports.0.protocol", "\"TCP\"");
        crow("UDP kept", "ports.1.protocol", "\"UDP\"");
        crow("env fieldRef apiVersion", "env.0.valueFrom.fieldRef",
            R"({"apiVersion":"v1","fieldPath":"metadata.name"})");
        crow("liveness probe", "livenessProbe",
            R"({"failureThreshold":3,"httpGet":{"path":"/","port":80,"scheme":"HTTP"},"periodSeconds":10,"successThreshold":1,"timeoutSeconds":1})");
        crow("readiness period kept, grpc service", "readinessProbe",
            R"({"failureThreshold":3,"grpc":{"port":9,"service":""},"periodSeconds":5,"successThreshold":1,"timeoutSeconds":1})");
        crow("preStop httpGet", "lifecycle.preStop.httpGet", R"({"path":"/stop","port":80,"scheme":"HTTP"})");
        row("init container defaulted, policy kept", d, kPodTemplateDeploy, "spec.template.spec.initContainers.0",
            R"({"image":"busybox:latest","imagePullPolicy":"Never","name":"init","terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"})");
        const char *v = "spec.template.spec.volumes.";
        const auto vrow = [&](const char *name, const char *sub, const QByteArray &want) {
            row(name, d, kPodTemplateDeploy, (QByteArray(v) + sub).constData(), want);
        };
        vrow("bare volume is emptyDir", "0", R"({"emptyDir":{},"name":"bare"})");
        vrow("configMap defaultMode", "1.configMap", R"({"defaultMode":420,"name":"c"})");
        vrow("secret defaultMode kept", "2.secret", R"({"defaultMode":256,"secretName":"s"})");
        vrow("hostPath type", "3.hostPath", R"({"path":"/x","type":""})");
        vrow("projected", "4.projected",
            R"({"defaultMode":420,"sources":[{"serviceAccountToken":{"expirationSeconds":3600,"path":"t"}},{"downwardAPI":{"items":[{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"},"path":"n"}]}}]})");
        row("rs replicas", "apps/replicasets", kDeploy, "spec.replicas", "1");
        row("rs template", "apps/replicasets", kDeploy, "spec.template.spec.containers.0.terminationMessagePolicy",
            "\"File\"");
        row("rs: no strategy", "apps/replicasets", kDeploy, "spec.strategy", kAbsent);
        row("pod restartPolicy kept", "pods", kPod, "spec.restartPolicy", "\"Never\"");
        row("pod enableServiceLinks", "pods", kPod, "spec.enableServiceLinks", "true");
        row("pod requests from limits", "pods", kPod, "spec.containers.0.resources.requests",
            R"({"cpu":"500m","memory":"1Gi"})");
        row("pod hostNetwork hostPort", "pods", kPod, "spec.containers.0.ports.0",
            R"({"containerPort":8080,"hostPort":8080,"protocol":"TCP"})");
        row("pod grace", "pods", kPod, "spec.terminationGracePeriodSeconds", "30");
        const QByteArray svc
            = R"({"spec":{"selector":{"a":"b"},"ports":[{"port":80},{"port":443,"targetPort":"https","protocol":"TCP"}]}})";
        row("svc type", "services", svc, "spec.type", "\"ClusterIP\"");
        row("svc affinity", "services", svc, "spec.sessionAffinity", "\"None\"");
        row("svc port", "services", svc, "spec.ports.0", R"({"port":80,"protocol":"TCP","targetPort":80})");
        row("svc named targetPort kept", "services", svc, "spec.ports.1.targetPort", "\"https\"");
        row("svc families", "services", svc, "spec.ipFamilies", R"(["IPv4"])");
        row("svc family policy", "services", svc, "spec.ipFamilyPolicy", "\"SingleStack\"");
        row("svc internal policy", "services", svc, "spec.internalTrafficPolicy", "\"Cluster\"");
        row("svc: no external policy", "services", svc, "spec.externalTrafficPolicy", kAbsent);
        row("svc: no allocation here", "services", svc, "spec.clusterIP", kAbsent);
        row("nodeport external policy", "services", R"({"spec":{"type":"NodePort"}})", "spec.externalTrafficPolicy",
            "\"Cluster\"");
        row("lb node ports", "services", R"({"spec":{"type":"LoadBalancer"}})", "spec.allocateLoadBalancerNodePorts",
            "true");
        row("clientIP affinity config", "services", R"({"spec":{"sessionAffinity":"ClientIP"}})",
            "spec.sessionAffinityConfig", R"({"clientIP":{"timeoutSeconds":10800}})");
        row("headless selectorless", "services", R"({"spec":{"clusterIP":"None"}})", "spec.ipFamilyPolicy",
            "\"RequireDualStack\"");
        row("headless clusterIPs", "services", R"({"spec":{"clusterIP":"None"}})", "spec.clusterIPs", R"(["None"])");
        row("externalName: no families", "services", R"({"spec":{"type":"ExternalName","externalName":"x.org"}})",
            "spec.ipFamilies", kAbsent);
        row("externalName: no internal policy", "services", R"({"spec":{"type":"ExternalName"}})",
            "spec.internalTrafficPolicy", kAbsent);
        row("namespace label", "namespaces", R"({"metadata":{"name":"team","labels":{"a":"b"}}})", "metadata.labels",
            R"({"a":"b","kubernetes.io/metadata.name":"team"})");
        const QByteArray rb
            = R"({"roleRef":{"kind":"Role","name":"r"},"subjects":[{"kind":"User","name":"u"},{"kind":"ServiceAccount","name":"s"}]})";
        row("rolebinding roleRef", "rbac.authorization.k8s.io/rolebindings", rb, "roleRef.apiGroup",
            "\"rbac.authorization.k8s.io\"");
        row("rolebinding user", "rbac.authorization.k8s.io/rolebindings", rb, "subjects.0.apiGroup",
            "\"rbac.authorization.k8s.io\"");
        row("rolebinding sa", "rbac.authorization.k8s.io/rolebindings", rb, "subjects.1.apiGroup", kAbsent);
        const char *crd = "apiextensions.k8s.io/customresourcedefinitions";
        const QByteArray crdBody = R"({"spec":{"group":"example.com","names":{"kind":"Widget","plural":"widgets"}}})";
        row("crd singular", crd, crdBody, "spec.names.singular", "\"widget\"");
        row("crd listKind", crd, crdBody, "spec.names.listKind", "\"WidgetList\"");
        row("crd conversion", crd, crdBody, "spec.conversion", R"({"strategy":"None"})");
        row("crd webhook port", crd,
            R"({"spec":{"conversion":{"strategy":"Webhook","webhook":{"clientConfig":{"service":{"name":"s"}}}}}})",
            "spec.conversion.webhook.clientConfig.service.port", "443");
        row("configmap untouched", "configmaps", R"({"data":{"a":"b"}})", "data", R"({"a":"b"})");
    }

    void shouldDefaultBuiltins()
    {
        QFETCH(QString, resource);
        QFETCH(QByteArray, input);
        QFETCH(QString, path);
        QFETCH(QByteArray, expected);
        const QJsonObject out = defaulted(resource, input);
        QCOMPARE(show(valueAt(out, path)), expected);
        QCOMPARE(defaulted(resource, QJsonDocument(out).toJson()), out); // defaulting twice changes nothing
    }

    void shouldLeaveCustomResourcesAlone()
    {
        ResourceType crType;
        crType.custom = true;
        crType.mapping.gvr = kDeployments; // even under a built-in's name
        QJsonObject o = parse(kDeploy);
        defaults::applyDefaults(crType, o);
        QCOMPARE(o, parse(kDeploy));
    }

    void shouldPickPullPolicy_data()
    {
        QTest::addColumn<QString>("image");
        QTest::addColumn<QString>("policy");
        const auto row = [](const char *image, const char *policy) {
            QTest::newRow(image) << QString::fromLatin1(image) << QString::fromLatin1(policy);
        };
        row("nginx", "Always");
        row("nginx:latest", "Always");
        row("nginx:1.25", "IfNotPresent");
        row("repo@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "IfNotPresent");
        row("repo:latest@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "Always");
        row("registry:5000/app", "Always");
        row("registry:5000/app:v2", "IfNotPresent");
        row("localhost/team/app", "Always");
        row("ghcr.io/org/app:latest", "Always");
        row("", "IfNotPresent");
        row("Nginx", "IfNotPresent"); // not a valid reference: the real server finds no tag
    }

    void shouldPickPullPolicy()
    {
        QFETCH(QString, image);
        QFETCH(QString, policy);
        QCOMPARE(defaults::pullPolicyFor(image), policy);
    }

    void shouldAllocateClusterIpsDeterministically()
    {
        const QString a = defaults::allocateClusterIp(QStringLiteral("default/web"), {});
        QCOMPARE(defaults::allocateClusterIp(QStringLiteral("default/web"), {}), a);
        QVERIFY2(a.startsWith(QLatin1String("10.")), qPrintable(a));
        const QStringList octets = a.split(u'.');
        QCOMPARE(octets.size(), 4);
        QVERIFY(octets[1].toInt() >= 96 && octets[1].toInt() <= 111);
        QVERIFY(a != QLatin1String("10.96.0.1") && a != QLatin1String("10.96.0.0"));
        const QString b = defaults::allocateClusterIp(QStringLiteral("default/web"), {a});
        QVERIFY(!b.isEmpty() && b != a);
        const int port = defaults::allocateNodePort(QStringLiteral("default/web/0"), {});
        QVERIFY(port >= 30000 && port <= 32767);
        QVERIFY(defaults::allocateNodePort(QStringLiteral("default/web/0"), {port}) != port);
    }

    void shouldDefaultOnCreateAndMakeOmittingUpdatesNoOps()
    {
        Store store(&m_clock);
        QJsonObject body = parse(kDeploy);
        body.insert(QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("web")}});
        const auto dry = store.create(kDeployments, kNs, body, WriteOptions{true, {}});
        QVERIFY(dry.ok());
        QCOMPARE(
            valueAt(dry->json(), QStringLiteral("spec.revisionHistoryLimit")).toInt(), 10); // dryRun is defaulted too
        const auto created = store.create(kDeployments, kNs, body);
        QVERIFY(created.ok());
        QCOMPARE(
            valueAt(created->json(), QStringLiteral("spec.strategy.type")).toString(), QStringLiteral("RollingUpdate"));
        QSignalSpy events(&store, &Store::committed);
        QJsonObject again = body;
        again.insert(QStringLiteral("metadata"),
            QJsonObject{{QStringLiteral("name"), QStringLiteral("web")},
                {QStringLiteral("resourceVersion"), created->resourceVersion()}});
        const auto updated = store.update(kDeployments, kNs, QStringLiteral("web"), again);
        QVERIFY(updated.ok());
        QCOMPARE(updated->resourceVersion(), created->resourceVersion());
        QCOMPARE(updated->generation(), 1);
        QCoreApplication::processEvents();
        QCOMPARE(events.size(), 0);
        QJsonObject spec = again.value(QLatin1String("spec")).toObject();
        spec.insert(QStringLiteral("revisionHistoryLimit"), 3); // a real change still bumps generation
        again.insert(QStringLiteral("spec"), spec);
        const auto changed = store.update(kDeployments, kNs, QStringLiteral("web"), again);
        QVERIFY(changed.ok());
        QCOMPARE(changed->generation(), 2);
        QCOMPARE(valueAt(changed->json(), QStringLiteral("spec.replicas")).toInt(), 1);
    }

    void shouldAllocateAndKeepServiceAddresses()
    {
        Store store(&m_clock);
        const auto svc = [](const QString &name, const char *type) {
            return QJsonObject{{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}},
                {QStringLiteral("spec"),
                    QJsonObject{{QStringLiteral("type"), QString::fromLatin1(type)},
                        {QStringLiteral("ports"),
                            QJsonArray{QJsonObject{
                                {QStringLiteral("name"), QStringLiteral("http")}, {QStringLiteral("port"), 80}}}}}}};
        };
        const auto a = store.create(kServices, kNs, svc(QStringLiteral("a"), "ClusterIP"));
        const auto b = store.create(kServices, kNs, svc(QStringLiteral("b"), "NodePort"));
        QVERIFY(a.ok() && b.ok());
        const QString ipA = valueAt(a->json(), QStringLiteral("spec.clusterIP")).toString();
        const QString ipB = valueAt(b->json(), QStringLiteral("spec.clusterIP")).toString();
        QVERIFY2(ipA.startsWith(QLatin1String("10.")) && ipA != ipB, qPrintable(ipA + u' ' + ipB));
        QCOMPARE(valueAt(a->json(), QStringLiteral("spec.clusterIPs")).toArray(), QJsonArray{ipA});
        const int nodePort = valueAt(b->json(), QStringLiteral("spec.ports.0.nodePort")).toInt();
        QVERIFY(nodePort >= 30000 && nodePort <= 32767);
        QJsonObject again = svc(QStringLiteral("b"), "NodePort"); // PUT without the allocated values
        QJsonObject meta = again.value(QLatin1String("metadata")).toObject();
        meta.insert(QStringLiteral("resourceVersion"), b->resourceVersion());
        again.insert(QStringLiteral("metadata"), meta);
        const auto kept = store.update(kServices, kNs, QStringLiteral("b"), again);
        QVERIFY(kept.ok());
        QCOMPARE(kept->resourceVersion(), b->resourceVersion());
        QCOMPARE(valueAt(kept->json(), QStringLiteral("spec.ports.0.nodePort")).toInt(), nodePort);
        // A port's explicit nodePort is never handed to another port of the same Service.
        const int wouldGet = defaults::allocateNodePort(QStringLiteral("default/two/0"), {});
        QJsonObject two = svc(QStringLiteral("two"), "NodePort");
        QJsonObject twoSpec = two.value(QLatin1String("spec")).toObject();
        twoSpec.insert(QStringLiteral("ports"),
            QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("a")}, {QStringLiteral("port"), 80}},
                QJsonObject{{QStringLiteral("name"), QStringLiteral("b")}, {QStringLiteral("port"), 81},
                    {QStringLiteral("nodePort"), wouldGet}}});
        two.insert(QStringLiteral("spec"), twoSpec);
        const auto twoCreated = store.create(kServices, kNs, two);
        QVERIFY(twoCreated.ok());
        QVERIFY(valueAt(twoCreated->json(), QStringLiteral("spec.ports.0.nodePort")).toInt() != wouldGet);
        QCOMPARE(valueAt(twoCreated->json(), QStringLiteral("spec.ports.1.nodePort")).toInt(), wouldGet);
        const auto portless = store.create(kServices, kNs,
            QJsonObject{
                {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("portless")}}}});
        QVERIFY(portless.ok());
        QVERIFY(!valueAt(portless->json(), QStringLiteral("spec.clusterIP")).toString().isEmpty());
        QVERIFY(valueAt(portless->json(), QStringLiteral("spec.ports")).isUndefined());
        const auto external = store.create(kServices, kNs, svc(QStringLiteral("ext"), "ExternalName"));
        QVERIFY(external.ok());
        QVERIFY(valueAt(external->json(), QStringLiteral("spec.clusterIP")).isUndefined());
    }

    void shouldDefaultObjectsRestoredFromAnOlderStateFile()
    {
        Store store(&m_clock);
        QJsonObject d = parse(kDeploy); // as an older opbench stored it: no defaults
        d.insert(QStringLiteral("apiVersion"), QStringLiteral("apps/v1"));
        d.insert(QStringLiteral("kind"), QStringLiteral("Deployment"));
        d.insert(QStringLiteral("metadata"),
            QJsonObject{{QStringLiteral("name"), QStringLiteral("old")}, {QStringLiteral("namespace"), kNs},
                {QStringLiteral("resourceVersion"), QStringLiteral("5")}, {QStringLiteral("generation"), 1}});
        const QJsonObject snapshot{{QStringLiteral("resourceVersion"), QStringLiteral("9")},
            {QStringLiteral("resources"),
                QJsonArray{QJsonObject{{QStringLiteral("group"), QStringLiteral("apps")},
                    {QStringLiteral("version"), QStringLiteral("v1")},
                    {QStringLiteral("resource"), QStringLiteral("deployments")},
                    {QStringLiteral("items"), QJsonArray{d}}}}}};
        QVERIFY(store.restore(snapshot).ok());
        const auto got = store.get(kDeployments, kNs, QStringLiteral("old"));
        QVERIFY(got.ok());
        QCOMPARE(valueAt(got->json(), QStringLiteral("spec.progressDeadlineSeconds")).toInt(), 600);
        QCOMPARE(got->resourceVersion(), QStringLiteral("5"));
        QJsonObject withStatus = got->json(); // a status write then changes nothing in spec: no generation bump
        withStatus.insert(QStringLiteral("status"), QJsonObject{{QStringLiteral("replicas"), 1}});
        const auto status = store.updateStatus(kDeployments, kNs, QStringLiteral("old"), withStatus);
        QVERIFY(status.ok());
        QCOMPARE(status->generation(), 1);
    }

private:
    testing::FakeClock m_clock;
};

QTEST_GUILESS_MAIN(TestDefaults)
#include "tst_defaults.moc"
