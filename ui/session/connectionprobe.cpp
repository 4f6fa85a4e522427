// SPDX-License-Identifier: Apache-2.0
#include "ui/session/connectionprobe.h"

#include "ui/session/leadershipstate.h"

#include "engine/api/status.h"
#include "engine/api/yamlcodec.h"
#include "engine/apiserver/apiserver.h"
#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <memory>
#include <optional>

namespace opbench::ui {

namespace {

using Outcome = ProbeResult::Outcome;
constexpr std::chrono::milliseconds ProbeTimeout{5000};

struct Check
{
    const char *verb;
    GroupVersionResource gvr;
    bool namespaced; ///< in the context's namespace (else all namespaces)
};

QString resourceName(const GroupVersionResource &gvr)
{
    return gvr.group.isEmpty() ? gvr.resource : gvr.resource + u'.' + gvr.group;
}

ProbeResult fail(ProbeResult r, Outcome outcome, const QString &message)
{
    r.outcome = outcome;
    r.message = message;
    return r;
}

/// Words for an error of `verb` on `what` (a resource, or a path).
ProbeResult classify(ProbeResult r, const Status &e, const QString &verb, const QString &what)
{
    const QString ctx = r.context.isEmpty() ? QObject::tr("the current context") : QObject::tr("context \"%1\"").arg(r.context);
    if (e.reason() == QLatin1String(StatusReason::TlsError))
        return fail(r, Outcome::Tls, QObject::tr("TLS verification failed: the API server at %1 did not present a certificate "
                                                 "that %2 trusts. Check certificate-authority(-data) and tls-server-name in the "
                                                 "kubeconfig.\n%3").arg(r.server, ctx, e.message()));
    if (isTransportError(e))
        return fail(r, Outcome::Unreachable, QObject::tr("Cannot reach the API server at %1 (%2): is the cluster running and the "
                                                         "address right?\n%3").arg(r.server, ctx, e.message()));
    if (isUnauthorized(e))
        return fail(r, Outcome::Unauthorized, QObject::tr("401 Unauthorized: the API server at %1 rejected the credentials of %2 "
                                                          "while trying to %3 %4. The token or client certificate is wrong or "
                                                          "expired.").arg(r.server, ctx, verb, what));
    if (isForbidden(e))
        return fail(r, Outcome::Forbidden, QObject::tr("403 Forbidden: %1 may not %2 %3. Grant it the ClusterRole in "
                                                       "packaging/manifests/rbac.yaml.\nThe server said: %4")
                                               .arg(ctx, verb, what, e.message()));
    return fail(r, Outcome::Failed, QObject::tr("Unexpected answer while trying to %1 %2 at %3: %4")
                                        .arg(verb, what, r.server, e.toString()));
}

/// list (all namespaces) on what the workbench watches, get on its Lease; the first refusal.
QCoro::Task<std::optional<ProbeResult>> checkPermissions(RestClient *client, ProbeResult r, QString ns)
{
    const Check checks[] = {
        {"list", {QStringLiteral("example.com"), QStringLiteral("v1alpha1"), QStringLiteral("myapplications")}, false},
        {"list", {QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("deployments")}, false},
        {"list", {QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("replicasets")}, false},
        {"list", {QString(), QStringLiteral("v1"), QStringLiteral("pods")}, false},
        {"get", {QStringLiteral("coordination.k8s.io"), QStringLiteral("v1"), QStringLiteral("leases")}, true},
    };
    // Arguments of awaited calls are locals: g++ 12 mis-destroys temporaries around co_await.
    const QString leaseName = defaultLeaseName();
    const QString allNamespaces;
    for (const Check &c : checks) {
        const QString where = c.namespaced ? QObject::tr("in namespace %1").arg(ns) : QObject::tr("in all namespaces");
        Expected<void> ok;
        if (c.namespaced) {
            auto got = co_await client->get(c.gvr, ns, leaseName);
            if (!got && !isNotFound(got.error()))
                ok = got.error();
        } else {
            ListOptions lo;
            lo.limit = 1;
            auto listed = co_await client->list(c.gvr, allNamespaces, lo);
            if (!listed)
                ok = listed.error();
        }
        if (!ok)
            co_return classify(r, ok.error(), QString::fromLatin1(c.verb), resourceName(c.gvr) + u' ' + where);
    }
    co_return std::nullopt;
}

QCoro::Task<ProbeResult> runChecks(RestClient *client, ProbeResult r, QString ns)
{
    const QByteArray get("GET");
    const QString versionPath = QStringLiteral("/version");
    Expected<RawResponse> version = co_await client->raw(get, versionPath);
    if (!version && !isForbidden(version.error()))
        co_return classify(r, version.error(), QObject::tr("get"), QStringLiteral("/version"));
    const GroupVersionResource apps{QStringLiteral("example.com"), QStringLiteral("v1alpha1"), QStringLiteral("myapplications")};
    const QString discoveryPath = apps.basePath();
    Expected<RawResponse> disco = co_await client->raw(get, discoveryPath);
    if ((!disco && isNotFound(disco.error())) || (disco && !disco->body.contains("\"myapplications\"")))
        co_return fail(r, Outcome::CrdMissing,
                       QObject::tr("The MyApplication CRD (myapplications.example.com, v1alpha1) is not installed in the "
                                   "cluster at %1. The workbench can install it from resources/crds/.").arg(r.server));
    if (!disco)
        co_return classify(r, disco.error(), QObject::tr("get"), apps.basePath());
    if (auto denied = co_await checkPermissions(client, r, ns); denied)
        co_return *denied;
    const QString gitVersion = QJsonDocument::fromJson(version ? version->body : QByteArray())
                                   .object().value(QStringLiteral("gitVersion")).toString();
    r.outcome = Outcome::Ok;
    r.message = QObject::tr("Connected to %1 (Kubernetes %2): every permission the workbench needs is there.")
                    .arg(r.server, gitVersion.isEmpty() ? QObject::tr("version unknown") : gitVersion);
    co_return r;
}

Expected<RestConfig> probeConfig(const QString &path, const QString &context)
{
    auto config = loadConfig(path, context);
    if (config)
        config->timeout = ProbeTimeout;
    return config;
}

QCoro::Task<void> runProbe(ConnectionProbe *probe, QString path, QString context)
{
    ProbeResult r;
    r.context = context;
    auto config = probeConfig(path, context);
    if (!config) {
        r = fail(r, Outcome::ConfigError, QObject::tr("The kubeconfig context \"%1\" cannot be used: %2")
                                              .arg(context, config.error().message()));
    } else {
        r.server = config->server.toString();
        const QString ns = config->namespaceName;
        auto client = std::make_unique<RestClient>(std::move(config.value()));
        const ProbeResult checked = co_await runChecks(client.get(), r, ns);
        QMetaObject::invokeMethod(probe, [probe, checked] { Q_EMIT probe->finished(checked); });
        co_return;
    }
    QMetaObject::invokeMethod(probe, [probe, r] { Q_EMIT probe->finished(r); });
}

QCoro::Task<void> runInstall(ConnectionProbe *probe, QString path, QString context)
{
    auto config = probeConfig(path, context);
    QString error;
    if (!config) {
        error = config.error().message();
    } else {
        auto docs = yamlToJson(apiserver::myApplicationCrdYaml());
        auto client = std::make_unique<RestClient>(std::move(config.value()));
        const GroupVersionResource crds{QStringLiteral("apiextensions.k8s.io"), QStringLiteral("v1"),
                                        QStringLiteral("customresourcedefinitions")};
        if (!docs || docs->isEmpty()) {
            error = docs ? QObject::tr("the shipped CRD is empty") : docs.error().message();
        } else {
            const QString clusterScope;
            const Object crd = Object::fromJson(docs->first());
            auto created = co_await client->create(crds, clusterScope, crd);
            if (!created && !isAlreadyExists(created.error()))
                error = created.error().message();
        }
    }
    const bool ok = error.isEmpty();
    const QString message = ok ? QObject::tr("Installed the MyApplication CRD (myapplications.example.com).")
                               : QObject::tr("Installing the MyApplication CRD failed: %1").arg(error);
    QMetaObject::invokeMethod(probe, [probe, ok, message] { Q_EMIT probe->crdInstalled(ok, message); });
}

} // namespace

ConnectionProbe::ConnectionProbe(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<ProbeResult>();
    m_thread.setObjectName(QStringLiteral("opbench-probe"));
    m_worker = new QObject;
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start();
}

ConnectionProbe::~ConnectionProbe()
{
    m_thread.quit();
    m_thread.wait();
}

void ConnectionProbe::probe(const QString &kubeconfigPath, const QString &context)
{
    QMetaObject::invokeMethod(m_worker, [this, kubeconfigPath, context] { runProbe(this, kubeconfigPath, context); });
}

void ConnectionProbe::installCrd(const QString &kubeconfigPath, const QString &context)
{
    QMetaObject::invokeMethod(m_worker, [this, kubeconfigPath, context] { runInstall(this, kubeconfigPath, context); });
}

} // namespace opbench::ui
