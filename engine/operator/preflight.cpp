// SPDX-License-Identifier: Apache-2.0
#include "engine/operator/preflight.h"

#include "engine/operator/myapplication.h"

namespace opbench::myapp {

namespace {

PreflightResult deniedOrOther(const Status &e, const QString &what, const QString &where)
{
    if (isUnauthorized(e))
        return {ExitCode::Denied, QStringLiteral("authentication failed while %1 at %2: %3. Check the credentials of the "
                                                 "kubeconfig context (token, client certificate).").arg(what, where, e.message())};
    if (isForbidden(e))
        return {ExitCode::Denied, QStringLiteral("RBAC denied while %1: %2. Grant the operator's service account the "
                                                 "ClusterRole in packaging/manifests/rbac.yaml "
                                                 "(kubectl apply -f packaging/manifests/rbac.yaml).").arg(what, e.message())};
    if (isTransportError(e))
        return {ExitCode::Unreachable, QStringLiteral("no cluster reachable at %1 (%2). Start one, or pass --kubeconfig/--context, "
                                                      "or use --embedded for a demo without a cluster.").arg(where, e.toString())};
    return {ExitCode::Failure, QStringLiteral("unexpected error while %1 at %2: %3").arg(what, where, e.toString())};
}

} // namespace

QCoro::Task<PreflightResult> preflight(RestClient *client, QString namespaceName)
{
    const QString where = client->config().server.toString() + QStringLiteral(" (") + client->config().source + u')';
    Expected<RawResponse> version = co_await client->raw("GET", QStringLiteral("/version"));
    if (!version && (isTransportError(version.error()) || isUnauthorized(version.error())))
        co_return deniedOrOther(version.error(), QStringLiteral("reading /version"), where);
    const GroupVersionResource gvr{kMyApplicationGvk.group, kMyApplicationGvk.version, QStringLiteral("myapplications")};
    Expected<RawResponse> disco = co_await client->raw("GET", gvr.basePath());
    if (!disco && isNotFound(disco.error()))
        co_return PreflightResult{ExitCode::CrdMissing,
                                  QStringLiteral("the MyApplication CRD (myapplications.example.com, version v1alpha1) is not installed "
                                                 "in the cluster at %1. Install it with: kubectl apply -f "
                                                 "resources/crds/myapplications.example.com.yaml").arg(where)};
    if (!disco)
        co_return deniedOrOther(disco.error(), QStringLiteral("reading the discovery document of example.com/v1alpha1"), where);
    if (!disco->body.contains("\"myapplications\""))
        co_return PreflightResult{ExitCode::CrdMissing,
                                  QStringLiteral("example.com/v1alpha1 has no myapplications resource at %1. Install the CRD with: "
                                                 "kubectl apply -f resources/crds/myapplications.example.com.yaml").arg(where)};
    ListOptions lo;
    lo.limit = 1;
    Expected<Object::List> listed = co_await client->list(gvr, namespaceName, lo);
    if (!listed)
        co_return deniedOrOther(listed.error(), QStringLiteral("listing myapplications"), where);
    co_return PreflightResult{};
}

} // namespace opbench::myapp
