// SPDX-License-Identifier: Apache-2.0
// Built-in defaulting over HTTP: a created Deployment reads back with the real server's defaults,
// dryRun replies carry them, and writes that only omit defaulted fields (PUT of the original
// body, merge and strategic patches, server-side apply) are no-ops: same resourceVersion, no watch event. Services
// get a cluster IP that a PUT without it keeps.
#include "tests/apiserver/apiserverfixture.h"

#include <QJsonArray>
#include <QtTest>

using namespace opbench::testing;

namespace {
const QString kDeploys = QStringLiteral("/apis/apps/v1/namespaces/default/deployments");
const QString kServices = QStringLiteral("/api/v1/namespaces/default/services");

QJsonObject deployment(const QString &name)
{
    const QJsonObject labels{{QStringLiteral("app"), name}};
    const QJsonObject container{{QStringLiteral("name"), QStringLiteral("web")},
        {QStringLiteral("image"), QStringLiteral("nginx")},
        {QStringLiteral("ports"), QJsonArray{QJsonObject{{QStringLiteral("containerPort"), 80}}}}};
    return QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("apps/v1")},
        {QStringLiteral("kind"), QStringLiteral("Deployment")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}},
        {QStringLiteral("spec"),
            QJsonObject{{QStringLiteral("replicas"), 0},
                {QStringLiteral("selector"), QJsonObject{{QStringLiteral("matchLabels"), labels}}},
                {QStringLiteral("template"),
                    QJsonObject{{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("labels"), labels}}},
                        {QStringLiteral("spec"),
                            QJsonObject{{QStringLiteral("containers"), QJsonArray{container}}}}}}}}};
}

QJsonObject withRv(QJsonObject o, const QString &rv)
{
    QJsonObject meta = o.value(QLatin1String("metadata")).toObject();
    meta.insert(QStringLiteral("resourceVersion"), rv);
    o.insert(QStringLiteral("metadata"), meta);
    return o;
}

QString rvOf(const QJsonObject &o)
{
    return o.value(QLatin1String("metadata")).toObject().value(QLatin1String("resourceVersion")).toString();
}
QJsonObject specOf(const QJsonObject &o) { return o.value(QLatin1String("spec")).toObject(); }
QJsonObject podSpecOf(const QJsonObject &d) { return specOf(specOf(d).value(QLatin1String("template")).toObject()); }
} // namespace

class TestApiServerDefaults : public QObject, private ApiServerFixture
{
    Q_OBJECT

    /// The Deployment once the workload simulator has written its status and stopped: its last
    /// write for a finished rollout sets Progressing to NewReplicaSetAvailable for generation 1,
    /// after which it changes nothing (simulatorrules.cpp, updateProgressing: alreadyComplete).
    QJsonObject settled(const QString &name)
    {
        QJsonObject d;
        const auto done = [&] {
            d = m_http.get(kDeploys + u'/' + name).json();
            const QJsonObject status = d.value(QLatin1String("status")).toObject();
            if (status.value(QLatin1String("observedGeneration")).toInt() != 1)
                return false;
            for (const QJsonValue c : status.value(QLatin1String("conditions")).toArray())
                if (c[QLatin1String("type")].toString() == QLatin1String("Progressing"))
                    return c[QLatin1String("reason")].toString() == QLatin1String("NewReplicaSetAvailable");
            return false;
        };
        [&] { QVERIFY2(QTest::qWaitFor(done, 20000), qPrintable(name + QStringLiteral(": rollout not complete"))); }();
        return d;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_api.start(), qPrintable(m_api.errorString())); }

    void shouldReadBackACreatedDeploymentWithDefaults()
    {
        const HttpReply created = m_http.post(kDeploys, deployment(QStringLiteral("read-back")));
        QCOMPARE(created.code, 201);
        const QJsonObject spec = specOf(created.json());
        QCOMPARE(spec.value(QLatin1String("replicas")).toInt(), 0); // the client's value is kept
        QCOMPARE(spec.value(QLatin1String("strategy")).toObject(),
            (QJsonObject{{QStringLiteral("type"), QStringLiteral("RollingUpdate")},
                {QStringLiteral("rollingUpdate"),
                    QJsonObject{{QStringLiteral("maxSurge"), QStringLiteral("25%")},
                        {QStringLiteral("maxUnavailable"), QStringLiteral("25%")}}}}));
        QCOMPARE(spec.value(QLatin1String("revisionHistoryLimit")).toInt(), 10);
        QCOMPARE(spec.value(QLatin1String("progressDeadlineSeconds")).toInt(), 600);
        const QJsonObject pod = podSpecOf(created.json());
        QCOMPARE(pod.value(QLatin1String("restartPolicy")).toString(), QStringLiteral("Always"));
        QCOMPARE(pod.value(QLatin1String("dnsPolicy")).toString(), QStringLiteral("ClusterFirst"));
        QCOMPARE(pod.value(QLatin1String("schedulerName")).toString(), QStringLiteral("default-scheduler"));
        QCOMPARE(pod.value(QLatin1String("terminationGracePeriodSeconds")).toInt(), 30);
        const QJsonObject c = pod.value(QLatin1String("containers")).toArray().first().toObject();
        QCOMPARE(c.value(QLatin1String("imagePullPolicy")).toString(), QStringLiteral("Always"));
        QCOMPARE(c.value(QLatin1String("terminationMessagePolicy")).toString(), QStringLiteral("File"));
        QCOMPARE(
            c.value(QLatin1String("ports")).toArray().first().toObject().value(QLatin1String("protocol")).toString(),
            QStringLiteral("TCP"));
        QCOMPARE(podSpecOf(m_http.get(kDeploys + QStringLiteral("/read-back")).json()), pod);
    }

    void shouldDefaultDryRunReplies()
    {
        const HttpReply dry = m_http.call(
            "POST", kDeploys + QStringLiteral("?dryRun=All"), TestHttp::toBytes(deployment(QStringLiteral("dry"))));
        QCOMPARE(dry.code, 201);
        QCOMPARE(specOf(dry.json()).value(QLatin1String("revisionHistoryLimit")).toInt(), 10);
        QCOMPARE(m_http.get(kDeploys + QStringLiteral("/dry")).code, 404);
    }

    void shouldTreatWritesOmittingDefaultsAsNoOps()
    {
        const QString name = QStringLiteral("no-op");
        const QJsonObject original = deployment(name);
        QCOMPARE(m_http.post(kDeploys, original).code, 201);
        const QJsonObject live = settled(name);
        if (QTest::currentTestFailed())
            return;
        const QString rv = rvOf(live);
        WatchStream w(m_api);
        w.open(kDeploys + QStringLiteral("?watch=1&fieldSelector=metadata.name%3Dno-op&resourceVersion=") + rv);
        QVERIFY(QTest::qWaitFor([&]() { return w.statusCode() != 0; }, 5000));
        // The live metadata (the simulator's revision annotation is a real field) with the
        // client's original, undefaulted spec and no status.
        QJsonObject body = live;
        body.insert(QStringLiteral("spec"), specOf(original));
        body.remove(QStringLiteral("status"));
        const HttpReply put = m_http.put(kDeploys + u'/' + name, body);
        QCOMPARE(put.code, 200);
        QCOMPARE(rvOf(put.json()), rv);
        const HttpReply merge = m_http.call("PATCH", kDeploys + u'/' + name, R"({"spec":{"replicas":0,"strategy":{}}})",
            "application/merge-patch+json");
        QCOMPARE(merge.code, 200);
        QCOMPARE(rvOf(merge.json()), rv);
        const HttpReply strategic = m_http.call("PATCH", kDeploys + u'/' + name,
            R"({"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx"}]}}}})",
            "application/strategic-merge-patch+json");
        QCOMPARE(strategic.code, 200);
        QCOMPARE(rvOf(strategic.json()), rv);
        // Server-side apply of the original manifest: defaulted, and only the new field manager
        // is recorded (one write, as kube-apiserver does); applying it again changes nothing.
        const QByteArray manifest = TestHttp::toBytes(original);
        const QString applyPath = kDeploys + u'/' + name + QStringLiteral("?fieldManager=tester&force=true");
        const HttpReply firstApply = m_http.call("PATCH", applyPath, manifest, "application/apply-patch+yaml");
        QCOMPARE(firstApply.code, 200);
        QVERIFY(rvOf(firstApply.json()) != rv);
        const QJsonObject meta = firstApply.json().value(QLatin1String("metadata")).toObject();
        QCOMPARE(meta.value(QLatin1String("managedFields"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QLatin1String("manager"))
                     .toString(),
            QStringLiteral("tester"));
        QVERIFY(w.waitForEvents(1));
        QCOMPARE(rvOf(w.events().first().value(QLatin1String("object")).toObject()), rvOf(firstApply.json()));
        const HttpReply applied = m_http.call("PATCH", applyPath, manifest, "application/apply-patch+yaml");
        QCOMPARE(applied.code, 200);
        QCOMPARE(rvOf(applied.json()), rvOf(firstApply.json()));
        QCOMPARE(
            podSpecOf(applied.json()).value(QLatin1String("dnsPolicy")).toString(), QStringLiteral("ClusterFirst"));
        // A real change afterwards is the only other event the watch sees.
        const HttpReply marker = m_http.call("PATCH", kDeploys + u'/' + name,
            R"({"metadata":{"labels":{"marker":"yes"}}})", "application/merge-patch+json");
        QCOMPARE(marker.code, 200);
        QVERIFY(rvOf(marker.json()) != rv);
        QVERIFY(w.waitForEvents(2));
        const QJsonObject second = w.events().at(1).value(QLatin1String("object")).toObject();
        QCOMPARE(rvOf(second), rvOf(marker.json()));
    }

    void shouldRefuseManagedFieldsInAnApplyBody()
    {
        // The server owns managedFields: an applied configuration carrying them is a 400.
        const QByteArray manifest = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa-mf\n  managedFields:\n"
                                    "  - manager: someone\n    operation: Apply\ndata:\n  a: \"1\"\n";
        const HttpReply r
            = m_http.call("PATCH", QStringLiteral("/api/v1/namespaces/default/configmaps/ssa-mf?fieldManager=tester"),
                manifest, "application/apply-patch+yaml");
        QCOMPARE(r.code, 400);
        QCOMPARE(
            r.json().value(QLatin1String("message")).toString(), QStringLiteral("metadata.managedFields must be nil"));
        QCOMPARE(m_http.get(QStringLiteral("/api/v1/namespaces/default/configmaps/ssa-mf")).code, 404);
    }

    void shouldAllocateAClusterIpThatAPutWithoutItKeeps()
    {
        const QJsonObject svc{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("Service")},
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("web")}}},
            {QStringLiteral("spec"),
                QJsonObject{{QStringLiteral("selector"), QJsonObject{{QStringLiteral("app"), QStringLiteral("web")}}},
                    {QStringLiteral("ports"), QJsonArray{QJsonObject{{QStringLiteral("port"), 80}}}}}}};
        const HttpReply created = m_http.post(kServices, svc);
        QCOMPARE(created.code, 201);
        const QJsonObject spec = specOf(created.json());
        QVERIFY2(spec.value(QLatin1String("clusterIP")).toString().startsWith(QLatin1String("10.")),
            qPrintable(spec.value(QLatin1String("clusterIP")).toString()));
        QCOMPARE(spec.value(QLatin1String("type")).toString(), QStringLiteral("ClusterIP"));
        QCOMPARE(
            spec.value(QLatin1String("ports")).toArray().first().toObject().value(QLatin1String("targetPort")).toInt(),
            80);
        const HttpReply put = m_http.put(kServices + QStringLiteral("/web"), withRv(svc, rvOf(created.json())));
        QCOMPARE(put.code, 200);
        QCOMPARE(rvOf(put.json()), rvOf(created.json()));
        QCOMPARE(specOf(put.json()).value(QLatin1String("clusterIP")), spec.value(QLatin1String("clusterIP")));
    }
};

QTEST_GUILESS_MAIN(TestApiServerDefaults)
#include "tst_apiserver_defaults.moc"
