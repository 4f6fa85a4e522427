// SPDX-License-Identifier: Apache-2.0
#include "memcached_controller.h"

namespace memcached {

using namespace opbench;

namespace {

void deploymentFor(const Memcached &cr, Deployment &dep)
{
    const Labels labels{
        {"app.kubernetes.io/name", "memcached-operator"}, {"app.kubernetes.io/managed-by", "MemcachedController"}};
    dep.setReplicas(cr.spec.size);
    dep.setSelector(labels);
    dep.setTemplate(PodTemplate{.labels = labels,
        .containers = {Container{.name = "memcached",
            .image = qEnvironmentVariable("MEMCACHED_IMAGE", "memcached:1.6.26-alpine3.19"),
            .command = {"memcached", "--memory-limit=64", "-o", "modern", "-v"},
            .ports = {ContainerPort{.name = "memcached", .containerPort = cr.spec.containerPort}},
            .securityContext = SecurityContext{.runAsNonRoot = true,
                .runAsUser = 1001,
                .allowPrivilegeEscalation = false,
                .capabilities = Capabilities{.drop = {"ALL"}}},
            .imagePullPolicy = "IfNotPresent"}},
        .securityContext
        = PodSecurityContext{.runAsNonRoot = true, .seccompProfile = SeccompProfile{"RuntimeDefault"}}});
}

} // namespace

QCoro::Task<ReconcileOutcome> MemcachedReconciler::reconcile(Request req)
{
    Expected<Memcached> cr = co_await client().get<Memcached>(req);
    if (!cr)
        co_return ignoreNotFound(cr.error());
    if (cr->status.conditions.isEmpty())
        if (auto failed = co_await report(req, *cr, "Available", "Unknown", "Reconciling", "Starting reconciliation"))
            co_return *failed;
    if (cr->addFinalizer(kFinalizer))
        if (auto added = co_await client().update(req.ctx, *cr); !added)
            co_return requeueOnConflict(added.error());
    if (cr->isBeingDeleted())
        co_return co_await finalize(req, *cr);

    auto dep = co_await client().createOrUpdate(req.ctx, Deployment(req.namespaceName, req.name), [&](Deployment &d) {
        deploymentFor(*cr, d);
        return setControllerReference(*cr, d);
    });
    if (!dep) {
        const QString why = QString("Failed to create Deployment for the custom resource (%1): (%2)")
                                .arg(req.name, dep.error().message());
        if (auto failed = co_await report(req, *cr, "Available", "False", "Reconciling", why))
            co_return *failed;
        co_return requeueOnConflict(dep.error());
    }
    const QString ok = QString("Deployment for custom resource (%1) with %2 replicas created successfully")
                           .arg(req.name)
                           .arg(cr->spec.size);
    if (auto failed = co_await report(req, *cr, "Available", "True", "Reconciling", ok))
        co_return *failed;
    co_return Result{};
}

QCoro::Task<ReconcileOutcome> MemcachedReconciler::finalize(Request req, Memcached cr)
{
    if (!cr.hasFinalizer(kFinalizer))
        co_return Result{};
    const QString name = req.name;
    if (auto failed = co_await report(req, cr, "Degraded", "Unknown", "Finalizing",
            QString("Performing finalizer operations for the custom resource: %1 ").arg(name)))
        co_return *failed;
    recorder().warning(cr, "Deleting",
        QString("Custom Resource %1 is being deleted from the namespace %2").arg(name, req.namespaceName));
    if (auto failed = co_await report(req, cr, "Degraded", "True", "Finalizing",
            QString("Finalizer operations for custom resource %1 name were successfully accomplished").arg(name)))
        co_return *failed;
    cr.removeFinalizer(kFinalizer);
    Expected<void> released = co_await client().update(req.ctx, cr);
    co_return released || isNotFound(released.error()) ? ReconcileOutcome(Result{})
                                                       : requeueOnConflict(released.error());
}

QCoro::Task<std::optional<Status>> MemcachedReconciler::report(
    Request req, Memcached &cr, QString type, QString status, QString reason, QString message)
{
    Condition c;
    c.type = type;
    c.status = status;
    c.reason = reason;
    c.message = message;
    if (!setStatusCondition(cr.status.conditions, c))
        co_return std::nullopt;
    Expected<void> written = co_await client().updateStatus(req.ctx, cr);
    co_return written ? std::nullopt : std::optional<Status>(written.error());
}

Expected<void> setupMemcachedController(Manager *manager)
{
    return ControllerBuilder(manager).forKind<Memcached>().owns<Deployment>().complete(
        std::make_shared<MemcachedReconciler>());
}

OperatorDefinition definition()
{
    OperatorDefinition def("memcached");
    addKind<Memcached>(def);
    def.setup = setupMemcachedController;
    def.samples = loadObjects(":/memcached/samples").value();
    return def;
}

} // namespace memcached
