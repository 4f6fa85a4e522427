// SPDX-License-Identifier: Apache-2.0
// Leader election algorithm against an in-memory lease store, with a FakeClock.
#include "engine/api/clock.h"
#include "engine/api/metrics.h"
#include "engine/manager/leaderelector.h"

#include <QSignalSpy>
#include <QTest>

using namespace opbench;
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

class FakeLock final : public LeaseLock
{
public:
    explicit FakeLock(LeaseStore *store) : m_store(store) {}
    QCoro::Task<Expected<LeaderElectionRecord>> get() override
    {
        if (m_store->failReads)
            co_return Status::internalError(QStringLiteral("injected"));
        if (!m_store->exists)
            co_return Status::notFound(QStringLiteral("coordination.k8s.io"), QStringLiteral("leases"), QStringLiteral("lock"));
        m_seenRv = m_store->rv;
        // A prvalue: QCoro 0.8's return_value(U&&) moves from an lvalue of another type.
        co_return LeaderElectionRecord(m_store->record);
    }
    QCoro::Task<Expected<void>> create(LeaderElectionRecord r) override
    {
        if (m_store->failWrites)
            co_return Status::internalError(QStringLiteral("injected"));
        if (m_store->exists)
            co_return Status::alreadyExists(QStringLiteral("coordination.k8s.io"), QStringLiteral("leases"), QStringLiteral("lock"));
        m_store->exists = true;
        m_store->record = r;
        m_seenRv = ++m_store->rv;
        ++m_store->writes;
        co_return Expected<void>();
    }
    QCoro::Task<Expected<void>> update(LeaderElectionRecord r) override
    {
        if (m_store->failWrites)
            co_return Status::internalError(QStringLiteral("injected"));
        if (m_seenRv != m_store->rv)
            co_return Status::modifiedConflict(QStringLiteral("coordination.k8s.io"), QStringLiteral("leases"), QStringLiteral("lock"));
        m_store->record = r;
        m_seenRv = ++m_store->rv;
        ++m_store->writes;
        co_return Expected<void>();
    }
    QString describe() const override { return QStringLiteral("default/lock"); }

private:
    LeaseStore *m_store;
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
    // Steps the fake clock in small increments so chains of callbacks run as in real time.
    void advance(std::chrono::milliseconds total)
    {
        for (auto done = 0ms; done < total; done += 100ms)
            m_clock->advance(100ms);
    }
    // Advances until `pred` holds or `limit` passed; returns the time it took.
    template<typename Pred>
    std::chrono::milliseconds advanceUntil(Pred pred, std::chrono::milliseconds limit)
    {
        auto t = 0ms;
        while (!pred() && t < limit) {
            m_clock->advance(100ms);
            t += 100ms;
        }
        return t;
    }

    std::unique_ptr<FakeClock> m_clock;
    LeaseStore m_store;

private Q_SLOTS:
    void init()
    {
        m_clock = std::make_unique<FakeClock>();
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
        const auto *g = MetricsRegistry::global().gauge(QStringLiteral("leader_election_master_status"), {}, {QStringLiteral("name")})
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
        // b's clock starts when b *observes* a's last renewal (client-go's observedTime): up to one
        // jittered retry (4.4 s) after a died, then 15 s of lease, then at most one more retry.
        QVERIFY2(took <= 15s + 2 * 4400ms, qPrintable(QString::number(took.count())));
        QVERIFY2(took >= 11s, qPrintable(QString::number(took.count())));
        QCOMPARE(m_store.record.holderIdentity, QStringLiteral("b"));
        QCOMPARE(m_store.record.leaseTransitions, 1);
        QCOMPARE(m_store.record.acquireTime, m_store.record.renewTime);
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
