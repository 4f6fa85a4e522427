// SPDX-License-Identifier: Apache-2.0
#pragma once
// InformerCache: one shared informer per kind, started on first use, and cached reads over
// them — controller-runtime's informer cache and the read half of its cached client.
//
// - informerFor(gvk) creates the kind's informer (starting it when the cache is started);
// - get/list on a kind whose informer is not synced yet wait for it (up to the sync timeout);
// - list filters by namespace (namespace index), label selector (in memory) and field selector
//   (exact matches on an indexed field: the first through the index, the rest in memory; an
//   unindexed field is an error, as in controller-runtime);
// - results are immutable Objects: no deep copy is needed, and callers cannot corrupt the cache.
// Scope per kind: all namespaces, one, or several (one list + watch each), plus server-side
// label/field selectors. A read of a namespaced kind in a namespace outside the scope fails with
// an "unknown namespace for the cache" error (isUnknownNamespace), not NotFound or an empty
// list, as controller-runtime's multi-namespace cache; a cluster-scoped kind ignores the
// namespace it is asked for.
// Metadata-only (ObjectProjection::Metadata): a kind may also have a metadata-only informer
// (PartialObjectMetadata lists and watches; objects keep the kind's apiVersion/kind and their
// metadata only), kept apart from its full informer as controller-runtime keeps its structured
// and metadata informer maps apart: both may exist for one kind, each with its own list + watch,
// same scope. getMetadata/listMetadata read the metadata-only one, get/list the full one.

#include "engine/api/expected.h"
#include "engine/api/fieldselector.h"
#include "engine/api/labelselector.h"
#include "engine/api/restmapper.h"
#include "engine/base/clock.h"
#include "engine/cache/informer.h"
#include "engine/cache/objectprojection.h"

#include <QHash>
#include <QObject>

#include <qcoro/qcorotask.h>

#include <chrono>
#include <map>
#include <memory>

namespace opbench {

class RestClient;

struct CacheScope
{
    QString namespaceName; // "" = all namespaces
    /// Several namespaces (controller-runtime's DefaultNamespaces); when non-empty, namespaceName
    /// is ignored.
    QStringList namespaces;
    QString labelSelector; // server-side, "" = everything
    QString fieldSelector;
    std::function<Object(const Object &)> transform; // default: strip managedFields

    /// The namespaces cached; empty = all.
    [[nodiscard]] QStringList cachedNamespaces() const;
};

/// A cached read named a namespace the cache does not hold (code 0, reason UnknownNamespace).
bool isUnknownNamespace(const Status &s);

struct InformerCacheOptions
{
    RestClient *client = nullptr; // not owned
    RestMapper mapper = RestMapper::withBuiltins();
    /// Applies to kinds without their own entry in `byKind`.
    CacheScope defaultScope;
    QHash<QString, CacheScope> byKind; // key: GroupVersionKind::toString()
    /// Resync period of every informer (controller-runtime: 10 h with ±10 % jitter); 0 = none.
    std::chrono::milliseconds syncPeriod{0};
    /// How long a read waits for a kind's first sync (controller-runtime's CacheSyncTimeout: 2 min).
    std::chrono::milliseconds syncTimeout{std::chrono::minutes(2)};
    int historyCapacity = 0;
    Clock *clock = nullptr;
};

/// Not an aggregate (g++ 12 destroys aggregate temporaries built inside co_await twice).
struct CacheListOptions
{
    CacheListOptions() = default;
    /// The fields in declaration order.
    explicit CacheListOptions(QString ns, LabelSelector labels = {}, FieldSelector fields = {}, qint64 maxItems = 0)
        : namespaceName(std::move(ns))
        , labelSelector(std::move(labels))
        , fieldSelector(std::move(fields))
        , limit(maxItems)
    { }
    QString namespaceName; // "" = all
    LabelSelector labelSelector;
    FieldSelector fieldSelector;
    qint64 limit = 0; // truncates; 0 = all
};

class InformerCache : public QObject
{
    Q_OBJECT
public:
    explicit InformerCache(InformerCacheOptions options, QObject *parent = nullptr);
    ~InformerCache() override;

    /// Starts every informer created so far; later ones start on creation.
    void start();
    void stop();
    [[nodiscard]] bool isStarted() const { return m_started; }

    /// The kind's informer (created on first call): the full one, or with
    /// ObjectProjection::Metadata the metadata-only one. NotFound when the kind is not mapped.
    Expected<Informer *> informerFor(
        const GroupVersionKind &gvk, ObjectProjection projection = ObjectProjection::Normal);
    /// Every informer, full and metadata-only.
    [[nodiscard]] QList<Informer *> informers() const;
    /// The kinds with a full informer.
    [[nodiscard]] QList<GroupVersionKind> kinds() const;
    /// The kinds with a metadata-only informer.
    [[nodiscard]] QList<GroupVersionKind> metadataKinds() const;

    /// Adds a field index "field:<field>" on a kind (values stored as "ns/value" and
    /// "__all_namespaces/value", as controller-runtime does).
    Expected<void> indexField(const GroupVersionKind &gvk, const QString &field,
        std::function<QStringList(const Object &)> extract, ObjectProjection projection = ObjectProjection::Normal);

    /// True when every informer has synced.
    [[nodiscard]] bool hasSynced() const;
    /// Waits until every informer synced or `timeout` passed. Returns whether all synced.
    QCoro::Task<bool> waitForCacheSync(std::chrono::milliseconds timeout);

    /// Reads of a kind not synced yet wait for it, up to the sync timeout; `cancelled`, when
    /// given, is checked while they wait (every 100 ms), and the read then fails with reason
    /// Cancelled: how a reconcile's timeout or a controller's shutdown ends such a wait.
    QCoro::Task<Expected<Object>> get(
        GroupVersionKind gvk, QString ns, QString name, std::function<bool()> cancelled = {});
    QCoro::Task<Expected<QList<Object>>> list(
        GroupVersionKind gvk, CacheListOptions opts = {}, std::function<bool()> cancelled = {});
    /// get/list from the kind's metadata-only informer (created and started on first use, like
    /// the full one): objects with the kind's apiVersion/kind and metadata only
    /// (controller-runtime: reading into a PartialObjectMetadata).
    QCoro::Task<Expected<Object>> getMetadata(
        GroupVersionKind gvk, QString ns, QString name, std::function<bool()> cancelled = {});
    QCoro::Task<Expected<QList<Object>>> listMetadata(
        GroupVersionKind gvk, CacheListOptions opts = {}, std::function<bool()> cancelled = {});

    /// The resource mapping the cache uses.
    const RestMapper &mapper() const { return m_options.mapper; }
    RestMapper &mapper() { return m_options.mapper; }

Q_SIGNALS:
    void informerCreated(opbench::Informer *informer, const opbench::GroupVersionKind &gvk);

private:
    QCoro::Task<Expected<Informer *>> syncedInformer(
        GroupVersionKind gvk, ObjectProjection projection, std::function<bool()> cancelled);
    QCoro::Task<Expected<Object>> read(
        GroupVersionKind gvk, QString ns, QString name, ObjectProjection projection, std::function<bool()> cancelled);
    QCoro::Task<Expected<QList<Object>>> readList(
        GroupVersionKind gvk, CacheListOptions opts, ObjectProjection projection, std::function<bool()> cancelled);
    [[nodiscard]] std::map<QString, Informer *> &informerMap(ObjectProjection projection)
    {
        return projection == ObjectProjection::Metadata ? m_metadataInformers : m_informers;
    }
    /// Both maps, full first.
    template<typename F> void forEachInformer(F f) const
    {
        for (const auto &[key, inf] : m_informers)
            f(inf);
        for (const auto &[key, inf] : m_metadataInformers)
            f(inf);
    }
    QList<Object> select(const Informer &inf, const CacheListOptions &opts, Status *error) const;
    /// The kind's scope, and whether `ns` is outside it ("" = the whole scope, always inside).
    [[nodiscard]] CacheScope scopeOf(const GroupVersionKind &gvk) const;
    [[nodiscard]] bool outOfScope(const GroupVersionKind &gvk, const QString &ns) const;

    InformerCacheOptions m_options;
    Clock *m_clock;
    std::map<QString, Informer *> m_informers;         // gvk string -> child informer (full objects)
    std::map<QString, Informer *> m_metadataInformers; // gvk string -> child informer (metadata only)
    bool m_started = false;
};

/// The index name of a field index.
QString fieldIndexName(const QString &field);

} // namespace opbench
