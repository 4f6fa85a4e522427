// SPDX-License-Identifier: Apache-2.0
// The built-in kinds' value types and the overlay (engine/api/builtin): toJson omits what is
// unset and keeps explicit zeros/false, fromJson reads it back, the overlay's rule case by case,
// and re-applying setters to an object carrying the server's defaults (the real defaulting
// functions of engine/apiserver, applied here without a server) changes nothing.
#include "engine/api/builtin/builtin.h"
#include "engine/apiserver/validation/defaults.h"
#include "engine/apiserver/validation/objectrules.h"
#include "engine/apiserver/validation/servicedefaults.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace opbench;
namespace defaults = opbench::apiserver::defaults;

namespace {

QJsonObject parse(const char *json) { return QJsonDocument::fromJson(QByteArray(json)).object(); }

/// The value at a dotted path ("spec.template.spec.containers.0.image").
QJsonValue dig(QJsonValue v, const QString &path)
{
    for (const QString &step : path.split(QLatin1Char('.'))) {
        bool isIndex = false;
        const int i = step.toInt(&isIndex);
        v = isIndex ? v.toArray().at(i) : v.toObject().value(step);
    }
    return v;
}

Container memcached(const QString &image)
{
    return Container{.name = "memcached",
        .image = image,
        .command = {"memcached", "-m=64", "-o", "modern", "-v"},
        .ports = {ContainerPort{.name = "memcached", .containerPort = 11211}},
        .env = {EnvVar{.name = "MODE", .value = "fast"}, EnvVar::fromSecret("PASSWORD", "creds", "password")},
        .resources = ResourceRequirements{.requests = {{"cpu", "100m"}}, .limits = {{"memory", "64Mi"}}},
        .securityContext = SecurityContext{.runAsNonRoot = true,
            .runAsUser = 1001,
            .allowPrivilegeEscalation = false,
            .capabilities = Capabilities{.drop = {"ALL"}}},
        .livenessProbe = Probe{.httpGet = HTTPGetAction{.path = "/healthz", .port = 11211}, .periodSeconds = 5},
        .readinessProbe = Probe{.tcpSocket = TCPSocketAction{.port = "memcached"}},
        .volumeMounts = {VolumeMount{.name = "config", .mountPath = "/etc/memcached"}}};
}

PodTemplate memcachedTemplate(const QString &image)
{
    return PodTemplate{.labels = {{"app", "memcached"}},
        .containers = {memcached(image)},
        .securityContext
        = PodSecurityContext{.runAsNonRoot = true, .seccompProfile = SeccompProfile{.type = "RuntimeDefault"}},
        .volumes = {Volume{.name = "config", .configMap = ConfigMapVolumeSource{.name = "memcached-config"}}}};
}

/// What the API server does to a pod template on every write.
void serverDefaultTemplate(QJsonObject &workload)
{
    QJsonObject spec = workload.value("spec").toObject();
    QJsonObject tmpl = spec.value("template").toObject();
    QJsonObject podSpec = tmpl.value("spec").toObject();
    defaults::defaultPodSpec(podSpec);
    tmpl.insert("spec", podSpec);
    spec.insert("template", tmpl);
    workload.insert("spec", spec);
}

} // namespace

class tst_Builtins : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldOmitUnsetFieldsAndKeepExplicitZeros()
    {
        QCOMPARE((Container{.name = "web", .image = "nginx"}).toJson(), parse(R"({"name":"web","image":"nginx"})"));
        const SecurityContext sc{.runAsUser = 0, .allowPrivilegeEscalation = false};
        QCOMPARE(sc.toJson(), parse(R"({"runAsUser":0,"allowPrivilegeEscalation":false})"));
        QCOMPARE(Probe{.initialDelaySeconds = 0}.toJson(), parse(R"({"initialDelaySeconds":0})"));
        QCOMPARE(ServicePort{.port = 80}.toJson(), parse(R"({"port":80})"));
        QCOMPARE((ServicePort{.name = "http", .port = 80, .targetPort = "web"}.toJson()),
            parse(R"({"name":"http","port":80,"targetPort":"web"})"));
        QCOMPARE((Volume{.name = "tmp", .emptyDir = EmptyDirVolumeSource{}}.toJson()),
            parse(R"({"name":"tmp","emptyDir":{}})"));
        QCOMPARE(PodTemplate{}.toJson(), QJsonObject());
    }

    void shouldWriteTheGoShapedJson()
    {
        const QJsonObject c = memcached("memcached:1.6").toJson();
        QCOMPARE(c.value("command").toArray().size(), 5);
        QCOMPARE(c.value("ports").toArray().first().toObject(), parse(R"({"name":"memcached","containerPort":11211})"));
        QCOMPARE(c.value("securityContext").toObject(), parse(R"({"runAsNonRoot":true,"runAsUser":1001,
            "allowPrivilegeEscalation":false,"capabilities":{"drop":["ALL"]}})"));
        QCOMPARE(c.value("env").toArray().at(1).toObject(),
            parse(R"({"name":"PASSWORD","valueFrom":{"secretKeyRef":{"name":"creds","key":"password"}}})"));
        QCOMPARE(c.value("livenessProbe").toObject(),
            parse(R"({"httpGet":{"path":"/healthz","port":11211},"periodSeconds":5})"));
        QCOMPARE(c.value("resources").toObject(), parse(R"({"requests":{"cpu":"100m"},"limits":{"memory":"64Mi"}})"));
        const QJsonObject t = memcachedTemplate("memcached:1.6").toJson();
        QCOMPARE(t.value("metadata").toObject(), parse(R"({"labels":{"app":"memcached"}})"));
        QCOMPARE(t.value("spec").toObject().value("securityContext").toObject(),
            parse(R"({"runAsNonRoot":true,"seccompProfile":{"type":"RuntimeDefault"}})"));
    }

    void shouldReadBackWhatItWrites()
    {
        const PodTemplate t = memcachedTemplate("memcached:1.6");
        QCOMPARE(PodTemplate::fromJson(t.toJson()), t);
        const ServicePort p{.name = "http", .port = 80, .targetPort = 8080, .protocol = "UDP", .nodePort = 30080};
        QCOMPARE(ServicePort::fromJson(p.toJson()), p);
        const EnvVar e = EnvVar::fromConfigMap("TITLE", "book", "title");
        QCOMPARE(EnvVar::fromJson(e.toJson()), e);
        QVERIFY(!(PodTemplate::fromJson(t.toJson()) == memcachedTemplate("memcached:1.7")));
    }

    void shouldOverlayByTheDocumentedRule_data()
    {
        QTest::addColumn<QByteArray>("existing");
        QTest::addColumn<QByteArray>("desired");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("objects merge, existing keys kept")
            << QByteArray(R"({"a":1,"b":{"c":2,"d":3}})") << QByteArray(R"({"b":{"c":5},"e":6})")
            << QByteArray(R"({"a":1,"b":{"c":5,"d":3},"e":6})");
        QTest::newRow("null removes") << QByteArray(R"({"a":1,"b":2})") << QByteArray(R"({"a":null})")
                                      << QByteArray(R"({"b":2})");
        QTest::newRow("string maps replaced whole")
            << QByteArray(R"({"labels":{"a":"1","b":"2"},"selector":{"x":"1"},"requests":{"cpu":"1"}})")
            << QByteArray(R"({"labels":{"a":"1"},"selector":{"y":"2"},"requests":{"memory":"1Mi"}})")
            << QByteArray(R"({"labels":{"a":"1"},"selector":{"y":"2"},"requests":{"memory":"1Mi"}})");
        QTest::newRow("same-length object arrays merge per element")
            << QByteArray(R"({"ports":[{"port":80,"protocol":"TCP","targetPort":80},{"port":81,"protocol":"UDP"}]})")
            << QByteArray(R"({"ports":[{"port":80},{"port":82}]})")
            << QByteArray(R"({"ports":[{"port":80,"protocol":"TCP","targetPort":80},{"port":82,"protocol":"UDP"}]})");
        QTest::newRow("renamed element replaced") << QByteArray(R"({"c":[{"name":"a","imagePullPolicy":"Always"}]})")
                                                  << QByteArray(R"({"c":[{"name":"b","image":"x:1"}]})")
                                                  << QByteArray(R"({"c":[{"name":"b","image":"x:1"}]})");
        QTest::newRow("different length replaces")
            << QByteArray(R"({"c":[{"name":"a","t":"/dev/x"}]})") << QByteArray(R"({"c":[{"name":"a"},{"name":"b"}]})")
            << QByteArray(R"({"c":[{"name":"a"},{"name":"b"}]})");
        QTest::newRow("scalar arrays replace")
            << QByteArray(R"({"command":["a","b"]})") << QByteArray(R"({"command":["c","d"]})")
            << QByteArray(R"({"command":["c","d"]})");
        QTest::newRow("one-of members replace each other")
            << QByteArray(R"({"probe":{"httpGet":{"path":"/"},"periodSeconds":10},"env":{"name":"a","value":"1"}})")
            << QByteArray(R"({"probe":{"tcpSocket":{"port":80}},"env":{"valueFrom":{"fieldRef":{"fieldPath":"x"}}}})")
            << QByteArray(R"({"probe":{"tcpSocket":{"port":80},"periodSeconds":10},
                "env":{"name":"a","valueFrom":{"fieldRef":{"fieldPath":"x"}}}})");
        QTest::newRow("type change replaces")
            << QByteArray(R"({"port":{"a":1}})") << QByteArray(R"({"port":8080})") << QByteArray(R"({"port":8080})");
    }
    void shouldOverlayByTheDocumentedRule()
    {
        QFETCH(QByteArray, existing);
        QFETCH(QByteArray, desired);
        QFETCH(QByteArray, expected);
        QCOMPARE(overlayObject(parse(existing.constData()), parse(desired.constData())), parse(expected.constData()));
    }

    void shouldNotRewriteDefaultedTemplates_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("Deployment") << "Deployment";
        QTest::newRow("StatefulSet") << "StatefulSet";
        QTest::newRow("Job") << "Job";
    }
    void shouldNotRewriteDefaultedTemplates()
    {
        QFETCH(QString, kind);
        const auto apply = [&kind](QJsonObject current) {
            const PodTemplate t = memcachedTemplate("memcached:1.6");
            if (kind == "Deployment") {
                Deployment d(Object::fromJson(current));
                d.setTemplate(t);
                return d.json();
            }
            if (kind == "StatefulSet") {
                StatefulSet s(Object::fromJson(current));
                s.setTemplate(t);
                return s.json();
            }
            Job j(Object::fromJson(current));
            j.setTemplate(t);
            return j.json();
        };
        QJsonObject stored = apply(QJsonObject{{"apiVersion", "v1"}, {"kind", kind}});
        serverDefaultTemplate(stored);
        const QJsonObject pod = dig(stored, "spec.template.spec").toObject();
        QCOMPARE(pod.value("dnsPolicy").toString(), QStringLiteral("ClusterFirst")); // the server's defaults are there
        QCOMPARE(dig(pod, "containers.0.ports.0.protocol").toString(), QStringLiteral("TCP"));
        QCOMPARE(apply(stored), stored);
    }

    void shouldKeepTheLabelsTheServerAddsToAJob()
    {
        Job j(QStringLiteral("ns"), QStringLiteral("migrate"));
        j.setTemplate(memcachedTemplate("memcached:1.6"));
        QJsonObject stored = j.json();
        QJsonObject tmpl = dig(stored, "spec.template").toObject();
        tmpl.insert("metadata", parse(R"({"labels":{"app":"memcached","job-name":"migrate","controller-uid":"u1"}})"));
        QJsonObject spec = dig(stored, "spec").toObject();
        spec.insert("template", tmpl);
        stored.insert("spec", spec);
        Job again(Object::fromJson(stored));
        again.setTemplate(memcachedTemplate("memcached:1.6"));
        QCOMPARE(again.json(), stored);
        QCOMPARE(again.podTemplate().labels.value("job-name"), QStringLiteral("migrate"));
    }

    void shouldSetOneContainerAndClearExplicitly()
    {
        Deployment d(QStringLiteral("ns"), QStringLiteral("cache"));
        d.setTemplate(memcachedTemplate("memcached:1.6"));
        QJsonObject stored = d.json();
        serverDefaultTemplate(stored);
        Deployment read(Object::fromJson(stored));
        read.setContainer(Container{.name = "memcached", .image = "memcached:1.7"});
        QCOMPARE(read.container("memcached")->image, QStringLiteral("memcached:1.7"));
        QCOMPARE(read.container("memcached")->imagePullPolicy, QStringLiteral("IfNotPresent")); // kept
        QVERIFY(read.container("memcached")->livenessProbe.has_value());                        // kept
        QVERIFY(read.removeContainerField("memcached", "livenessProbe"));
        QVERIFY(!read.container("memcached")->livenessProbe.has_value());
        QVERIFY(!read.removeContainerField("memcached", "livenessProbe"));
        QVERIFY(!read.removeContainerField("missing", "image"));
        read.setContainer(Container{.name = "sidecar", .image = "busybox:1"});
        QCOMPARE(read.podTemplate().containers.size(), 2);
        read.replaceTemplate(PodTemplate{.containers = {Container{.name = "only", .image = "x:1"}}});
        QCOMPARE(dig(read.json(), "spec.template").toObject(),
            parse(R"({"spec":{"containers":[{"name":"only","image":"x:1"}]}})"));
        QCOMPARE(read.name(), QStringLiteral("cache"));
    }

    void shouldViewServicesAndSecrets()
    {
        Service s(QStringLiteral("ns"), QStringLiteral("web"));
        QCOMPARE(s.type(), QStringLiteral("ClusterIP"));
        s.setSelector({{"app", "web"}, {"tier", "front"}});
        s.setSelector({{"app", "web"}});
        QCOMPARE(s.selector(), (Labels{{"app", "web"}}));
        s.setPorts({ServicePort{.name = "http", .port = 80, .targetPort = 8080}});
        QJsonObject stored = s.json();
        defaults::defaultService(stored);
        Service read(Object::fromJson(stored));
        read.setPorts({ServicePort{.name = "http", .port = 80, .targetPort = 8080}});
        QCOMPARE(read.json(), stored);
        QCOMPARE(read.ports().first().protocol, QStringLiteral("TCP"));
        read.replacePorts({ServicePort{.port = 81}});
        QCOMPARE(dig(read.json(), "spec.ports").toArray(), QJsonArray{parse(R"({"port":81})")});

        Secret secret(QStringLiteral("ns"), QStringLiteral("creds"));
        secret.setStringData({{"password", "s3cr3t"}});
        QCOMPARE(dig(secret.json(), "data.password").toString(), QString::fromLatin1(QByteArray("s3cr3t").toBase64()));
        QJsonObject storedSecret = secret.json();
        apiserver::rules::defaultSecret(storedSecret);
        Secret readSecret(Object::fromJson(storedSecret));
        readSecret.setStringData({{"password", "s3cr3t"}});
        QCOMPARE(readSecret.json(), storedSecret);
        QCOMPARE(readSecret.type(), QStringLiteral("Opaque"));
        QCOMPARE(readSecret.value("password"), QByteArray("s3cr3t"));
        readSecret.remove("password");
        QVERIFY(readSecret.data().isEmpty());

        ServiceAccount sa(QStringLiteral("ns"), QStringLiteral("runner"));
        QVERIFY(!sa.automountServiceAccountToken().has_value());
        sa.setAutomountServiceAccountToken(false);
        sa.setImagePullSecrets({"regcred"});
        QCOMPARE(sa.automountServiceAccountToken(), std::optional<bool>(false));
        QCOMPARE(sa.imagePullSecrets(), QStringList{"regcred"});
    }

    void shouldReadWorkloadFields()
    {
        StatefulSet s(QStringLiteral("ns"), QStringLiteral("db"));
        QCOMPARE(s.replicas(), 1);
        s.setReplicas(3);
        s.setServiceName("db-headless");
        s.setSelector({{"app", "db"}});
        QCOMPARE(s.replicas(), 3);
        QCOMPARE(s.serviceName(), QStringLiteral("db-headless"));
        QCOMPARE(s.selectorMatchLabels(), (Labels{{"app", "db"}}));
        Job j(QStringLiteral("ns"), QStringLiteral("once"));
        QCOMPARE(j.backoffLimit(), 6);
        j.setBackoffLimit(2);
        j.setCompletions(3);
        QCOMPARE(j.backoffLimit(), 2);
        QCOMPARE(j.completions(), 3);
        QVERIFY(!j.isComplete());
        const Job done(Object::fromJson(parse(R"({"apiVersion":"batch/v1","kind":"Job",
            "status":{"succeeded":3,"conditions":[{"type":"Complete","status":"True"}]}})")));
        QVERIFY(done.isComplete());
        QVERIFY(!done.isFailed());
        QCOMPARE(done.succeeded(), 3);
    }
};

QTEST_GUILESS_MAIN(tst_Builtins)
#include "tst_builtins.moc"
