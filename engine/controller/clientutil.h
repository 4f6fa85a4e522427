// SPDX-License-Identifier: Apache-2.0
#pragma once
// Client helpers (controller-runtime's controllerutil and client-go's retry package):
// createOrUpdate / createOrPatch, owner references, finalizers, retryOnConflict.

#include "engine/api/expected.h"
#include "engine/api/object.h"
#include "engine/base/clock.h"
#include "engine/controller/client.h"

#include <QObject>

#include <qcoro/qcorotask.h>

#include <functional>

namespace opbench {

/// What createOrUpdate / createOrPatch did.
enum class OperationResult : quint8 {
    Unchanged,         ///< "unchanged": nothing to write
    Created,           ///< "created"
    Updated,           ///< "updated" (createOrPatch: the non-status part was patched)
    UpdatedStatus,     ///< "updatedStatus": createOrPatch patched both the object and its status
    UpdatedStatusOnly, ///< "updatedStatusOnly": createOrPatch patched only the status
};
QString operationResultName(OperationResult r);

struct OperationOutcome
{
    OperationResult result = OperationResult::Unchanged;
    Object object; ///< the object as the server (or the cache, when unchanged) has it now
};

/// Edits the desired state into `obj` (the existing object, or the bare one passed in when it does
/// not exist) and returns the result; an error Status aborts the operation. It must not change
/// the name or namespace.
using MutateFn = std::function<Expected<Object>(const Object &obj)>;

/// Gets `obj` (kind, namespace, name) from the cache; creates mutate(obj) when it is missing,
/// otherwise updates it when mutate changed it (semantic JSON comparison).
QCoro::Task<Expected<OperationOutcome>> createOrUpdate(
    Client *client, ReconcileContext ctx, Object obj, MutateFn mutate);
/// Like createOrUpdate, but writes with merge patches: one for everything but status, one for
/// status through the status subresource. Status is not written on create.
QCoro::Task<Expected<OperationOutcome>> createOrPatch(
    Client *client, ReconcileContext ctx, Object obj, MutateFn mutate);

/// Sets `owner` as the controller of `object` (controller=true, blockOwnerDeletion=true).
/// Rules: a namespaced owner must be in the object's namespace; a cluster-scoped object cannot
/// have a namespaced owner; an existing controller reference to another object (compared by
/// group, kind and name) is an AlreadyOwned error (isAlreadyOwned()); a reference to the same
/// owner is replaced in place. `ownerNamespaced`/`objectNamespaced` default to "has a namespace".
Expected<Object> setControllerReference(const Object &owner, const Object &object,
    std::optional<bool> ownerNamespaced = std::nullopt, std::optional<bool> objectNamespaced = std::nullopt);
/// Adds (or replaces, matched by group, kind and name) a non-controller owner reference.
Expected<Object> setOwnerReference(const Object &owner, const Object &object);
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

} // namespace opbench
