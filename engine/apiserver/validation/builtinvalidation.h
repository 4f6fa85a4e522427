// SPDX-License-Identifier: Apache-2.0
#pragma once
// Per-kind validation of built-in objects (kube-apiserver's pkg/apis/*/validation), the
// commonest rules, with upstream's field paths and messages (422 Invalid):
// - Deployment, ReplicaSet, StatefulSet, DaemonSet (apps/v1): `spec.replicas` ≥ 0; a selector
//   is required, may not be empty and must match the template labels; `spec.selector` is
//   immutable; the pod template's spec is checked as a Pod's.
// - Pod specs (Pods and templates): at least one container; each needs a name (unique) and an
//   image; container ports 1-65535.
// - Service: ports 1-65535; `spec.clusterIP` is immutable once set.
// - ConfigMap and Secret with `immutable: true`: data, binaryData and immutable itself may not
//   change.
// - Mutating/ValidatingWebhookConfiguration: webhookconfig.h.
// Status writes are not checked (only the status changes there).

#include "engine/api/status.h"
#include "engine/apiserver/registry/registry.h"

#include <QJsonObject>

namespace opbench::apiserver {

/// The causes kube-apiserver would give for `object`; `old` (the stored object) is empty on create.
QList<StatusCause> validateBuiltinObject(const ResourceType &type, const QJsonObject &object, const QJsonObject &old);

/// Go's %#v of a metav1.LabelSelector, as it appears in upstream messages:
/// `v1.LabelSelector{MatchLabels:map[string]string{"app":"web"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}`.
QString goLabelSelector(const QJsonObject &selector);

} // namespace opbench::apiserver
