// SPDX-License-Identifier: Apache-2.0
#pragma once
// Informer: keeps a Store in step with one resource on the API server (through a Reflector) and
// tells registered handlers about every change — client-go's SharedIndexInformer, on the engine
// thread's event loop.
//
// Guarantees:
// - handlers see events in the order the server produced them, one at a time;
// - a relist that no longer contains an object delivers onDelete(last state, finalStateUnknown),
//   before the relist's adds and updates (client-go's RealFIFO);
// - a DELETED watch event reaches the handlers even for a key the cache never held;
// - a handler added after the informer synced first receives onAdd(obj, true) for every cached
//   object;
// - objects are transformed (metadata.managedFields stripped by default) before they enter the
//   store, so the cache and the handlers see the same value.

#include "engine/api/gvk.h"
#include "engine/base/clock.h"
#include "engine/cache/deltasink.h"
#include "engine/cache/eventhandler.h"
#include "engine/cache/history.h"
#include "engine/cache/store.h"

#include <QObject>
#include <QSet>
#include <QStringList>

#include <chrono>
#include <memory>
#include <vector>

namespace opbench {

class Reflector;
class ReflectorObserver;
class RestClient;

struct InformerOptions
{
    /// The collection to list and watch, and the kind of its items (list items often omit it).
    GroupVersionResource resource;
    QString kind;
    /// "" = all namespaces.
    QString namespaceName;
    /// Several namespaces (controller-runtime's multi-namespace cache): one list + watch per
    /// namespace feeding this one store; synced once every namespace listed. When it has two or
    /// more entries, namespaceName is ignored.
    QStringList namespaces;
    /// Server-side filters applied to list and watch ("" = everything).
    QString labelSelector;
    QString fieldSelector;
    /// How often handlers get onUpdate(obj, obj) for every cached object; 0 = never.
    /// Handlers may ask for their own period (at least 1 s).
    std::chrono::milliseconds resyncPeriod{0};
    /// Applied to every object before it is stored. Defaults to stripping managedFields.
    std::function<Object(const Object &)> transform;
    /// Changes kept for the GUI's time travel (0 = none).
    int historyCapacity = 0;
    /// Defaults to Clock::system().
    Clock *clock = nullptr;
    /// Take the initial state from a streaming list (WatchList) when the server supports it;
    /// falls back to LIST + WATCH otherwise.
    ///
    /// Off by default (client-go turned it on in 1.35). Measured against opbench-apiserver with
    /// 10,000 Deployments (16 MB of JSON, `opbench-bench sync` with and without --watch-list):
    /// at first the streaming list peaked at 60–66 MB against 43 MB, because the watch reply's
    /// buffer was unbounded; WatchStream now bounds it and decodes 1 MiB at a time. With lists
    /// decoded item by item as well, on 10,000 defaulted Deployments (19.6 MB) both paths sync in
    /// 0.2–0.3 s; streaming peaks at 36.7 MB, LIST + WATCH at 34.9–35.6. LIST + WATCH stays the
    /// default because it is what every server answers; turning this on is the next step once it
    /// has run against real clusters whose servers have the WatchList feature enabled.
    bool useWatchList = false;
    /// Page size of the first LIST (client-go's pager: 500); 0 = one unpaginated response.
    qint64 pageSize = 500;
    /// The client the reflector lists and watches with (not owned; must outlive the informer).
    RestClient *client = nullptr;
    /// A metadata-only informer (client-go's metadatainformer, controller-runtime's informers of
    /// PartialObjectMetadata): lists and watches PartialObjectMetadata, and its store holds
    /// objects with `resource`'s apiVersion, `kind` and the server's metadata, nothing else (no
    /// spec, status or data). Handlers, owner references, labels and resourceVersions work as
    /// with full objects.
    bool metadataOnly = false;
};

class Informer : public QObject, public DeltaSink
{
    Q_OBJECT
public:
    using HandlerId = quint64;

    explicit Informer(InformerOptions options, QObject *parent = nullptr);
    ~Informer() override;

    /// Registers a handler (not owned: unregister it before destroying it). Returns its id.
    /// A handler removed while an event is being delivered (by another handler) is not called
    /// for that event or any later one.
    HandlerId addEventHandler(ResourceEventHandler *handler, std::chrono::milliseconds resyncPeriod = {});
    void removeEventHandler(HandlerId id);

    /// Starts the reflector (list, then watch). No-op when already running or without a client.
    void start();
    /// Stops the reflector; the store keeps its content.
    void stop();
    [[nodiscard]] bool isRunning() const;

    /// True once the first complete list has been applied (or an event arrived first).
    [[nodiscard]] bool hasSynced() const { return m_synced; }
    /// The handler has also received every initial-list add (immediate for late handlers).
    [[nodiscard]] bool handlerHasSynced(HandlerId id) const;
    /// The resourceVersion of the last list, event or bookmark applied.
    [[nodiscard]] QString lastSyncResourceVersion() const { return m_lastSyncRv; }

    [[nodiscard]] const Store &store() const { return m_store; }
    /// For adding indexers (allowed at any time).
    Store &indexer() { return m_store; }
    [[nodiscard]] const CacheHistory &history() const { return m_history; }
    [[nodiscard]] const InformerOptions &options() const { return m_options; }
    /// The reflector, once started (for its state: backoff, last error); with several
    /// namespaces, the first namespace's.
    [[nodiscard]] Reflector *reflector() const { return m_reflector.get(); }
    /// Sets the observer of this informer's reflectors, those running and those started later
    /// (not owned; null: none). What a run recorder taps to see raw list pages and watch events.
    void setReflectorObserver(ReflectorObserver *observer);

    /// A fault-injection hook (engine/testing/fault; stale and unobserved state): decides for each
    /// delta from the reflector whether it is applied now, held back (it and every later delta,
    /// in order, until releaseHeldDeltas()) or dropped. Unset (the default): all are applied.
    enum class DeltaAction { Apply, Hold, Drop };
    struct Delta
    {
        enum class Type { Replace, Added, Modified, Deleted, Bookmark };
        Type type = Type::Modified;
        Object object;       // added, modified, deleted
        QList<Object> items; // replace
        QString resourceVersion;
    };
    using DeltaFilter = std::function<DeltaAction(const Delta &)>;
    void setDeltaFilter(DeltaFilter filter) { m_deltaFilter = std::move(filter); }
    /// Applies the held deltas in order (the filter is not asked again for them).
    void releaseHeldDeltas();
    [[nodiscard]] int heldDeltaCount() const { return int(m_heldDeltas.size()); }

    // DeltaSink: called by the reflector (public so tests can script deltas without a server).
    void replaceAll(const QList<Object> &items, const QString &rv) override;
    void added(const Object &obj) override;
    void modified(const Object &obj) override;
    void deleted(const Object &obj) override;
    void bookmark(const QString &rv) override;

Q_SIGNALS:
    /// After the first complete list was applied.
    void synced();
    /// Every change applied to the store (the GUI's feed).
    void changed(const opbench::CacheChange &change);
    void resourceVersionChanged(const QString &rv);

private:
    class NamespaceSink;
    /// replaceAll restricted to one namespace's objects (several-namespace informers).
    void replaceIn(const QString *ns, const QList<Object> &items, const QString &rv);
    struct Handler
    {
        HandlerId id;
        ResourceEventHandler *handler;
        std::chrono::milliseconds resyncPeriod;
        Clock::TimePoint nextResync;
    };
    Object transformed(const Object &obj) const;
    void setResourceVersion(const QString &rv);
    void markSynced();
    void apply(CacheChange::Type type, const Object &oldObj, const Object &newObj, const QString &rv, bool initial,
        bool unknown);
    void scheduleResync();
    void runResync();
    [[nodiscard]] bool isRegistered(HandlerId id) const;

    InformerOptions m_options;
    Clock *m_clock;
    Store m_store;
    CacheHistory m_history;
    std::vector<Handler> m_handlers; // registration order = delivery order
    std::vector<std::unique_ptr<DeltaSink>>
        m_namespaceSinks; // several namespaces: one per namespace (outlive the reflectors)
    std::unique_ptr<Reflector> m_reflector;
    std::vector<std::unique_ptr<Reflector>> m_moreReflectors; // the second namespace's onwards
    QSet<QString> m_unlistedNamespaces;                       // not listed yet: not synced
    HandlerId m_nextHandlerId = 1;
    quint64 m_removals = 0;    // handlers removed so far (delivery skips removed ones)
    quint64 m_resyncTimer = 0; // Clock callback id, 0 when none armed
    QString m_lastSyncRv;
    bool m_synced = false;
    /// True when the delta is held or dropped by the delta filter (not to be applied now).
    bool intercepted(Delta delta);
    DeltaFilter m_deltaFilter;
    std::vector<Delta> m_heldDeltas;
    bool m_replaying = false;
    ReflectorObserver *m_reflectorObserver = nullptr;
};

} // namespace opbench
