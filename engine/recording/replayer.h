// SPDX-License-Identifier: Apache-2.0
#pragma once
// Replayer: re-executes a recording headless (`<operator> --replay PATH`) through the operator's
// own reconciler. It walks the records in order, as the engine thread saw them: informer events
// are applied to the manager's cache; a reconcile start starts the reconciler (with the
// ReplayClock set to the recorded readings), which halts before each client call; the recorded
// call releases it, so every call sees the cache as it was when it was made, reconciles that
// overlapped interleave as they did, and writes and live reads are answered with the recorded
// status and reply (no API server). At the reconcile's recorded end, what the reconciler did now
// is compared with what it did then: the sequence of calls (verb, kind, key, and for writes the
// object sent minus volatile fields) and the result (success, requeue, requeue_after with its
// delay, error). A recording is thereby a regression test.
//
// The manager given must be built with the ReplayClock, set up by the operator and not started;
// its REST client is never used for reconcile calls (point it at an unreachable address).
//
// run() replays everything at once (headless). The workbench drives the same walk one record at a
// time (begin(), advance(), end()) and, with setObserved(true), watches each reconcile through
// the signals below, as a debugger watches a live controller's.
//
// The queue records (`qa`) rebuild the controllers' queues (queue(), a RecordedQueue): each
// replayed reconcile carries the causes its key was queued for since its previous hand-out, as
// live (the `re` record's own list when they do not match it, and in format-1 files), and the
// duration the recording measured (`re` and `rs` clock readings; the re-executed one is kept
// too).
//
// Waiting: a reconcile that waits on something the recording does not answer (a timer, a live
// list) is given up to 10 s of event loop at its recorded end. Events delivered meanwhile must
// not move the replay: advance() refuses while waiting() (it returns null and the position
// stays), so a nested wait can never start and the records stay in order; abortWait() ends the
// wait early (the replay is being closed).

#include "engine/controller/clienttap.h"
#include "engine/recording/recordedqueue.h"
#include "engine/recording/recording.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>

#include <memory>
#include <optional>

namespace opbench {

class Informer;
class Manager;
class ReplayClock;

struct ReplayDivergence
{
    QString reconcileId;
    QString controller;
    QString key;
    int index = -1;   ///< the call's position in the reconcile; -1: the result differs
    QString recorded; ///< the call (or result) recorded; "(none)" when the reconciler made more calls
    QString made;     ///< the call (or result) made now; "(none)" when it made fewer
};

struct ReplayReport
{
    int replayed = 0; ///< reconciles re-executed
    int diverged = 0; ///< of those, reconciles that did something else
    int skipped = 0;  ///< recorded reconciles that cannot be replayed (unfinished, unknown controller)
    QList<ReplayDivergence> divergences; ///< the first ones (at most 10)
    QString recordingError;              ///< the recording's damage, when it was read only in part
    double seconds = 0;

    /// One JSON line: {"replayed":N,"diverged":D,"skipped":S,"reconcilesPerSecond":R,
    /// "divergences":[{"reconcile","controller","key","index","recorded","made"}…],"recordingError":…}
    [[nodiscard]] QByteArray toJsonLine() const;
};

class Replayer : public QObject, public ClientTap
{
    Q_OBJECT
public:
    Replayer(Recording recording, Manager *manager, ReplayClock *clock, QObject *parent = nullptr);
    ~Replayer() override;
    Q_DISABLE_COPY_MOVE(Replayer)

    /// Replays the whole recording (returns when done; the event loop runs only while a
    /// reconcile waits on something the recording does not answer).
    ReplayReport run();

    /// Stepwise replay: begin() installs the replay's client tap, each advance() applies the next
    /// record (returns it; null at the end), end() cancels the reconciles left unfinished and
    /// removes the tap. report() counts what was replayed so far.
    void begin();
    const RecordingRecord *advance();
    void end();
    [[nodiscard]] bool atEnd() const { return m_pos >= m_recording.records().size(); }
    /// The position in recording().records() of the record advance() applies next.
    [[nodiscard]] int position() const { return int(m_pos); }
    [[nodiscard]] const Recording &recording() const { return m_recording; }
    [[nodiscard]] const ReplayReport &report() const { return m_report; }
    /// Reconciles are observed: their traces keep the objects read and written, and the signals
    /// below follow each one (off by default: the headless replay copies nothing).
    void setObserved(bool on) { m_observed = on; }
    /// The controllers' queues as the records applied so far left them.
    [[nodiscard]] const RecordedQueue &queue() const { return m_queue; }
    /// A reconcile's recorded end is waiting for the reconciler to finish (the event loop runs).
    [[nodiscard]] bool waiting() const { return m_waitDepth > 0; }
    /// Ends the current wait at its next turn (the reconcile is then reported as not finished).
    void abortWait() { m_abortWait = true; }

    // ClientTap
    void callStarting(const ReconcileContext &ctx, const PendingCall &call) override;
    bool answer(
        const ReconcileContext &ctx, const TraceCall &call, const Object &sent, Expected<DeleteResult> *reply) override;
    void callFinished(
        const ReconcileContext &ctx, const TraceCall &call, const Object &sent, const Object &reply) override;

Q_SIGNALS:
    /// (Observed only.) A recorded reconcile started (its trace: id, controller, key, start).
    void reconcileStarted(const opbench::ReconcileTrace &trace);
    /// (Observed only.) The reconcile halted before its next call, until that call's record.
    void callHalted(const opbench::PendingCall &call);
    /// (Observed only.) The recorded call released the reconcile's halted call.
    void callReleased(const QString &reconcileId, int index);
    /// (Observed only.) The reconcile's trace after a released call went out.
    void reconcileProgress(const opbench::ReconcileTrace &trace);
    /// (Observed only.) The reconcile's recorded end: its trace as re-executed now (calls,
    /// result), with the recorded worker, retries, priority, causes and duration; `divergence`
    /// says what it did differently from the recording ("" when nothing); `reexecutedNs`: how
    /// long the reconciler ran now (its own work between the records that drove it).
    void reconcileEnded(const opbench::ReconcileTrace &trace, const QString &divergence, qint64 reexecutedNs);

private:
    struct Live;
    void applyRecord(const RecordingRecord &rec);
    void startReconcile(const RecordingRecord &start);
    void releaseCall(const RecordingRecord &call);
    void endReconcile(const RecordingRecord &end, ReplayReport *report);
    void waitToFinish(Live &live);
    CauseList causesOf(const Live &live, const RecordingRecord &end) const;
    std::optional<ReplayDivergence> compare(const Live &live, const RecordingRecord &end) const;
    void publishEnd(const Live &live, const RecordingRecord &end, const std::optional<ReplayDivergence> &d);
    Live *liveOf(const ReconcileContext &ctx) const;

    Recording m_recording;
    Manager *m_manager;
    ReplayClock *m_clock;
    QHash<int, Informer *> m_informers;
    QHash<QString, QList<const RecordingRecord *>> m_calls; // reconcile id -> its calls, in order
    QHash<QString, std::shared_ptr<Live>> m_live;           // reconciles started and not ended
    RecordedQueue m_queue;
    bool m_queueRecorded = false; // the recording has queue adds (format 2)
    int m_waitDepth = 0;
    bool m_abortWait = false;
    int m_skipped = 0;
    qsizetype m_pos = 0;
    ReplayReport m_report;
    bool m_observed = false;
    QElapsedTimer m_timer; // since begin()
};

} // namespace opbench
