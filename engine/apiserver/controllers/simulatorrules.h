// SPDX-License-Identifier: Apache-2.0
#pragma once
// Pure rules of the workload simulator (the Deployment controller and kubelet stand-ins):
// pod-template hashing, rollout limits, image pullability, pod statuses and the Deployment
// status/conditions computation (k8s-api-semantics §12). No Store, no Clock: tested directly.

#include "engine/api/object.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>

namespace opbench::apiserver::sim {

inline constexpr auto kRevisionAnnotation = "deployment.kubernetes.io/revision";
inline constexpr auto kDesiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas";
inline constexpr auto kMaxReplicasAnnotation = "deployment.kubernetes.io/max-replicas";
inline constexpr auto kPodTemplateHashLabel = "pod-template-hash";

/// "2024-05-01T10:00:00Z".
QString timestamp(const QDateTime &t);

/// The pod-template-hash of a pod template (label pod-template-hash ignored): FNV-1a 32 of the
/// compact JSON, its decimal digits mapped onto the alphabet "bcdfghjklmnpqrstvwxz2456789".
QString podTemplateHash(const QJsonObject &podTemplate);
/// The template without the pod-template-hash label (to compare an RS template with a
/// Deployment's).
QJsonObject templateWithoutHash(QJsonObject podTemplate);

/// 5 random characters from the alphabet above (pod name suffixes).
QString randomSuffix();

/// Whether the simulated kubelet can pull `image`. Not pullable: a tag `bad` (`nginx:bad`,
/// `registry:5000/app:bad`) or any image whose repository path contains `does-not-exist`.
bool imagePullable(const QString &image);
/// Whether every container image of a pod spec is pullable (the first bad image otherwise).
bool podImagesPullable(const QJsonObject &podSpec, QString *badImage = nullptr);

/// An int-or-percent against `total`: percentages round up (surge) or down (unavailable).
int intOrPercent(const QJsonValue &v, int total, bool roundUp, int fallback);

struct RolloutLimits
{
    bool recreate = false;
    int maxSurge = 0;
    int maxUnavailable = 0;
};
/// From a Deployment spec: RollingUpdate 25%/25% by default; Recreate has 0/0; if both come
/// out 0 for a rolling update, maxUnavailable becomes 1.
RolloutLimits rolloutLimits(const QJsonObject &deploymentSpec, int replicas);

/// spec.replicas with the default of 1.
int desiredReplicas(const QJsonObject &spec);

/// Status of a pod that is not running (yet): Pending, PodScheduled, containers waiting with
/// ContainerCreating, or ImagePullBackOff when an image cannot be pulled.
QJsonObject podPendingStatus(const QJsonObject &podSpec, const QString &now, const QString &startTime = {});
/// Status of a running, ready pod.
QJsonObject podRunningStatus(const QJsonObject &podSpec, const QString &now, const QString &startTime, int ipSuffix);
/// Whether a pod's Ready condition is True; `since` gets its lastTransitionTime.
bool podReady(const QJsonObject &pod, QDateTime *since = nullptr);

/// A ReplicaSet status: replicas (always), fullyLabeledReplicas, readyReplicas and
/// availableReplicas (omitted when 0), observedGeneration.
QJsonObject replicaSetStatus(int replicas, int ready, int available, qint64 observedGeneration);

/// What a Deployment sync observed, to compute the next status.
struct DeploymentObservation
{
    qint64 generation = 0;
    int desired = 1;
    int maxUnavailable = 0;
    int replicas = 0;      // Σ RS status.replicas
    int specReplicas = 0;  // Σ RS spec.replicas
    int updated = 0;       // new RS status.replicas
    int ready = 0;         // Σ RS status.readyReplicas
    int available = 0;     // Σ RS status.availableReplicas
    QString newReplicaSet; // name of the new RS ("" if none)
    bool createdNow = false;
    bool paused = false; // spec.paused: Progressing becomes Unknown DeploymentPaused
    int progressDeadlineSeconds = 600;
    QDateTime now;
};

/// The Deployment status the real controller would write after this sync, given the stored
/// status `old`. Conditions are ordered [Available, Progressing]; a condition whose status and
/// reason do not change keeps its times.
QJsonObject nextDeploymentStatus(const QJsonObject &old, const DeploymentObservation &obs);

/// When the Progressing condition of `status` times out (lastUpdateTime + deadline), if a
/// rollout is still running (not complete, timed out already, or paused). Invalid otherwise.
QDateTime progressDeadline(const QJsonObject &status, int progressDeadlineSeconds);

} // namespace opbench::apiserver::sim
