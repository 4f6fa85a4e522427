// SPDX-License-Identifier: Apache-2.0
// A reconcile that burns CPU past the lease on the engine thread (runtime review #6):
// - by default the elector renews on its own thread, so the leader keeps its lease through the
//   spin and its write afterwards goes out (the write fence would refuse it otherwise);
// - with the elector on the engine thread (leaderElectionThread = false), renewals starve: when the
//   loop runs again the write is refused, because another replica may lead by then, and the
//   manager stops with "leader election lost".
// Against the embedded API server over HTTP (on its own thread). The spin is real time on purpose:
// a stalled event loop is the subject, and a FakeClock cannot move without running its timers.
#include "engine/controller/client.h"
#include "engine/manager/leaderelector.h"
#include "engine/manager/leaselock.h"
#include "engine/manager/manager.h"
#include "tests/support/testapiserver.h"

#include <QTest>
#include <QTimer>

using namespace opbench;
using namespace std::chrono_literals;
using testing::TestApiServer;

namespace {

const GroupVersionResource kConfigMaps{QString(), QStringLiteral("v1"), QStringLiteral("configmaps")};
const GroupVersionResource kLeases{
    QStringLiteral("coordination.k8s.io"), QStringLiteral("v1"), QStringLiteral("leases")};

struct Outcome
{
    bool done = false;
    std::optional<Expected<Object>> result;
};

/// Burns CPU on the engine thread for `spin`, then writes through the manager's client, as a
/// reconcile that hashes or renders something large would.
QCoro::Task<void> spinThenWrite(Client *client, std::chrono::milliseconds spin, Outcome *out)
{
    const auto until = std::chrono::steady_clock::now() + spin;
    while (std::chrono::steady_clock::now() < until) { }
    Object cm = Object::fromJson(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
        {QStringLiteral("metadata"),
            QJsonObject{{QStringLiteral("name"), QStringLiteral("late-write")},
                {QStringLiteral("namespace"), QStringLiteral("default")}}}});
    Expected<Object> r = co_await client->create(ReconcileContext(), std::move(cm));
    out->result = std::move(r);
    out->done = true;
}

class SpinningRunnable final : public Runnable
{
public:
    SpinningRunnable(Client *client, Outcome *out)
        : m_client(client)
        , m_out(out)
    { }
    QString name() const override { return QStringLiteral("spinner"); }
    QCoro::Task<Expected<void>> start() override
    {
        Client *client = m_client;
        Outcome *out = m_out;
        QTimer::singleShot(0, [client, out] { spinThenWrite(client, 4000ms, out); });
        co_return Expected<void>();
    }
    QCoro::Task<void> stop() override { co_return; }

private:
    Client *m_client;
    Outcome *m_out;
};

} // namespace

class TestLeaderFence : public QObject
{
    Q_OBJECT

    static ManagerOptions options(const RestConfig &cfg)
    {
        ManagerOptions mo;
        mo.restConfig = cfg;
        mo.leaderElection = true;
        mo.leaderElectionId = QStringLiteral("fence");
        mo.leaderElectionNamespace = QStringLiteral("default");
        mo.identity = QStringLiteral("spinner");
        mo.leaseDuration = 3s; // the spin (4 s) outlives it
        mo.renewDeadline = 2s;
        mo.retryPeriod = 500ms;
        mo.gracefulShutdownTimeout = 5s;
        return mo;
    }

private Q_SLOTS:
    void shouldKeepTheLeaseWhileAReconcileSpins()
    {
        TestApiServer api;
        QVERIFY2(api.start(), qPrintable(api.errorString()));
        Expected<RestConfig> cfg = loadConfig(api.kubeconfigPath());
        QVERIFY(cfg.ok());
        ManagerOptions mo = options(*cfg);
        auto created = Manager::create(mo);
        QVERIFY2(created.ok(), created.ok() ? "" : qPrintable(created.error().message()));
        std::unique_ptr<Manager> mgr = std::move(created.value());
        Outcome out;
        mgr->add(std::make_unique<SpinningRunnable>(mgr->client(), &out));
        bool finished = false;
        connect(mgr.get(), &Manager::finished, mgr.get(), [&](int, const QString &) { finished = true; });
        Expected<void> started = QCoro::waitFor(mgr->start());
        QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().message()));
        QTRY_VERIFY_WITH_TIMEOUT(out.done, 20000);
        QVERIFY(out.result.has_value());
        // The fence lets a write out only while the last renewal is recent: renewals went on
        // during the 4 s spin (lease 3 s).
        QVERIFY2(out.result->ok(), out.result->ok() ? "" : qPrintable(out.result->error().message()));
        QVERIFY(!mgr->elector()->lost());
        QVERIFY(mgr->isLeader());
        RestClient rest(*cfg);
        QVERIFY(QCoro::waitFor(rest.get(kConfigMaps, QStringLiteral("default"), QStringLiteral("late-write"))).ok());
        const Expected<Object> lease
            = QCoro::waitFor(rest.get(kLeases, QStringLiteral("default"), QStringLiteral("fence")));
        QVERIFY(lease.ok());
        QCOMPARE(LeaderElectionRecord::fromLease(*lease).holderIdentity, QStringLiteral("spinner"));
        // A stop it would have made on a lost lease was queued during the spin. The positive
        // signal that such queued work has run: the elector renewed the lease again since.
        const QDateTime renewed = LeaderElectionRecord::fromLease(*lease).renewTime;
        const auto renewTime = [&rest] {
            const Expected<Object> now
                = QCoro::waitFor(rest.get(kLeases, QStringLiteral("default"), QStringLiteral("fence")));
            return now ? LeaderElectionRecord::fromLease(*now).renewTime : QDateTime();
        };
        QTRY_VERIFY_WITH_TIMEOUT(renewTime() > renewed, 10000);
        QVERIFY(!finished);
        QVERIFY(mgr->isLeader());
        mgr->stop();
        QTRY_VERIFY_WITH_TIMEOUT(finished, 10000);
    }

    void shouldRefuseWritesAfterABusyLoopOutlivedTheLease()
    {
        TestApiServer api;
        QVERIFY2(api.start(), qPrintable(api.errorString()));
        Expected<RestConfig> cfg = loadConfig(api.kubeconfigPath());
        QVERIFY(cfg.ok());
        ManagerOptions mo = options(*cfg);
        mo.leaderElectionThread = false; // renewals share the spinning thread
        auto created = Manager::create(mo);
        QVERIFY2(created.ok(), created.ok() ? "" : qPrintable(created.error().message()));
        std::unique_ptr<Manager> mgr = std::move(created.value());
        Outcome out;
        mgr->add(std::make_unique<SpinningRunnable>(mgr->client(), &out));
        bool finished = false;
        QString reason;
        connect(mgr.get(), &Manager::finished, mgr.get(), [&](int, const QString &r) {
            finished = true;
            reason = r;
        });
        Expected<void> started = QCoro::waitFor(mgr->start());
        QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().message()));
        QTRY_VERIFY_WITH_TIMEOUT(out.done, 20000);
        QVERIFY(out.result.has_value());
        QVERIFY2(!out.result->ok(), "the write went out after the lease may have expired");
        QVERIFY2(
            out.result->error().message().contains(QLatin1String("lease")), qPrintable(out.result->error().message()));
        RestClient rest(*cfg);
        Expected<Object> onServer
            = QCoro::waitFor(rest.get(kConfigMaps, QStringLiteral("default"), QStringLiteral("late-write")));
        QVERIFY(!onServer.ok());
        QVERIFY(isNotFound(onServer.error()));
        QTRY_VERIFY_WITH_TIMEOUT(finished, 10000);
        QCOMPARE(reason, QStringLiteral("leader election lost"));
    }
};

QTEST_GUILESS_MAIN(TestLeaderFence)
#include "tst_leaderfence.moc"
