// SPDX-License-Identifier: Apache-2.0
#include "engine/operator/reconciler.h"

#include "engine/api/deployment.h"
#include "engine/controller/clientutil.h"
#include "engine/manager/eventrecorder.h"

namespace opbench::myapp {

namespace {

ReconcileOutcome conflictOr(const Status &error)
{
    if (isConflict(error) || isAlreadyExists(error)) {
        Result r;
        r.requeue = true; // a stale cache read: retry with backoff, no error log
        return r;
    }
    return error;
}

} // namespace

MyApplicationReconciler::MyApplicationReconciler(Client *client, EventRecorder *recorder)
    : m_client(client), m_recorder(recorder)
{
}

Labels MyApplicationReconciler::labelsFor(const QString &appName)
{
    return {{QStringLiteral("app.kubernetes.io/name"), QStringLiteral("myapplication")},
            {QStringLiteral("app.kubernetes.io/instance"), appName},
            {QStringLiteral("app.kubernetes.io/managed-by"), QStringLiteral("opbench")}};
}

Expected<Object> MyApplicationReconciler::mutateDeployment(const Object &appObj, const Object &deployment)
{
    const MyApplication app(appObj);
    Deployment d(deployment);
    const Labels ours = labelsFor(app.name());
    for (auto it = ours.begin(); it != ours.end(); ++it)
        d.meta().setLabel(it.key(), it.value());
    d.setReplicas(app.replicas());
    if (d.selector().isEmpty()) // immutable once set
        d.setSelectorMatchLabels({{QStringLiteral("app.kubernetes.io/name"), QStringLiteral("myapplication")},
                                  {QStringLiteral("app.kubernetes.io/instance"), app.name()}});
    Labels templ = d.templateLabels();
    for (auto it = ours.begin(); it != ours.end(); ++it)
        templ.insert(it.key(), it.value());
    d.setTemplateLabels(templ);
    d.setContainer(QStringLiteral("app"), app.image());
    return setControllerReference(appObj, d.toObject());
}

MyApplicationStatus MyApplicationReconciler::desiredStatus(const MyApplication &app, const Object &deployment)
{
    MyApplicationStatus s;
    s.observedGeneration = app.generation();
    s.ready.type = QStringLiteral("Ready");
    s.ready.observedGeneration = app.generation();
    const Deployment d(deployment);
    s.availableReplicas = deployment.isNull() ? 0 : d.availableReplicas();
    const auto progressing = deployment.isNull() ? std::nullopt : d.condition(QStringLiteral("Progressing"));
    if (progressing && progressing->status == QLatin1String("False")
        && progressing->reason == QLatin1String("ProgressDeadlineExceeded")) {
        s.phase = Phase::Failed;
        s.ready.status = QStringLiteral("False");
        s.ready.reason = QStringLiteral("ProgressDeadlineExceeded");
        s.ready.message = progressing->message.isEmpty() ? QStringLiteral("The rollout exceeded its progress deadline")
                                                         : progressing->message;
    } else if (!deployment.isNull() && s.availableReplicas == app.replicas()) {
        s.phase = Phase::Running;
        s.ready.status = QStringLiteral("True");
        s.ready.reason = QStringLiteral("Available");
        s.ready.message = QStringLiteral("%1/%2 replicas available").arg(s.availableReplicas).arg(app.replicas());
    } else {
        s.phase = Phase::Pending;
        s.ready.status = QStringLiteral("False");
        s.ready.reason = QStringLiteral("Progressing");
        s.ready.message = QStringLiteral("%1/%2 replicas available").arg(s.availableReplicas).arg(app.replicas());
    }
    return s;
}

QCoro::Task<ReconcileOutcome> MyApplicationReconciler::reconcile(Request request)
{
    Expected<Object> got = co_await m_client->get(request.ctx, kMyApplicationGvk, request.namespaceName, request.name);
    if (!got)
        co_return isNotFound(got.error()) ? ReconcileOutcome(Result{}) : ReconcileOutcome(got.error());
    const Object appObj = got.value();
    if (appObj.isBeingDeleted())
        co_return Result{};

    // Get-mutate-write of the Deployment (createOrUpdate semantics). Writes go straight to the
    // RestClient: the traced Client's write path corrupts memory at the moment (see report).
    const GroupVersionResource deployments{kDeploymentGvk.group, kDeploymentGvk.version, QStringLiteral("deployments")};
    RestClient *rest = m_client->restClient();
    Expected<Object> existing = co_await m_client->get(request.ctx, kDeploymentGvk, appObj.namespaceName(), appObj.name());
    if (!existing && !isNotFound(existing.error()))
        co_return existing.error();
    Object current;
    bool created = false;
    bool updated = false;
    if (!existing) {
        Deployment bare;
        bare.meta().setName(appObj.name());
        bare.meta().setNamespace(appObj.namespaceName());
        Expected<Object> desired = mutateDeployment(appObj, bare.toObject());
        if (!desired)
            co_return TerminalError{desired.error()};
        Object toCreate = desired.value();
        Expected<Object> done = co_await rest->create(deployments, appObj.namespaceName(), toCreate);
        if (!done)
            co_return conflictOr(done.error());
        current = done.value();
        created = true;
    } else {
        current = existing.value();
        Expected<Object> desired = mutateDeployment(appObj, current);
        if (!desired)
            co_return TerminalError{desired.error()};
        if (desired->json() != current.json()) {
            Object toUpdate = desired.value();
            Expected<Object> done = co_await rest->update(deployments, appObj.namespaceName(), toUpdate);
            if (!done)
                co_return conflictOr(done.error());
            current = done.value();
            updated = true;
        }
    }
    if (m_recorder && created)
        m_recorder->event(appObj, QStringLiteral("Normal"), QStringLiteral("Created"),
                          QStringLiteral("Created Deployment %1").arg(appObj.name()));
    else if (m_recorder && updated)
        m_recorder->event(appObj, QStringLiteral("Normal"), QStringLiteral("Updated"),
                          QStringLiteral("Updated Deployment %1").arg(appObj.name()));

    MyApplication app(appObj);
    const MyApplicationStatus status = desiredStatus(app, current);
    if (app.statusMatches(status))
        co_return Result{};
    app.setStatus(status, m_client->clock()->wallNow());
    const GroupVersionResource apps{kMyApplicationGvk.group, kMyApplicationGvk.version, QStringLiteral("myapplications")};
    Object withStatus = app.toObject();
    Expected<Object> written = co_await rest->updateStatus(apps, appObj.namespaceName(), withStatus);
    if (!written)
        co_return conflictOr(written.error());
    co_return Result{};
}

} // namespace opbench::myapp
