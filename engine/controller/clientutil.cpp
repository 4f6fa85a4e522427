// SPDX-License-Identifier: Apache-2.0
#include "engine/controller/clientutil.h"

#include "engine/client/awaitsignal.h"

#include <QJsonArray>
#include <QPointer>
#include <QRandomGenerator>

namespace opbench {

namespace {

const QString AlreadyOwnedReason = QStringLiteral("AlreadyOwned");

Expected<Object> mutated(const MutateFn &mutate, const Object &obj)
{
    Expected<Object> out = mutate(obj);
    if (!out.ok())
        return out;
    if (out->name() != obj.name() || out->namespaceName() != obj.namespaceName())
        return Status::badRequest(
            QStringLiteral("MutateFn cannot mutate object name and/or object namespace (%1)").arg(obj.key()));
    return out;
}

QJsonObject withoutStatus(const Object &o)
{
    QJsonObject j = o.json();
    j.remove(QLatin1String("status"));
    return j;
}

QJsonObject statusOnly(const Object &o)
{
    return QJsonObject{{QStringLiteral("status"), o.json().value(QLatin1String("status"))}};
}

bool sameGroupKindName(const OwnerReference &a, const OwnerReference &b)
{
    return GroupVersion::parse(a.apiVersion).group == GroupVersion::parse(b.apiVersion).group && a.kind == b.kind
        && a.name == b.name;
}

Object withOwnerReference(const Object &object, const OwnerReference &ref)
{
    QJsonObject j = object.json();
    QJsonObject meta = j.value(QLatin1String("metadata")).toObject();
    QJsonArray refs = meta.value(QLatin1String("ownerReferences")).toArray();
    bool replaced = false;
    for (qsizetype i = 0; i < refs.size(); ++i) {
        if (sameGroupKindName(OwnerReference::fromJson(refs.at(i).toObject()), ref)) {
            refs.replace(i, ref.toJson());
            replaced = true;
            break;
        }
    }
    if (!replaced)
        refs.append(ref.toJson());
    meta.insert(QStringLiteral("ownerReferences"), refs);
    j.insert(QStringLiteral("metadata"), meta);
    return Object::fromJson(j);
}

Object withFinalizers(const Object &obj, const QStringList &finalizers)
{
    QJsonObject j = obj.json();
    QJsonObject meta = j.value(QLatin1String("metadata")).toObject();
    if (finalizers.isEmpty())
        meta.remove(QLatin1String("finalizers"));
    else
        meta.insert(QStringLiteral("finalizers"), QJsonArray::fromStringList(finalizers));
    j.insert(QStringLiteral("metadata"), meta);
    return Object::fromJson(j);
}

Status clientGone()
{
    return Status::transport(QString::fromLatin1(StatusReason::Cancelled), QStringLiteral("client destroyed"));
}

} // namespace

QString operationResultName(OperationResult r)
{
    switch (r) {
    case OperationResult::Unchanged:
        return QStringLiteral("unchanged");
    case OperationResult::Created:
        return QStringLiteral("created");
    case OperationResult::Updated:
        return QStringLiteral("updated");
    case OperationResult::UpdatedStatus:
        return QStringLiteral("updatedStatus");
    case OperationResult::UpdatedStatusOnly:
        return QStringLiteral("updatedStatusOnly");
    }
    return {};
}

namespace {

/// The cached object `obj` names (kind, namespace, name).
QCoro::Task<Expected<Object>> getExisting(Client *client, ReconcileContext ctx, Object obj)
{
    Expected<Object> got = co_await client->get(std::move(ctx), obj.gvk(), obj.namespaceName(), obj.name());
    co_return got;
}

/// The shared first half of createOrUpdate / createOrPatch: get; when missing, mutate and
/// create (`done` set); otherwise the cached object and what mutate makes of it.
struct Prepared
{
    std::optional<OperationOutcome> done;
    Object existing;
    Object desired;
};

QCoro::Task<Expected<Prepared>> prepare(Client *client, ReconcileContext ctx, Object obj, MutateFn mutate)
{
    QPointer<Client> c(client);
    Expected<Object> got = co_await getExisting(client, ctx, obj);
    if (!c)
        co_return clientGone();
    if (got.ok()) {
        Expected<Object> desired = mutated(mutate, *got);
        if (!desired.ok())
            co_return Status(desired.error());
        co_return Prepared{std::nullopt, *got, *desired};
    }
    if (!isNotFound(got.error()))
        co_return Status(got.error());
    Expected<Object> desired = mutated(mutate, obj);
    if (!desired.ok())
        co_return Status(desired.error());
    Object toCreate = *desired;
    Expected<Object> created = co_await c->create(std::move(ctx), std::move(toCreate));
    if (!created.ok())
        co_return Status(created.error());
    co_return Prepared{OperationOutcome{OperationResult::Created, *created}, {}, {}};
}

} // namespace

QCoro::Task<Expected<OperationOutcome>> createOrUpdate(
    Client *client, ReconcileContext ctx, Object obj, MutateFn mutate)
{
    Expected<Prepared> prep = co_await prepare(client, ctx, std::move(obj), std::move(mutate));
    if (!prep.ok())
        co_return Status(prep.error());
    if (prep->done)
        co_return *prep->done;
    // Equal documents, not equal bytes: packing keeps the source's key order, so the cached copy
    // (kube-apiserver writes Go field order) and a mutated one (json()/fromJson() sorts keys)
    // differ in bytes while saying the same (controller-runtime: equality.Semantic.DeepEqual).
    if (prep->desired == prep->existing || prep->desired.json() == prep->existing.json())
        co_return OperationOutcome{OperationResult::Unchanged, prep->existing};
    Object toUpdate = prep->desired;
    Expected<Object> updated = co_await client->update(std::move(ctx), std::move(toUpdate));
    if (!updated.ok())
        co_return Status(updated.error());
    co_return OperationOutcome{OperationResult::Updated, *updated};
}

QCoro::Task<Expected<OperationOutcome>> Client::createOrUpdateObject(ReconcileContext ctx, Object obj, MutateFn mutate)
{
    return opbench::createOrUpdate(this, std::move(ctx), std::move(obj), std::move(mutate));
}

QCoro::Task<Expected<OperationOutcome>> createOrPatch(Client *client, ReconcileContext ctx, Object obj, MutateFn mutate)
{
    QPointer<Client> c(client);
    Expected<Prepared> prep = co_await prepare(client, ctx, std::move(obj), std::move(mutate));
    if (!prep.ok())
        co_return Status(prep.error());
    if (prep->done)
        co_return *prep->done;
    const Object existing = prep->existing;
    OperationOutcome out{OperationResult::Unchanged, existing};
    const QJsonObject before = withoutStatus(existing);
    const QJsonObject after = withoutStatus(prep->desired);
    if (before != after) {
        Patch p = Patch::mergeFrom(Object::fromJson(before), Object::fromJson(after));
        Object target = existing;
        Expected<Object> patched = co_await c->patch(ctx, std::move(target), std::move(p));
        if (!c)
            co_return clientGone();
        if (!patched.ok())
            co_return Status(patched.error());
        out = OperationOutcome{OperationResult::Updated, *patched};
    }
    const QJsonObject statusBefore = statusOnly(existing);
    const QJsonObject statusAfter = statusOnly(prep->desired);
    if (statusBefore != statusAfter) {
        Patch p = Patch::mergeFrom(Object::fromJson(statusBefore), Object::fromJson(statusAfter));
        Object target = existing;
        Expected<Object> patched = co_await c->patchStatus(std::move(ctx), std::move(target), std::move(p));
        if (!patched.ok())
            co_return Status(patched.error());
        out.result = out.result == OperationResult::Updated ? OperationResult::UpdatedStatus
                                                            : OperationResult::UpdatedStatusOnly;
        out.object = *patched;
    }
    co_return out;
}

Expected<Object> setControllerReference(const Object &owner, const Object &object, std::optional<bool> ownerNamespaced,
    std::optional<bool> objectNamespaced)
{
    const bool ownerNs = ownerNamespaced.value_or(!owner.namespaceName().isEmpty());
    const bool objectNs = objectNamespaced.value_or(!object.namespaceName().isEmpty());
    if (ownerNs && !objectNs)
        return Status::badRequest(
            QStringLiteral("cluster-scoped resource must not have a namespace-scoped owner, owner's namespace %1")
                .arg(owner.namespaceName()));
    if (ownerNs && owner.namespaceName() != object.namespaceName())
        return Status::badRequest(
            QStringLiteral("cross-namespace owner references are disallowed, owner's namespace %1, obj's namespace %2")
                .arg(owner.namespaceName(), object.namespaceName()));
    const OwnerReference ref{owner.apiVersion(), owner.kind(), owner.name(), owner.uid(), true, true};
    if (const auto existing = object.controllerReference(); existing && !sameGroupKindName(*existing, ref))
        return Status(0, AlreadyOwnedReason,
            QStringLiteral("Object %1 is already owned by another %2 controller %3")
                .arg(object.key(), existing->kind, existing->name));
    return withOwnerReference(object, ref);
}

Expected<void> setControllerReference(const ObjectView &owner, ObjectView &object, std::optional<bool> ownerNamespaced,
    std::optional<bool> objectNamespaced)
{
    const Expected<Object> set
        = setControllerReference(owner.toObject(), object.toObject(), ownerNamespaced, objectNamespaced);
    if (!set)
        return set.error();
    object.meta().setOwnerReferences(set->ownerReferences());
    return {};
}

Expected<Object> setOwnerReference(const Object &owner, const Object &object)
{
    const OwnerReference ref{owner.apiVersion(), owner.kind(), owner.name(), owner.uid(), false, false};
    return withOwnerReference(object, ref);
}

bool isAlreadyOwned(const Status &s) { return s.reason() == AlreadyOwnedReason; }

FinalizerChange addFinalizer(const Object &obj, const QString &finalizer)
{
    if (obj.finalizers().contains(finalizer))
        return {obj, false};
    return {withFinalizers(obj, obj.finalizers() + QStringList{finalizer}), true};
}

FinalizerChange removeFinalizer(const Object &obj, const QString &finalizer)
{
    QStringList f = obj.finalizers();
    if (f.removeAll(finalizer) == 0)
        return {obj, false};
    return {withFinalizers(obj, f), true};
}

bool containsFinalizer(const Object &obj, const QString &finalizer) { return obj.finalizers().contains(finalizer); }

Backoff Backoff::defaultRetry() { return Backoff{std::chrono::milliseconds(10), 1.0, 0.1, 5}; }

Backoff Backoff::defaultBackoff() { return Backoff{std::chrono::milliseconds(10), 5.0, 0.1, 4}; }

Clock::Duration Backoff::waitAfter(int attempt) const
{
    double d = double(duration.count());
    for (int i = 1; i < attempt; ++i)
        d *= factor;
    if (jitter > 0)
        d += d * jitter * QRandomGenerator::global()->generateDouble();
    return Clock::Duration(qint64(d));
}

QCoro::Task<Expected<Object>> retryOnConflict(
    Backoff backoff, std::function<QCoro::Task<Expected<Object>>()> fn, Clock *clock)
{
    Clock *clk = clock ? clock : Clock::system();
    QObject wakeContext; // lives in this frame: the sleep's callback cannot outlive it
    Expected<Object> last = Status();
    for (int attempt = 1; attempt <= std::max(1, backoff.steps); ++attempt) {
        last = co_await fn();
        if (last.ok() || !isConflict(last.error()))
            co_return last;
        if (attempt < backoff.steps)
            co_await detail::ClockSleep(clk, backoff.waitAfter(attempt), &wakeContext);
    }
    co_return last;
}

} // namespace opbench
