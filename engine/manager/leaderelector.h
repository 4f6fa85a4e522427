// SPDX-License-Identifier: Apache-2.0
#pragma once
// LeaderElector: client-go's leader election on a LeaseLock, driven by a Clock.
//
// - start(): tries to acquire at once, then every RetryPeriod×[0.5, 0.9) (jitter; client-go:
//   ×[1, 2.2)) until it leads, and exactly when the observed holder's lease runs out: a standby
//   takes over within LeaseDuration + RetryPeriod of the holder's last renewal.
// - Each try (tryAcquireOrRenew): fast renew when we lead and the lease is still valid; else
//   GET (404 → POST with us as holder); when the record changed since last seen, note the LOCAL
//   time (observedTime); while another holder's observedTime + leaseDuration is ahead, wait;
//   otherwise PUT (compare-and-swap on the GET's resourceVersion) with us as holder,
//   renewTime = now and, on takeover, acquireTime = now and leaseTransitions + 1.
// - While leading: renew every RetryPeriod; failed renewals are retried every RetryPeriod for up
//   to RenewDeadline, then leadership is lost (stoppedLeading, lost() true). The deadline is a
//   Clock timer, so it also cuts off a renewal still in flight (a slow or hung request, or one
//   sleeping on Retry-After): client-go's round context. It is also never later than
//   min(RetryPeriod + RenewDeadline, LeaseDuration) after the *start* of the last successful
//   write, so a leader whose reply came back late still stops before its lease can expire for
//   the others (they count LeaseDuration from when they saw the write, after it was sent).
// - A try made while acquiring that outlives RenewDeadline is abandoned: its late success does not
//   make us leader (a later try renews what it wrote).
// - A standby stamps observedTime when its GET *returned* (the record may have been written while
//   the GET was queued), and judges expiry against the time the try began, as client-go.
// - stop(): stops trying and, when leading and releaseOnCancel, writes an empty holder with
//   leaseDurationSeconds 1 so another candidate takes over within one retry.
// - handOff(): release and stop trying (the GUI hands leadership to a headless operator);
//   takeBack(): resume trying.
// Defaults as controller-runtime: 15 s / 10 s / 2 s; validate() enforces
// LeaseDuration > RenewDeadline > 1.2 × RetryPeriod.
// Exports leader_election_master_status{name} (1 while leading).
// Threads: it lives on one thread (the Manager gives it its own, so a busy engine thread cannot
// starve renewals) and is driven there; isLeader, lost, mayAct, handedOff, observedLeader and
// observedRecord may be called from any thread.

#include "engine/api/expected.h"
#include "engine/base/clock.h"
#include "engine/manager/leaselock.h"

#include <QMutex>
#include <QObject>
#include <QPointer>

#include <atomic>

#include <chrono>
#include <memory>

namespace opbench {

class Gauge;

struct LeaderElectionConfig
{
    QString name; // the lease name (LeaderElectionID), for metrics and logs
    /// Our identity; empty = "<hostname>_<uuid>".
    QString identity;
    std::chrono::milliseconds leaseDuration{15000};
    std::chrono::milliseconds renewDeadline{10000};
    std::chrono::milliseconds retryPeriod{2000};
    bool releaseOnCancel = true;
    Clock *clock = nullptr; // nullptr = Clock::system()

    /// LeaseDuration > RenewDeadline > 1.2 × RetryPeriod, all > 0, name set.
    Expected<void> validate() const;
};

/// "<hostname>_<uuid>", as controller-runtime builds the default identity.
QString defaultLeaderIdentity();

class LeaderElector : public QObject
{
    Q_OBJECT
public:
    /// Takes ownership of `lock`. Call config.validate() first; an invalid config is clamped.
    LeaderElector(std::unique_ptr<LeaseLock> lock, LeaderElectionConfig config, QObject *parent = nullptr);
    ~LeaderElector() override;

    const LeaderElectionConfig &config() const { return m_config; }
    QString identity() const { return m_config.identity; }
    bool isLeader() const { return m_leading.load(); }
    /// True after leadership was lost to a failed renewal (not after stop/handOff).
    bool lost() const { return m_lost.load(); }
    /// Leading, and no other candidate can have taken the lease over yet: less than
    /// min(RetryPeriod + RenewDeadline, LeaseDuration) since the start of our last successful
    /// write. False once that passed, even before the timer that ends leadership has run (a
    /// busy event loop): a fence for writes.
    [[nodiscard]] bool mayAct() const;
    /// True between handOff() and takeBack().
    bool handedOff() const { return m_handedOff.load(); }
    /// The holder last observed ("" when none or unknown).
    QString observedLeader() const { return observedRecord().holderIdentity; }
    LeaderElectionRecord observedRecord() const;

    /// Starts campaigning (first try at once).
    void start();
    /// Stops campaigning; releases the lease when leading and releaseOnCancel. Emits
    /// stoppedLeading when leading. `released` is emitted when the release write finished.
    void stop();
    /// Releases the lease (when leading) and stops trying until takeBack().
    void handOff();
    void takeBack();

Q_SIGNALS:
    void startedLeading();
    /// Leadership ended: lost renewal (lost() true), stop() or handOff().
    void stoppedLeading();
    /// A different holder was observed (also our own identity when we became leader).
    void newLeader(const QString &identity);
    /// The release write finished (or there was nothing to release).
    void released();

private:
    enum class Phase { Idle, Acquiring, Renewing, Stopped };
    QCoro::Task<void> runTry(quint64 generation);
    QCoro::Task<bool> tryAcquireOrRenew();
    QCoro::Task<void> release();
    void onTryDone(bool ok, Clock::TimePoint tryStart);
    /// When the try starting at `tryStart` must have succeeded.
    Clock::TimePoint deadlineFor(Clock::TimePoint tryStart) const;
    /// How long after the start of our last successful write the lease is surely still ours.
    Clock::Duration safeHold() const;
    void onTryDeadline(quint64 tryId);
    void loseLeadership();
    void schedule(std::chrono::milliseconds delay);
    std::chrono::milliseconds jitteredRetry() const;
    bool leaseValid(Clock::TimePoint now) const;
    void setLeading(bool leading);
    void observe(const LeaderElectionRecord &record, Clock::TimePoint now);

    std::unique_ptr<LeaseLock> m_lock;
    LeaderElectionConfig m_config;
    Clock *m_clock;
    Gauge *m_statusGauge;
    Phase m_phase = Phase::Idle;
    std::atomic<bool> m_leading{false};
    std::atomic<bool> m_lost{false};
    std::atomic<bool> m_handedOff{false};
    bool m_inFlight = false;
    bool m_inRound = false;         // a renewal round is running (its deadline counts)
    bool m_releaseWhenIdle = false; // stop() came while a try was in flight
    quint64 m_generation = 0;       // bumps on stop/handOff so stale tries are ignored
    quint64 m_timer = 0;
    quint64 m_deadlineTimer = 0;
    quint64 m_tryId = 0;             // bumps per try and when a try is abandoned at its deadline
    bool m_tryWhenIdle = false;      // a try was due while an abandoned one was still in flight
    LeaderElectionRecord m_observed; // written on the elector's thread, under m_observedMutex
    mutable QMutex m_observedMutex;
    Clock::TimePoint m_observedTime{};
    Clock::TimePoint m_roundStart{};
    std::atomic<Clock::TimePoint> m_lastWriteStart{Clock::TimePoint{}}; // start of the try whose write last succeeded
};

} // namespace opbench
