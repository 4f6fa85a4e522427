// SPDX-License-Identifier: Apache-2.0
#include "guestbook_controller.h"

#include "guestbook.h"

#include <engine/api/configmap.h>

#include <QJsonArray>
#include <QJsonObject>

namespace guestbook {

using namespace opbench;

namespace {

const GroupVersionKind kConfigMapGvk{QString(), QStringLiteral("v1"), QStringLiteral("ConfigMap")};
const GroupVersionKind kServiceGvk{QString(), QStringLiteral("v1"), QStringLiteral("Service")};

ReconcileOutcome conflictOr(const Status &error)
{
    if (isConflict(error) || isAlreadyExists(error)) {
        Result r;
        r.requeue = true; // a stale cached read: retry with backoff
        return r;
    }
    return error;
}

Object named(const QString &apiVersion, const QString &kind, const Object &owner, const QString &name)
{
    QJsonObject json{{QStringLiteral("apiVersion"), apiVersion}, {QStringLiteral("kind"), kind},
        {QStringLiteral("metadata"),
            QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), owner.namespaceName()}}}};
    return Object::fromJson(json);
}

Expected<Object> mutateConfigMap(const Object &book, const Object &current)
{
    const Guestbook g(book);
    ConfigMap cm(current);
    cm.setData({{QStringLiteral("title"), g.title()}, {QStringLiteral("entries"), g.entries().join(u'\n')}});
    return setControllerReference(book, cm.toObject());
}

Expected<Object> mutateService(const Object &book, const Object &current)
{
    // Only the fields we own; the server's (clusterIP, type, …) stay as they are. Every port
    // field is spelled out so that the defaulted object compares equal and nothing is rewritten.
    QJsonObject json = current.json();
    QJsonObject spec = json.value(QLatin1String("spec")).toObject();
    spec.insert(QStringLiteral("selector"), QJsonObject{{QStringLiteral("app.kubernetes.io/name"), book.name()}});
    spec.insert(QStringLiteral("ports"),
        QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("http")},
            {QStringLiteral("port"), Guestbook(book).port()}, {QStringLiteral("protocol"), QStringLiteral("TCP")},
            {QStringLiteral("targetPort"), 8080}}});
    json.insert(QStringLiteral("spec"), spec);
    return setControllerReference(book, Object::fromJson(json));
}

} // namespace

QCoro::Task<ReconcileOutcome> GuestbookReconciler::reconcile(Request request)
{
    // Awaited calls get locals moved in (g++ 12 mis-destroys temporaries in co_await arguments).
    GroupVersionKind gvk = kGuestbookGvk;
    QString ns = request.namespaceName;
    QString name = request.name;
    Expected<Object> got = co_await m_client->get(request.ctx, std::move(gvk), std::move(ns), std::move(name));
    if (!got)
        co_return isNotFound(got.error()) ? ReconcileOutcome(Result{}) : ReconcileOutcome(got.error());
    Object book = got.value();
    if (book.isBeingDeleted()) {
        ReconcileOutcome done = co_await finalize(request.ctx, book);
        co_return done;
    }

    // The finalizer goes on before anything outside the owner tree is written.
    if (FinalizerChange f = addFinalizer(book, registryFinalizer()); f.changed) {
        Object withFinalizer = f.object;
        Expected<Object> updated = co_await m_client->update(request.ctx, std::move(withFinalizer));
        if (!updated)
            co_return conflictOr(updated.error());
        book = updated.value();
    }

    Object cm = named(QStringLiteral("v1"), QStringLiteral("ConfigMap"), book, book.name());
    MutateFn cmMutate = [book](const Object &current) { return mutateConfigMap(book, current); };
    Expected<OperationOutcome> cmDone
        = co_await createOrUpdate(m_client, request.ctx, std::move(cm), std::move(cmMutate));
    if (!cmDone)
        co_return conflictOr(cmDone.error());

    Object svc = named(QStringLiteral("v1"), QStringLiteral("Service"), book, book.name());
    MutateFn svcMutate = [book](const Object &current) { return mutateService(book, current); };
    Expected<OperationOutcome> svcDone
        = co_await createOrUpdate(m_client, request.ctx, std::move(svc), std::move(svcMutate));
    if (!svcDone)
        co_return conflictOr(svcDone.error());

    Object registry = named(QStringLiteral("v1"), QStringLiteral("ConfigMap"), book, registryName());
    MutateFn regMutate = [book](const Object &current) -> Expected<Object> {
        ConfigMap r(current);
        r.setValue(book.name(), Guestbook(book).title());
        return r.toObject();
    };
    Expected<OperationOutcome> regDone
        = co_await createOrUpdate(m_client, request.ctx, std::move(registry), std::move(regMutate));
    if (!regDone)
        co_return conflictOr(regDone.error());

    Guestbook view(book);
    const int entries = int(view.entries().size());
    if (view.phase() == u"Ready" && view.statusEntries() == entries && view.observedGeneration() == view.generation())
        co_return Result{};
    view.setStatus(QStringLiteral("Ready"), entries, view.generation());
    Object withStatus = view.toObject();
    Expected<Object> written = co_await m_client->updateStatus(request.ctx, std::move(withStatus));
    if (!written)
        co_return conflictOr(written.error());
    co_return Result{};
}

QCoro::Task<ReconcileOutcome> GuestbookReconciler::finalize(ReconcileContext ctx, Object book)
{
    if (!containsFinalizer(book, registryFinalizer()))
        co_return Result{};
    // Unregister: drop our key from the registry (a missing registry or key is already clean).
    GroupVersionKind cmGvk = kConfigMapGvk;
    QString ns = book.namespaceName();
    QString reg = registryName();
    Expected<Object> registry = co_await m_client->get(ctx, std::move(cmGvk), std::move(ns), std::move(reg));
    if (!registry && !isNotFound(registry.error()))
        co_return registry.error();
    if (registry && ConfigMap(registry.value()).contains(book.name())) {
        ConfigMap without(registry.value());
        without.remove(book.name());
        Object original = registry.value();
        Patch patch = Patch::mergeFrom(original, without.toObject(), true);
        Expected<Object> patched = co_await m_client->patch(ctx, std::move(original), std::move(patch));
        if (!patched)
            co_return conflictOr(patched.error());
    }
    FinalizerChange f = removeFinalizer(book, registryFinalizer());
    Object released = f.object;
    Expected<Object> updated = co_await m_client->update(ctx, std::move(released));
    if (!updated && !isNotFound(updated.error()))
        co_return conflictOr(updated.error());
    co_return Result{};
}

Expected<Controller *> setupGuestbookController(Manager *manager)
{
    auto reconciler = std::make_shared<GuestbookReconciler>(manager->client());
    Expected<Controller *> built = ControllerBuilder(manager->cache())
                                       .named(QStringLiteral("guestbook"))
                                       .forKind(kGuestbookGvk)
                                       .owns(kConfigMapGvk)
                                       .owns(kServiceGvk)
                                       .build(reconciler, manager);
    if (built)
        manager->add(built.value());
    return built;
}

} // namespace guestbook
