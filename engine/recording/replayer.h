// SPDX-License-Identifier: Apache-2.0
#pragma once
// Replayer: re-executes a recording headless (`<operator> --replay PATH`): for each recorded
// reconcile, in the order they started, it brings the manager's cache to what the recording says
// it held (informer events up to that point, and within the reconcile up to each call), sets the
// injected ReplayClock to the recorded readings and calls the operator's own reconciler. Writes
// and live reads are answered from the recording (no API server). It then compares what the
// reconciler did now with what it did then: the sequence of calls (verb, kind, key, and for
// writes the object sent minus volatile fields) and the result (success, requeue, requeue_after
// with its delay, error). A recording is thereby a regression test.
//
// The manager given must be built with the ReplayClock, set up by the operator and not started;
// its REST client is never used for reconcile calls (point it at an unreachable address).
// Exact for runs with one worker per controller; with more, reconciles that overlapped are
// replayed one after another in start order.

#include "engine/controller/clienttap.h"
#include "engine/recording/recording.h"

#include <QHash>
#include <QObject>

#include <qcoro/qcorotask.h>

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

    QCoro::Task<ReplayReport> run();

    // ClientTap
    void callStarting(const ReconcileContext &ctx, const PendingCall &call) override;
    std::optional<Expected<DeleteResult>> answer(
        const ReconcileContext &ctx, const TraceCall &call, const Object &sent) override;
    void callFinished(
        const ReconcileContext &ctx, const TraceCall &call, const Object &sent, const Object &reply) override;

private:
    struct Current;
    void applyUpTo(qint64 seq);
    void applyRecord(const RecordingRecord &rec);
    Informer *informerOf(int id);
    QCoro::Task<bool> replayOne(int position, ReplayReport *report);
    void compare(const RecordingRecord &end, const QString &result, ReplayReport *report);

    Recording m_recording;
    Manager *m_manager;
    ReplayClock *m_clock;
    int m_cursor = 0; // next record to apply
    QHash<int, Informer *> m_informers;
    QHash<QString, const RecordingRecord *> m_ends;         // reconcile id -> its "re"
    QHash<QString, QList<const RecordingRecord *>> m_calls; // reconcile id -> its calls, in order
    std::unique_ptr<Current> m_current;
};

} // namespace opbench
