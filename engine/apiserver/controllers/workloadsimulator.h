// SPDX-License-Identifier: Apache-2.0
#pragma once
// WorkloadSimulator: plays the Deployment controller, the ReplicaSet controller and the kubelet
// for the embedded API server (k8s-api-semantics §12), through the Store's write API.
//
// - Deployment → ReplicaSet `<deploy>-<pod-template-hash>` (annotations revision,
//   desired-replicas, max-replicas; owner reference controller + blockOwnerDeletion) → Pods
//   `<rs>-<5 chars>` (same kind of owner reference). Scaling, and rolling updates
//   (RollingUpdate with maxSurge/maxUnavailable, or Recreate): a template change creates a new
//   ReplicaSet that is scaled up while the old ones are scaled down.
// - Kubelet: a new pod is written Pending (containers ContainerCreating) and becomes Running and
//   Ready `podReadyDelay` later. Pods in one batch share ONE Clock wake-up. An image that cannot
//   be pulled (tag `:bad`, or a repository path containing `does-not-exist`; see
//   sim::imagePullable) leaves the pod Pending with ImagePullBackOff, never Ready.
// - Deployment status as the real controller fills it (observedGeneration, replicas,
//   updatedReplicas, readyReplicas, availableReplicas, unavailableReplicas, conditions
//   Available and Progressing, incl. ProgressDeadlineExceeded after progressDeadlineSeconds,
//   default 600). spec.paused stops rollouts (Progressing Unknown DeploymentPaused; scaling
//   still applies). Old ReplicaSets beyond revisionHistoryLimit (default 10) are deleted.
//   ReplicaSet status: replicas, fullyLabeledReplicas, readyReplicas,
//   availableReplicas (ready for minReadySeconds), observedGeneration.
// - Status writes go through the status subresource and only when something changed.
// - The components' Events (ScalingReplicaSet, SuccessfulCreate/Delete, Scheduled, Pulling,
//   Pulled, Created, Started, Failed/BackOff): see SimulatedEvents.
// - Deleting a Deployment or ReplicaSet is left to the garbage collector (owner references).
//
// Work is queued: `committed` events mark objects dirty; a queued call syncs them later.
// Cascades run inline to cut writes: a Deployment sync that creates or scales a ReplicaSet syncs
// that ReplicaSet at once (its pods are created and admitted by the kubelet right away, then ONE
// ReplicaSet status write), and the Deployment status is computed after that. Events caused by
// the simulator's own writes to the object being synced (and its ReplicaSets) do not mark it
// dirty again; a rollout that is not complete yet is re-examined on the next pass.

#include "engine/api/object.h"
#include "engine/apiserver/controllers/simulatedevents.h"
#include "engine/apiserver/controllers/simulatorrules.h"
#include "engine/base/clock.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QSet>

#include <chrono>
#include <map>
#include <optional>

namespace opbench::apiserver {

class Store;
struct StoreEvent;
struct ObjectRef;

class WorkloadSimulator : public QObject
{
    Q_OBJECT
public:
    /// Starts at once; `store` and `clock` must outlive the simulator.
    WorkloadSimulator(Store *store, Clock *clock, std::chrono::milliseconds podReadyDelay, QObject *parent = nullptr);
    ~WorkloadSimulator() override;

    std::chrono::milliseconds podReadyDelay() const { return m_readyDelay; }
    void setPodReadyDelay(std::chrono::milliseconds delay) { m_readyDelay = delay; }

    /// Enabled by default. A disabled simulator ignores every change (e.g. for benchmarks that
    /// store thousands of Deployments); enabling it again re-examines everything.
    void setEnabled(bool enabled);
    bool isEnabled() const { return m_enabled; }

    /// Re-examines every Deployment, ReplicaSet and Pod (after restoring a state file).
    void resyncAll();

    /// The Events the simulated components write (on by default).
    SimulatedEvents &events() { return m_events; }

    /// Pending kubelet wake-ups (0 or 1) — for tests of the batching.
    int pendingWakeUps() const { return m_kubeletTimer ? 1 : 0; }

    /// One ReplicaSet's intended replicas during a Deployment sync.
    struct RsPlan
    {
        Object rs;
        int replicas = 0;       // planned spec.replicas
        int specReplicas = 0;   // stored spec.replicas
        int statusReplicas = 0; // stored status counts
        int available = 0;
    };
    /// A pod with its readiness decoded once.
    struct PodInfo
    {
        Object pod;
        bool ready = false;
        QDateTime readySince;
    };

private:
    struct Due
    {
        QString ns;
        QString name;
        QString uid;
    };

    void onCommitted(const StoreEvent &event);
    void markOwner(const Object &o, const QString &kind);
    void schedule();
    void processQueued();

    // Deployment controller (workloaddeployments.cpp).
    void syncDeployment(const QString &key);
    bool syncDeploymentQuietly(const QString &key);
    bool scaleReplicaSet(const Object &rs, int replicas, int desired, int maxReplicas, std::optional<int> revision);
    void writeDeploymentRevision(const Object &deployment, int revision);
    void syncPaused(
        const QString &key, RsPlan &fresh, QList<RsPlan> &old, int desired, const sim::RolloutLimits &limits);
    /// Returns whether the rollout is complete (all replicas updated and available).
    bool writeDeploymentStatus(
        const QString &key, const QString &newReplicaSet, bool createdNow, int maxUnavailable, bool paused);
    void armDeadline(const QString &key, const QDateTime &at);

    // ReplicaSet controller and kubelet (workloadsimulator.cpp).
    void syncReplicaSet(const QString &key);
    void syncReplicaSetQuietly(const QString &key);
    QList<PodInfo> activePods(const Object &rs) const;
    void createPods(const Object &rs, const QJsonObject &rsJson, int count, QList<PodInfo> &pods);
    void deleteExcessPods(const Object &rs, QList<PodInfo> &pods, int desired);
    void writeReplicaSetStatus(
        const QString &key, const Object &rs, const QJsonObject &rsJson, const QList<PodInfo> &pods);
    Object kubeletAdmit(const QString &key); // the pod as admitted (null if not written)
    Object admit(const Object &pod, const QJsonObject &podSpec);
    void kubeletWake();
    void armKubelet();

    Store *m_store;
    Clock *m_clock;
    std::chrono::milliseconds m_readyDelay;
    SimulatedEvents m_events;
    QSet<QString> m_dirtyDeployments; // "ns/name"
    QSet<QString> m_dirtyReplicaSets;
    QSet<QString> m_newPods;
    QSet<QString> m_admitted;         // pod uids the kubelet has taken
    QSet<QString> m_quietDeployments; // being synced: their own events do not mark them dirty
    QSet<QString> m_quietReplicaSets;
    std::multimap<Clock::TimePoint, Due> m_due;
    quint64 m_kubeletTimer = 0;
    Clock::TimePoint m_kubeletAt{};
    QHash<QString, std::pair<quint64, QDateTime>> m_deadlines; // deployment key -> (timer, wall time)
    QHash<QString, quint64> m_rsTimers;                        // minReadySeconds wake-ups
    bool m_scheduled = false;
    bool m_enabled = true;
    int m_podCounter = 0;
};

} // namespace opbench::apiserver
