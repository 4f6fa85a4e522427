// SPDX-License-Identifier: Apache-2.0
// Pure rules of the workload simulator: image pullability, rollout limits, hashes, and the
// Deployment status transitions (§12).
#include "engine/apiserver/controllers/simulatorrules.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace opbench;
using namespace opbench::apiserver;

namespace {

QJsonObject progressing(const QJsonObject &status)
{
    for (const QJsonValue &c : status.value(QLatin1String("conditions")).toArray()) {
        if (c.toObject().value(QLatin1String("type")).toString() == QLatin1String("Progressing"))
            return c.toObject();
    }
    return {};
}

} // namespace

class tst_SimulatorRules : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldTellPullableImages_data()
    {
        QTest::addColumn<QString>("image");
        QTest::addColumn<bool>("pullable");
        QTest::newRow("plain") << "nginx" << true;
        QTest::newRow("tag") << "nginx:1.25" << true;
        QTest::newRow("bad tag") << "nginx:bad" << false;
        QTest::newRow("registry port and bad tag") << "registry:5000/app:bad" << false;
        QTest::newRow("registry port only") << "registry:5000/app" << true;
        QTest::newRow("does-not-exist repository") << "example.com/does-not-exist/app:1" << false;
        QTest::newRow("tag named like the repo rule is fine") << "app:does-not-exist-tag" << true;
        QTest::newRow("digest") << "nginx@sha256:abc" << true;
        QTest::newRow("badge is not bad") << "nginx:badge" << true;
    }
    void shouldTellPullableImages()
    {
        QFETCH(QString, image);
        QFETCH(bool, pullable);
        QCOMPARE(sim::imagePullable(image), pullable);
    }

    void shouldComputeRolloutLimits_data()
    {
        QTest::addColumn<QByteArray>("strategy");
        QTest::addColumn<int>("replicas");
        QTest::addColumn<int>("surge");
        QTest::addColumn<int>("unavailable");
        QTest::newRow("defaults 25%/25% of 3") << QByteArray() << 3 << 1 << 0;
        QTest::newRow("defaults of 10") << QByteArray() << 10 << 3 << 2;
        QTest::newRow("both zero → unavailable 1")
            << QByteArray("{\"rollingUpdate\":{\"maxSurge\":0,\"maxUnavailable\":\"0%\"}}") << 4 << 0 << 1;
        QTest::newRow("integers") << QByteArray("{\"rollingUpdate\":{\"maxSurge\":2,\"maxUnavailable\":1}}") << 4 << 2
                                  << 1;
        QTest::newRow("recreate") << QByteArray("{\"type\":\"Recreate\"}") << 4 << 0 << 0;
    }
    void shouldComputeRolloutLimits()
    {
        QFETCH(QByteArray, strategy);
        QFETCH(int, replicas);
        QFETCH(int, surge);
        QFETCH(int, unavailable);
        QJsonObject spec;
        if (!strategy.isEmpty())
            spec.insert(QStringLiteral("strategy"), QJsonDocument::fromJson(strategy).object());
        const sim::RolloutLimits l = sim::rolloutLimits(spec, replicas);
        QCOMPARE(l.maxSurge, surge);
        QCOMPARE(l.maxUnavailable, unavailable);
    }

    void shouldHashTemplatesStably()
    {
        const QJsonObject t{{QStringLiteral("spec"), QJsonObject{{QStringLiteral("containers"), QJsonArray{}}}}};
        QJsonObject labelled = t;
        labelled.insert(QStringLiteral("metadata"),
            QJsonObject{
                {QStringLiteral("labels"), QJsonObject{{QStringLiteral("pod-template-hash"), QStringLiteral("x")}}}});
        QCOMPARE(sim::podTemplateHash(t), sim::podTemplateHash(labelled));
        QJsonObject other = t;
        other.insert(QStringLiteral("spec"), QJsonObject{{QStringLiteral("hostname"), QStringLiteral("h")}});
        QVERIFY(sim::podTemplateHash(t) != sim::podTemplateHash(other));
        for (const QChar c : sim::podTemplateHash(t))
            QVERIFY(QStringLiteral("bcdfghjklmnpqrstvwxz2456789").contains(c));
        QCOMPARE(sim::randomSuffix().size(), 5);
    }

    void shouldWalkTheProgressingCondition()
    {
        const QDateTime t0 = QDateTime::fromSecsSinceEpoch(1'700'000'000, Qt::UTC);
        sim::DeploymentObservation obs;
        obs.generation = 1;
        obs.desired = 2;
        obs.newReplicaSet = QStringLiteral("web-abc");
        obs.createdNow = true;
        obs.progressDeadlineSeconds = 30;
        obs.now = t0;
        QJsonObject st = sim::nextDeploymentStatus({}, obs);
        QCOMPARE(progressing(st).value(QLatin1String("reason")).toString(), QStringLiteral("NewReplicaSetCreated"));
        QCOMPARE(progressing(st).value(QLatin1String("message")).toString(),
            QStringLiteral("Created new replica set \"web-abc\""));
        QCOMPARE(st.value(QLatin1String("observedGeneration")).toInt(), 1);
        QVERIFY(!st.contains(QLatin1String("replicas")));
        // Pods appear: progress.
        obs.createdNow = false;
        obs.replicas = obs.updated = obs.specReplicas = 2;
        obs.now = t0.addSecs(5);
        st = sim::nextDeploymentStatus(st, obs);
        QCOMPARE(progressing(st).value(QLatin1String("reason")).toString(), QStringLiteral("ReplicaSetUpdated"));
        QCOMPARE(progressing(st).value(QLatin1String("lastTransitionTime")).toString(), sim::timestamp(t0));
        QCOMPARE(progressing(st).value(QLatin1String("lastUpdateTime")).toString(), sim::timestamp(t0.addSecs(5)));
        QCOMPARE(st.value(QLatin1String("unavailableReplicas")).toInt(), 2);
        QCOMPARE(sim::progressDeadline(st, 30), t0.addSecs(36));
        // Nothing changes, within the deadline: the same status (no write).
        obs.now = t0.addSecs(20);
        QCOMPARE(sim::nextDeploymentStatus(st, obs), st);
        // Past the deadline.
        obs.now = t0.addSecs(40);
        st = sim::nextDeploymentStatus(st, obs);
        QCOMPARE(progressing(st).value(QLatin1String("status")).toString(), QStringLiteral("False"));
        QCOMPARE(progressing(st).value(QLatin1String("reason")).toString(), QStringLiteral("ProgressDeadlineExceeded"));
        QVERIFY(!sim::progressDeadline(st, 30).isValid());
        // Pods finally become available: complete.
        obs.ready = obs.available = 2;
        obs.now = t0.addSecs(50);
        st = sim::nextDeploymentStatus(st, obs);
        QCOMPARE(progressing(st).value(QLatin1String("status")).toString(), QStringLiteral("True"));
        QCOMPARE(progressing(st).value(QLatin1String("reason")).toString(), QStringLiteral("NewReplicaSetAvailable"));
        QCOMPARE(progressing(st).value(QLatin1String("lastTransitionTime")).toString(), sim::timestamp(t0.addSecs(50)));
        QCOMPARE(
            st.value(QLatin1String("conditions")).toArray().at(0).toObject().value(QLatin1String("reason")).toString(),
            QStringLiteral("MinimumReplicasAvailable"));
    }
};

QTEST_GUILESS_MAIN(tst_SimulatorRules)
#include "tst_simulatorrules.moc"
