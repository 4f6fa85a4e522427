// SPDX-License-Identifier: Apache-2.0
#pragma once
// GarbageCollector: the kube-controller-manager's garbage collector for the embedded server
// (k8s-api-semantics §8), working through the Store's write API so resourceVersions and watch
// events are real.
//
// - Background: a dependent whose owners are all gone (absent, or present with another uid) is
//   deleted (background); a dependent with a live owner left only loses the dangling references.
// - Foreground: an owner carrying the `foregroundDeletion` finalizer (set by the Store on DELETE
//   with propagationPolicy=Foreground) gets its dependents deleted (those with
//   blockOwnerDeletion in foreground themselves); once no dependent with blockOwnerDeletion=true
//   is left, the finalizer is removed (and the Store removes the owner).
// - Orphan: an owner carrying the `orphan` finalizer gets its uid stripped from every
//   dependent's ownerReferences, then the finalizer is removed.
//
// Work is queued: `committed` events only mark uids dirty; a queued call processes them later
// (never inside the Store's signal emission). Processing re-reads the store, so it is
// idempotent; a write that loses a race (409) is retried on the next pass.

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
