// SPDX-License-Identifier: Apache-2.0
#pragma once
// GarbageCollector: the kube-controller-manager's garbage collector for the embedded server
// (k8s-api-semantics §8), working through the Store's write API so resourceVersions and watch
// events are real.
//
// - Owners are identified as kube-controller-manager does: the ownerReference's apiVersion/kind
//   names the resource, the owner is looked up by name in the dependent's namespace (cluster
//   scope for cluster-scoped kinds) and its uid must match. A same-uid object elsewhere is not
//   the owner (a cross-namespace reference dangles); a reference to a kind the server does not
//   serve is never treated as gone.
// - Background: a dependent whose owners are all gone is deleted (background); a dependent with
//   a solid owner left only loses the references to the gone (and foreground-deleting) owners.
// - Foreground: an owner carrying the `foregroundDeletion` finalizer (set by the Store on DELETE
//   with propagationPolicy=Foreground) gets each dependent processed as above: a dependent with
//   another solid owner is kept (its reference to this owner is stripped), the others are
//   deleted (in foreground only when they have dependents of their own). Once no dependent with
//   blockOwnerDeletion=true references the owner, the finalizer is removed (and the Store removes
//   the owner).
// - Orphan: an owner carrying the `orphan` finalizer gets its uid stripped from every
//   dependent's ownerReferences, then the finalizer is removed.
//
// Work is queued: `committed` events only mark uids dirty; a queued call processes them later
// (never inside the Store's signal emission). Processing re-reads the store, so it is
// idempotent; a write that loses a race (409) is retried on the next pass.

#include "engine/api/object.h"

#include <QObject>
#include <QSet>
#include <QString>

namespace opbench {
class Clock;
}

namespace opbench::apiserver {

class Store;
struct StoreEvent;

class GarbageCollector : public QObject
{
    Q_OBJECT
public:
    /// Starts collecting at once; `store` and `clock` must outlive the collector.
    GarbageCollector(Store *store, Clock *clock, QObject *parent = nullptr);
    ~GarbageCollector() override;

    /// Scans every stored object once (used at start-up, e.g. after restoring a state file).
    void resyncAll();

    /// Number of dependents deleted and references stripped so far (for tests and metrics).
    int deletedDependents() const { return m_deleted; }
    int strippedReferences() const { return m_stripped; }

private:
    enum class OwnerState { Solid, Waiting, Dangling, Unresolvable };
    OwnerState ownerState(const Object &dependent, const OwnerReference &ref) const;
    void onCommitted(const StoreEvent &event);
    void schedule();
    void processQueued();
    void processOwner(const QString &ownerUid);
    void processDependent(const QString &dependentUid);
    void handleForeground(const QString &ownerUid);
    void handleOrphan(const QString &ownerUid);
    bool removeFinalizer(const QString &uid, const QString &finalizer);
    bool stripOwner(const QString &dependentUid, const QSet<QString> &ownerUids);

    Store *m_store;
    Clock *m_clock;
    QSet<QString> m_dirtyOwners;
    QSet<QString> m_dirtyDependents;
    bool m_scheduled = false;
    int m_deleted = 0;
    int m_stripped = 0;
};

} // namespace opbench::apiserver
