// SPDX-License-Identifier: Apache-2.0
// The cluster behind the API over real HTTP: the workload simulator and the garbage collector as
// a client sees them through the embedded ApiServer (plain HTTP on a free loopback port, the
// server on its own thread as in the GUI).
#include "tests/support/testapiserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace opbench;
using namespace opbench::apiserver;
using opbench::testing::TestApiServer;

namespace {

const QString kDeployments = QStringLiteral("/apis/apps/v1/namespaces/default/deployments");
const QString kReplicaSets = QStringLiteral("/apis/apps/v1/namespaces/default/replicasets");
const QString kPods = QStringLiteral("/api/v1/namespaces/default/pods");

struct Reply
{
    int code = 0;
    QJsonObject body;
};

QByteArray deploymentJson(const QString &name, int replicas, const QString &image, int deadline = 0)
{
    QJsonObject spec{{QStringLiteral("replicas"), replicas},
        {QStringLiteral("selector"),
            QJsonObject{{QStringLiteral("matchLabels"), QJsonObject{{QStringLiteral("app"), name}}}}},
        {QStringLiteral("template"),
            QJsonObject{{QStringLiteral("metadata"),
                            QJsonObject{{QStringLiteral("labels"), QJsonObject{{QStringLiteral("app"), name}}}}},
                {QStringLiteral("spec"),
                    QJsonObject{{QStringLiteral("containers"),
                        QJsonArray{QJsonObject{
                            {QStringLiteral("name"), QStringLiteral("app")}, {QStringLiteral("image"), image}}}}}}}}};
    if (deadline > 0)
        spec.insert(QStringLiteral("progressDeadlineSeconds"), deadline);
    const QJsonObject d{{QStringLiteral("apiVersion"), QStringLiteral("apps/v1")},
        {QStringLiteral("kind"), QStringLiteral("Deployment")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}}, {QStringLiteral("spec"), spec}};
    return QJsonDocument(d).toJson(QJsonDocument::Compact);
}

int statusInt(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String("status")).toObject().value(QLatin1String(key)).toInt();
}

QString conditionReason(const QJsonObject &o, const QString &type)
{
    for (const QJsonValue &c :
        o.value(QLatin1String("status")).toObject().value(QLatin1String("conditions")).toArray()) {
        if (c.toObject().value(QLatin1String("type")).toString() == type)
            return c.toObject().value(QLatin1String("reason")).toString();
    }
    return {};
}

} // namespace

class tst_WorkloadsHttp : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<TestApiServer> m_server;
    QNetworkAccessManager m_nam;

    Reply call(const QByteArray &verb, const QString &path, const QByteArray &body = {},
        const QByteArray &contentType = "application/json")
    {
        QNetworkRequest req = m_server->request(path);
        req.setRawHeader("Accept", "application/json");
        if (!body.isEmpty())
            req.setHeader(QNetworkRequest::ContentTypeHeader, contentType);
        QNetworkReply *r = m_nam.sendCustomRequest(req, verb, body);
        QSignalSpy finished(r, &QNetworkReply::finished);
        if (!r->isFinished() && !finished.wait(10000))
            qWarning("request %s %s timed out", verb.constData(), qPrintable(path));
        Reply out{r->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(),
            QJsonDocument::fromJson(r->readAll()).object()};
        r->deleteLater();
        return out;
    }
    QJsonObject get(const QString &path) { return call("GET", path).body; }
    int itemCount(const QString &collection, const QString &selector)
    {
        return get(collection + QStringLiteral("?labelSelector=") + selector)
            .value(QLatin1String("items"))
            .toArray()
            .size();
    }
    void createDeployment(const QByteArray &json)
    {
        const Reply r = call("POST", kDeployments, json);
        QCOMPARE(r.code, 201);
    }

private Q_SLOTS:
    void startServer(const ApiServerOptions &o)
    {
        m_server = std::make_unique<TestApiServer>(o);
        QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
    }
    void init()
    {
        ApiServerOptions o = TestApiServer::plainOptions();
        o.crds.clear();
        startServer(o);
    }
    void cleanup() { m_server.reset(); }

    void shouldMakeADeploymentAvailableAndDeleteItInBackground()
    {
        createDeployment(deploymentJson(QStringLiteral("web"), 3, QStringLiteral("nginx:1.25")));
        QTRY_COMPARE_WITH_TIMEOUT(statusInt(get(kDeployments + QStringLiteral("/web")), "availableReplicas"), 3, 15000);
        const QJsonObject d = get(kDeployments + QStringLiteral("/web"));
        QCOMPARE(statusInt(d, "readyReplicas"), 3);
        QCOMPARE(statusInt(d, "updatedReplicas"), 3);
        QCOMPARE(conditionReason(d, QStringLiteral("Available")), QStringLiteral("MinimumReplicasAvailable"));
        QCOMPARE(itemCount(kPods, QStringLiteral("app=web")), 3);
        QCOMPARE(itemCount(kReplicaSets, QStringLiteral("app=web")), 1);
        QCOMPARE(
            call("DELETE", kDeployments + QStringLiteral("/web"), "{\"propagationPolicy\":\"Background\"}").code, 200);
        QTRY_COMPARE_WITH_TIMEOUT(itemCount(kReplicaSets, QStringLiteral("app=web")), 0, 15000);
        QTRY_COMPARE_WITH_TIMEOUT(itemCount(kPods, QStringLiteral("app=web")), 0, 15000);
    }

    void shouldRollOutAStrategicMergePatchOfTheTemplate()
    {
        createDeployment(deploymentJson(QStringLiteral("web"), 3, QStringLiteral("nginx:1")));
        QTRY_COMPARE_WITH_TIMEOUT(statusInt(get(kDeployments + QStringLiteral("/web")), "availableReplicas"), 3, 15000);
        const Reply patched = call("PATCH", kDeployments + QStringLiteral("/web"),
            "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"nginx:2\"}]}}}}",
            "application/strategic-merge-patch+json");
        QCOMPARE(patched.code, 200);
        QTRY_VERIFY_WITH_TIMEOUT(itemCount(kReplicaSets, QStringLiteral("app=web")) == 2, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const QJsonObject d = get(kDeployments + QStringLiteral("/web"));
                return statusInt(d, "updatedReplicas") == 3 && statusInt(d, "replicas") == 3
                    && statusInt(d, "availableReplicas") == 3
                    && conditionReason(d, QStringLiteral("Progressing")) == QLatin1String("NewReplicaSetAvailable");
            }(),
            15000);
        int oldScaledDown = 0;
        for (const QJsonValue &rs :
            get(kReplicaSets + QStringLiteral("?labelSelector=app=web")).value(QLatin1String("items")).toArray()) {
            const QJsonObject o = rs.toObject();
            const QString image = o.value(QLatin1String("spec"))
                                      .toObject()
                                      .value(QLatin1String("template"))
                                      .toObject()
                                      .value(QLatin1String("spec"))
                                      .toObject()
                                      .value(QLatin1String("containers"))
                                      .toArray()
                                      .at(0)
                                      .toObject()
                                      .value(QLatin1String("image"))
                                      .toString();
            const int replicas = o.value(QLatin1String("spec")).toObject().value(QLatin1String("replicas")).toInt();
            QCOMPARE(replicas, image == QLatin1String("nginx:2") ? 3 : 0);
            oldScaledDown += image == QLatin1String("nginx:1") ? 1 : 0;
        }
        QCOMPARE(oldScaledDown, 1);
    }

    void shouldWaitForBlockingDependentsInForeground()
    {
        createDeployment(deploymentJson(QStringLiteral("fg"), 2, QStringLiteral("nginx")));
        QTRY_COMPARE_WITH_TIMEOUT(statusInt(get(kDeployments + QStringLiteral("/fg")), "availableReplicas"), 2, 15000);
        const Reply r = call("DELETE", kDeployments + QStringLiteral("/fg"), "{\"propagationPolicy\":\"Foreground\"}");
        QCOMPARE(r.code, 200);
        const QJsonObject meta = r.body.value(QLatin1String("metadata")).toObject();
        QVERIFY(!meta.value(QLatin1String("deletionTimestamp")).toString().isEmpty());
        QVERIFY(meta.value(QLatin1String("finalizers")).toArray().contains(QStringLiteral("foregroundDeletion")));
        QTRY_COMPARE_WITH_TIMEOUT(call("GET", kDeployments + QStringLiteral("/fg")).code, 404, 15000);
        QCOMPARE(itemCount(kReplicaSets, QStringLiteral("app=fg")), 0);
        QCOMPARE(itemCount(kPods, QStringLiteral("app=fg")), 0);
    }

    void shouldOrphanReplicaSets()
    {
        createDeployment(deploymentJson(QStringLiteral("orph"), 1, QStringLiteral("nginx")));
        QTRY_COMPARE_WITH_TIMEOUT(
            statusInt(get(kDeployments + QStringLiteral("/orph")), "availableReplicas"), 1, 15000);
        QCOMPARE(
            call("DELETE", kDeployments + QStringLiteral("/orph"), "{\"propagationPolicy\":\"Orphan\"}").code, 200);
        QTRY_COMPARE_WITH_TIMEOUT(call("GET", kDeployments + QStringLiteral("/orph")).code, 404, 15000);
        const QJsonArray sets
            = get(kReplicaSets + QStringLiteral("?labelSelector=app=orph")).value(QLatin1String("items")).toArray();
        QCOMPARE(sets.size(), 1);
        QVERIFY(!sets.at(0)
                     .toObject()
                     .value(QLatin1String("metadata"))
                     .toObject()
                     .contains(QLatin1String("ownerReferences")));
        QCOMPARE(itemCount(kPods, QStringLiteral("app=orph")), 1);
    }

    void shouldFinishPendingWorkAfterARestartFromTheStateFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        ApiServerOptions o = TestApiServer::plainOptions();
        o.crds.clear();
        o.stateFile = dir.filePath(QStringLiteral("state.json"));
        o.podReadyDelayMs = 3'600'000; // pods stay Pending in the first life
        startServer(o);
        createDeployment(deploymentJson(QStringLiteral("later"), 2, QStringLiteral("nginx")));
        QTRY_COMPARE_WITH_TIMEOUT(itemCount(kPods, QStringLiteral("app=later")), 2, 15000);
        QCOMPARE(statusInt(get(kDeployments + QStringLiteral("/later")), "availableReplicas"), 0);
        m_server.reset(); // flushes the state file
        o.podReadyDelayMs = 50;
        startServer(o);
        QTRY_COMPARE_WITH_TIMEOUT(
            statusInt(get(kDeployments + QStringLiteral("/later")), "availableReplicas"), 2, 15000);
        QCOMPARE(itemCount(kPods, QStringLiteral("app=later")), 2);
    }

    void shouldReportProgressDeadlineExceededForAnImageThatCannotBePulled()
    {
        createDeployment(
            deploymentJson(QStringLiteral("broken"), 2, QStringLiteral("example.com/does-not-exist/app:1"), 1));
        QTRY_COMPARE_WITH_TIMEOUT(
            conditionReason(get(kDeployments + QStringLiteral("/broken")), QStringLiteral("Progressing")),
            QStringLiteral("ProgressDeadlineExceeded"), 15000);
        const QJsonObject d = get(kDeployments + QStringLiteral("/broken"));
        QCOMPARE(statusInt(d, "availableReplicas"), 0);
        QCOMPARE(conditionReason(d, QStringLiteral("Available")), QStringLiteral("MinimumReplicasUnavailable"));
        const QJsonArray pods
            = get(kPods + QStringLiteral("?labelSelector=app=broken")).value(QLatin1String("items")).toArray();
        QCOMPARE(pods.size(), 2);
        const QJsonObject st = pods.at(0).toObject().value(QLatin1String("status")).toObject();
        QCOMPARE(st.value(QLatin1String("phase")).toString(), QStringLiteral("Pending"));
        QCOMPARE(st.value(QLatin1String("containerStatuses"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QLatin1String("state"))
                     .toObject()
                     .value(QLatin1String("waiting"))
                     .toObject()
                     .value(QLatin1String("reason"))
                     .toString(),
            QStringLiteral("ImagePullBackOff"));
    }

    void shouldListTheSimulatedEventsByInvolvedObject()
    {
        // What `kubectl events --for deployment/web` and `kubectl describe` ask for.
        createDeployment(deploymentJson(QStringLiteral("web"), 1, QStringLiteral("nginx:1.25")));
        QTRY_COMPARE_WITH_TIMEOUT(statusInt(get(kDeployments + QStringLiteral("/web")), "availableReplicas"), 1, 15000);
        const QJsonArray items = get(QStringLiteral("/api/v1/namespaces/default/events?fieldSelector="
                                                    "involvedObject.kind%3DDeployment,involvedObject.name%3Dweb"))
                                     .value(QLatin1String("items"))
                                     .toArray();
        QCOMPARE(items.size(), 1);
        const QJsonObject e = items.first().toObject();
        QCOMPARE(e.value(QLatin1String("reason")).toString(), QStringLiteral("ScalingReplicaSet"));
        QVERIFY(e.value(QLatin1String("message")).toString().startsWith(QStringLiteral("Scaled up replica set web-")));
        QCOMPARE(e.value(QLatin1String("source")).toObject().value(QLatin1String("component")).toString(),
            QStringLiteral("deployment-controller"));
        const QJsonArray started = get(QStringLiteral("/apis/events.k8s.io/v1/namespaces/default/events?fieldSelector="
                                                      "reason%3DStarted,regarding.kind%3DPod"))
                                       .value(QLatin1String("items"))
                                       .toArray();
        QCOMPARE(started.size(), 1);
        QCOMPARE(started.first().toObject().value(QLatin1String("note")).toString(),
            QStringLiteral("Started container app"));
    }

    void shouldWriteNoEventsWhenTheyAreTurnedOff()
    {
        ApiServerOptions o = TestApiServer::plainOptions();
        o.crds.clear();
        o.simulatedEvents = false;
        startServer(o);
        createDeployment(deploymentJson(QStringLiteral("quiet"), 1, QStringLiteral("nginx:1.25")));
        QTRY_COMPARE_WITH_TIMEOUT(
            statusInt(get(kDeployments + QStringLiteral("/quiet")), "availableReplicas"), 1, 15000);
        QCOMPARE(
            get(QStringLiteral("/api/v1/namespaces/default/events")).value(QLatin1String("items")).toArray().size(), 0);
    }
};

QTEST_GUILESS_MAIN(tst_WorkloadsHttp)
#include "tst_workloads_http.moc"
