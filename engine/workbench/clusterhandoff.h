// SPDX-License-Identifier: Apache-2.0
#pragma once
// Cluster hand-off: the workbench hands leadership to opbench-operator running in the cluster
// it is connected to, and takes it back. Logic only (no widgets); runs on the engine thread.
//
//   auto docs = clusterhandoff::prepare(*clusterhandoff::shippedManifests(crds), image, "default", lease);
//   auto applied = co_await clusterhandoff::apply(client, *docs);     // "applied 9 objects …"
//   … release the lease …
//   auto scaled = co_await clusterhandoff::scaleToZero(client);
//   auto gone = co_await clusterhandoff::waitForRelease(client, "default", lease, 60s);
//   … campaign again …
//
// The manifests are the operator's CRDs and packaging/manifests/*.yaml (opbench-operator's
// Deployment, RBAC, Service), compiled into the program, so an installed binary needs no source
// tree. Another operator's in-cluster hand-off would need its own manifests: not offered yet.

#include "engine/api/expected.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <qcoro/qcorotask.h>

#include <chrono>

namespace opbench {
class RestClient;
}

namespace opbench::workbench::clusterhandoff {

/// The operator Deployment of packaging/manifests/deployment.yaml.
QString deploymentNamespace(); ///< "opbench-system"
QString deploymentName();      ///< "opbench-operator"
/// The label selector of its pods ("app.kubernetes.io/name=opbench-operator").
QString podSelector();

/// The operator's CRDs (`crds`, YAML) and every document of packaging/manifests/ (file order):
/// the in-cluster opbench-operator. Errors: a resource is missing or does not parse (the message
/// names it).
Expected<QList<QJsonObject>> shippedManifests(const QByteArrayList &crds);
/// The image the shipped Deployment names ("opbench-operator:0.1.0"); "" when it cannot be read.
QString shippedImage();

/// Readies `docs` for a hand-off: the operator container's image becomes `image`, the
/// Deployment gets replicas 1 and `--leader-election-namespace=<leaseNamespace>` and
/// `--leader-election-id=<leaseName>` (the workbench's Lease), the leader-election Role and
/// RoleBinding move to `leaseNamespace`, and the documents are sorted so that each exists
/// before what needs it (CRD, Namespace, ServiceAccount, ClusterRole, ClusterRoleBinding, Role,
/// RoleBinding, Service, Deployment; unknown kinds last). Errors: empty image, no Deployment.
Expected<QList<QJsonObject>> prepare(
    QList<QJsonObject> docs, const QString &image, const QString &leaseNamespace, const QString &leaseName);

/// Server-side applies each document in order (field manager "opbench-workbench", force), like
/// `kubectl apply --server-side`: creates what is missing, updates what exists. Stops at the
/// first failure. Returns "applied N objects (…kinds…)"; the error's message says how many were
/// applied and which object failed with the server's code and words ("403: …").
QCoro::Task<Expected<QString>> apply(RestClient *client, QList<QJsonObject> docs);

/// Sets spec.replicas of the operator Deployment to 0 (merge patch). Returns what was done.
QCoro::Task<Expected<QString>> scaleToZero(RestClient *client);

/// Polls (every second, up to `timeout`) until the operator's pods are gone, or the Lease
/// `leaseNamespace/leaseName` has no holder, or its holder's lease expired. Returns which of
/// these happened; an error after `timeout` (the caller may campaign anyway: the elector waits
/// for expiry) or when the client is gone.
QCoro::Task<Expected<QString>> waitForRelease(
    RestClient *client, QString leaseNamespace, QString leaseName, std::chrono::milliseconds timeout);

} // namespace opbench::workbench::clusterhandoff
