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

#include "engine/api/expected.h"
#include "engine/cache/informercache.h"
#include "engine/client/restclient.h"
#include "engine/controller/patch.h"
#include "engine/controller/reconcilecontext.h"

#include <QObject>
#include <QPointer>

#include <qcoro/qcorotask.h>

#include <optional>

namespace opbench {

class Client;

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

    [[nodiscard]] const ApiReader &apiReader() const { return m_apiReader; }
    [[nodiscard]] InformerCache *cache() const { return m_cache; }
    [[nodiscard]] RestClient *restClient() const { return m_rest; }
    [[nodiscard]] const RestMapper &mapper() const { return m_cache->mapper(); }
    [[nodiscard]] Clock *clock() const { return m_clock; }

private:
    friend class ApiReader;
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
    void finishCall(const ReconcileContext &ctx, TraceCall &call, Clock::TimePoint t0, const Status *error) const;
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
};

} // namespace opbench
