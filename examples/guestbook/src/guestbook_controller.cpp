// SPDX-License-Identifier: Apache-2.0
#include "guestbook_controller.h"

namespace guestbook {

using namespace opbench;

QCoro::Task<ReconcileOutcome> GuestbookReconciler::reconcile(Request req)
{
    Expected<Guestbook> book = co_await client().get<Guestbook>(req);
    if (!book)
        co_return ignoreNotFound(book.error());
    if (book->isBeingDeleted())
        co_return co_await finalize(req, *book);
    // The finalizer goes on before anything outside the owner tree is written.
    if (book->addFinalizer(kRegistryFinalizer))
        if (auto added = co_await client().update(req.ctx, *book); !added)
            co_return requeueOnConflict(added.error());

    auto cm = co_await client().createOrUpdate(req.ctx, ConfigMap(req.namespaceName, req.name), [&](ConfigMap &c) {
        c.setData({{"title", book->spec.title}, {"entries", book->spec.entries.join('\n')}});
        return setControllerReference(*book, c);
    });
    if (!cm)
        co_return requeueOnConflict(cm.error());
    auto svc = co_await client().createOrUpdate(req.ctx, Service(req.namespaceName, req.name), [&](Service &s) {
        s.setSelector({{"app.kubernetes.io/name", req.name}});
        s.setPorts({ServicePort{.name = "http", .port = book->spec.port, .targetPort = 8080}});
        return setControllerReference(*book, s);
    });
    if (!svc)
        co_return requeueOnConflict(svc.error());
    auto registry = co_await client().createOrUpdate(req.ctx, ConfigMap(req.namespaceName, kRegistryName),
        [&](ConfigMap &r) { r.setValue(req.name, book->spec.title); });
    if (!registry)
        co_return requeueOnConflict(registry.error());

    const GuestbookStatus status{"Ready", int(book->spec.entries.size()), book->generation()};
    if (book->status == status)
        co_return Result{};
    book->status = status;
    if (auto written = co_await client().updateStatus(req.ctx, *book); !written)
        co_return requeueOnConflict(written.error());
    recorder().normal(*book, "Ready", QString("%1 entries served on port %2").arg(status.entries).arg(book->spec.port));
    co_return Result{};
}

QCoro::Task<ReconcileOutcome> GuestbookReconciler::finalize(Request req, Guestbook book)
{
    if (!book.hasFinalizer(kRegistryFinalizer))
        co_return Result{};
    // Unregister: drop our key from the registry (a missing registry or key is already clean).
    Expected<ConfigMap> registry
        = co_await client().get<ConfigMap>(req.ctx, ObjectKey(req.namespaceName, kRegistryName));
    if (!registry && !isNotFound(registry.error()))
        co_return registry.error();
    if (registry && registry->contains(req.name)) {
        ConfigMap without = *registry;
        without.remove(req.name);
        if (auto patched = co_await client().patch(
                req.ctx, without, Patch::mergeFrom(registry->toObject(), without.toObject(), true));
            !patched)
            co_return requeueOnConflict(patched.error());
    }
    book.removeFinalizer(kRegistryFinalizer);
    Expected<void> released = co_await client().update(req.ctx, book);
    co_return released || isNotFound(released.error()) ? ReconcileOutcome(Result{})
                                                       : requeueOnConflict(released.error());
}

Expected<void> setupGuestbookController(Manager *manager)
{
    return ControllerBuilder(manager).forKind<Guestbook>().owns<ConfigMap>().owns<Service>().complete(
        std::make_shared<GuestbookReconciler>());
}

} // namespace guestbook
