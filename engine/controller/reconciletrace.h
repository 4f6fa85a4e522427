// SPDX-License-Identifier: Apache-2.0
#pragma once
// ReconcileTrace: everything about one reconcile — why it ran (the merged causes), what it read
// and wrote (every client call, with the change each write made), and how it ended. The
// controller emits one per reconcile (Controller::reconcileFinished); TraceWriter appends them
// to a file as JSON lines (`--trace-file PATH`).

#include "engine/api/gvk.h"
#include "engine/api/object.h"
#include "engine/base/clock.h"
#include "engine/controller/jsondiff.h"
#include "engine/queue/cause.h"
#include "engine/queue/queuekey.h"

#include <QDateTime>
#include <QFile>
#include <QJsonObject>
#include <QMetaType>
#include <QObject>

#include <optional>

namespace opbench {

/// A client call about to be sent (what "step into" shows before it goes out).
struct PendingCall
{
    QString reconcileId;
    QString controller;
    int index = 0; ///< 0-based position among the reconcile's calls
    QString verb;  ///< get, list, create, update, updateStatus, patch, patchStatus, delete
    GroupVersionKind gvk;
    QString key;            ///< "ns/name" (list: the namespace or "" for all)
    bool fromCache = false; ///< reads served by the informer cache
    QJsonObject body;       ///< writes: the object sent (patches: {"patch": …})
    QList<DiffEntry> diff;  ///< writes: cached object → object sent (empty when not cached)
    /// Writes: the cached object the write replaces (null when not cached), so a debugger can
    /// show the request as a diff against it. Not in toJson().
    Object replaces;
    /// Writes (not patches): the object to send. Implicitly shared: body and diff are filled from
    /// it only when the call halts (fillRequest()), whatever halted it (stepping, a breakpoint).
    Object sends;

    /// Fills body and diff from sends and replaces when they are not filled yet.
    void fillRequest();
    [[nodiscard]] QJsonObject toJson() const;
};

/// One client call made by a reconcile.
struct TraceCall
{
    QString verb;
    GroupVersionKind gvk;
    QString key;
    bool fromCache = false;
    int code = 0;    ///< HTTP status (200 for cache hits; 404 for cache misses; 0 transport)
    QString reason;  ///< errors: the Status reason
    QString message; ///< errors: the Status message
    Clock::Duration latency{0};
    QDateTime startedAt; ///< wall clock
    int items = -1;      ///< lists: number of items returned
    /// Gets: the resourceVersion of the object read (from the cache, or live); writes: the one
    /// the server's reply carries. Empty for lists, deletes without a body, and errors.
    QString resourceVersion;
    QByteArray patch; ///< patches: the patch body
    /// Writes: the two objects diff() compares, before (the cache's copy) and after (the server's
    /// reply, or the object sent on failure). Implicitly shared: the diff is computed when asked
    /// for, not on the reconcile path (it was a tenth of the operator's instructions per write).
    Object diffBefore;
    Object diffAfter;
    bool hasDiff = false;
    /// Only while the reconcile is observed (stepped with an observer attached, see
    /// Controller::setProgressObserved), never written by toJson(): gets, the object as read;
    /// writes, the server's reply. Implicitly shared, so copying a trace stays cheap.
    Object object;
    Object sent; ///< observed writes: the object sent (patches: the object the patch was made from)

    [[nodiscard]] bool ok() const { return code >= 200 && code < 300; }
    /// Writes: what changed from diffBefore to diffAfter (empty for reads).
    [[nodiscard]] QList<DiffEntry> diff() const;
    [[nodiscard]] QJsonObject toJson() const;
};

struct ReconcileTrace
{
    enum class Result : quint8 { Success, Requeue, RequeueAfter, Error, TerminalError };

    QString id; ///< reconcileID (UUID)
    QString controller;
    QueueKey request;
    CauseList causes;
    int priority = 0;
    int retries = 0;              ///< the queue's failure count when handed out
    int worker = 0;               ///< 1-based worker slot that ran it (≤ maxConcurrentReconciles)
    QString cacheResourceVersion; ///< the For informer's lastSyncResourceVersion at start
    QList<TraceCall> calls;
    Result result = Result::Success;
    Clock::Duration requeueAfter{0};
    QString error;     ///< errors: the message
    int errorCode = 0; ///< errors: the Status code (409 for conflicts)
    bool panicked = false;
    bool timedOut = false;
    QDateTime startedAt; ///< wall clock
    Clock::Duration duration{0};
    bool finished = false;

    [[nodiscard]] static QString resultName(Result r); ///< success, requeue, requeue_after, error, terminal_error
    [[nodiscard]] QJsonObject toJson() const;
    /// One JSON line (compact, no newline).
    [[nodiscard]] QByteArray toJsonLine() const;
};

/// Appends every trace it is given as one JSON line, flushed per line (`--trace-file PATH`):
///   connect(controller, &Controller::reconcileFinished, writer, &TraceWriter::write);
class TraceWriter : public QObject
{
    Q_OBJECT
public:
    explicit TraceWriter(QString path, QObject *parent = nullptr);
    ~TraceWriter() override;

    /// Opens (appending to) the file. The error names the path and the reason.
    [[nodiscard]] bool open(QString *error = nullptr);
    [[nodiscard]] qint64 written() const { return m_written; }

public Q_SLOTS:
    void write(const opbench::ReconcileTrace &trace);

private:
    QFile m_file;
    qint64 m_written = 0;
};

} // namespace opbench

Q_DECLARE_METATYPE(opbench::ReconcileTrace)
Q_DECLARE_METATYPE(opbench::PendingCall)
