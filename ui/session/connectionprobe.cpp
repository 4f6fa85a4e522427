// SPDX-License-Identifier: Apache-2.0
#include "ui/session/connectionprobe.h"

#include "engine/api/restmapper.h"
#include "engine/api/status.h"
#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"
#include "engine/sdk/preflight.h"
#include "ui/session/hostedoperator.h"

namespace opbench::ui {

namespace {

using Outcome = ProbeResult::Outcome;
constexpr std::chrono::milliseconds ProbeTimeout{5000};

ProbeResult fail(ProbeResult r, Outcome outcome, const QString &message)
{
    r.outcome = outcome;
    r.message = message;
    return r;
}

Outcome outcomeOf(PreflightResult::Outcome o)
{
    using P = PreflightResult::Outcome;
    switch (o) {
    case P::Ok:
        return Outcome::Ok;
    case P::Unreachable:
        return Outcome::Unreachable;
    case P::Tls:
        return Outcome::Tls;
    case P::Unauthorized:
        return Outcome::Unauthorized;
    case P::Forbidden:
        return Outcome::Forbidden;
    case P::ResourceMissing:
        return Outcome::CrdMissing;
    case P::Failed:
        break;
    }
    return Outcome::Failed;
}

/// The hosted operator's preflight (its For kind served, list on every kind it reads in all
/// namespaces, get on its Lease in the context's namespace), in the dialog's words.
QCoro::Task<ProbeResult> runChecks(RestClient *client, ProbeResult r, QString ns)
{
    const OperatorDefinition &def = hostedOperator();
    RestMapper mapper = RestMapper::withBuiltins();
    (void)registerCrds(mapper, def.crds);
    auto spec = preflightSpecFor(def, mapper, QString(), ns);
    if (!spec)
        co_return fail(r, Outcome::Failed, spec.error().message());
    spec->installHint = QObject::tr("The workbench can install it (Install CRD).");
    spec->rbacHint = QObject::tr("Grant it the ClusterRole in packaging/manifests/rbac.yaml.");
    spec->who = r.context.isEmpty() ? QObject::tr("the current context") : QObject::tr("context \"%1\"").arg(r.context);
    const PreflightResult checked = co_await preflight(client, std::move(spec.value()));
    co_return fail(r, outcomeOf(checked.outcome), checked.message);
}

Expected<RestConfig> probeConfig(const QString &path, const QString &context)
{
    auto config = loadConfig(path, context);
    if (config)
        config->timeout = ProbeTimeout;
    return config;
}

// The probe's clients are children of the worker: a probe still waiting when the dialog goes
// (an unanswered server, say) is finished by the client's deletion with the worker (its calls
// return Cancelled), instead of staying suspended with its frame and client after the thread ends.
// Each run hands its client back with deleteLater(), which is a no-op while the client is
// being deleted.
QCoro::Task<void> runProbe(ConnectionProbe *probe, QObject *worker, QString path, QString context)
{
    ProbeResult r;
    r.context = context;
    auto config = probeConfig(path, context);
    if (!config) {
        r = fail(r, Outcome::ConfigError,
            QObject::tr("The kubeconfig context \"%1\" cannot be used: %2").arg(context, config.error().message()));
    } else {
        r.server = config->server.toString();
        const QString ns = config->namespaceName;
        auto *client = new RestClient(std::move(config.value()), worker);
        const ProbeResult checked = co_await runChecks(client, r, ns);
        client->deleteLater();
        QMetaObject::invokeMethod(probe, [probe, checked] { Q_EMIT probe->finished(checked); });
        co_return;
    }
    QMetaObject::invokeMethod(probe, [probe, r] { Q_EMIT probe->finished(r); });
}

QCoro::Task<void> runInstall(ConnectionProbe *probe, QObject *worker, QString path, QString context)
{
    auto config = probeConfig(path, context);
    QString error;
    if (!config) {
        error = config.error().message();
    } else {
        auto *client = new RestClient(std::move(config.value()), worker);
        const Expected<void> installed = co_await installCrds(client, hostedOperator().crds);
        client->deleteLater();
        if (!installed)
            error = installed.error().message();
    }
    const bool ok = error.isEmpty();
    const QString message = ok
        ? QObject::tr("Installed the CRDs of operator %1.").arg(hostedOperator().name)
        : QObject::tr("Installing the CRDs of operator %1 failed: %2").arg(hostedOperator().name, error);
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
    QMetaObject::invokeMethod(
        m_worker, [this, kubeconfigPath, context] { runProbe(this, m_worker, kubeconfigPath, context); });
}

void ConnectionProbe::installCrd(const QString &kubeconfigPath, const QString &context)
{
    QMetaObject::invokeMethod(
        m_worker, [this, kubeconfigPath, context] { runInstall(this, m_worker, kubeconfigPath, context); });
}

} // namespace opbench::ui
