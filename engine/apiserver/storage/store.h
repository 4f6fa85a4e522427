// SPDX-License-Identifier: Apache-2.0
#pragma once
// Store: the embedded API server's storage. One place holds every object, with ONE global
// decimal resourceVersion counter (monotonic, also across restarts via the state file).
//
// Every writer (HTTP handlers, garbage collector, workload simulator) goes through this API, so
// every rule applies to all of them: uid / creationTimestamp / generation rules, status
// subresource isolation, resourceVersion preconditions, finalizers and deletionTimestamp,
// name/label validation, admission hooks (CRD schema validation), dryRun, and "a no-op write
// changes nothing and emits nothing".
//
// Each commit emits `committed(StoreEvent)` exactly once, in resourceVersion order. A write made
// from inside a `committed` handler is committed (and gets its RV) at once, but its signal is
// delivered only after the current emission has reached every subscriber, so all subscribers see
// events in RV order. The last `watchHistory` events are kept for watch resume; a watch from an
// older RV gets 410 Expired.
//
// Not thread-safe: use the Store on the thread it lives on (the API server's thread).

#include "engine/api/expected.h"
#include "engine/api/gvk.h"
#include "engine/api/object.h"
#include "engine/apiserver/registry/registry.h"

#include <QHash>
#include <QJsonObject>
#include <QMap>
#include <QObject>

#include <array>
#include <deque>
#include <functional>
#include <optional>

namespace opbench {
class Clock;
}

namespace opbench::apiserver {

enum class EventType { Added, Modified, Deleted };

/// "ADDED", "MODIFIED", "DELETED".
QString eventTypeName(EventType t);

struct StoreEvent
{
    EventType type = EventType::Added;
    GroupVersionResource gvr; // the storage resource
    Object object;            // new state; for Deleted the last state, stamped with the deletion RV
    Object previous;          // state before the write (null for Added)
    quint64 resourceVersion = 0;
};

/// Identifies one stored object.
struct ObjectRef
{
    GroupVersionResource gvr; // storage resource
    QString namespaceName;
    QString name;
    friend bool operator==(const ObjectRef &, const ObjectRef &) = default;
};

struct WriteOptions
{
    bool dryRun = false;           // full processing, nothing stored, no RV change, no event
    QString fieldManager;          // non-empty: metadata.managedFields records the write (an Update
                                   // entry; see fieldmanager.h). Empty (internal writers): kept as is
    QString apiVersion;            // the version the write was served at (default: the type's)
    bool managedFieldsSet = false; // the caller computed managedFields already (server-side apply)
};

struct DeleteOptions
{
    QString propagationPolicy; // "Background" (default when empty), "Foreground", "Orphan"
    std::optional<qint64> gracePeriodSeconds;
    QString preconditionUid; // empty: no precondition
    QString preconditionResourceVersion;
    bool dryRun = false;
};

struct DeleteResult
{
    Object object;        // the removed object, or the object now carrying deletionTimestamp
    bool removed = false; // true: gone now; false: kept (finalizers / graceful deletion)
};

struct ListOptions
{
    QString namespaceName;                      // empty: all namespaces
    std::function<bool(const Object &)> filter; // label/field selectors; empty: everything
    qint64 limit = 0;                           // 0: no paging
    QString continueToken;                      // from a previous page
    QString resourceVersion;                    // "", "0", or "N"
    QString resourceVersionMatch;               // "", "NotOlderThan", "Exact"
};

struct ListResult
{
    QList<Object> items;
    quint64 resourceVersion = 0;    // the RV the list is consistent with (the first page's for paging)
    QString continueToken;          // empty: last page
    qint64 remainingItemCount = -1; // -1: unknown/not set
};

/// Admission hook: called on every create and update of a type (after the store's metadata rules,
/// before commit). It may mutate `object` (defaulting, pruning). A returned Status (422 via
/// Status::invalid, ...) rejects the write; nothing is stored. `old` (the stored document) is empty
/// on create.
/// `subresource` is "" for the main endpoint, "status" for /status writes.
using AdmissionHook = std::function<Expected<void>(
    const ResourceType &type, QJsonObject &object, const QJsonObject &old, const QString &subresource)>;

class Store : public QObject
{
    Q_OBJECT
public:
    /// A store with the built-in resources registered and the namespaces default, kube-system
    /// and kube-public present. `clock` (default Clock::system()) stamps timestamps and schedules
    /// graceful pod removal; it must outlive the store.
    explicit Store(Clock *clock = nullptr, QObject *parent = nullptr);
    ~Store() override;

    ResourceRegistry *registry() const { return m_registry; }
    Clock *clock() const { return m_clock; }

    /// The current (latest committed) resourceVersion.
    quint64 resourceVersion() const { return m_rv; }

    // ---- reads -------------------------------------------------------------------------------
    /// NotFound Status (with the real message) when absent or the resource is unknown.
    Expected<Object> get(const GroupVersionResource &gvr, const QString &ns, const QString &name) const;
    /// Objects in key order ("ns/name"). Paging via limit/continue (resourceVersion "0" ignores
    /// limit, as the real server's watch cache does); 410 Expired for a token older
    /// than the history window; 410 for an Exact RV the store cannot serve; 504 for an RV newer
    /// than the store's.
    Expected<ListResult> list(const GroupVersionResource &gvr, const ListOptions &options = {}) const;
    /// Direct lookups for controllers (GC, simulator). Null Object when absent.
    Object find(const ObjectRef &ref) const;
    /// o.json(), remembered for the last few objects asked for: a write decodes the stored
    /// object its caller (the workload simulator, a handler) has just decoded, and Object::json()
    /// parses the whole document on each call. Objects are immutable, so the result is the same.
    QJsonObject jsonOf(const Object &o) const;
    std::optional<ObjectRef> findByUid(const QString &uid) const;
    /// Objects whose ownerReferences name `ownerUid`.
    QList<ObjectRef> dependentsOf(const QString &ownerUid) const;
    /// Storage resources that currently hold at least one object.
    QList<GroupVersionResource> populatedResources() const;
    /// Number of objects stored for `gvr` (all namespaces).
    qsizetype count(const GroupVersionResource &gvr) const;

    // ---- writes ------------------------------------------------------------------------------
    /// POST: name/generateName, namespace must exist (404) and match, 409 AlreadyExists, uid,
    /// creationTimestamp, generation=1 where tracked, status dropped where a status subresource
    /// exists. `ns` is the URL namespace ("" for cluster-scoped).
    Expected<Object> create(
        const GroupVersionResource &gvr, const QString &ns, QJsonObject object, const WriteOptions &options = {});
    /// PUT to the main endpoint: RV precondition (409), custom resources require an RV (422),
    /// immutable uid/creationTimestamp, generation bump rules, status ignored where a status
    /// subresource exists, finalizer rules while terminating; removes the object when its last
    /// finalizer goes while it is terminating. A no-op returns the stored object unchanged.
    Expected<Object> update(const GroupVersionResource &gvr, const QString &ns, const QString &name, QJsonObject object,
        const WriteOptions &options = {});
    /// PUT .../status: only .status is taken from `object` (404 when the type has no status
    /// subresource).
    Expected<Object> updateStatus(const GroupVersionResource &gvr, const QString &ns, const QString &name,
        QJsonObject object, const WriteOptions &options = {});
    /// DELETE: preconditions (409), propagation finalizers (foregroundDeletion / orphan),
    /// finalizers keep the object with deletionTimestamp; otherwise removed at once (pods with a
    /// grace period are removed after a short simulated kubelet delay).
    Expected<DeleteResult> remove(
        const GroupVersionResource &gvr, const QString &ns, const QString &name, const DeleteOptions &options = {});

    /// Removes every object of storage resource `gvr` at once, finalizers or not (a CRD went away).
    /// Emits DELETED for each. Returns how many were removed.
    int purge(const GroupVersionResource &gvr);

    /// Adds an admission hook run for every type (the hook checks `type` itself).
    void addAdmissionHook(AdmissionHook hook);

    // ---- watch history -----------------------------------------------------------------------
    /// Number of events kept for watch resume (default 10000; at least 1).
    void setHistoryLimit(int events);
    int historyLimit() const { return m_historyLimit; }
    /// Events with RV > `rv` for `gvr` (storage resource; empty resource: all) in RV order.
    /// 410 Expired ("too old resource version: N (M)") when events of `gvr` after `rv` were
    /// dropped from the window (per resource, as kube-apiserver's watch cache: a quiet kind stays
    /// resumable however much other kinds churn), or after compact().
    Expected<QList<StoreEvent>> eventsSince(quint64 rv, const GroupVersionResource &gvr = {}) const;
    /// The oldest RV a watch can resume from.
    quint64 oldestResumableVersion() const { return m_compactedRv; }
    /// Drops all history (a "compaction"): every watch resume and continue token before now
    /// gets 410.
    void compact();

    // ---- persistence -------------------------------------------------------------------------
    /// Every object plus the RV counter, as one JSON document.
    QJsonObject snapshot() const;
    /// Replaces the whole content (no events emitted; history cleared; RV counter restored).
    Expected<void> restore(const QJsonObject &snapshot);

Q_SIGNALS:
    /// One committed write (see the class comment for ordering).
    void committed(const opbench::apiserver::StoreEvent &event);
    /// Content changed (for the debounced state file).
    void contentChanged();

private:
    Expected<ResourceType> typeFor(const GroupVersionResource &gvr) const;
    Expected<void> checkNamespace(const ResourceType &type, const QString &ns) const;
    Expected<void> runHooks(
        const ResourceType &type, QJsonObject &object, const QJsonObject &old, const QString &sub) const;
    Expected<Object> finishUpdate(const ResourceType &type, const Object &old, const QJsonObject &oldJson,
        QJsonObject object, const WriteOptions &options, const QString &subresource);
    Expected<DeleteResult> markTerminating(
        const ResourceType &type, const Object &old, QJsonObject object, qint64 graceSeconds, bool dryRun);
    Object commit(EventType type, const ResourceType &rt, QJsonObject object, const Object &previous);
    void evictOldest();
    void index(const GroupVersionResource &storage, const Object &previous, const Object &current);
    void deliver(const StoreEvent &event);
    void scheduleKubeletRemoval(const ResourceType &type, const Object &pod, qint64 graceSeconds);

    ResourceRegistry *m_registry = nullptr;
    Clock *m_clock = nullptr;
    quint64 m_rv = 1;
    quint64 m_compactedRv = 1;                        // newest RV dropped from the window (any kind)
    quint64 m_clearedRv = 1;                          // compact()/restore: nothing before this can be resumed
    QHash<GroupVersionResource, quint64> m_evictedRv; // per storage resource: newest RV dropped
    int m_historyLimit = 10000;
    QHash<GroupVersionResource, QMap<QString, Object>> m_objects; // storage gvr -> key -> object
    QHash<QString, ObjectRef> m_byUid;
    QMultiHash<QString, QString> m_dependents; // owner uid -> dependent uid
    std::deque<StoreEvent> m_history;
    QList<AdmissionHook> m_hooks;
    std::deque<StoreEvent> m_pending;
    bool m_emitting = false;
    struct Decoded
    {
        Object object;
        QJsonObject json;
    };
    mutable std::array<Decoded, 64> m_decoded; // jsonOf(): the last few decoded, round robin
    mutable size_t m_nextDecoded = 0;
};

} // namespace opbench::apiserver

Q_DECLARE_METATYPE(opbench::apiserver::StoreEvent)
