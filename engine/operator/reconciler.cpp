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
    : m_client(client)
    , m_recorder(recorder)
{ }

Labels MyApplicationReconciler::labelsFor(const QString &appName)
{
    return {{QStringLiteral("app.kubernetes.io/name"), QStringLiteral("myapplication")},
        {QStringLiteral("app.kubernetes.io/instance"), appName},
        {QStringLiteral("app.kubernetes.io/managed-by"), QStringLiteral("opbench")}};
}

bool MyApplicationReconciler::deploymentInSync(const Object &appObj, const Object &deployment)
{
    if (deployment.isNull())
        return false;
    const MyApplication app(appObj);
    const Deployment d(deployment);
    const Labels ours = labelsFor(app.name());
    const Labels labels = d.labels();
    const Labels templ = d.templateLabels();
    for (auto it = ours.begin(); it != ours.end(); ++it)
        if (labels.value(it.key()) != it.value() || templ.value(it.key()) != it.value())
            return false;
    if (d.replicas() != app.replicas() || d.selector().isEmpty())
        return false;
    bool imageOk = false;
    for (const ContainerImage &c : d.containers())
        imageOk = imageOk || (c.name == QLatin1String("app") && c.image == app.image());
    const OwnerReference want{appObj.apiVersion(), appObj.kind(), appObj.name(), appObj.uid(), true, true};
    const auto ref = deployment.controllerReference();
    return imageOk && ref && *ref == want;
}

Expected<Object> MyApplicationReconciler::mutateDeployment(const Object &appObj, const Object &deployment)
{
    if (deploymentInSync(appObj, deployment))
        return deployment; // the common case: nothing to re-encode
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

// [readme-reconciler] README.md quotes the lines between these markers (tst_readme_snippet)
QCoro::Task<ReconcileOutcome> MyApplicationReconciler::reconcile(Request request)
{
    // Every call goes through the traced Client with locals moved in (g++ 12 mis-destroys
    // temporaries built inside a co_await argument list).
    GroupVersionKind appGvk = kMyApplicationGvk;
    QString ns = request.namespaceName;
    QString name = request.name;
    Expected<Object> got = co_await m_client->get(request.ctx, std::move(appGvk), std::move(ns), std::move(name));
    if (!got)
        co_return isNotFound(got.error()) ? ReconcileOutcome(Result{}) : ReconcileOutcome(got.error());
    const Object appObj = got.value();
    if (appObj.isBeingDeleted())
        co_return Result{};
    // [readme-reconciler]

    Expected<bool> live = co_await ownerIsLive(request.ctx, appObj);
    if (!live)
        co_return live.error();
    if (!*live) {
        Result r;
        r.requeue = true; // the cache lags: try again once it caught up (with backoff)
        co_return r;
    }
    // [readme-reconciler]
    Expected<OperationOutcome> applied = co_await ensureDeployment(request.ctx, appObj);
    if (!applied)
        co_return conflictOr(applied.error());
    recordEvent(appObj, applied->result);

    MyApplication app(appObj);
    const MyApplicationStatus status = desiredStatus(app, applied->object);
    if (app.statusMatches(status))
        co_return Result{};
    app.setStatus(status, m_client->clock()->wallNow());
    Object withStatus = app.toObject();
    Expected<Object> written = co_await m_client->updateStatus(request.ctx, std::move(withStatus));
    if (!written)
        co_return conflictOr(written.error());
    co_return Result{};
}
// [readme-reconciler]

QCoro::Task<Expected<bool>> MyApplicationReconciler::ownerIsLive(ReconcileContext ctx, Object appObj)
{
    GroupVersionKind deploymentGvk = kDeploymentGvk;
    QString ns = appObj.namespaceName();
    QString name = appObj.name();
    Expected<Object> cached = co_await m_client->get(ctx, std::move(deploymentGvk), std::move(ns), std::move(name));
    if (cached.ok() || !isNotFound(cached.error()))
        co_return true; // nothing to create (or an error createOrUpdate reports)
    GroupVersionKind appGvk = kMyApplicationGvk;
    QString liveNs = appObj.namespaceName();
    QString liveName = appObj.name();
    Expected<Object> current
        = co_await m_client->apiReader().get(ctx, std::move(appGvk), std::move(liveNs), std::move(liveName));
    if (!current)
        co_return isNotFound(current.error()) ? Expected<bool>(false) : Expected<bool>(current.error());
    co_return current->uid() == appObj.uid();
}

QCoro::Task<Expected<OperationOutcome>> MyApplicationReconciler::ensureDeployment(ReconcileContext ctx, Object appObj)
{
    Deployment bare;
    bare.meta().setName(appObj.name());
    bare.meta().setNamespace(appObj.namespaceName());
    Object obj = bare.toObject();
    MutateFn mutate = [appObj](const Object &deployment) { return mutateDeployment(appObj, deployment); };
    Expected<OperationOutcome> r = co_await createOrUpdate(m_client, std::move(ctx), std::move(obj), std::move(mutate));
    co_return r;
}

void MyApplicationReconciler::recordEvent(const Object &appObj, OperationResult result) const
{
    if (!m_recorder)
        return;
    if (result == OperationResult::Created)
        m_recorder->event(appObj, QStringLiteral("Normal"), QStringLiteral("Created"),
            QStringLiteral("Created Deployment %1").arg(appObj.name()));
    else if (result == OperationResult::Updated)
        m_recorder->event(appObj, QStringLiteral("Normal"), QStringLiteral("Updated"),
            QStringLiteral("Updated Deployment %1").arg(appObj.name()));
}

} // namespace opbench::myapp
