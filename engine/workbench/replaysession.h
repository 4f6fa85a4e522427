// SPDX-License-Identifier: Apache-2.0
#pragma once
// ReplaySession: the workbench's replay of a recording (`opbench --replay PATH`, File ▸ Open
// recording). It builds the operator's manager for a replay (its setup run, never started, the
// ReplayClock) and walks the recording with a Replayer paced by a transport: play at 1×, 10× or
// as fast as possible, pause, step (to the next reconcile's end), step into (the next reconcile
// halts before each of its client calls; each further step lets one call go out) and seek (the
// replay starts again and fast-forwards to the first reconcile at or after a time or a
// resourceVersion).
//
// The existing observers see the replay as they see a live run: the CacheFeed observes the
// replay manager's informers (the Replayer applies the recorded events to them), and each
// replayed reconcile is published through its Controller's own signals (reconcileProgress,
// callPending, callResumed, reconcileFinished), which the ControllerObserver relays, with the
// causes rebuilt from the recorded queue adds and the recorded durations. The queues are the
// recording's (the Replayer's RecordedQueue): queueSample() publishes each controller's depth and
// items at the recorded times, for the QueueObserver's replayed(). What only a replay has travels
// on this object: replayState() (where the transport is), divergence() (a reconcile that did
// something else than recorded) and replayedDuration().
//
// Breakpoints: while playing, the controller's breakpoints (Controller::breakpointList(), set
// through the ControllerObserver as live) stop the replay as they stop a live controller: a key,
// kind or condition breakpoint before the reconcile starts (let through once by the next play), a
// call breakpoint before that call (the replay then steps into that reconcile), an error
// breakpoint (or break on errors) after a reconcile that failed. The controller is paused (so the
// debugger's panels show it stopped) and breakpointHit() names the breakpoint; play resumes it.
//
// A reconcile that waits on something the recording does not answer runs the event loop at its
// recorded end (Replayer::waiting()): intents arriving meanwhile are retried once the wait ends.
//
// Lives on the engine thread (a child of the WorkbenchEngine); the UI posts its slots.

#include "engine/api/expected.h"
#include "engine/recording/recording.h"
#include "engine/sdk/operatordefinition.h"
#include "engine/workbench/snapshots.h"

#include <QHash>
#include <QMetaType>
#include <QObject>
#include <QSet>
#include <QString>

#include <functional>
#include <memory>

class QTimer;

namespace opbench {
class Controller;
class Manager;
class ReplayClock;
class Replayer;
struct ReconcileTrace;
struct PendingCall;
} // namespace opbench

namespace opbench::workbench {

/// Where the replay stands (published after every transport intent and while playing).
struct ReplayState
{
    bool open = false;
    QString path;
    QString operatorName; ///< from the recording's header
    QString started;      ///< the header's start time (UTC, ISO 8601)
    QString damage;       ///< the recording's damage ("" when it was read whole)
    int position = 0;     ///< records applied
    int records = 0;      ///< records in the recording
    int reconciles = 0;   ///< reconcile starts in the recording
    int replayed = 0;     ///< reconciles replayed and compared since the last (re)start
    int diverged = 0;     ///< of those, reconciles that did something else
    bool playing = false;
    double speed = 1;        ///< 1, 10, … ; 0: as fast as possible
    QString at;              ///< the recorded wall time of the last reconcile start (ISO 8601)
    QString resourceVersion; ///< of the last informer event applied
    QString stepping;        ///< the reconcile step into follows ("" when none)
    QString breakpoint;      ///< the breakpoint that paused the play ("" when none), e.g. "key default/web"
    bool finished = false;   ///< every record applied
};

class ReplaySession : public QObject
{
    Q_OBJECT
public:
    explicit ReplaySession(QObject *parent = nullptr);
    ~ReplaySession() override;
    Q_DISABLE_COPY_MOVE(ReplaySession)

    /// Reads `path` and builds the replay manager for `def` (setup fills def.kinds); the replay
    /// is then paused at its first record. Errors: not a recording (the reading's error), the
    /// operator's setup failed. A damaged recording opens (read up to the damage: state().damage).
    Expected<void> open(const QString &path, OperatorDefinition &def, int cacheHistory);
    /// Ends the replay and drops its manager.
    void close();
    /// The replay's manager (null before open()).
    Manager *manager() const { return m_manager.get(); }
    const ReplayState &state() const { return m_state; }

public Q_SLOTS:
    /// Plays at `speed` (1 = as recorded, gaps between reconciles longer than 2 s shortened;
    /// 0 = as fast as possible) until the end or pause().
    void play(double speed);
    void pause();
    /// The next reconcile runs to its recorded end (while stepping into one: its next call).
    void step();
    /// The next reconcile starts and halts before its first client call; each step() then lets
    /// one call go out.
    void stepInto();
    /// Starts again and fast-forwards to the first reconcile that started at or after `when`
    /// (ISO 8601, or milliseconds since the epoch).
    void seekToTime(const QString &when);
    /// Starts again and fast-forwards to the first reconcile after the informer event that
    /// brought the cache to resourceVersion `rv` (or past it).
    void seekToResourceVersion(const QString &rv);

Q_SIGNALS:
    void replayState(const opbench::workbench::ReplayState &state);
    /// The reconcile `reconcileId` did something else than recorded (`message` names both).
    void divergence(const QString &reconcileId, const QString &message);
    /// A seek is about to start the replay again (emitted directly: what observes the replay
    /// publishes what it holds first), then restarted(): the reconciles shown so far are gone.
    void aboutToRestart();
    void restarted();
    /// A seek's target is not in the recording (the replay stays where it ends).
    void seekFailed(const QString &message);
    /// `controller`'s queue as the recording had it (after changes, at most every 100 ms of
    /// recorded time, and after each intent). `atMs` is recorded time (continuing after a seek).
    void queueSample(const QString &controller, const opbench::workbench::QueueSample &sample);
    /// Play stopped at breakpoint `id` (0: break on errors) of `controller`: `reason` is its type
    /// ("key", "kind", "condition", "call", "error"), `key` the reconcile's.
    void breakpointHit(const QString &controller, int id, const QString &reason, const QString &key);
    /// A replayed reconcile's durations: as recorded and as re-executed now.
    void replayedDuration(const QString &reconcileId, qint64 recordedNs, qint64 reexecutedNs);

private:
    void restart();
    const RecordingRecord *advanceOne();
    void advanceUntil(const std::function<bool(const RecordingRecord &)> &stopAfter);
    void playRecords();
    void tick();
    void publish();
    void forwardToControllers();
    Controller *controllerNamed(const QString &name) const;
    /// While a reconcile's wait runs the event loop: `intent` again later (true), else false.
    bool deferredWhileWaiting(std::function<void()> intent);
    // replaysessionfeeds.cpp: the queues and the breakpoints
    void sampleQueues(bool always);
    QueueSample queueSampleOf(const QString &controller, qint64 nowNs) const;
    bool breaksBefore(int pos);
    void checkCallBreakpoint(const PendingCall &call);
    void checkErrorBreakpoint(const ReconcileTrace &trace);
    void hitBreakpoint(Controller *c, int id, const QString &reason, const QString &key);
    void resumeControllers();

    Recording m_recording;
    std::unique_ptr<ReplayClock> m_clock; // outlives the manager
    std::unique_ptr<Manager> m_manager;
    std::unique_ptr<Replayer> m_replayer; // goes before the manager
    ReplayState m_state;
    QString m_into;                 // the reconcile step into follows
    QSet<QString> m_halted;         // reconciles waiting before a call
    QHash<QString, QString> m_keys; // reconciles started and not ended: id -> key
    qint64 m_lastMonoNs = -1;
    bool m_waited = false; // play: the gap before the next reconcile start was waited
    QTimer *m_timer;       // child
    int m_passAt = -1;     // the reconcile start a breakpoint stopped before: the next play lets it through
    // Queue samples: recorded time since the first reading (m_firstMonoNs), continuing after a
    // seek from m_sampleBaseMs; the last sample's reading and counts (rates).
    qint64 m_firstMonoNs = -1;
    qint64 m_sampleBaseMs = 0;
    qint64 m_lastSampleAtMs = -1;
    qint64 m_lastSampleNs = -1;
    bool m_queueChanged = true;
    QHash<QString, qint64> m_lastAdds;    // controller -> adds at the last sample
    QHash<QString, qint64> m_lastRetries; // controller -> retries at the last sample
};

} // namespace opbench::workbench

Q_DECLARE_METATYPE(opbench::workbench::ReplayState)
