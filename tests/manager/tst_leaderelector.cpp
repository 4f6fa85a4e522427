// SPDX-License-Identifier: Apache-2.0
// Leader election algorithm against an in-memory lease store, with a FakeClock.
#include "engine/base/clock.h"
#include "engine/base/metrics.h"
#include "engine/client/awaitsignal.h"
#include "engine/client/restclient.h"
#include "engine/manager/leaderelector.h"
#include "engine/testing/fakeclock.h"
#include "tests/manager/leaseserver.h"

#include <QSignalSpy>
#include <QTest>

using namespace opbench;
using opbench::test::LeaseServer;
using namespace std::chrono_literals;

namespace {

// One lease shared by several candidates, with a resourceVersion compare-and-swap.
struct LeaseStore
{
    bool exists = false;
    LeaderElectionRecord record;
    int rv = 0;
    bool failWrites = false;
    bool failReads = false;
    int writes = 0;
};

// Faults of one candidate's lock, in FakeClock time: a request that waits `readDelay` or
// `writeDelay` before it reaches the store (queued by the server, API Priority & Fairness,
// a slow network), and failures that only this candidate sees (a partition).
struct LockFaults
{
    std::chrono::milliseconds readDelay{0};
    int slowReads = -1; // how many reads take readDelay (-1: all)
    std::chrono::milliseconds writeDelay{0};
    bool failWrites = false;
    bool failReads = false;
    std::function<void()> onRead; // when a read reaches the store (before it is answered)
};

class FakeLock final : public LeaseLock
{
public:
    FakeLock(LeaseStore *store, Clock *clock = nullptr, LockFaults *faults = nullptr)
        : m_store(store)
        , m_clock(clock)
        , m_faults(faults)
    { }
    QCoro::Task<Expected<LeaderElectionRecord>> get() override
    {
        if (m_faults && m_faults->readDelay.count() > 0 && m_faults->slowReads != 0) {
            if (m_faults->slowReads > 0)
                --m_faults->slowReads;
            co_await detail::ClockSleep(m_clock, m_faults->readDelay, &m_context);
        }
        if (m_faults && m_faults->onRead)
            m_faults->onRead();
        if (m_store->failReads || (m_faults && m_faults->failReads))
            co_return Status::internalError(QStringLiteral("injected"));
        if (!m_store->exists)
            co_return Status::notFound(
                QStringLiteral("coordination.k8s.io"), QStringLiteral("leases"), QStringLiteral("lock"));
        m_seenRv = m_store->rv;
        // A prvalue: QCoro 0.8's return_value(U&&) moves from an lvalue of another type.
        co_return LeaderElectionRecord(m_store->record);
    }
    QCoro::Task<Expected<void>> create(LeaderElectionRecord r) override
    {
        if (m_store->failWrites)
            co_return Status::internalError(QStringLiteral("injected"));
        if (m_store->exists)
            co_return Status::alreadyExists(
                QStringLiteral("coordination.k8s.io"), QStringLiteral("leases"), QStringLiteral("lock"));
        m_store->exists = true;
        m_store->record = r;
        m_seenRv = ++m_store->rv;
        ++m_store->writes;
        co_return Expected<void>();
    }
    QCoro::Task<Expected<void>> update(LeaderElectionRecord r) override
    {
        if (m_faults && m_faults->writeDelay.count() > 0)
            co_await detail::ClockSleep(m_clock, m_faults->writeDelay, &m_context);
        if (m_store->failWrites || (m_faults && m_faults->failWrites))
            co_return Status::internalError(QStringLiteral("injected"));
        if (m_seenRv != m_store->rv)
            co_return Status::modifiedConflict(
                QStringLiteral("coordination.k8s.io"), QStringLiteral("leases"), QStringLiteral("lock"));
        m_store->record = r;
        m_seenRv = ++m_store->rv;
        ++m_store->writes;
        co_return Expected<void>();
    }
    QString describe() const override { return QStringLiteral("default/lock"); }

private:
    LeaseStore *m_store;
    Clock *m_clock;
    LockFaults *m_faults;
    QObject m_context; // sleeps end with the lock
    int m_seenRv = -1;
};

} // namespace

class TestLeaderElector : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<LeaderElector> candidate(const QString &id, bool release = true)
    {
        LeaderElectionConfig cfg;
        cfg.name = QStringLiteral("lock");
        cfg.identity = id;
        cfg.clock = m_clock.get();
        cfg.releaseOnCancel = release;
        return std::make_unique<LeaderElector>(std::make_unique<FakeLock>(&m_store), cfg);
    }
    std::unique_ptr<LeaderElector> candidateWithFaults(const QString &id, LockFaults *faults)
    {
        LeaderElectionConfig cfg;
        cfg.name = QStringLiteral("lock");
        cfg.identity = id;
        cfg.clock = m_clock.get();
        return std::make_unique<LeaderElector>(std::make_unique<FakeLock>(&m_store, m_clock.get(), faults), cfg);
    }
    // Steps the fake clock in small increments so chains of callbacks run as in real time.
    void advance(std::chrono::milliseconds total)
    {
        for (auto done = 0ms; done < total; done += 100ms)
            m_clock->advance(100ms);
    }
    // Advances until `pred` holds or `limit` passed; returns the time it took.
    template<typename Pred> std::chrono::milliseconds advanceUntil(Pred pred, std::chrono::milliseconds limit)
    {
        auto t = 0ms;
        while (!pred() && t < limit) {
            m_clock->advance(100ms);
            t += 100ms;
        }
        return t;
    }

    std::unique_ptr<testing::FakeClock> m_clock;
    LeaseStore m_store;

private Q_SLOTS:
    void init()
    {
        m_clock = std::make_unique<testing::FakeClock>();
        m_store = LeaseStore();
    }

    void shouldCreateLeaseAndLeadWhenMissing()
    {
        auto a = candidate(QStringLiteral("a"));
        QSignalSpy started(a.get(), &LeaderElector::startedLeading);
        a->start();
        advance(100ms);
        QVERIFY(a->isLeader());
        QCOMPARE(started.count(), 1);
        QVERIFY(m_store.exists);
        QCOMPARE(m_store.record.holderIdentity, QStringLiteral("a"));
        QCOMPARE(m_store.record.leaseDurationSeconds, 15);
        QCOMPARE(m_store.record.leaseTransitions, 0);
        QCOMPARE(m_store.record.acquireTime, m_store.record.renewTime);
        const auto *g = MetricsRegistry::global()
                            .gauge(QStringLiteral("leader_election_master_status"), {}, {QStringLiteral("name")})
                            ->find({QStringLiteral("lock")});
        QVERIFY(g);
        QCOMPARE(g->value(), 1.0);
    }

    void shouldRenewEveryRetryPeriodKeepingAcquireTime()
    {
        auto a = candidate(QStringLiteral("a"));
        a->start();
        advance(100ms);
        const QDateTime acquired = m_store.record.acquireTime;
        const int writes = m_store.writes;
        advance(10s);
        QVERIFY(a->isLeader());
        QCOMPARE(m_store.writes - writes, 5); // every 2 s
        QCOMPARE(m_store.record.acquireTime, acquired);
        QVERIFY(m_store.record.renewTime > acquired.addSecs(9));
        QCOMPARE(m_store.record.leaseTransitions, 0);
    }

    void shouldNotTakeOverWhileHolderRenews()
    {
        auto a = candidate(QStringLiteral("a"));
        a->start();
        advance(100ms);
        auto b = candidate(QStringLiteral("b"));
        QSignalSpy newLeader(b.get(), &LeaderElector::newLeader);
        b->start();
        advance(60s);
        QVERIFY(a->isLeader());
        QVERIFY(!b->isLeader());
        QCOMPARE(b->observedLeader(), QStringLiteral("a"));
        QCOMPARE(newLeader.count(), 1);
    }

    void shouldTakeOverAfterExpiryWithTransitionIncremented()
    {
        auto a = candidate(QStringLiteral("a"), /*release=*/false);
        a->start();
        advance(100ms);
        auto b = candidate(QStringLiteral("b"));
        b->start();
        advance(3s);
        QVERIFY(!b->isLeader());
        a.reset(); // crash: no release, no more renewals
        const auto took = advanceUntil([&] { return b->isLeader(); }, 60s);
        QVERIFY(b->isLeader());
        // b's clock starts when b *observes* a's last renewal (client-go's observedTime): less than
        // one retry after it, then 15 s of lease (see the next test for the 17 s bound).
        QVERIFY2(took <= 17s, qPrintable(QString::number(took.count())));
        QVERIFY2(took >= 11s, qPrintable(QString::number(took.count())));
        QCOMPARE(m_store.record.holderIdentity, QStringLiteral("b"));
        QCOMPARE(m_store.record.leaseTransitions, 1);
        QCOMPARE(m_store.record.acquireTime, m_store.record.renewTime);
    }

    // A standby takes over within LeaseDuration + RetryPeriod (17 s) of the leader's crash,
    // wherever the crash falls between renewals and polls: it polls at most every RetryPeriod, and
    // its try after the last renewal it saw is due exactly when the lease expires.
    void shouldTakeOverWithinLeaseDurationPlusRetryPeriodOfACrash()
    {
        auto worst = 0ms;
        for (int run = 0; run < 25; ++run) {
            init();
            auto a = candidate(QStringLiteral("a"), /*release=*/false);
            a->start();
            advance(100ms);
            auto b = candidate(QStringLiteral("b"));
            b->start();
            advance(5s + 100ms * (run % 20)); // crash at a different point of the renew/poll cycles
            QVERIFY(a->isLeader());
            a.reset(); // kill -9: no release, no more renewals
            const auto took = advanceUntil([&] { return b->isLeader(); }, 60s);
            QVERIFY(b->isLeader());
            worst = std::max(worst, took);
        }
        qInfo("worst takeover after a crash: %lld ms", qint64(worst.count()));
        QVERIFY2(worst <= 17s, qPrintable(QStringLiteral("worst takeover %1 ms").arg(worst.count())));
    }

    void shouldUseLocalObservedTimeNotRenewTime()
    {
        // A record whose renewTime is far in the past (clock skew) is still valid for its
        // duration from the moment we first see it.
        m_store.exists = true;
        m_store.rv = 7;
        m_store.record = {QStringLiteral("other"), 15, QDateTime::fromSecsSinceEpoch(1000, Qt::UTC),
            QDateTime::fromSecsSinceEpoch(1000, Qt::UTC), 3};
        auto b = candidate(QStringLiteral("b"));
        b->start();
        advance(14s);
        QVERIFY(!b->isLeader());
        advanceUntil([&] { return b->isLeader(); }, 10s);
        QVERIFY(b->isLeader());
        QCOMPARE(m_store.record.leaseTransitions, 4);
    }

    void shouldLoseLeadershipAfterRenewDeadline()
    {
        auto a = candidate(QStringLiteral("a"));
        QSignalSpy stopped(a.get(), &LeaderElector::stoppedLeading);
        a->start();
        advance(100ms);
        advance(2s); // one good renewal
        m_store.failWrites = true;
        m_store.failReads = true;
        advance(9s);
        QVERIFY(a->isLeader());
        QCOMPARE(stopped.count(), 0);
        advance(3s);
        QVERIFY(!a->isLeader());
        QVERIFY(a->lost());
        QCOMPARE(stopped.count(), 1);
    }

    // Finding 1: a renewal that outlives RenewDeadline (here a write that takes 30 s to reach the
    // server) must cost the leader its leadership at the deadline, not when the write returns.
    void shouldLoseLeadershipWhileASlowRenewalIsInFlight()
    {
        LockFaults aFaults;
        auto a = candidateWithFaults(QStringLiteral("a"), &aFaults);
        QSignalSpy stopped(a.get(), &LeaderElector::stoppedLeading);
        a->start();
        advance(100ms);
        QVERIFY(a->isLeader());
        auto b = candidate(QStringLiteral("b"));
        b->start();
        advance(3s);
        const int writesBefore = m_store.writes;
        aFaults.writeDelay = 30s; // from now on a's renewals hang for 30 s
        int bothLeading = 0;
        auto steps = 0ms;
        for (; steps < 60s && !b->isLeader(); steps += 100ms) {
            m_clock->advance(100ms);
            if (a->isLeader() && b->isLeader())
                ++bothLeading;
        }
        QVERIFY(b->isLeader());
        QCOMPARE(bothLeading, 0);
        QVERIFY(!a->isLeader());
        QVERIFY(a->lost());
        QCOMPARE(stopped.count(), 1);
        QCOMPARE(m_store.record.holderIdentity, QStringLiteral("b"));
        QVERIFY(m_store.writes > writesBefore);
        advance(40s); // a's hung write lands on a stale resourceVersion: refused
        QCOMPARE(m_store.record.holderIdentity, QStringLiteral("b"));
        QVERIFY(b->isLeader());
        QVERIFY(!a->isLeader());
    }

    // Finding 1 against a real lock: RestLeaseLock over RestClient, the server answering 429 with
    // Retry-After (RestClient retries, sleeping on the clock): leadership ends at RenewDeadline.
    void shouldLoseLeadershipWhileThrottledRenewalRetries()
    {
        LeaseServer server;
        QVERIFY(server.listen());
        RestConfig rc;
        rc.server = QUrl(server.url());
        rc.clock = m_clock.get();
        rc.qps = 0;
        rc.timeout = 5s;
        RestClient rest(rc);
        LeaderElectionConfig cfg;
        cfg.name = QStringLiteral("lock");
        cfg.identity = QStringLiteral("a");
        cfg.clock = m_clock.get();
        LeaderElector a(std::make_unique<RestLeaseLock>(&rest, QStringLiteral("default"), QStringLiteral("lock")), cfg);
        QSignalSpy stopped(&a, &LeaderElector::stoppedLeading);
        a.start();
        m_clock->advance(0ms);
        QTRY_VERIFY(a.isLeader()); // the HTTP calls take real (loopback) time, the lease none
        QCOMPARE(server.holder(), QStringLiteral("a"));
        server.throttled = true; // every request from now on: 429, Retry-After: 5
        const QString host = QStringLiteral("127.0.0.1:%1").arg(rc.server.port());
        auto received429 = [&] {
            double n = 0;
            for (const char *method : {"GET", "PUT"})
                if (const Counter *c
                    = MetricsRegistry::global()
                          .counter(QStringLiteral("rest_client_requests_total"), QString(),
                              {QStringLiteral("code"), QStringLiteral("method"), QStringLiteral("host")})
                          ->find({QStringLiteral("429"), QString::fromLatin1(method), host}))
                    n += c->value();
            return int(n);
        };
        auto elapsed = 0ms;
        for (; elapsed < 60s && a.isLeader(); elapsed += 100ms) {
            m_clock->advance(100ms);
            QTest::qWait(1); // lets a request out; then every answer sent is read before time moves on
            QTRY_COMPARE_WITH_TIMEOUT(received429(), server.throttledAnswers, 5000);
        }
        QVERIFY2(server.throttledAnswers > 0, "the renewal never reached the server");
        QVERIFY(!a.isLeader());
        QVERIFY(a.lost());
        QCOMPARE(stopped.count(), 1);
        // The last good renewal was at most 2 s before throttling began; RenewDeadline is 10 s.
        QVERIFY2(elapsed <= 12s, qPrintable(QString::number(elapsed.count())));
    }

    // Finding 2: a standby's GET that was queued for 10 s shows a renewal made at the end of
    // those 10 s. Counting the lease from when the GET was *sent* lets the standby take over
    // while the old leader (whose later renewals fail) still leads.
    void shouldCountTheLeaseFromWhenTheStandbySawIt()
    {
        LockFaults aFaults;
        auto a = candidateWithFaults(QStringLiteral("a"), &aFaults);
        a->start();
        advance(100ms);
        QVERIFY(a->isLeader());
        LockFaults bFaults;
        auto b = candidateWithFaults(QStringLiteral("b"), &bFaults);
        b->start();
        advance(3s);
        QVERIFY(!b->isLeader());
        // b's next GET waits 10 s in a queue; when it is served, a is cut off from the server.
        bFaults.readDelay = 10s;
        bFaults.slowReads = 1;
        bFaults.onRead = [&] {
            if (bFaults.slowReads == 0 && !aFaults.failWrites) {
                aFaults.failWrites = true;
                aFaults.failReads = true;
            }
        };
        int bothLeading = 0;
        for (auto t = 0ms; t < 60s && !b->isLeader(); t += 100ms) {
            m_clock->advance(100ms);
            if (a->isLeader() && b->isLeader())
                ++bothLeading;
        }
        QVERIFY(aFaults.failWrites);
        QVERIFY(b->isLeader());
        QVERIFY(a->lost());
        QCOMPARE(bothLeading, 0);
    }

    void shouldReleaseOnStopSoOthersTakeOverQuickly()
    {
        auto a = candidate(QStringLiteral("a"));
        a->start();
        advance(100ms);
        auto b = candidate(QStringLiteral("b"));
        b->start();
        advance(1s);
        QSignalSpy released(a.get(), &LeaderElector::released);
        a->stop();
        QCOMPARE(released.count(), 1);
        QVERIFY(!a->isLeader());
        QVERIFY(!a->lost());
        QCOMPARE(m_store.record.holderIdentity, QString());
        QCOMPARE(m_store.record.leaseDurationSeconds, 1);
        const auto took = advanceUntil([&] { return b->isLeader(); }, 30s);
        QVERIFY(b->isLeader());
        QVERIFY2(took <= 4400ms + 100ms, qPrintable(QString::number(took.count())));
        QCOMPARE(m_store.record.leaseTransitions, 1);
    }

    void shouldHandOffAndTakeBack()
    {
        auto gui = candidate(QStringLiteral("gui"));
        gui->start();
        advance(100ms);
        auto headless = candidate(QStringLiteral("headless"));
        headless->start();
        advance(1s);
        gui->handOff();
        QVERIFY(gui->handedOff());
        QVERIFY(!gui->isLeader());
        advanceUntil([&] { return headless->isLeader(); }, 10s);
        QVERIFY(headless->isLeader());
        advance(30s);
        QVERIFY(!gui->isLeader()); // stopped trying
        headless->handOff();
        gui->takeBack();
        advanceUntil([&] { return gui->isLeader(); }, 10s);
        QVERIFY(gui->isLeader());
        QCOMPARE(m_store.record.holderIdentity, QStringLiteral("gui"));
        QCOMPARE(m_store.record.leaseTransitions, 2);
    }

    void shouldDefaultIdentityToHostnameAndUuid()
    {
        auto a = candidate(QString());
        QVERIFY(a->identity().contains(u'_'));
        QCOMPARE(a->identity().section(u'_', -1).size(), 36);
        QCOMPARE(a->config().leaseDuration, 15s);
        QCOMPARE(a->config().renewDeadline, 10s);
        QCOMPARE(a->config().retryPeriod, 2s);
    }

    void shouldValidateDurations_data()
    {
        QTest::addColumn<int>("lease");
        QTest::addColumn<int>("renew");
        QTest::addColumn<int>("retry");
        QTest::addColumn<bool>("valid");
        QTest::newRow("defaults") << 15000 << 10000 << 2000 << true;
        QTest::newRow("lease==renew") << 10000 << 10000 << 2000 << false;
        QTest::newRow("renew<1.2retry") << 15000 << 2300 << 2000 << false;
        QTest::newRow("renew==1.2retry") << 15000 << 2400 << 2000 << false;
        QTest::newRow("just valid") << 15000 << 2401 << 2000 << true;
        QTest::newRow("zero retry") << 15000 << 10000 << 0 << false;
    }
    void shouldValidateDurations()
    {
        QFETCH(int, lease);
        QFETCH(int, renew);
        QFETCH(int, retry);
        QFETCH(bool, valid);
        LeaderElectionConfig cfg;
        cfg.name = QStringLiteral("x");
        cfg.leaseDuration = std::chrono::milliseconds(lease);
        cfg.renewDeadline = std::chrono::milliseconds(renew);
        cfg.retryPeriod = std::chrono::milliseconds(retry);
        const auto res = cfg.validate();
        QCOMPARE(res.ok(), valid);
        if (!valid)
            QVERIFY(res.error().message().startsWith(QStringLiteral("leader election: ")));
    }
};

QTEST_GUILESS_MAIN(TestLeaderElector)
#include "tst_leaderelector.moc"
