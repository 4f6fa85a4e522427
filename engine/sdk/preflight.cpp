// SPDX-License-Identifier: Apache-2.0
#include "engine/sdk/preflight.h"

#include "engine/api/status.h"
#include "engine/client/restclient.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>

namespace opbench {

namespace {

using Outcome = PreflightResult::Outcome;

QString tr(const char *text) { return QCoreApplication::translate("Preflight", text); }

QString resourceName(const GroupVersionResource &gvr)
{
    return gvr.group.isEmpty() ? gvr.resource : gvr.resource + u'.' + gvr.group;
}

PreflightResult failure(Outcome outcome, const QString &message)
{
    PreflightResult r;
    r.outcome = outcome;
    r.message = message;
    return r;
}

/// Words for an error of `verb` on `what` (a resource, or a path).
PreflightResult classify(
    const PreflightSpec &spec, const QString &server, const Status &e, const QString &verb, const QString &what)
{
    const QString who = spec.who.isEmpty() ? tr("the current context") : spec.who;
    if (e.reason() == QLatin1String(StatusReason::TlsError))
        return failure(Outcome::Tls,
            tr("TLS verification failed: the API server at %1 did not present a certificate "
               "that %2 trusts. Check certificate-authority(-data) and tls-server-name in the "
               "kubeconfig.\n%3")
                .arg(server, who, e.message()));
    if (isTransportError(e))
        return failure(Outcome::Unreachable,
            tr("Cannot reach the API server at %1 (%2): is the cluster running and the "
               "address right?\n%3")
                .arg(server, who, e.message()));
    if (isUnauthorized(e))
        return failure(Outcome::Unauthorized,
            tr("401 Unauthorized: the API server at %1 rejected the credentials of %2 "
               "while trying to %3 %4. The token or client certificate is wrong or "
               "expired.")
                .arg(server, who, verb, what));
    if (isForbidden(e)) {
        const QString hint = spec.rbacHint.isEmpty() ? tr("Grant it the ClusterRole in packaging/manifests/rbac.yaml.")
                                                     : spec.rbacHint;
        PreflightResult r = failure(Outcome::Forbidden,
            tr("403 Forbidden: %1 may not %2 %3. %4\nThe server said: %5").arg(who, verb, what, hint, e.message()));
        r.verb = verb;
        r.resource = what.section(u' ', 0, 0);
        return r;
    }
    return failure(
        Outcome::Failed, tr("Unexpected answer while trying to %1 %2 at %3: %4").arg(verb, what, server, e.toString()));
}

} // namespace

QCoro::Task<PreflightResult> preflight(RestClient *client, PreflightSpec spec)
{
    const QString server = client->config().server.toString();
    // Arguments of awaited calls are locals: g++ 12 mis-destroys temporaries around co_await.
    const QByteArray get("GET");
    const QString versionPath = QStringLiteral("/version");
    Expected<RawResponse> version = co_await client->raw(get, versionPath);
    if (!version && !isForbidden(version.error()))
        co_return classify(spec, server, version.error(), tr("get"), versionPath);
    const QString discoveryPath = spec.primary.basePath();
    Expected<RawResponse> disco = co_await client->raw(get, discoveryPath);
    const QByteArray quoted = '"' + spec.primary.resource.toUtf8() + '"';
    if ((!disco && isNotFound(disco.error())) || (disco && !disco->body.contains(quoted)))
        co_return failure(Outcome::ResourceMissing,
            tr("%1 is not installed in the cluster at %2. %3")
                .arg(spec.primaryDescription, server, spec.installHint)
                .trimmed());
    if (!disco)
        co_return classify(spec, server, disco.error(), tr("get"), discoveryPath);

    QList<GroupVersionResource> listed{spec.primary};
    for (const GroupVersionResource &gvr : std::as_const(spec.cached))
        if (!listed.contains(gvr))
            listed.append(gvr);
    // One namespace, several ("a,b": each is listed), or all ("").
    QStringList scopes = spec.namespaceName.split(u',', Qt::SkipEmptyParts);
    if (scopes.isEmpty())
        scopes.append(QString());
    for (const QString &scope : std::as_const(scopes)) {
        const QString where = scope.isEmpty() ? tr("in all namespaces") : tr("in namespace %1").arg(scope);
        for (const GroupVersionResource &gvr : std::as_const(listed)) {
            ListOptions lo;
            lo.limit = 1;
            const QString ns = scope;
            GroupVersionResource target = gvr;
            auto result = co_await client->list(std::move(target), ns, lo);
            if (!result)
                co_return classify(spec, server, result.error(), tr("list"), resourceName(gvr) + u' ' + where);
        }
    }
    if (!spec.leaseName.isEmpty()) {
        GroupVersionResource leases{
            QStringLiteral("coordination.k8s.io"), QStringLiteral("v1"), QStringLiteral("leases")};
        const QString ns = spec.leaseNamespace;
        const QString name = spec.leaseName;
        auto got = co_await client->get(std::move(leases), ns, name);
        if (!got && !isNotFound(got.error()))
            co_return classify(spec, server, got.error(), tr("get"),
                QStringLiteral("leases.coordination.k8s.io ") + tr("in namespace %1").arg(ns));
    }
    PreflightResult ok;
    ok.serverVersion = QJsonDocument::fromJson(version ? version->body : QByteArray())
                           .object()
                           .value(QStringLiteral("gitVersion"))
                           .toString();
    ok.message = tr("Connected to %1 (Kubernetes %2): every permission the operator needs is there.")
                     .arg(server, ok.serverVersion.isEmpty() ? tr("version unknown") : ok.serverVersion);
    co_return ok;
}

} // namespace opbench
