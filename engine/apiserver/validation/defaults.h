// SPDX-License-Identifier: Apache-2.0
#pragma once
// Built-in defaulting: the values the real kube-apiserver (v1.27–1.33) fills into built-in
// objects when it decodes them (create, update, every patch type, server-side apply, dryRun, and
// objects read back from storage), so what a client reads back carries them and a write that
// only omits defaulted fields is a no-op.
//
// Pure functions on the JSON of one object, one per kind. A value the client set is never
// overwritten; "unset" means absent or null, and also "" (strings) or 0 (non-pointer integers
// such as probe periods) where the Go type cannot tell those apart from unset.
//
// Covered (the kinds the embedded server serves): Deployment, ReplicaSet, Pod (and every pod
// template), Service, Namespace, CustomResourceDefinition, RoleBinding/ClusterRoleBinding. Not done here: what
// admission plugins add on a real cluster (serviceAccountName, the token volume, tolerations, priority,
// preemptionPolicy), quantity canonicalisation, and zero-value structs a Go encoder would emit
// (`resources: {}`, `creationTimestamp: null` in templates). Secrets keep their own rule
// (rules::defaultSecret). Service defaults and cluster IP allocation: servicedefaults.h.

#include "engine/apiserver/registry/registry.h"

#include <QJsonObject>
#include <QString>

#include <functional>

namespace opbench::apiserver::defaults {

/// True for an absent or null value (what Go decodes to a nil pointer).
bool isUnset(const QJsonValue &v);
/// Sets `key` to `value` when it is unset (pointer fields: 0, false and "" are kept).
void setDefault(QJsonObject &o, QLatin1String key, const QJsonValue &value);
/// Sets `key` to `value` when it is unset or "" (non-pointer string fields).
void setDefaultString(QJsonObject &o, QLatin1String key, const QString &value);
/// Sets `key` to `value` when it is unset or 0 (non-pointer integer fields).
void setDefaultNonZero(QJsonObject &o, QLatin1String key, qint64 value);

/// Runs `fn` on the object at `key` and stores the result back: an unset key starts as {} (a Go
/// value struct always exists); a key holding something other than an object is left alone.
void editObject(QJsonObject &parent, QLatin1String key, const std::function<void(QJsonObject &)> &fn);
/// Like editObject, but only when `key` already holds an object (optional, pointer structs).
void editIfPresent(QJsonObject &parent, QLatin1String key, const std::function<void(QJsonObject &)> &fn);
/// Runs `fn` on every object element of the array at `key` (anything else is left alone).
void editEach(QJsonObject &parent, QLatin1String key, const std::function<void(QJsonObject &)> &fn);

/// Applies the defaults of `type`'s kind to `object` (a no-op for kinds without defaults and for
/// custom resources, whose defaults come from their schema).
void applyDefaults(const ResourceType &type, QJsonObject &object);

/// apps/v1 Deployment: spec.replicas 1; spec.strategy.type RollingUpdate and, for RollingUpdate
/// only, rollingUpdate {maxUnavailable "25%", maxSurge "25%"}; revisionHistoryLimit 10;
/// progressDeadlineSeconds 600; the pod template's spec as defaultPodSpec.
void defaultDeployment(QJsonObject &deployment);
/// apps/v1 ReplicaSet: spec.replicas 1; the pod template's spec as defaultPodSpec.
void defaultReplicaSet(QJsonObject &replicaSet);
/// core/v1 Pod: defaultPodSpec plus what only Pods get: spec.enableServiceLinks true,
/// resources.requests copied from limits where a request is missing, and with hostNetwork each
/// container port's hostPort = containerPort.
void defaultPod(QJsonObject &pod);
/// A PodSpec (Pods and every pod template): restartPolicy Always, terminationGracePeriodSeconds
/// 30, dnsPolicy ClusterFirst, securityContext {}, schedulerName "default-scheduler"; every
/// container, init container and ephemeral container as defaultContainer; volumes as
/// defaultVolume.
void defaultPodSpec(QJsonObject &spec);
/// A container: imagePullPolicy (pullPolicyFor), terminationMessagePath "/dev/termination-log",
/// terminationMessagePolicy "File", ports[].protocol "TCP", env[].valueFrom.fieldRef.apiVersion
/// "v1", probes (timeoutSeconds 1, periodSeconds 10, successThreshold 1, failureThreshold 3;
/// httpGet path "/" and scheme HTTP; grpc service "") and lifecycle httpGet handlers.
void defaultContainer(QJsonObject &container);
/// A pod volume: no source at all becomes emptyDir {}; secret/configMap/downwardAPI/projected
/// defaultMode 420 (0644); projected serviceAccountToken expirationSeconds 3600; downward API
/// fieldRef apiVersion "v1"; hostPath type "".
void defaultVolume(QJsonObject &volume);
/// The imagePullPolicy the server picks for `image`: "Always" when the tag is `latest`, or when
/// there is neither a tag nor a digest (`nginx`, `registry:5000/app`); otherwise "IfNotPresent"
/// (`nginx:1.25`, `repo@sha256:…`, and names the reference grammar rejects, such as "").
QString pullPolicyFor(const QString &image);

/// core/v1 Namespace: the label kubernetes.io/metadata.name = metadata.name (always set, as the
/// real server does).
void defaultNamespace(QJsonObject &ns);
/// apiextensions.k8s.io/v1 CustomResourceDefinition: spec.names.singular (lowercase kind) and
/// listKind (kind + "List"), spec.conversion {strategy: None}, a conversion webhook service's
/// port 443.
void defaultCrd(QJsonObject &crd);
/// rbac/v1 RoleBinding and ClusterRoleBinding: roleRef.apiGroup "rbac.authorization.k8s.io";
/// subjects of kind User/Group get apiGroup "rbac.authorization.k8s.io", ServiceAccounts "".
void defaultRoleBinding(QJsonObject &binding);

} // namespace opbench::apiserver::defaults
