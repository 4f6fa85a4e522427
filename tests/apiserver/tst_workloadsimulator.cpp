// SPDX-License-Identifier: Apache-2.0
// The workload simulator on a Store with a FakeClock (no HTTP): Deployment → ReplicaSet → Pods,
// readiness after the delay, status and conditions (§12), rollout, bad images, and the garbage
// collector removing everything when the Deployment goes.
#include "engine/apiserver/controllers/garbagecollector.h"
#include "engine/apiserver/controllers/simulatedevents.h"
#include "engine/apiserver/controllers/simulatorrules.h"
#include "engine/apiserver/controllers/workloadsimulator.h"
#include "engine/apiserver/storage/store.h"
#include "engine/base/clock.h"
#include "engine/testing/fakeclock.h"
#include "tests/support/eventloop.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QTest>

#include <algorithm>
#include <functional>

using namespace opbench;
using namespace opbench::apiserver;
using namespace std::chrono_literals;

namespace {

const GroupVersionResource kDeployments{QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("deployments")};
const GroupVersionResource kReplicaSets{QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("replicasets")};
const GroupVersionResource kPods{QString(), QStringLiteral("v1"), QStringLiteral("pods")};
const GroupVersionResource kEvents{QString(), QStringLiteral("v1"), QStringLiteral("events")};
const QString kNs = QStringLiteral("default");

QJsonObject deployment(const QString &name, int replicas, const QString &image, int deadline = 0)
{
    const QJsonObject labels{{QStringLiteral("app"), name}};
    QJsonObject spec{{QStringLiteral("replicas"), replicas},
        {QStringLiteral("selector"), QJsonObject{{QStringLiteral("matchLabels"), labels}}},
        {QStringLiteral("template"),
            QJsonObject{{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("labels"), labels}}},
                {QStringLiteral("spec"),
                    QJsonObject{{QStringLiteral("containers"),
                        QJsonArray{QJsonObject{
                            {QStringLiteral("name"), QStringLiteral("app")}, {QStringLiteral("image"), image}}}}}}}}};
    if (deadline > 0)
        spec.insert(QStringLiteral("progressDeadlineSeconds"), deadline);
    return QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("apps/v1")},
        {QStringLiteral("kind"), QStringLiteral("Deployment")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}}, {QStringLiteral("spec"), spec}};
}

QJsonObject condition(const Object &d, const QString &type)
{
    for (const QJsonValue &c :
        d.json().value(QLatin1String("status")).toObject().value(QLatin1String("conditions")).toArray()) {
        if (c.toObject().value(QLatin1String("type")).toString() == type)
            return c.toObject();
    }
    return {};
}

int statusInt(const Object &o, const char *key)
{
    return o.json().value(QLatin1String("status")).toObject().value(QLatin1String(key)).toInt();
}

} // namespace

class tst_WorkloadSimulator : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<testing::FakeClock> m_clock;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<GarbageCollector> m_gc;
    std::unique_ptr<WorkloadSimulator> m_sim;

    // Runs queued work; between rounds moves the fake clock by `step`, until `done` or the limit.
    bool settle(const std::function<bool()> &done, Clock::Duration step = 100ms, int rounds = 200)
    {
        for (int i = 0; i < rounds; ++i) {
            for (int k = 0; k < 5; ++k)
                QCoreApplication::processEvents();
            if (done())
                return true;
            m_clock->advance(step);
        }
        return done();
    }
    Object deploy(const QString &name) { return m_store->find({kDeployments, kNs, name}); }
    QList<Object> owned(const Object &owner, const GroupVersionResource &gvr, bool includeTerminating = false)
    {
        QList<Object> out;
        for (const ObjectRef &r : m_store->dependentsOf(owner.uid())) {
            const Object o = m_store->find(r);
            if (r.gvr == gvr && !o.isNull() && (includeTerminating || !o.isBeingDeleted()))
                out.append(o);
        }
        return out;
    }
    void setDeploymentSpec(const QString &name, const std::function<void(QJsonObject &)> &edit)
    {
        QJsonObject json = deploy(name).json();
        QJsonObject spec = json.value(QLatin1String("spec")).toObject();
        edit(spec);
        json.insert(QStringLiteral("spec"), spec);
        const auto r = m_store->update(kDeployments, kNs, name, json);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message()));
    }

    QList<Object> eventObjects() const
    {
        const auto listed = m_store->list(kEvents);
        return listed ? listed->items : QList<Object>();
    }
    // "reason message" of every Event about `o`, oldest first.
    QStringList eventsAbout(const Object &o)
    {
        QList<QJsonObject> found;
        for (const Object &e : eventObjects()) {
            const QJsonObject j = e.json();
            if (j.value(QLatin1String("involvedObject")).toObject().value(QLatin1String("uid")).toString() == o.uid())
                found.append(j);
        }
        std::stable_sort(found.begin(), found.end(), [](const QJsonObject &a, const QJsonObject &b) {
            return a.value(QLatin1String("metadata"))
                       .toObject()
                       .value(QLatin1String("resourceVersion"))
                       .toString()
                       .toULongLong()
                < b.value(QLatin1String("metadata"))
                      .toObject()
                      .value(QLatin1String("resourceVersion"))
                      .toString()
                      .toULongLong();
        });
        QStringList out;
        for (const QJsonObject &j : found)
            out << j.value(QLatin1String("reason")).toString() + u' ' + j.value(QLatin1String("message")).toString();
        return out;
    }

private Q_SLOTS:
    void init()
    {
        m_clock = std::make_unique<testing::FakeClock>();
        m_store = std::make_unique<Store>(m_clock.get());
        m_gc = std::make_unique<GarbageCollector>(m_store.get(), m_clock.get());
        m_sim = std::make_unique<WorkloadSimulator>(m_store.get(), m_clock.get(), 2000ms);
    }
    void cleanup()
    {
        m_sim.reset();
        m_gc.reset();
        m_store.reset();
        m_clock.reset();
    }

    void shouldBringADeploymentToAvailability()
    {
        QVERIFY(m_store->create(kDeployments, kNs, deployment(QStringLiteral("web"), 3, QStringLiteral("nginx:1.25")))
                    .ok());
        QVERIFY(settle([&] { return owned(deploy(QStringLiteral("web")), kReplicaSets).size() == 1; }, 0ms, 20));
        const Object rs = owned(deploy(QStringLiteral("web")), kReplicaSets).first();
        const QString hash = sim::podTemplateHash(deploy(QStringLiteral("web"))
                                                      .json()
                                                      .value(QLatin1String("spec"))
                                                      .toObject()
                                                      .value(QLatin1String("template"))
                                                      .toObject());
        QCOMPARE(rs.name(), QStringLiteral("web-") + hash);
        QCOMPARE(rs.annotations().value(QLatin1String(sim::kRevisionAnnotation)), QStringLiteral("1"));
        QCOMPARE(rs.annotations().value(QLatin1String(sim::kDesiredReplicasAnnotation)), QStringLiteral("3"));
        QCOMPARE(rs.annotations().value(QLatin1String(sim::kMaxReplicasAnnotation)), QStringLiteral("4"));
        QVERIFY(rs.controllerReference() && rs.controllerReference()->blockOwnerDeletion);
        QVERIFY(settle([&] { return owned(rs, kPods).size() == 3; }, 0ms, 20));
        for (const Object &p : owned(rs, kPods)) {
            QVERIFY(p.name().startsWith(rs.name() + u'-'));
            QCOMPARE(p.name().size(), rs.name().size() + 6);
            QCOMPARE(p.labels().value(QStringLiteral("pod-template-hash")), hash);
            QCOMPARE(p.json().value(QLatin1String("status")).toObject().value(QLatin1String("phase")).toString(),
                QStringLiteral("Pending"));
        }
        QVERIFY(m_sim->pendingWakeUps() <= 1);
        // Not ready before the delay...
        m_clock->advance(1500ms);
        testing::drainEventLoop();
        QCOMPARE(statusInt(deploy(QStringLiteral("web")), "availableReplicas"), 0);
        // ...available after it.
        QVERIFY(settle([&] { return statusInt(deploy(QStringLiteral("web")), "availableReplicas") == 3; }));
        const Object d = deploy(QStringLiteral("web"));
        QCOMPARE(statusInt(d, "replicas"), 3);
        QCOMPARE(statusInt(d, "updatedReplicas"), 3);
        QCOMPARE(statusInt(d, "readyReplicas"), 3);
        QCOMPARE(statusInt(d, "observedGeneration"), 1);
        QVERIFY(!d.json().value(QLatin1String("status")).toObject().contains(QLatin1String("unavailableReplicas")));
        QCOMPARE(condition(d, QStringLiteral("Available")).value(QLatin1String("reason")).toString(),
            QStringLiteral("MinimumReplicasAvailable"));
        QCOMPARE(condition(d, QStringLiteral("Progressing")).value(QLatin1String("reason")).toString(),
            QStringLiteral("NewReplicaSetAvailable"));
        QCOMPARE(condition(d, QStringLiteral("Progressing")).value(QLatin1String("message")).toString(),
            QStringLiteral("ReplicaSet \"%1\" has successfully progressed.").arg(rs.name()));
        QVERIFY(
            !condition(d, QStringLiteral("Progressing")).value(QLatin1String("lastUpdateTime")).toString().isEmpty());
        // Quiet once settled: no further writes.
        const quint64 rv = m_store->resourceVersion();
        m_clock->advance(10s);
        testing::drainEventLoop();
        QCOMPARE(m_store->resourceVersion(), rv);
    }

    void shouldSettleANewDeploymentInOneCascade()
    {
        // Pods ready at once: the whole cascade runs in one pass, each object written as few
        // times as the final state needs (clients see fewer events, the same end result).
        m_sim->setPodReadyDelay(0ms);
        QHash<QString, int> writes; // "resource/added|modified"
        QObject context;
        connect(m_store.get(), &Store::committed, &context, [&writes](const StoreEvent &e) {
            writes[e.gvr.resource
                + (e.type == EventType::Added ? QStringLiteral("/added") : QStringLiteral("/modified"))]
                += 1;
        });
        QVERIFY(m_store->create(kDeployments, kNs, deployment(QStringLiteral("web"), 3, QStringLiteral("nginx:1.25")))
                    .ok());
        QVERIFY(settle([&] { return statusInt(deploy(QStringLiteral("web")), "availableReplicas") == 3; }, 0ms, 20));
        const Object d = deploy(QStringLiteral("web"));
        QCOMPARE(statusInt(d, "updatedReplicas"), 3);
        QCOMPARE(statusInt(d, "readyReplicas"), 3);
        QCOMPARE(condition(d, QStringLiteral("Available")).value(QLatin1String("status")).toString(),
            QStringLiteral("True"));
        QCOMPARE(condition(d, QStringLiteral("Progressing")).value(QLatin1String("reason")).toString(),
            QStringLiteral("NewReplicaSetAvailable"));
        QCOMPARE(d.annotations().value(QLatin1String(sim::kRevisionAnnotation)), QStringLiteral("1"));
        const Object rs = owned(d, kReplicaSets).first();
        QCOMPARE(statusInt(rs, "availableReplicas"), 3);
        QCOMPARE(writes.value(QStringLiteral("deployments/modified")), 2); // revision annotation, one status
        QCOMPARE(writes.value(QStringLiteral("replicasets/added")), 1);
        QCOMPARE(writes.value(QStringLiteral("replicasets/modified")), 1); // one status write
        QCOMPARE(writes.value(QStringLiteral("pods/added")), 3);
        QCOMPARE(writes.value(QStringLiteral("pods/modified")), 3); // created, then Running and Ready
        const quint64 rv = m_store->resourceVersion();
        QVERIFY(!settle([&] { return m_store->resourceVersion() != rv; }, 1s, 5));
    }

    void shouldScaleUpAndDown()
    {
        QVERIFY(m_store->create(kDeployments, kNs, deployment(QStringLiteral("web"), 2, QStringLiteral("nginx"))).ok());
        QVERIFY(settle([&] { return statusInt(deploy(QStringLiteral("web")), "availableReplicas") == 2; }));
        setDeploymentSpec(QStringLiteral("web"), [](QJsonObject &s) { s.insert(QStringLiteral("replicas"), 5); });
        QVERIFY(settle([&] { return statusInt(deploy(QStringLiteral("web")), "availableReplicas") == 5; }));
        setDeploymentSpec(QStringLiteral("web"), [](QJsonObject &s) { s.insert(QStringLiteral("replicas"), 1); });
        QVERIFY(settle([&] {
            const Object d = deploy(QStringLiteral("web"));
            return statusInt(d, "replicas") == 1 && owned(owned(d, kReplicaSets).first(), kPods, true).size() == 1;
        }));
        QCOMPARE(statusInt(deploy(QStringLiteral("web")), "observedGeneration"), 3);
    }

    void shouldRollOutATemplateChange()
    {
        QVERIFY(
            m_store->create(kDeployments, kNs, deployment(QStringLiteral("web"), 3, QStringLiteral("nginx:1"))).ok());
        QVERIFY(settle([&] { return statusInt(deploy(QStringLiteral("web")), "availableReplicas") == 3; }));
        const QString oldRs = owned(deploy(QStringLiteral("web")), kReplicaSets).first().name();
        setDeploymentSpec(QStringLiteral("web"), [](QJsonObject &s) {
            QJsonObject t = s.value(QLatin1String("template")).toObject();
            QJsonObject ps = t.value(QLatin1String("spec")).toObject();
            ps.insert(QStringLiteral("containers"),
                QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("app")},
                    {QStringLiteral("image"), QStringLiteral("nginx:2")}}});
            t.insert(QStringLiteral("spec"), ps);
            s.insert(QStringLiteral("template"), t);
        });
        QVERIFY(settle([&] {
            const Object d = deploy(QStringLiteral("web"));
            return statusInt(d, "updatedReplicas") == 3 && statusInt(d, "replicas") == 3
                && statusInt(d, "availableReplicas") == 3
                && condition(d, QStringLiteral("Progressing")).value(QLatin1String("reason")).toString()
                == QLatin1String("NewReplicaSetAvailable");
        }));
        const QList<Object> sets = owned(deploy(QStringLiteral("web")), kReplicaSets);
        QCOMPARE(sets.size(), 2);
        for (const Object &rs : sets) {
            const int want = rs.name() == oldRs ? 0 : 3;
            QCOMPARE(rs.json().value(QLatin1String("spec")).toObject().value(QLatin1String("replicas")).toInt(), want);
            if (rs.name() != oldRs) {
                QCOMPARE(rs.annotations().value(QLatin1String(sim::kRevisionAnnotation)), QStringLiteral("2"));
                for (const Object &p : owned(rs, kPods))
                    QCOMPARE(p.json()
                                 .value(QLatin1String("spec"))
                                 .toObject()
                                 .value(QLatin1String("containers"))
                                 .toArray()
                                 .at(0)
                                 .toObject()
                                 .value(QLatin1String("image"))
                                 .toString(),
                        QStringLiteral("nginx:2"));
            }
        }
        QCOMPARE(deploy(QStringLiteral("web")).annotations().value(QLatin1String(sim::kRevisionAnnotation)),
            QStringLiteral("2"));
    }

    void shouldReportProgressDeadlineExceededForABadImage()
    {
        QVERIFY(
            m_store->create(kDeployments, kNs, deployment(QStringLiteral("broken"), 2, QStringLiteral("nginx:bad"), 30))
                .ok());
        QVERIFY(settle([&] { return statusInt(deploy(QStringLiteral("broken")), "replicas") == 2; }, 0ms, 20));
        const Object rs = owned(deploy(QStringLiteral("broken")), kReplicaSets).first();
        for (const Object &p : owned(rs, kPods)) {
            const QJsonObject st = p.json().value(QLatin1String("status")).toObject();
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
        QCOMPARE(condition(deploy(QStringLiteral("broken")), QStringLiteral("Progressing"))
                     .value(QLatin1String("status"))
                     .toString(),
            QStringLiteral("True"));
        QVERIFY(settle(
            [&] {
                return condition(deploy(QStringLiteral("broken")), QStringLiteral("Progressing"))
                           .value(QLatin1String("reason"))
                           .toString()
                    == QLatin1String("ProgressDeadlineExceeded");
            },
            1s, 60));
        const Object d = deploy(QStringLiteral("broken"));
        QCOMPARE(condition(d, QStringLiteral("Progressing")).value(QLatin1String("status")).toString(),
            QStringLiteral("False"));
        QCOMPARE(condition(d, QStringLiteral("Progressing")).value(QLatin1String("message")).toString(),
            QStringLiteral("ReplicaSet \"%1\" has timed out progressing.").arg(rs.name()));
        QCOMPARE(condition(d, QStringLiteral("Available")).value(QLatin1String("reason")).toString(),
            QStringLiteral("MinimumReplicasUnavailable"));
        QCOMPARE(statusInt(d, "availableReplicas"), 0);
        QCOMPARE(statusInt(d, "unavailableReplicas"), 2);
        QCOMPARE(statusInt(d, "readyReplicas"), 0);
    }

    void shouldReplaceADeletedPod()
    {
        QVERIFY(m_store->create(kDeployments, kNs, deployment(QStringLiteral("web"), 2, QStringLiteral("nginx"))).ok());
        QVERIFY(settle([&] { return statusInt(deploy(QStringLiteral("web")), "availableReplicas") == 2; }));
        const Object rs = owned(deploy(QStringLiteral("web")), kReplicaSets).first();
        const Object victim = owned(rs, kPods).first();
        QVERIFY(m_store->remove(kPods, kNs, victim.name()).ok());
        QVERIFY(settle([&] {
            const QList<Object> pods = owned(rs, kPods);
            return pods.size() == 2
                && std::none_of(pods.begin(), pods.end(), [&](const Object &p) { return p.uid() == victim.uid(); })
                && statusInt(deploy(QStringLiteral("web")), "availableReplicas") == 2;
        }));
    }

    void shouldKeepOnlyRevisionHistoryLimitOldReplicaSets()
    {
        QJsonObject d = deployment(QStringLiteral("web"), 1, QStringLiteral("nginx:0"));
        QJsonObject spec = d.value(QLatin1String("spec")).toObject();
        spec.insert(QStringLiteral("revisionHistoryLimit"), 1);
        d.insert(QStringLiteral("spec"), spec);
        QVERIFY(m_store->create(kDeployments, kNs, d).ok());
        for (int v = 1; v <= 3; ++v) {
            QVERIFY(settle([&] {
                return statusInt(deploy(QStringLiteral("web")), "availableReplicas") == 1
                    && statusInt(deploy(QStringLiteral("web")), "replicas") == 1;
            }));
            setDeploymentSpec(QStringLiteral("web"), [v](QJsonObject &s) {
                QJsonObject t = s.value(QLatin1String("template")).toObject();
                t.insert(QStringLiteral("spec"),
                    QJsonObject{{QStringLiteral("containers"),
                        QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("app")},
                            {QStringLiteral("image"), QStringLiteral("nginx:%1").arg(v)}}}}});
                s.insert(QStringLiteral("template"), t);
            });
        }
        QVERIFY(settle([&] {
            const Object dep = deploy(QStringLiteral("web"));
            return statusInt(dep, "updatedReplicas") == 1 && statusInt(dep, "replicas") == 1
                && statusInt(dep, "availableReplicas") == 1
                && owned(dep, kReplicaSets).size() == 2; // the current one and one old revision
        }));
        QCOMPARE(deploy(QStringLiteral("web")).annotations().value(QLatin1String(sim::kRevisionAnnotation)),
            QStringLiteral("4"));
    }

    void shouldCountPodsAvailableOnlyAfterMinReadySeconds()
    {
        QJsonObject d = deployment(QStringLiteral("slow"), 2, QStringLiteral("nginx"));
        QJsonObject spec = d.value(QLatin1String("spec")).toObject();
        spec.insert(QStringLiteral("minReadySeconds"), 10);
        d.insert(QStringLiteral("spec"), spec);
        QVERIFY(m_store->create(kDeployments, kNs, d).ok());
        QVERIFY(settle([&] { return statusInt(deploy(QStringLiteral("slow")), "readyReplicas") == 2; }));
        QCOMPARE(statusInt(deploy(QStringLiteral("slow")), "availableReplicas"), 0);
        m_clock->advance(5s);
        testing::drainEventLoop();
        QCOMPARE(statusInt(deploy(QStringLiteral("slow")), "availableReplicas"), 0);
        QVERIFY(settle([&] { return statusInt(deploy(QStringLiteral("slow")), "availableReplicas") == 2; }, 1s, 10));
    }

    void shouldHoldRolloutsWhilePaused()
    {
        QVERIFY(
            m_store->create(kDeployments, kNs, deployment(QStringLiteral("web"), 2, QStringLiteral("nginx:1"))).ok());
        QVERIFY(settle([&] { return statusInt(deploy(QStringLiteral("web")), "availableReplicas") == 2; }));
        setDeploymentSpec(QStringLiteral("web"), [](QJsonObject &s) {
            s.insert(QStringLiteral("paused"), true);
            s.insert(QStringLiteral("replicas"), 3);
            QJsonObject t = s.value(QLatin1String("template")).toObject();
            t.insert(QStringLiteral("spec"),
                QJsonObject{{QStringLiteral("containers"),
                    QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("app")},
                        {QStringLiteral("image"), QStringLiteral("nginx:2")}}}}});
            s.insert(QStringLiteral("template"), t);
        });
        QVERIFY(settle([&] { return statusInt(deploy(QStringLiteral("web")), "availableReplicas") == 3; }));
        const Object paused = deploy(QStringLiteral("web"));
        QCOMPARE(owned(paused, kReplicaSets).size(), 1); // scaled, not rolled out
        QCOMPARE(condition(paused, QStringLiteral("Progressing")).value(QLatin1String("status")).toString(),
            QStringLiteral("Unknown"));
        QCOMPARE(condition(paused, QStringLiteral("Progressing")).value(QLatin1String("reason")).toString(),
            QStringLiteral("DeploymentPaused"));
        setDeploymentSpec(QStringLiteral("web"), [](QJsonObject &s) { s.remove(QStringLiteral("paused")); });
        QVERIFY(settle([&] {
            const Object d = deploy(QStringLiteral("web"));
            return owned(d, kReplicaSets).size() == 2 && statusInt(d, "updatedReplicas") == 3
                && statusInt(d, "replicas") == 3 && statusInt(d, "availableReplicas") == 3
                && condition(d, QStringLiteral("Progressing")).value(QLatin1String("reason")).toString()
                == QLatin1String("NewReplicaSetAvailable");
        }));
    }

    void shouldDoNothingWhileDisabled()
    {
        m_sim->setEnabled(false);
        QVERIFY(m_store->create(kDeployments, kNs, deployment(QStringLiteral("web"), 1, QStringLiteral("nginx"))).ok());
        QVERIFY(!settle([&] { return m_store->count(kReplicaSets) > 0; }, 100ms, 5));
        m_sim->setEnabled(true);
        QVERIFY(settle([&] { return statusInt(deploy(QStringLiteral("web")), "availableReplicas") == 1; }));
    }

    void shouldLeaveCleanupToTheGarbageCollector()
    {
        QVERIFY(m_store->create(kDeployments, kNs, deployment(QStringLiteral("web"), 2, QStringLiteral("nginx"))).ok());
        QVERIFY(settle([&] { return statusInt(deploy(QStringLiteral("web")), "availableReplicas") == 2; }));
        QVERIFY(m_store->remove(kDeployments, kNs, QStringLiteral("web")).ok());
        QVERIFY(settle([&] { return m_store->count(kReplicaSets) == 0 && m_store->count(kPods) == 0; }));
    }

    void shouldWaitForBlockingDependentsInForeground()
    {
        QVERIFY(m_store->create(kDeployments, kNs, deployment(QStringLiteral("web"), 2, QStringLiteral("nginx"))).ok());
        QVERIFY(settle([&] { return statusInt(deploy(QStringLiteral("web")), "availableReplicas") == 2; }));
        QStringList deletions; // resource of each DELETED event, in RV order
        connect(m_store.get(), &Store::committed, this, [&deletions](const StoreEvent &e) {
            if (e.type == EventType::Deleted)
                deletions << e.gvr.resource;
        });
        DeleteOptions fg;
        fg.propagationPolicy = QStringLiteral("Foreground");
        QVERIFY(m_store->remove(kDeployments, kNs, QStringLiteral("web"), fg).ok());
        QVERIFY(deploy(QStringLiteral("web")).isBeingDeleted());
        QVERIFY(settle([&] { return deploy(QStringLiteral("web")).isNull(); }));
        QCOMPARE(m_store->count(kReplicaSets), 0);
        QCOMPARE(m_store->count(kPods), 0);
        // Pods before their ReplicaSet, the ReplicaSet before the Deployment.
        QCOMPARE(deletions,
            (QStringList{QStringLiteral("pods"), QStringLiteral("pods"), QStringLiteral("replicasets"),
                QStringLiteral("deployments")}));
    }

    void shouldWriteTheEventsOfARealClustersComponents()
    {
        m_sim->setPodReadyDelay(0ms);
        QVERIFY(m_store->create(kDeployments, kNs, deployment(QStringLiteral("web"), 2, QStringLiteral("nginx:1.25")))
                    .ok());
        QVERIFY(settle([&] { return statusInt(deploy(QStringLiteral("web")), "availableReplicas") == 2; }, 0ms, 20));
        const Object rs = owned(deploy(QStringLiteral("web")), kReplicaSets).first();
        QCOMPARE(eventsAbout(deploy(QStringLiteral("web"))),
            QStringList{QStringLiteral("ScalingReplicaSet Scaled up replica set %1 from 0 to 2").arg(rs.name())});
        const QList<Object> pods = owned(rs, kPods);
        QCOMPARE(pods.size(), 2);
        QStringList created;
        for (const Object &p : pods)
            created << QStringLiteral("SuccessfulCreate Created pod: ") + p.name();
        QStringList rsEvents = eventsAbout(rs);
        std::sort(rsEvents.begin(), rsEvents.end());
        std::sort(created.begin(), created.end());
        QCOMPARE(rsEvents, created);
        QCOMPARE(eventsAbout(pods.first()),
            (QStringList{
                QStringLiteral("Scheduled Successfully assigned default/%1 to opbench-node").arg(pods.first().name()),
                QStringLiteral("Pulling Pulling image \"nginx:1.25\""),
                QStringLiteral("Pulled Successfully pulled image \"nginx:1.25\""),
                QStringLiteral("Created Created container app"), QStringLiteral("Started Started container app")}));

        setDeploymentSpec(QStringLiteral("web"), [](QJsonObject &s) { s.insert(QStringLiteral("replicas"), 1); });
        QVERIFY(settle([&] { return owned(rs, kPods).size() == 1; }, 0ms, 20));
        QVERIFY(
            eventsAbout(deploy(QStringLiteral("web")))
                .contains(QStringLiteral("ScalingReplicaSet Scaled down replica set %1 from 2 to 1").arg(rs.name())));
        QCOMPARE(eventsAbout(rs).filter(QStringLiteral("SuccessfulDelete Deleted pod: ")).size(), 1);
    }

    void shouldWarnAboutAnImageThatCannotBePulled()
    {
        QVERIFY(m_store
                    ->create(kDeployments, kNs,
                        deployment(QStringLiteral("broken"), 1, QStringLiteral("example.com/does-not-exist/app:1")))
                    .ok());
        QVERIFY(settle([&] { return !owned(deploy(QStringLiteral("broken")), kReplicaSets).isEmpty(); }, 0ms, 20));
        const Object rs = owned(deploy(QStringLiteral("broken")), kReplicaSets).first();
        QVERIFY(settle([&] { return owned(rs, kPods).size() == 1; }, 0ms, 20));
        const QStringList got = eventsAbout(owned(rs, kPods).first());
        QVERIFY2(got.contains(QStringLiteral("Failed Error: ErrImagePull")), qPrintable(got.join(u'\n')));
        QVERIFY(got.contains(QStringLiteral("BackOff Back-off pulling image \"example.com/does-not-exist/app:1\"")));
        QVERIFY(!got.filter(QStringLiteral("Started")).size());
        int warnings = 0;
        for (const Object &e : eventObjects())
            warnings += e.json().value(QLatin1String("type")).toString() == QLatin1String("Warning");
        QCOMPARE(warnings, 3); // the failed pull, ErrImagePull, ImagePullBackOff
    }

    void shouldAggregateARepeatedEvent()
    {
        SimulatedEvents events(m_store.get(), m_clock.get());
        QVERIFY(m_store->create(kDeployments, kNs, deployment(QStringLiteral("web"), 0, QStringLiteral("nginx"))).ok());
        const Object d = deploy(QStringLiteral("web"));
        events.record(d, SimulatedEvents::Type::Warning, QStringLiteral("Flaky"), QStringLiteral("again"),
            QStringLiteral("test"));
        m_clock->advance(5s);
        events.record(d, SimulatedEvents::Type::Warning, QStringLiteral("Flaky"), QStringLiteral("again"),
            QStringLiteral("test"));
        events.record(d, SimulatedEvents::Type::Warning, QStringLiteral("Flaky"), QStringLiteral("other"),
            QStringLiteral("test"));
        QCOMPARE(eventsAbout(d).filter(QStringLiteral("Flaky")),
            (QStringList{QStringLiteral("Flaky again"), QStringLiteral("Flaky other")}));
        for (const Object &e : eventObjects()) {
            const QJsonObject j = e.json();
            if (j.value(QLatin1String("message")).toString() != QLatin1String("again"))
                continue;
            QCOMPARE(j.value(QLatin1String("count")).toInt(), 2);
            QVERIFY(j.value(QLatin1String("lastTimestamp")).toString()
                != j.value(QLatin1String("firstTimestamp")).toString());
            QCOMPARE(j.value(QLatin1String("involvedObject")).toObject().value(QLatin1String("kind")).toString(),
                QStringLiteral("Deployment"));
        }
        events.setEnabled(false);
        events.record(
            d, SimulatedEvents::Type::Normal, QStringLiteral("Off"), QStringLiteral("x"), QStringLiteral("test"));
        QVERIFY(eventsAbout(d).filter(QStringLiteral("Off")).isEmpty());
    }
};

QTEST_GUILESS_MAIN(tst_WorkloadSimulator)
#include "tst_workloadsimulator.moc"
