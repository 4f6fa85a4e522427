// SPDX-License-Identifier: Apache-2.0
#include "engine/manager/leaderelector.h"

#include "engine/base/metrics.h"

#include <QHostInfo>
#include <QRandomGenerator>
#include <QUuid>

#include <algorithm>

namespace opbench {

using std::chrono::milliseconds;

Expected<void> LeaderElectionConfig::validate() const
{
    auto invalid = [](const QString &msg) {
        return Status(0, QString::fromLatin1(StatusReason::ConfigError), QStringLiteral("leader election: ") + msg);
    };
    if (name.isEmpty())
        return invalid(QStringLiteral("a lease name (--leader-election-id) is required"));
    if (retryPeriod.count() <= 0)
        return invalid(QStringLiteral("retryPeriod must be greater than zero"));
    if (leaseDuration <= renewDeadline)
        return invalid(QStringLiteral("leaseDuration (%1 ms) must be greater than renewDeadline (%2 ms)")
                           .arg(leaseDuration.count())
                           .arg(renewDeadline.count()));
    if (double(renewDeadline.count()) <= 1.2 * double(retryPeriod.count()))
        return invalid(QStringLiteral("renewDeadline (%1 ms) must be greater than 1.2 x retryPeriod (%2 ms)")
                           .arg(renewDeadline.count())
                           .arg(retryPeriod.count()));
    return {};
}

QString defaultLeaderIdentity()
{
    QString host = QHostInfo::localHostName();
    if (host.isEmpty())
        host = QStringLiteral("localhost");
    return host + u'_' + QUuid::createUuid().toString(QUuid::WithoutBraces);
}

LeaderElector::LeaderElector(std::unique_ptr<LeaseLock> lock, LeaderElectionConfig config, QObject *parent)
    : QObject(parent)
    , m_lock(std::move(lock))
    , m_config(std::move(config))
    , m_clock(m_config.clock ? m_config.clock : Clock::system())
{
    if (m_config.identity.isEmpty())
        m_config.identity = defaultLeaderIdentity();
    if (m_config.retryPeriod.count() <= 0)
        m_config.retryPeriod = milliseconds(2000);
    auto *family = MetricsRegistry::global().gauge(QStringLiteral("leader_election_master_status"),
        QStringLiteral("Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, "
                       "1 indicates master. 'name' is the string used to identify the lease. Please make sure to "
                       "group by name."),
        {QStringLiteral("name")});
    m_statusGauge = family->labels({m_config.name});
    m_statusGauge->set(0);
}

LeaderElector::~LeaderElector()
{
    if (m_timer)
        m_clock->cancel(m_timer);
    if (m_deadlineTimer)
        m_clock->cancel(m_deadlineTimer);
    if (m_leading)
        m_statusGauge->set(0);
}

void LeaderElector::start()
{
    if (m_phase == Phase::Acquiring || m_phase == Phase::Renewing)
        return;
    m_phase = Phase::Acquiring;
    m_lost = false;
    m_handedOff = false;
    ++m_generation;
    schedule(milliseconds(0));
}

void LeaderElector::stop()
{
    ++m_generation;
    if (m_timer)
        m_clock->cancel(m_timer);
    m_timer = 0;
    if (m_deadlineTimer)
        m_clock->cancel(m_deadlineTimer);
    m_deadlineTimer = 0;
    const bool wasActive = m_phase == Phase::Acquiring || m_phase == Phase::Renewing;
    m_phase = Phase::Stopped;
    const bool wasLeading = m_leading;
    setLeading(false);
    if (!m_config.releaseOnCancel || (!wasLeading && !(wasActive && m_inFlight))) {
        Q_EMIT released();
        return;
    }
    if (m_inFlight)
        m_releaseWhenIdle = true; // the try in flight finishes first (same lock, same RV)
    else
        release();
}

void LeaderElector::handOff()
{
    m_handedOff = true;
    stop();
    m_handedOff = true;
}

void LeaderElector::takeBack()
{
    m_handedOff = false;
    if (m_phase == Phase::Stopped || m_phase == Phase::Idle)
        start();
}

void LeaderElector::schedule(milliseconds delay)
{
    if (m_timer)
        m_clock->cancel(m_timer);
    const quint64 gen = m_generation;
    m_timer = m_clock->callAfter(delay, this, [this, gen] {
        m_timer = 0;
        if (gen != m_generation)
            return;
        const auto now = m_clock->now();
        if (m_phase == Phase::Renewing
            && ((m_inRound && now >= deadlineFor(now)) || now >= m_lastWriteStart.load() + safeHold())) {
            loseLeadership(); // also when a busy event loop ran this timer late
            return;
        }
        runTry(gen);
    });
}

milliseconds LeaderElector::jitteredRetry() const
{
    // RetryPeriod × [0.5, 0.9): candidates stay spread out, and a standby sees the holder's last
    // renewal less than one RetryPeriod after it was written. (client-go: × [1, 2.2), which lets
    // a takeover after a crash take up to LeaseDuration + 2 × 2.2 × RetryPeriod.)
    const double factor = 0.5 + QRandomGenerator::global()->generateDouble() * 0.4;
    const auto retry = milliseconds(qint64(double(m_config.retryPeriod.count()) * factor));
    // Try again exactly when another holder's lease runs out rather than up to a retry later.
    if (!m_observed.holderIdentity.isEmpty() && m_observed.holderIdentity != m_config.identity) {
        const auto expiry = m_observedTime + std::chrono::seconds(m_observed.leaseDurationSeconds);
        const auto now = m_clock->now();
        if (expiry > now)
            return std::min(retry, std::chrono::ceil<milliseconds>(expiry - now));
    }
    return retry;
}

Clock::TimePoint LeaderElector::deadlineFor(Clock::TimePoint tryStart) const
{
    if (m_phase != Phase::Renewing)
        return tryStart + m_config.renewDeadline;
    // The round's deadline (client-go). It is also bounded from the start of our last successful
    // write: the others count LeaseDuration from when they saw that write, which is after it was
    // sent, so we stop before they can take over even when that write's reply came back late.
    return std::min(m_roundStart + m_config.renewDeadline, m_lastWriteStart.load() + safeHold());
}

Clock::Duration LeaderElector::safeHold() const
{
    return std::min<Clock::Duration>(m_config.retryPeriod + m_config.renewDeadline, m_config.leaseDuration);
}

bool LeaderElector::mayAct() const { return m_leading.load() && m_clock->now() < m_lastWriteStart.load() + safeHold(); }

LeaderElectionRecord LeaderElector::observedRecord() const
{
    QMutexLocker lock(&m_observedMutex);
    return m_observed;
}

QCoro::Task<void> LeaderElector::runTry(quint64 generation)
{
    if (m_inFlight) { // an abandoned try is still running: go again when it returns
        m_tryWhenIdle = true;
        co_return;
    }
    const auto start = m_clock->now();
    if (m_phase == Phase::Renewing && !m_inRound) {
        m_inRound = true;
        m_roundStart = start;
    }
    const quint64 id = ++m_tryId;
    m_inFlight = true;
    m_tryWhenIdle = false;
    if (m_deadlineTimer)
        m_clock->cancel(m_deadlineTimer);
    m_deadlineTimer = m_clock->callAt(deadlineFor(start), this, [this, id] {
        m_deadlineTimer = 0;
        onTryDeadline(id);
    });
    QPointer<LeaderElector> self(this);
    const bool ok = co_await tryAcquireOrRenew();
    if (!self)
        co_return;
    m_inFlight = false;
    if (id == m_tryId && m_deadlineTimer) {
        m_clock->cancel(m_deadlineTimer);
        m_deadlineTimer = 0;
    }
    if (generation != m_generation || id != m_tryId) { // stopped, lost or abandoned meanwhile
        if (m_releaseWhenIdle) {
            m_releaseWhenIdle = false;
            release();
        } else if (m_phase == Phase::Acquiring && (m_tryWhenIdle || !m_timer)) {
            schedule(milliseconds(0));
        }
        m_tryWhenIdle = false;
        co_return;
    }
    onTryDone(ok, start);
}

void LeaderElector::onTryDeadline(quint64 tryId)
{
    if (tryId != m_tryId || !m_inFlight)
        return;
    if (m_phase == Phase::Renewing) {
        loseLeadership(); // the renewal still in flight no longer counts
        return;
    }
    if (m_phase == Phase::Acquiring)
        ++m_tryId; // abandoned: a late success must not make us leader; retried when it returns
}

void LeaderElector::onTryDone(bool ok, Clock::TimePoint tryStart)
{
    const auto now = m_clock->now();
    const auto deadline = deadlineFor(tryStart);
    if (m_phase == Phase::Acquiring) {
        if (ok && now >= deadline) { // too late to count (raced its deadline): renew first
            schedule(milliseconds(0));
            return;
        }
        if (!ok) {
            schedule(jitteredRetry());
            return;
        }
        m_phase = Phase::Renewing;
        m_inRound = false;
        m_lastWriteStart = tryStart;
        setLeading(true);
        if (m_phase == Phase::Renewing) // a slot may have stopped us
            schedule(m_config.retryPeriod);
        return;
    }
    if (m_phase != Phase::Renewing)
        return;
    if (now >= deadline) {
        loseLeadership();
        return;
    }
    if (ok) {
        m_inRound = false;
        m_lastWriteStart = tryStart;
        schedule(m_config.retryPeriod);
        return;
    }
    schedule(std::min(m_config.retryPeriod, std::chrono::duration_cast<milliseconds>(deadline - now)));
}

void LeaderElector::loseLeadership()
{
    ++m_generation;
    if (m_timer)
        m_clock->cancel(m_timer);
    m_timer = 0;
    if (m_deadlineTimer)
        m_clock->cancel(m_deadlineTimer);
    m_deadlineTimer = 0;
    m_phase = Phase::Stopped;
    m_lost = true;
    m_inRound = false;
    setLeading(false);
}

bool LeaderElector::leaseValid(Clock::TimePoint now) const
{
    return m_observedTime + std::chrono::seconds(m_observed.leaseDurationSeconds) > now;
}

void LeaderElector::observe(const LeaderElectionRecord &record, Clock::TimePoint now)
{
    const bool holderChanged = record.holderIdentity != m_observed.holderIdentity;
    {
        QMutexLocker lock(&m_observedMutex);
        m_observed = record;
    }
    m_observedTime = now;
    if (holderChanged)
        Q_EMIT newLeader(record.holderIdentity);
}

QCoro::Task<bool> LeaderElector::tryAcquireOrRenew()
{
    QPointer<LeaderElector> self(this);
    const auto now = m_clock->now();
    const QDateTime wallNow = m_clock->wallNow();
    LeaderElectionRecord record{m_config.identity,
        int(std::chrono::duration_cast<std::chrono::seconds>(m_config.leaseDuration).count()), wallNow, wallNow, 0};
    const bool weHold = m_observed.holderIdentity == m_config.identity;
    if (weHold && m_leading && leaseValid(now)) { // fast path: renew
        record.acquireTime = m_observed.acquireTime;
        record.leaseTransitions = m_observed.leaseTransitions;
        const Expected<void> renewed = co_await m_lock->update(record);
        if (!self)
            co_return false;
        if (renewed) {
            observe(record, m_clock->now());
            co_return true;
        }
    }
    Expected<LeaderElectionRecord> current = co_await m_lock->get();
    if (!self)
        co_return false;
    if (!current) {
        if (!isNotFound(current.error()))
            co_return false;
        const Expected<void> created = co_await m_lock->create(record);
        if (!self || !created)
            co_return false;
        observe(record, m_clock->now());
        co_return true;
    }
    // The record is seen when the GET returns: it may have been written while the GET was queued
    // (client-go's setObservedRecord). Expiry below is judged against `now`, the earlier time.
    if (!current->sameAs(m_observed))
        observe(*current, m_clock->now());
    const bool held = !current->holderIdentity.isEmpty();
    if (held && current->holderIdentity != m_config.identity && leaseValid(now))
        co_return false; // another holder, not expired yet
    if (current->holderIdentity == m_config.identity) {
        record.acquireTime = current->acquireTime;
        record.leaseTransitions = current->leaseTransitions;
    } else {
        record.leaseTransitions = current->leaseTransitions + 1;
    }
    const Expected<void> updated = co_await m_lock->update(record);
    if (!self || !updated)
        co_return false;
    observe(record, m_clock->now());
    co_return true;
}

QCoro::Task<void> LeaderElector::release()
{
    QPointer<LeaderElector> self(this);
    if (m_observed.holderIdentity != m_config.identity) {
        Q_EMIT released();
        co_return;
    }
    const QDateTime wallNow = m_clock->wallNow();
    const LeaderElectionRecord record{QString(), 1, wallNow, wallNow, m_observed.leaseTransitions};
    for (int attempt = 0; attempt < 3; ++attempt) {
        const Expected<void> done = co_await m_lock->update(record);
        if (!self)
            co_return;
        if (done) {
            observe(record, m_clock->now());
            break;
        }
        if (!isConflict(done.error()))
            break;
        const Expected<LeaderElectionRecord> current = co_await m_lock->get(); // refresh the RV
        if (!self)
            co_return;
        if (!current || current->holderIdentity != m_config.identity)
            break; // someone else holds it now: nothing of ours to release
    }
    Q_EMIT released();
}

void LeaderElector::setLeading(bool leading)
{
    if (m_leading.load() == leading)
        return;
    m_leading = leading;
    m_statusGauge->set(leading ? 1 : 0);
    if (leading)
        Q_EMIT startedLeading();
    else
        Q_EMIT stoppedLeading();
}

} // namespace opbench
