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

#include "engine/controller/clienttap.h"
#include "engine/recording/recording.h"

#include <QHash>
#include <QObject>

#include <memory>

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

    // ClientTap
    void callStarting(const ReconcileContext &ctx, const PendingCall &call) override;
    bool answer(
        const ReconcileContext &ctx, const TraceCall &call, const Object &sent, Expected<DeleteResult> *reply) override;
    void callFinished(
        const ReconcileContext &ctx, const TraceCall &call, const Object &sent, const Object &reply) override;

private:
    struct Live;
    void applyRecord(const RecordingRecord &rec);
    void startReconcile(const RecordingRecord &start);
    void releaseCall(const RecordingRecord &call);
    void endReconcile(const RecordingRecord &end, ReplayReport *report);
    void compare(const Live &live, const RecordingRecord &end, ReplayReport *report);
    Live *liveOf(const ReconcileContext &ctx) const;

    Recording m_recording;
    Manager *m_manager;
    ReplayClock *m_clock;
    QHash<int, Informer *> m_informers;
    QHash<QString, QList<const RecordingRecord *>> m_calls; // reconcile id -> its calls, in order
    QHash<QString, std::shared_ptr<Live>> m_live;           // reconciles started and not ended
    int m_skipped = 0;
};

} // namespace opbench
