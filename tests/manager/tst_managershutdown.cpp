// SPDX-License-Identifier: Apache-2.0
// Manager shutdown: runnables stop in controller-runtime's order (non-election, then election),
// and one grace period bounds the wait for all of them — a non-election runnable that never
// stops no longer blocks the shutdown; running out of it is exit code 1.
#include "engine/base/clock.h"
#include "engine/manager/leaderelector.h"
#include "engine/manager/manager.h"
#include "engine/testing/fakeclock.h"
#include "tests/manager/leaseserver.h"

#include <QTest>

#include <coroutine>
#include <vector>

using namespace opbench;
using namespace std::chrono_literals;

namespace {

/// Holds the stop() calls that hang until the test opens it (at its end, so that their frames
/// finish: LeakSanitizer reports frames left suspended).
struct Gate
{
    std::vector<std::coroutine_handle<>> waiting;
    void open()
    {
        for (const std::coroutine_handle<> h : std::exchange(waiting, {}))
            h.resume();
    }
};

struct GateWait
{
    Gate *gate;
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> h) const { gate->waiting.push_back(h); }
    void await_resume() const noexcept { }
};

class TestRunnable final : public Runnable
{
public:
    TestRunnable(QString name, bool elected, Gate *hangs, QStringList *log)
        : m_name(std::move(name))
        , m_elected(elected)
        , m_hangs(hangs)
        , m_log(log)
    { }
    QString name() const override { return m_name; }
    bool needLeaderElection() const override { return m_elected; }
    QCoro::Task<Expected<void>> start() override
    {
        m_log->append(QStringLiteral("start ") + m_name);
        co_return Expected<void>();
    }
    QCoro::Task<void> stop() override
    {
        m_log->append(QStringLiteral("stop ") + m_name);
        if (m_hangs)
            co_await GateWait{m_hangs};
        m_log->append(QStringLiteral("stopped ") + m_name);
    }

private:
    QString m_name;
    bool m_elected;
    Gate *m_hangs; // null: stops at once
    QStringList *m_log;
};

} // namespace

class TestManagerShutdown : public QObject
{
    Q_OBJECT

private:
    struct Run
    {
        ~Run() { hangs.open(); } // while the manager and the log still exist
        Gate hangs;
        QStringList log;
        std::unique_ptr<Manager> mgr;
        bool finished = false;
        int code = -1;
        QString reason;
    };
    static void startManager(Run &run, std::chrono::milliseconds grace, bool hangNonElection)
    {
        ManagerOptions mo;
        mo.restConfig.server = QUrl(QStringLiteral("http://127.0.0.1:9")); // never contacted
        mo.gracefulShutdownTimeout = grace;
        auto mgr = Manager::create(mo);
        QVERIFY(mgr.ok());
        run.mgr = std::move(mgr.value());
        run.mgr->add(std::make_unique<TestRunnable>(
            QStringLiteral("background"), false, hangNonElection ? &run.hangs : nullptr, &run.log));
        run.mgr->add(std::make_unique<TestRunnable>(QStringLiteral("controller"), true, nullptr, &run.log));
        connect(run.mgr.get(), &Manager::finished, run.mgr.get(), [&run](int code, const QString &reason) {
            run.finished = true;
            run.code = code;
            run.reason = reason;
        });
        Expected<void> started = QCoro::waitFor(run.mgr->start());
        QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().message()));
        QTRY_VERIFY(run.log.contains(QStringLiteral("start controller")));
    }

private Q_SLOTS:
    void shouldStopNonElectionRunnablesFirstAndExitZero()
    {
        Run run;
        startManager(run, 30s, false);
        run.mgr->stop();
        QTRY_VERIFY_WITH_TIMEOUT(run.finished, 10000);
        QCOMPARE(run.code, 0);
        QVERIFY(run.reason.isEmpty());
        const qsizetype background = run.log.indexOf(QStringLiteral("stopped background"));
        const qsizetype controller = run.log.indexOf(QStringLiteral("stop controller"));
        QVERIFY(background >= 0 && controller >= 0);
        QVERIFY2(background < controller, qPrintable(run.log.join(u',')));
    }

    // Finding 4: losing the lease skips the grace period (controller-runtime sets it to 0 in
    // OnStoppedLeading): a controller that is slow to stop must not keep the old leader's process
    // alive, and writing, for up to 30 s while a new leader runs.
    void shouldStopAtOnceWhenTheLeaseIsLost()
    {
        test::LeaseServer server;
        QVERIFY(server.listen());
        testing::FakeClock clock;
        ManagerOptions mo;
        mo.restConfig.server = QUrl(server.url());
        mo.restConfig.timeout = 5s;
        mo.clock = &clock;
        mo.leaderElection = true;
        mo.leaderElectionId = QStringLiteral("lock");
        mo.leaderElectionNamespace = QStringLiteral("default");
        mo.identity = QStringLiteral("a");
        mo.gracefulShutdownTimeout = 30s;
        auto created = Manager::create(mo);
        QVERIFY(created.ok());
        Run run;
        run.mgr = std::move(created.value());
        run.mgr->add(std::make_unique<TestRunnable>(QStringLiteral("controller"), true, &run.hangs, &run.log));
        connect(run.mgr.get(), &Manager::finished, run.mgr.get(), [&run](int code, const QString &reason) {
            run.finished = true;
            run.code = code;
            run.reason = reason;
        });
        Expected<void> started = QCoro::waitFor(run.mgr->start());
        QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().message()));
        clock.advance(0ms);
        QTRY_VERIFY(run.log.contains(QStringLiteral("start controller")));
        QCOMPARE(server.holder(), QStringLiteral("a"));
        server.throttled = true; // renewals now fail (429, Retry-After) until RenewDeadline
        for (auto t = 0ms; t < 20s && run.mgr->isLeader(); t += 100ms) {
            clock.advance(100ms);
            QTest::qWait(1);
        }
        QVERIFY(!run.mgr->isLeader());
        QVERIFY(run.mgr->elector()->lost());
        // Well inside the 30 s grace period the controller would otherwise get.
        QTRY_VERIFY_WITH_TIMEOUT(run.finished, 5000);
        QCOMPARE(run.code, 1);
        QCOMPARE(run.reason, QStringLiteral("leader election lost"));
        QVERIFY(run.log.contains(QStringLiteral("stop controller"))); // asked to stop, not waited for
        QVERIFY(!run.log.contains(QStringLiteral("stopped controller")));
    }

    void shouldBoundHangingNonElectionRunnableByGracePeriod()
    {
        Run run;
        startManager(run, 200ms, true);
        run.mgr->stop();
        // Without the bound the manager would wait for "background" forever.
        QTRY_VERIFY_WITH_TIMEOUT(run.finished, 10000);
        QCOMPARE(run.code, 1);
        QVERIFY2(run.reason.contains(QLatin1String("grace period")), qPrintable(run.reason));
        QVERIFY(!run.log.contains(QStringLiteral("stopped background")));
        QVERIFY2(run.log.contains(QStringLiteral("stopped controller")), qPrintable(run.log.join(u',')));
    }
};

QTEST_GUILESS_MAIN(TestManagerShutdown)
#include "tst_managershutdown.moc"
