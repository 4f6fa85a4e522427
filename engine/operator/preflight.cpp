// SPDX-License-Identifier: Apache-2.0
#include "engine/operator/preflight.h"

#include "engine/operator/myapplication.h"

namespace opbench::myapp {

PreflightSpec preflightSpec(const QString &namespaceName, const QString &leaseNamespace)
{
    PreflightSpec spec;
    spec.primary = resource();
    spec.primaryDescription = QStringLiteral("The MyApplication CRD (myapplications.example.com, version v1alpha1)");
    spec.installHint = QStringLiteral("Install it with: kubectl apply -f resources/crds/myapplications.example.com.yaml");
    spec.cached = {resource(), {QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("deployments")}};
    spec.namespaceName = namespaceName;
    if (!leaseNamespace.isEmpty()) {
        spec.leaseName = leaseName();
        spec.leaseNamespace = leaseNamespace;
    }
    spec.rbacHint = QStringLiteral("Grant the operator's service account the ClusterRole in packaging/manifests/rbac.yaml "
                                   "(kubectl apply -f packaging/manifests/rbac.yaml).");
    return spec;
}

int exitCodeOf(PreflightResult::Outcome outcome)
{
    using O = PreflightResult::Outcome;
    switch (outcome) {
    case O::Ok:
        return ExitCode::Ok;
    case O::Unreachable:
    case O::Tls:
        return ExitCode::Unreachable;
    case O::Unauthorized:
    case O::Forbidden:
        return ExitCode::Denied;
    case O::ResourceMissing:
        return ExitCode::CrdMissing;
    case O::Failed:
        break;
    }
    return ExitCode::Failure;
}

} // namespace opbench::myapp
