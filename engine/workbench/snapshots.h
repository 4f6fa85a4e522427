// SPDX-License-Identifier: Apache-2.0
#pragma once
// Immutable value types the engine thread prepares and the UI thread applies (the bridge's
// vocabulary). Every type is cheap to copy (implicitly shared Qt containers and Objects) and is
// registered as a metatype so it can travel through queued signals.

#include "engine/api/object.h"
#include "engine/cache/history.h"
#include "engine/controller/reconciletrace.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QUrl>

namespace opbench::workbench {

/// One change to apply to the cache tree. Coalesced per kind and key: only the latest survives.
struct CacheEntry
{
    enum class Op { Upsert, Remove };
    Op op = Op::Upsert;
    QString kind;  ///< "MyApplication", "Deployment", ...
    Object object; ///< the latest state (for Remove: the last known state)
};

/// An informer's state as the status bar and the kind rows show it.
struct InformerState
{
    QString kind;
    bool synced = false;
    QString lastSyncRv; ///< resourceVersion of the last LIST
    QString latestRv;   ///< newest resourceVersion seen (watch events, bookmarks)
    int count = 0;      ///< objects in the store
    qint64 events = 0;  ///< changes the informer delivered since observed (before coalescing)
    /// LISTs after the first one since observed: the watch could not resume (410 Gone, a
    /// compacted history) and the reflector listed everything again.
    int relists = 0;
};

/// What the engine thread emits every flush interval (100 ms) when something changed.
struct CacheBatch
{
    QList<CacheEntry> entries;
    QList<InformerState> informers; ///< all informers, every batch
    /// Time travel: the oldest resourceVersion every informer's history can rebuild (empty when
    /// nothing is recorded yet).
    QString oldestRv;
};

/// The whole cache as it was at a resourceVersion (time travel), rebuilt from the informers'
/// histories: one Upsert per object that existed then.
struct CachePast
{
    QString resourceVersion;
    CacheBatch batch;
    QString error; ///< non-empty (and batch empty) when the history does not reach that far back
};

/// One row of the queue table.
struct QueueRow
{
    QString key;
    QString state; ///< "queued", "processing", "waiting", "held", "idle"
    int priority = 0;
    int retries = 0;
    qint64 readyInMs = -1; ///< waiting: milliseconds until ready
    /// The backoff the queue last gave this key for a failed try (ms; -1: none yet). The first
    /// ones (5 ms, 10 ms) are over long before a sample could catch the key waiting.
    qint64 backoffMs = -1;
    QStringList causes; ///< every cause, described, oldest first

    friend bool operator==(const QueueRow &, const QueueRow &) = default;
};

/// The queue as it was at `atMs` (ms since the session started), plus rates over the last second.
struct QueueSample
{
    qint64 atMs = 0;
    int depth = 0; ///< ready items (len())
    int processing = 0;
    int waiting = 0;
    double addsPerSec = 0;
    double retriesPerSec = 0;
    QList<QueueRow> rows;
    /// Causes added since the queue was observed, by where they came from: the event handlers'
    /// For (the object's own events and initial list) and Owns (a child's event mapped to its
    /// owner), and the reconciler's retries and requeue-afters (with manual ones).
    qint64 causesFor = 0;
    qint64 causesOwns = 0;
    qint64 causesRequeue = 0;
};

/// Every recorded version of one object (oldest first), for the diff and the time-travel slider.
struct ObjectVersions
{
    QString kind;
    QString key;
    QList<CacheChange> changes;
    Object current; ///< null when the object is gone
};

/// One breakpoint as the Breakpoints dock lists it (see engine/controller/breakpoint.h).
struct BreakpointRow
{
    int id = 0;
    QString type;        ///< key, kind, error, call, condition
    QString description; ///< "key default/web", "before write Deployment", "status.phase == Failed"
    bool enabled = true;
    int hits = 0;      ///< times it paused the controller since it was added
    QString neverHits; ///< why it cannot hit in this session ("never hits: …"; "" when it can)
};

/// The controller's stepping state (Control toolbar, status bar).
struct ControlState
{
    bool available = false; ///< a controller runs
    bool paused = false;
    int activeWorkers = 0;
    QStringList pendingCalls; ///< step into: the calls halted before going out, described
    QStringList breakpoints;  ///< keys
    bool breakOnError = false;
    QString lastBreak;                   ///< "key default/web" or "error default/api" when a breakpoint hit
    QString runTo;                       ///< "Run to the next reconcile of" this key is waiting for it
    QList<BreakpointRow> breakpointList; ///< every breakpoint, in the order added
    int lastBreakId = 0;                 ///< the breakpoint of lastBreak (0: the toolbar's break on error)
    QString breakpointError;             ///< why the last breakpoint typed could not be added
    QString breakpointNote;              ///< the last breakpoint typed was added but never hits here (why)
    /// The webhook calls the gate holds (webhookgate.h), oldest first, described
    /// ("CREATE MyApplication default/web at /validate-… held by webhook any").
    QStringList heldWebhookCalls;

    /// Whether the debugger's Continue has something to let go on: a paused controller, a
    /// reconcile halted before a call, or a held webhook call.
    [[nodiscard]] bool canContinue() const { return paused || !pendingCalls.isEmpty() || !heldWebhookCalls.isEmpty(); }
};

/// The reconcile being stepped, as it stands (the debugger's frame): published when it starts,
/// after each client call, when it halts before a call and when it ends. Only reconciles the
/// user stepped (Step, Step into, Run to) are published.
struct CurrentReconcile
{
    QString reconcileId; ///< empty: no reconcile stepped yet
    QString controller;
    QString key; ///< "ns/name"
    int worker = 0;
    QStringList causes;           ///< described, oldest first
    QString cacheResourceVersion; ///< the For informer's resourceVersion when it started
    QList<TraceCall> calls;       ///< the calls made so far, with the objects read and sent
    bool halted = false;          ///< halted before `pending`
    PendingCall pending;
    bool finished = false;
    QString result; ///< when finished: success, requeue, requeue_after, error, terminal_error
    QString error;
    QString breakpoint; ///< the call breakpoint that halted it, as ControlState::lastBreak says it
};

/// Which cluster the session talks to.
struct ClusterInfo
{
    QString name; ///< "embedded" or the kubeconfig context
    QUrl server;
    bool embedded = false;
    QString kubeconfigPath; ///< embedded: where its kubeconfig was written
};

} // namespace opbench::workbench

Q_DECLARE_METATYPE(opbench::workbench::CacheBatch)
Q_DECLARE_METATYPE(opbench::workbench::CachePast)
Q_DECLARE_METATYPE(opbench::workbench::QueueSample)
Q_DECLARE_METATYPE(opbench::workbench::ObjectVersions)
Q_DECLARE_METATYPE(opbench::workbench::ClusterInfo)
Q_DECLARE_METATYPE(opbench::workbench::ControlState)
Q_DECLARE_METATYPE(opbench::workbench::CurrentReconcile)
