// SPDX-License-Identifier: Apache-2.0
#pragma once
// Client helpers (controller-runtime's controllerutil and client-go's retry package):
// createOrUpdate / createOrPatch, owner references, finalizers, retryOnConflict.

#include "engine/api/expected.h"
#include "engine/api/object.h"
#include "engine/api/objectview.h"
#include "engine/base/clock.h"
#include "engine/controller/client.h"
#include "engine/controller/operationresult.h"

#include <QObject>

#include <qcoro/qcorotask.h>

#include <functional>

namespace opbench {

/// Gets `obj` (kind, namespace, name) from the cache; creates mutate(obj) when it is missing,
/// otherwise updates it when mutate changed it (semantic JSON comparison).
QCoro::Task<Expected<OperationOutcome>> createOrUpdate(
    Client *client, ReconcileContext ctx, Object obj, MutateFn mutate);
/// Like createOrUpdate, but writes with merge patches: one for everything but status, one for
/// status through the status subresource. Status is not written on create.
QCoro::Task<Expected<OperationOutcome>> createOrPatch(
    Client *client, ReconcileContext ctx, Object obj, MutateFn mutate);
/// A lambda given straight to createOrUpdate / createOrPatch (not a MutateFn): it must capture by
/// reference, since the call is awaited.
template<class F>
requires(!std::same_as<std::decay_t<F>, MutateFn>)
    && std::is_invocable_r_v<Expected<Object>, F &,
        const Object &> QCoro::Task<Expected<OperationOutcome>> createOrUpdate(Client *client, ReconcileContext ctx,
        Object obj, F mutate)
{
    static_assert(std::is_trivially_destructible_v<F>, "createOrUpdate: " OPBENCH_CAPTURE_BY_REFERENCE);
    return createOrUpdate(client, std::move(ctx), std::move(obj), MutateFn(mutate));
}
template<class F>
requires(!std::same_as<std::decay_t<F>, MutateFn>)
    && std::is_invocable_r_v<Expected<Object>, F &,
        const Object &> QCoro::Task<Expected<OperationOutcome>> createOrPatch(Client *client, ReconcileContext ctx,
        Object obj, F mutate)
{
    static_assert(std::is_trivially_destructible_v<F>, "createOrPatch: " OPBENCH_CAPTURE_BY_REFERENCE);
    return createOrPatch(client, std::move(ctx), std::move(obj), MutateFn(mutate));
}

/// Sets `owner` as the controller of `object` (controller=true, blockOwnerDeletion=true).
/// Rules: a namespaced owner must be in the object's namespace; a cluster-scoped object cannot
/// have a namespaced owner; an existing controller reference to another object (compared by
/// group, kind and name) is an AlreadyOwned error (isAlreadyOwned()); a reference to the same
/// owner is replaced in place. `ownerNamespaced`/`objectNamespaced` default to "has a namespace".
Expected<Object> setControllerReference(const Object &owner, const Object &object,
    std::optional<bool> ownerNamespaced = std::nullopt, std::optional<bool> objectNamespaced = std::nullopt);
/// Adds (or replaces, matched by group, kind and name) a non-controller owner reference.
Expected<Object> setOwnerReference(const Object &owner, const Object &object);
/// setControllerReference on views, in place: `object` gets the reference (mutate functions
/// `return setControllerReference(*book, c);`). Scopes are read from the views' kinds when both
/// are Kinds, else from "has a namespace".
Expected<void> setControllerReference(const ObjectView &owner, ObjectView &object,
    std::optional<bool> ownerNamespaced = std::nullopt, std::optional<bool> objectNamespaced = std::nullopt);
template<Kind O, Kind C>
requires std::derived_from<C, ObjectView> Expected<void> setControllerReference(const O &owner, C &object)
{
    const Expected<Object> set = setControllerReference(
        owner.toObject(), object.toObject(), O::kindInfo().namespaced, C::kindInfo().namespaced);
    if (!set)
        return set.error();
    object.meta().setOwnerReferences(set->ownerReferences());
    return {};
}
/// True for the error setControllerReference returns when another controller owns the object.
bool isAlreadyOwned(const Status &s);

struct FinalizerChange
{
    Object object;
    bool changed = false;
};
/// Adds `finalizer` when missing (in memory: the caller writes the object).
FinalizerChange addFinalizer(const Object &obj, const QString &finalizer);
/// Removes every occurrence of `finalizer` (in memory).
FinalizerChange removeFinalizer(const Object &obj, const QString &finalizer);
bool containsFinalizer(const Object &obj, const QString &finalizer);

/// client-go's wait.Backoff.
struct Backoff
{
    Clock::Duration duration{std::chrono::milliseconds(10)};
    double factor = 1.0;
    double jitter = 0.0; ///< each wait gets up to jitter × duration added
    int steps = 5;       ///< attempts in total

    /// retry.DefaultRetry: 5 tries 10 ms apart (jitter 0.1).
    static Backoff defaultRetry();
    /// retry.DefaultBackoff: 4 tries from 10 ms, ×5 (jitter 0.1).
    static Backoff defaultBackoff();
    /// The wait before attempt `n + 1` (n ≥ 1), jitter included.
    [[nodiscard]] Clock::Duration waitAfter(int attempt) const;
};

/// Runs `fn` until it returns something other than a 409 Conflict, at most backoff.steps times,
/// waiting on `clock` between tries. Returns the last result. `fn` is kept alive (by this frame)
/// while each of its tasks runs, so a lambda's captures stay valid.
QCoro::Task<Expected<Object>> retryOnConflict(
    Backoff backoff, std::function<QCoro::Task<Expected<Object>>()> fn, Clock *clock = nullptr);
/// A callable given straight to retryOnConflict (not a std::function): it must capture by
/// reference, since the call is awaited.
template<class F>
requires(!std::same_as<std::decay_t<F>, std::function<QCoro::Task<Expected<Object>>()>>)
    && std::is_invocable_r_v<QCoro::Task<Expected<Object>>, F &> QCoro::Task<Expected<Object>> retryOnConflict(
        Backoff backoff, F fn, Clock *clock = nullptr)
{
    static_assert(std::is_trivially_destructible_v<F>, "retryOnConflict: " OPBENCH_CAPTURE_BY_REFERENCE);
    return retryOnConflict(backoff, std::function<QCoro::Task<Expected<Object>>()>(fn), clock);
}

} // namespace opbench
