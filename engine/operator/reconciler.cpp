// SPDX-License-Identifier: Apache-2.0
#include "engine/operator/reconciler.h"

#include "engine/controller/clientutil.h"

#include <algorithm>

namespace opbench::myapp {

// [readme-reconciler] README.md quotes the lines between these markers (tst_readme_snippet)
QCoro::Task<ReconcileOutcome> MyApplicationReconciler::reconcile(Request req)
{
    Expected<MyApplication> app = co_await client().get<MyApplication>(req);
    if (!app)
        co_return ignoreNotFound(app.error());
    if (app->isBeingDeleted()) // its Deployment is garbage collected (owner reference)
        co_return Result{};
    // No Deployment cached: a live read checks that the cached app is not stale.
    if (auto stale = co_await staleApp(req, *app))
        co_return *stale;

    auto deployment = co_await client().createOrUpdate(
        req.ctx, Deployment(req.namespaceName, req.name), [&](Deployment &d) { return desiredDeployment(*app, d); });
    if (!deployment)
        co_return requeueOnConflict(deployment.error());
    recordEvent(*app, deployment->result);

    const Condition ready = readyCondition(*app, deployment->object);
    const bool readyChanged = app->setStatusCondition(ready, client().clock());
    if (!app->setStatus(deployment->object.availableReplicas(), phaseOf(ready)) && !readyChanged)
        co_return Result{}; // the status already says so: no write
    Expected<void> written = co_await client().updateStatus(req.ctx, *app);
    co_return written ? ReconcileOutcome(Result{}) : requeueOnConflict(written.error());
}
// [readme-reconciler]

Labels MyApplicationReconciler::labelsFor(const QString &appName)
{
    return {{QStringLiteral("app.kubernetes.io/name"), QStringLiteral("myapplication")},
        {QStringLiteral("app.kubernetes.io/instance"), appName},
        {QStringLiteral("app.kubernetes.io/managed-by"), QStringLiteral("opbench")}};
}

bool MyApplicationReconciler::deploymentInSync(const MyApplication &app, const Deployment &d)
{
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
    const OwnerReference want{app.kindInfo().apiVersion(), app.kindInfo().gvk.kind, app.name(), app.uid(), true, true};
    const QList<OwnerReference> refs = d.ownerReferences();
    const auto ref = std::find_if(refs.begin(), refs.end(), [](const OwnerReference &r) { return r.controller; });
    return imageOk && ref != refs.end() && *ref == want;
}

Expected<void> MyApplicationReconciler::desiredDeployment(const MyApplication &app, Deployment &d)
{
    if (deploymentInSync(app, d))
        return {}; // the common case: nothing to edit
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
    return setControllerReference(app, d);
}

Condition MyApplicationReconciler::readyCondition(const MyApplication &app, const Deployment &d)
{
    Condition ready;
    ready.type = QStringLiteral("Ready");
    ready.observedGeneration = app.generation();
    const auto progressing = d.condition(QStringLiteral("Progressing"));
    const QString available = QStringLiteral("%1/%2 replicas available").arg(d.availableReplicas()).arg(app.replicas());
    if (progressing && progressing->status == QLatin1String("False")
        && progressing->reason == QLatin1String("ProgressDeadlineExceeded")) {
        ready.status = QStringLiteral("False");
        ready.reason = QStringLiteral("ProgressDeadlineExceeded");
        ready.message = progressing->message.isEmpty() ? QStringLiteral("The rollout exceeded its progress deadline")
                                                       : progressing->message;
    } else if (d.availableReplicas() == app.replicas()) {
        ready.status = QStringLiteral("True");
        ready.reason = QStringLiteral("Available");
        ready.message = available;
    } else {
        ready.status = QStringLiteral("False");
        ready.reason = QStringLiteral("Progressing");
        ready.message = available;
    }
    return ready;
}

QString MyApplicationReconciler::phaseOf(const Condition &ready)
{
    if (ready.isTrue())
        return Phase::Running;
    return ready.reason == QLatin1String("ProgressDeadlineExceeded") ? Phase::Failed : Phase::Pending;
}

QCoro::Task<std::optional<ReconcileOutcome>> MyApplicationReconciler::staleApp(Request req, const MyApplication &app)
{
    // Untyped: only whether it exists matters, so the cached object is not decoded into a view.
    Expected<Object> cached = co_await client().get(req.ctx, gvkOf<Deployment>(), req.namespaceName, req.name);
    if (cached.ok() || !isNotFound(cached.error()))
        co_return std::nullopt; // nothing to create (or an error createOrUpdate reports)
    Expected<Object> live
        = co_await client().apiReader().get(req.ctx, gvkOf<MyApplication>(), req.namespaceName, req.name);
    if (!live && !isNotFound(live.error()))
        co_return ReconcileOutcome(live.error());
    if (live && live->uid() == app.uid())
        co_return std::nullopt;
    Result r;
    r.requeue = true; // the cache lags: try again once it caught up (with backoff)
    co_return ReconcileOutcome(r);
}

void MyApplicationReconciler::recordEvent(const MyApplication &app, OperationResult result) const
{
    if (result == OperationResult::Created)
        recorder().normal(app, QStringLiteral("Created"), QStringLiteral("Created Deployment %1").arg(app.name()));
    else if (result == OperationResult::Updated)
        recorder().normal(app, QStringLiteral("Updated"), QStringLiteral("Updated Deployment %1").arg(app.name()));
}

} // namespace opbench::myapp
