// SPDX-License-Identifier: Apache-2.0
#pragma once
// Client: the manager's client (controller-runtime's client.Client from mgr.GetClient()).
//
// - Reads (get, list) are served by the InformerCache: the first read of a kind starts its
//   informer and waits for it to sync. The cache is eventually consistent: a Get right after a
//   Create may say NotFound, and an Update built on a stale read gets 409 Conflict.
// - Writes (create, update, updateStatus, patch, patchStatus, remove) always go to the API
//   server through the RestClient.
// - apiReader() reads live from the API server (mgr.GetAPIReader()).
// - Every call takes the ReconcileContext of the reconcile making it (Request::ctx; a
//   default-constructed context outside reconciles). The call is recorded in that reconcile's
//   trace (verb, kind, key, cache or live, status code, latency; writes with the diff from the
//   cached object to the server's reply), halts first while the controller steps into the
//   reconcile, and fails at once with reason Cancelled once the context is cancelled.
// The kind of a written object comes from its apiVersion/kind; unknown kinds are NotFound
// ("no matches for kind"). Lives on the engine thread.
//
// Typed calls (SDK 0.3) take and give any view satisfying `Kind` (engine/api/kind.h):
//
//     Expected<Guestbook> book = co_await client().get<Guestbook>(req);
//     auto maps = co_await client().list<ConfigMap>(req.ctx, InNamespace(ns), MatchingLabels(labels));
//     if (auto u = co_await client().update(req.ctx, *book); !u) …   // *book now has the reply
//     auto cm = co_await client().createOrUpdate(req.ctx, ConfigMap(ns, name), [&](ConfigMap &c) { … });
//
// Typed writes take the view by reference and write the server's reply back into it, as
// controller-runtime does: the next write of the same view (update, then updateStatus) carries
// the new resourceVersion instead of failing with 409 Conflict. Callbacks given to awaited calls
// must capture by reference ([&]); a static_assert refuses by-value captures that g++ 12 would
// destroy twice.

#include "engine/api/expected.h"
#include "engine/api/kind.h"
#include "engine/api/objectview.h"
#include "engine/cache/informercache.h"
#include "engine/client/restclient.h"
#include "engine/controller/clientoptions.h"
#include "engine/controller/clienttap.h"
#include "engine/controller/operationresult.h"
#include "engine/controller/patch.h"
#include "engine/controller/reconcilecontext.h"
#include "engine/controller/reconciler.h"

#include <QObject>
#include <QPointer>

#include <qcoro/qcorotask.h>

#include <optional>
#include <type_traits>

namespace opbench {

class Client;

/// The message of every static_assert that refuses a callback with by-value captures.
#define OPBENCH_CAPTURE_BY_REFERENCE                                                                                   \
    "capture by reference ([&]): g++ 12 destroys a lambda's by-value captures twice inside co_await"

namespace detail {

/// The typed form of an untyped read.
template<Kind T> QCoro::Task<Expected<T>> typed(QCoro::Task<Expected<Object>> task)
{
    Expected<Object> r = co_await std::move(task);
    if (!r.ok())
        co_return Status(r.error());
    co_return T(*r);
}

template<Kind T> QCoro::Task<Expected<QList<T>>> typedList(QCoro::Task<Expected<QList<Object>>> task)
{
    Expected<QList<Object>> r = co_await std::move(task);
    if (!r.ok())
        co_return Status(r.error());
    QList<T> out;
    out.reserve(r->size());
    for (const Object &o : std::as_const(*r))
        out.append(T(o));
    co_return out;
}

/// Writes the server's reply into `target` (the caller's view, alive while it awaits).
template<Kind T> QCoro::Task<Expected<void>> writeBack(QCoro::Task<Expected<Object>> task, T &target)
{
    Expected<Object> r = co_await std::move(task);
    if (!r.ok())
        co_return Status(r.error());
    target = T(*r);
    co_return Expected<void>();
}

QCoro::Task<Expected<void>> withoutValue(QCoro::Task<Expected<DeleteResult>> task);

template<Kind T> QCoro::Task<Expected<TypedOutcome<T>>> typedOutcome(QCoro::Task<Expected<OperationOutcome>> task)
{
    Expected<OperationOutcome> r = co_await std::move(task);
    if (!r.ok())
        co_return Status(r.error());
    co_return TypedOutcome<T>(r->result, T(r->object));
}

/// Runs a typed mutate function on `current`; returns `current` itself when nothing changed.
template<Kind T, class F> Expected<Object> mutateTyped(F &mutate, const Object &current)
{
    T view(current);
    // A view over the JSON document (ObjectView) compares its documents: no encode/decode round
    // trip when the mutate function changed nothing, the common case of a reconcile in sync.
    constexpr bool overJson = std::is_base_of_v<ObjectView, T>;
    QJsonObject before;
    if constexpr (overJson)
        before = view.json();
    else
        before = view.toObject().json();
    using R = std::invoke_result_t<F &, T &>;
    if constexpr (std::is_void_v<R>) {
        mutate(view);
    } else {
        const Expected<void> ok = mutate(view);
        if (!ok)
            return ok.error();
    }
    if constexpr (overJson) {
        if (view.json() == before)
            return current;
        return Object::fromJson(view.json());
    } else {
        Object after = view.toObject();
        if (after.json() == before)
            return current;
        return after;
    }
}

} // namespace detail

/// Live reads straight from the API server, traced like the Client's.
class ApiReader
{
public:
    QCoro::Task<Expected<Object>> get(ReconcileContext ctx, GroupVersionKind gvk, QString ns, QString name) const;
    /// All items (one request; opts.limit applies as given).
    QCoro::Task<Expected<QList<Object>>> list(
        ReconcileContext ctx, GroupVersionKind gvk, QString ns, ListOptions opts = {}) const;

private:
    friend class Client;
    explicit ApiReader(Client *client)
        : m_client(client)
    { }
    Client *m_client;
};

class Client : public QObject
{
    Q_OBJECT
public:
    /// `cache` and `rest` are not owned and must outlive the client. `clock` (default
    /// Clock::system()) times the calls.
    Client(InformerCache *cache, RestClient *rest, Clock *clock = nullptr, QObject *parent = nullptr);
    ~Client() override;

    QCoro::Task<Expected<Object>> get(ReconcileContext ctx, GroupVersionKind gvk, QString ns, QString name);
    QCoro::Task<Expected<QList<Object>>> list(ReconcileContext ctx, GroupVersionKind gvk, CacheListOptions opts = {});
    /// Metadata-only reads (controller-runtime: Get/List into a PartialObjectMetadata of the
    /// kind): served by the kind's metadata-only informer (InformerCache::getMetadata), which
    /// the first read creates; objects have the kind's apiVersion/kind and metadata only.
    QCoro::Task<Expected<Object>> getMetadata(ReconcileContext ctx, GroupVersionKind gvk, QString ns, QString name);
    QCoro::Task<Expected<QList<Object>>> listMetadata(
        ReconcileContext ctx, GroupVersionKind gvk, CacheListOptions opts = {});

    /// POST; returns the created object (with its uid, resourceVersion, generated name).
    QCoro::Task<Expected<Object>> create(ReconcileContext ctx, Object obj, WriteOptions opts = {});
    /// PUT carrying the object's resourceVersion (409 Conflict when stale). Status is ignored by
    /// the server when the kind has a status subresource.
    QCoro::Task<Expected<Object>> update(ReconcileContext ctx, Object obj, WriteOptions opts = {});
    /// PUT to the status subresource.
    QCoro::Task<Expected<Object>> updateStatus(ReconcileContext ctx, Object obj, WriteOptions opts = {});
    /// PATCH of `obj` (kind, namespace, name) with `patch`.
    QCoro::Task<Expected<Object>> patch(ReconcileContext ctx, Object obj, Patch patch, PatchOptions opts = {});
    /// PATCH of the status subresource.
    QCoro::Task<Expected<Object>> patchStatus(ReconcileContext ctx, Object obj, Patch patch, PatchOptions opts = {});
    /// DELETE; the result holds the object when it is still there (finalizers).
    QCoro::Task<Expected<DeleteResult>> remove(ReconcileContext ctx, Object obj, DeleteOptions opts = {});

    // Typed calls (T: any Kind view). Reads give views; writes take a view by reference and
    // write the server's reply back into it.

    /// The object a reconcile request names (its ctx, namespace and name).
    template<Kind T> QCoro::Task<Expected<T>> get(const Request &request)
    {
        return get<T>(request.ctx, ObjectKey(request.namespaceName, request.name));
    }
    template<Kind T> QCoro::Task<Expected<T>> get(ReconcileContext ctx, const ObjectKey &key)
    {
        return detail::typed<T>(get(std::move(ctx), gvkOf<T>(), key.namespaceName, key.name));
    }
    /// Cached list narrowed by options: InNamespace, MatchingLabels, MatchingLabelsSelector,
    /// MatchingFields, Limit (clientoptions.h).
    template<Kind T, ListOption... O> QCoro::Task<Expected<QList<T>>> list(ReconcileContext ctx, const O &...options)
    {
        return detail::typedList<T>(list(std::move(ctx), gvkOf<T>(), listOptions(options...)));
    }
    template<Kind T> QCoro::Task<Expected<void>> create(ReconcileContext ctx, T &obj, WriteOptions opts = {})
    {
        return detail::writeBack(create(std::move(ctx), obj.toObject(), std::move(opts)), obj);
    }
    template<Kind T> QCoro::Task<Expected<void>> update(ReconcileContext ctx, T &obj, WriteOptions opts = {})
    {
        return detail::writeBack(update(std::move(ctx), obj.toObject(), std::move(opts)), obj);
    }
    template<Kind T> QCoro::Task<Expected<void>> updateStatus(ReconcileContext ctx, T &obj, WriteOptions opts = {})
    {
        return detail::writeBack(updateStatus(std::move(ctx), obj.toObject(), std::move(opts)), obj);
    }
    template<Kind T>
    QCoro::Task<Expected<void>> patch(ReconcileContext ctx, T &obj, Patch patch, PatchOptions opts = {})
    {
        return detail::writeBack(this->patch(std::move(ctx), obj.toObject(), std::move(patch), std::move(opts)), obj);
    }
    template<Kind T>
    QCoro::Task<Expected<void>> patchStatus(ReconcileContext ctx, T &obj, Patch patch, PatchOptions opts = {})
    {
        return detail::writeBack(patchStatus(std::move(ctx), obj.toObject(), std::move(patch), std::move(opts)), obj);
    }
    /// DELETE; NotFound is an error (see ignoreNotFound()).
    template<Kind T> QCoro::Task<Expected<void>> remove(ReconcileContext ctx, const T &obj, DeleteOptions opts = {})
    {
        return detail::withoutValue(remove(std::move(ctx), obj.toObject(), std::move(opts)));
    }
    /// controller-runtime's CreateOrUpdate: gets the object `obj` names from the cache; when
    /// missing, mutate(obj) and create it, otherwise mutate the cached copy and update it only
    /// when its JSON changed. `mutate` edits its T& in place and returns void or Expected<void>
    /// (an error aborts); it must not change the name or namespace, and must capture by
    /// reference. The result says what was done and holds the object as it is now.
    template<Kind T, class F>
    QCoro::Task<Expected<TypedOutcome<T>>> createOrUpdate(ReconcileContext ctx, T obj, F mutate)
    {
        static_assert(std::is_trivially_destructible_v<F>, "createOrUpdate: " OPBENCH_CAPTURE_BY_REFERENCE);
        static_assert(std::is_invocable_v<F &, T &>, "createOrUpdate: mutate takes the object to edit, as T&");
        using R = std::invoke_result_t<F &, T &>;
        static_assert(std::is_void_v<R> || std::is_convertible_v<R, Expected<void>>,
            "createOrUpdate: mutate returns void or Expected<void>");
        MutateFn fn = [mutate](const Object &current) mutable { return detail::mutateTyped<T>(mutate, current); };
        return detail::typedOutcome<T>(createOrUpdateObject(std::move(ctx), obj.toObject(), std::move(fn)));
    }

    /// A check made right before each write is sent; an error refuses the write (recorded in the
    /// trace like any failed call). The Manager refuses writes once its lease may have run out for
    /// the other replicas, even when a busy event loop has not run the elector's timers yet.
    void setWriteFence(std::function<std::optional<Status>()> fence) { m_writeFence = std::move(fence); }
    /// Called after every write with its trace record (verb, kind, key, code, resourceVersion)
    /// and the object sent, whatever the outcome. A test-harness hook (engine/testing/fault counts
    /// the operator's writes with it and crashes the operator right after the i-th); one
    /// observer, empty = none.
    using WriteObserver = std::function<void(const TraceCall &call, const Object &sent)>;
    void setWriteObserver(WriteObserver observer) { m_writeObserver = std::move(observer); }

    /// The recorder or replayer of a run (engine/recording), not owned; nullptr = none (the
    /// default: nothing is copied). See clienttap.h.
    void setTap(ClientTap *tap) { m_tap = tap; }
    [[nodiscard]] ClientTap *tap() const { return m_tap; }

    [[nodiscard]] const ApiReader &apiReader() const { return m_apiReader; }
    [[nodiscard]] InformerCache *cache() const { return m_cache; }
    [[nodiscard]] RestClient *restClient() const { return m_rest; }
    [[nodiscard]] const RestMapper &mapper() const { return m_cache->mapper(); }
    [[nodiscard]] Clock *clock() const { return m_clock; }

private:
    friend class ApiReader;
    /// opbench::createOrUpdate(this, …) (clientutil.h).
    QCoro::Task<Expected<OperationOutcome>> createOrUpdateObject(ReconcileContext ctx, Object obj, MutateFn mutate);
    struct Write
    {
        QString verb;
        Object obj;
        WriteOptions writeOptions;
        PatchOptions patchOptions;
        DeleteOptions deleteOptions;
        std::optional<Patch> patch;
    };

    /// Writes return the object in DeleteResult::object (remove: the object or the gone Status).
    QCoro::Task<Expected<DeleteResult>> write(ReconcileContext ctx, Write w);
    QCoro::Task<Expected<DeleteResult>> send(ResourceMapping mapping, QString ns, Write w);
    QCoro::Task<Expected<Object>> sendObject(GroupVersionResource gvr, QString ns, Write w);
    static Expected<Object> objectOf(Expected<DeleteResult> r);
    QCoro::Task<Expected<Object>> liveGet(ReconcileContext ctx, GroupVersionKind gvk, QString ns, QString name);
    QCoro::Task<Expected<QList<Object>>> liveList(
        ReconcileContext ctx, GroupVersionKind gvk, QString ns, ListOptions opts);
    /// Opens the call's gate; an error (cancelled, client gone) is recorded in `call` and returned.
    QCoro::Task<std::optional<Status>> admit(ReconcileContext ctx, PendingCall p, TraceCall *call);
    /// get/list through the cache's full or metadata-only informer, traced as get/list.
    QCoro::Task<Expected<Object>> cachedGet(
        ReconcileContext ctx, GroupVersionKind gvk, QString ns, QString name, ObjectProjection projection);
    QCoro::Task<Expected<QList<Object>>> cachedList(
        ReconcileContext ctx, GroupVersionKind gvk, CacheListOptions opts, ObjectProjection projection);
    /// A live call's mapping once its gate opened; otherwise the error, already recorded in `call`.
    QCoro::Task<Expected<ResourceMapping>> admitLive(ReconcileContext ctx, PendingCall p, TraceCall *call);
    /// Records `call` with its latency since `t0` and code 200, or `error`.
    void finishCall(const ReconcileContext &ctx, TraceCall &call, Clock::TimePoint t0, const Status *error,
        const Object &reply = {}) const;
    /// Appends `call` to the reconcile's trace and tells the tap, if any.
    void recordCall(
        const ReconcileContext &ctx, const TraceCall &call, const Object &sent = {}, const Object &reply = {}) const;
    [[nodiscard]] Expected<ResourceMapping> mappingFor(const GroupVersionKind &gvk) const;
    /// The cached copy of an object when its kind is cached (no informer is created).
    [[nodiscard]] Object cached(const GroupVersionKind &gvk, const QString &key) const;
    /// Halts (step into) and checks cancellation; returns the error to give back, if any.
    QCoro::Task<std::optional<Status>> gate(ReconcileContext ctx, PendingCall call);

    InformerCache *m_cache;
    RestClient *m_rest;
    Clock *m_clock;
    ApiReader m_apiReader;
    std::function<std::optional<Status>()> m_writeFence;
    WriteObserver m_writeObserver;
    ClientTap *m_tap = nullptr;
};

} // namespace opbench
