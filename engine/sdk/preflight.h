// SPDX-License-Identifier: Apache-2.0
#pragma once
// preflight(): can this client run an operator? One check for every front end — the headless
// operator maps the outcome to its exit code, the workbench's Connect dialog shows the message.
//
// In order, stopping at the first failure: GET /version (reachable, TLS trusted, credentials
// accepted); the discovery document of the operator's primary resource's group-version lists
// the resource (its CRD is installed); then `list` (limit 1) on every resource the operator
// caches, in its cache scope, and `get` on its leader-election Lease (a 404 is fine). A refusal
// names the verb and resource it was refused (403), or what was wrong, with what to do.

#include "engine/api/gvk.h"

#include <QList>
#include <QString>

#include <qcoro/qcorotask.h>

namespace opbench {

class RestClient;

struct PreflightSpec
{
    /// The operator's own resource; missing from discovery → ResourceMissing.
    GroupVersionResource primary;
    /// "the MyApplication CRD (myapplications.example.com, v1alpha1)": for the missing message.
    QString primaryDescription;
    /// What to do when it is missing ("Install it with: kubectl apply -f …").
    QString installHint;
    /// Listed (limit 1) in `namespaceName`; the primary resource is listed first anyway.
    QList<GroupVersionResource> cached;
    /// The cache scope: one namespace, several separated by commas, or "" for all.
    QString namespaceName;
    /// The leader-election Lease (get in `leaseNamespace`; 404 is fine). Empty: not checked.
    QString leaseName;
    QString leaseNamespace;
    /// Who runs the check, for the messages: "context \"kind-dev\"" (default: "the current context").
    QString who;
    /// What to do on a 403 (default: grant the ClusterRole of packaging/manifests/rbac.yaml).
    QString rbacHint;
};

struct PreflightResult
{
    enum class Outcome { Ok, Unreachable, Tls, Unauthorized, Forbidden, ResourceMissing, Failed };
    Outcome outcome = Outcome::Ok;
    /// What happened and what to do, in words ("Connected to … (Kubernetes v1.32.0)" when Ok).
    QString message;
    /// Forbidden: the verb and resource refused ("list", "deployments.apps").
    QString verb;
    QString resource;
    /// GET /version's gitVersion when it answered.
    QString serverVersion;
    [[nodiscard]] bool ok() const { return outcome == Outcome::Ok; }
};

QCoro::Task<PreflightResult> preflight(RestClient *client, PreflightSpec spec);

} // namespace opbench
