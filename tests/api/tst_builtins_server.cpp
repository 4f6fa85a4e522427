// SPDX-License-Identifier: Apache-2.0
// The overlay against the embedded API server (real HTTP over loopback): a Deployment, two
// Services and a Secret built with the typed setters are created, the server's defaulted object
// is read back, and applying the same setters to it leaves its JSON unchanged (a createOrUpdate
// would not write); a naive exact write would have changed it (checked, so the test can fail).
// Changing one container field changes exactly that field, also after the server's round trip.
#include "engine/api/builtin/builtin.h"
#include "tests/support/testhttp.h"

#include <QJsonArray>
#include <QtTest>

using namespace opbench;
using namespace opbench::testing;

namespace {

const QString kDeploys = QStringLiteral("/apis/apps/v1/namespaces/default/deployments");
const QString kServices = QStringLiteral("/api/v1/namespaces/default/services");
const QString kSecrets = QStringLiteral("/api/v1/namespaces/default/secrets");

PodTemplate memcachedTemplate(const QString &image, int periodSeconds)
{
    return PodTemplate{.labels = {{"app", "memcached"}},
        .containers = {Container{.name = "memcached",
            .image = image,
            .command = {"memcached", "-m=64", "-o", "modern", "-v"},
            .ports = {ContainerPort{.name = "memcached", .containerPort = 11211}},
            .env = {EnvVar{.name = "MODE", .value = "fast"}},
            .resources = ResourceRequirements{.requests = {{"cpu", "100m"}}, .limits = {{"memory", "64Mi"}}},
            .securityContext = SecurityContext{.runAsNonRoot = true,
                .runAsUser = 1001,
                .allowPrivilegeEscalation = false,
                .capabilities = Capabilities{.drop = {"ALL"}}},
            .livenessProbe = Probe{.tcpSocket = TCPSocketAction{.port = 11211}, .periodSeconds = periodSeconds}}},
        .securityContext
        = PodSecurityContext{.runAsNonRoot = true, .seccompProfile = SeccompProfile{.type = "RuntimeDefault"}}};
}

void applyDeployment(Deployment &d, const QString &image = QStringLiteral("memcached:1.6"), int period = 5)
{
    d.setReplicas(0); // no pods needed
    d.setSelector({{"app", "memcached"}});
    d.setTemplate(memcachedTemplate(image, period));
}

void applyService(Service &s, const QString &type, int port = 80)
{
    s.setType(type);
    s.setSelector({{"app", "memcached"}});
    s.setPorts(
        {ServicePort{.name = "http", .port = port, .targetPort = 8080}, ServicePort{.name = "metrics", .port = 9090}});
}

/// The dotted paths of the leaves that differ between `a` and `b` ("spec.ports.0.port").
QStringList changedLeaves(const QJsonValue &a, const QJsonValue &b, const QString &path = {})
{
    const QString prefix = path.isEmpty() ? QString() : path + QLatin1Char('.');
    if (a.isObject() && b.isObject()) {
        QStringList out;
        QStringList keys = a.toObject().keys() + b.toObject().keys();
        keys.removeDuplicates();
        for (const QString &k : keys)
            out += changedLeaves(a.toObject().value(k), b.toObject().value(k), prefix + k);
        return out;
    }
    if (a.isArray() && b.isArray() && a.toArray().size() == b.toArray().size()) {
        QStringList out;
        for (qsizetype i = 0; i < a.toArray().size(); ++i)
            out += changedLeaves(a.toArray().at(i), b.toArray().at(i), prefix + QString::number(i));
        return out;
    }
    return a == b ? QStringList() : QStringList{path};
}

QJsonObject specOf(const QJsonObject &o) { return o.value(QLatin1String("spec")).toObject(); }

} // namespace

class tst_BuiltinsServer : public QObject
{
    Q_OBJECT

    TestApiServer m_api;
    TestHttp m_http{m_api};

    /// Creates `body` at `collection` and returns the server's object read back.
    QJsonObject createAndRead(const QString &collection, const QJsonObject &body)
    {
        const HttpReply created = m_http.post(collection, body);
        if (created.code != 201)
            qWarning("create: %d %s", created.code, created.body.constData());
        const QString name = body.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
        return m_http.get(collection + QLatin1Char('/') + name).json();
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_api.start(), qPrintable(m_api.errorString())); }

    void shouldNotRewriteADefaultedDeployment()
    {
        Deployment desired(QStringLiteral("default"), QStringLiteral("cache"));
        applyDeployment(desired);
        const QJsonObject stored = createAndRead(kDeploys, desired.json());
        const QJsonObject pod = specOf(specOf(stored).value(QLatin1String("template")).toObject());
        const QJsonObject container = pod.value(QLatin1String("containers")).toArray().first().toObject();
        QCOMPARE(container.value(QLatin1String("terminationMessagePath")).toString(),
            QStringLiteral("/dev/termination-log"));
        QCOMPARE(container.value(QLatin1String("imagePullPolicy")).toString(), QStringLiteral("IfNotPresent"));
        QCOMPARE(pod.value(QLatin1String("dnsPolicy")).toString(), QStringLiteral("ClusterFirst"));

        Deployment read{Object::fromJson(stored)};
        applyDeployment(read);
        QCOMPARE(read.json(), stored);

        Deployment naive{Object::fromJson(stored)}; // the control: an exact write drops the defaults
        naive.replaceTemplate(memcachedTemplate(QStringLiteral("memcached:1.6"), 5));
        QVERIFY(naive.json() != stored);
    }

    void shouldChangeExactlyTheContainerFieldThatChanged()
    {
        Deployment desired(QStringLiteral("default"), QStringLiteral("cache-edit"));
        applyDeployment(desired);
        const QJsonObject stored = createAndRead(kDeploys, desired.json());

        Deployment read{Object::fromJson(stored)};
        applyDeployment(read, QStringLiteral("memcached:1.6"), 7);
        QCOMPARE(changedLeaves(stored, read.json()),
            QStringList{QStringLiteral("spec.template.spec.containers.0.livenessProbe.periodSeconds")});
        read.setContainer(Container{.name = "memcached", .image = "memcached:1.7"});
        QCOMPARE(changedLeaves(stored, read.json()),
            (QStringList{QStringLiteral("spec.template.spec.containers.0.image"),
                QStringLiteral("spec.template.spec.containers.0.livenessProbe.periodSeconds")}));

        const HttpReply put = m_http.put(kDeploys + QStringLiteral("/cache-edit"), read.json());
        QCOMPARE(put.code, 200);
        const QJsonObject after = m_http.get(kDeploys + QStringLiteral("/cache-edit")).json();
        QCOMPARE(changedLeaves(specOf(stored), specOf(after)),
            (QStringList{QStringLiteral("template.spec.containers.0.image"),
                QStringLiteral("template.spec.containers.0.livenessProbe.periodSeconds")}));
    }

    void shouldNotRewriteDefaultedServices_data()
    {
        QTest::addColumn<QString>("type");
        QTest::newRow("ClusterIP") << QStringLiteral("ClusterIP");
        QTest::newRow("NodePort") << QStringLiteral("NodePort");
    }
    void shouldNotRewriteDefaultedServices()
    {
        QFETCH(QString, type);
        const QString name = QStringLiteral("memcached-") + type.toLower();
        Service desired(QStringLiteral("default"), name);
        applyService(desired, type);
        const QJsonObject stored = createAndRead(kServices, desired.json());
        const QJsonObject port = specOf(stored).value(QLatin1String("ports")).toArray().at(1).toObject();
        QCOMPARE(port.value(QLatin1String("protocol")).toString(), QStringLiteral("TCP"));
        QCOMPARE(port.value(QLatin1String("targetPort")).toInt(), 9090);
        QVERIFY(!specOf(stored).value(QLatin1String("clusterIP")).toString().isEmpty());
        QCOMPARE(port.contains(QLatin1String("nodePort")), type == QLatin1String("NodePort"));

        Service read{Object::fromJson(stored)};
        applyService(read, type);
        QCOMPARE(read.json(), stored);

        applyService(read, type, 81); // one field changes, nothing else
        QCOMPARE(changedLeaves(stored, read.json()), QStringList{QStringLiteral("spec.ports.0.port")});
        read.replacePorts({ServicePort{.name = "http", .port = 80, .targetPort = 8080},
            ServicePort{.name = "metrics", .port = 9090}}); // the control: exact ports drop defaults
        QVERIFY(read.json() != stored);
    }

    void shouldNotRewriteASecretWrittenAsStringData()
    {
        Secret desired(QStringLiteral("default"), QStringLiteral("creds"));
        desired.setStringData({{"password", "s3cr3t"}});
        const QJsonObject stored = createAndRead(kSecrets, desired.json());
        QCOMPARE(stored.value(QLatin1String("type")).toString(), QStringLiteral("Opaque"));
        Secret read{Object::fromJson(stored)};
        read.setStringData({{"password", "s3cr3t"}});
        QCOMPARE(read.json(), stored);
        QCOMPARE(read.value(QStringLiteral("password")), QByteArray("s3cr3t"));
    }
};

QTEST_GUILESS_MAIN(tst_BuiltinsServer)
#include "tst_builtins_server.moc"
