// SPDX-License-Identifier: Apache-2.0
// Leadership (engine/workbench/leadership.h): the Leadership panel's view of a Manager's leader
// elector against the embedded API server over loopback — a candidate while another identity
// holds the Lease, the leader once it is free; and the embedded hand-off: a stand-in operator
// process (a shell script that exits 0 on SIGTERM) starts, the lease is released to it, Take back
// stops it and campaigns again. Every wait is on a published state (QTRY), none on a time.
#include "engine/api/lease.h"
#include "engine/client/restclient.h"
#include "engine/manager/leaselock.h"
#include "engine/manager/manager.h"
#include "engine/workbench/leadership.h"
#include "tests/support/testapiserver.h"
#include "tests/workbench/headless.h"

#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace opbench;
using namespace opbench::workbench;
using namespace std::chrono_literals;

namespace {

const GroupVersionResource kLeases{
    QStringLiteral("coordination.k8s.io"), QStringLiteral("v1"), QStringLiteral("leases")};
const QString kLease = QStringLiteral("workbench-test");

Object leaseHeldBy(const QString &holder)
{
    LeaderElectionRecord held;
    held.holderIdentity = holder;
    held.leaseDurationSeconds = 3600;
    held.acquireTime = held.renewTime = QDateTime::currentDateTimeUtc();
    return LeaderElectionRecord::applyTo(
        Object::fromJson(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("coordination.k8s.io/v1")},
            {QStringLiteral("kind"), QStringLiteral("Lease")},
            {QStringLiteral("metadata"),
                QJsonObject{
                    {QStringLiteral("name"), kLease}, {QStringLiteral("namespace"), QStringLiteral("default")}}}}),
        held);
}

/// A stand-in for opbench-operator in `dir`: says where it runs, writes a recording of two
/// reconciles to its --record file (when given one), exits 0 on SIGTERM. "" when it cannot be written.
QString fakeOperator(const QTemporaryDir &dir)
{
    QString program = dir.filePath(QStringLiteral("fake-operator"));
    QFile script(program);
    if (!script.open(QIODevice::WriteOnly))
        return {};
    script.write("#!/bin/sh\nrec=\nwhile [ $# -gt 0 ]; do [ \"$1\" = --record ] && rec=\"$2\"; shift; done\n"
                 "echo \"fake operator as $KUBERNETES_SERVICE_HOST\"\n"
                 "if [ -n \"$rec\" ]; then cat > \"$rec\" <<'EOF'\n"
                 "{\"seq\":0,\"t\":\"header\",\"format\":\"opbench-recording/2\",\"operator\":\"fake\"}\n"
                 "{\"seq\":1,\"t\":\"rs\",\"ctl\":\"c\",\"id\":\"r1\",\"key\":\"default/a\",\"mono\":1,\"wall\":1}\n"
                 "{\"seq\":2,\"t\":\"rs\",\"ctl\":\"c\",\"id\":\"r2\",\"key\":\"default/b\",\"mono\":2,\"wall\":2}\n"
                 "EOF\nfi\n"
                 "trap 'kill $child 2>/dev/null; exit 0' TERM\nsleep 600 &\nchild=$!\nwait $child\n");
    script.close();
    if (!script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner))
        return {};
    return program;
}

} // namespace

class tst_Leadership : public QObject
{
    Q_OBJECT

    struct Fixture
    {
        Q_DISABLE_COPY_MOVE(Fixture)
        testing::TestApiServer api;
        RestConfig cfg;
        std::unique_ptr<RestClient> rest;
        std::unique_ptr<Manager> mgr;
        Leadership leadership;
        LeadershipState state;
        QStringList logLines;
        QStringList failures;
        Fixture()
        {
            QObject::connect(&leadership, &Leadership::leadershipState, &leadership, [this](const LeadershipState &s) {
                state = s;
                logLines += s.newLogLines;
            });
            QObject::connect(
                &leadership, &Leadership::actionFailed, &leadership, [this](const QString &m) { failures << m; });
        }
        ~Fixture()
        {
            leadership.attach(nullptr, {}, {});
            if (mgr) {
                bool finished = false;
                QObject::connect(mgr.get(), &Manager::finished, mgr.get(), [&finished] { finished = true; });
                mgr->stop();
                if (!QTest::qWaitFor([&finished] { return finished; }, 10000))
                    qWarning("the manager did not finish within 10 s");
            }
        }
        /// Starts the server (with the lease held by `holder` when not empty) and a manager.
        bool start(bool leaderElection, const QString &holder = {})
        {
            if (!api.start())
                return false;
            Expected<RestConfig> loaded = loadConfig(api.kubeconfigPath());
            if (!loaded)
                return false;
            cfg = *loaded;
            rest = std::make_unique<RestClient>(cfg);
            if (!holder.isEmpty()
                && !QCoro::waitFor(rest->create(kLeases, QStringLiteral("default"), leaseHeldBy(holder))).ok())
                return false;
            ManagerOptions mo;
            mo.restConfig = cfg;
            mo.leaderElection = leaderElection;
            mo.leaderElectionId = kLease;
            mo.leaderElectionNamespace = QStringLiteral("default");
            mo.identity = QStringLiteral("workbench");
            mo.leaseDuration = 15s;
            mo.renewDeadline = 1s;
            mo.retryPeriod = 200ms;
            mo.leaderElectionThread = false;
            mo.healthProbeBindAddress = QStringLiteral("0");
            mo.metricsBindAddress = QStringLiteral("0");
            auto created = Manager::create(mo);
            if (!created)
                return false;
            mgr = std::move(created.value());
            return QCoro::waitFor(mgr->start()).ok();
        }
        /// Attaches the leadership with the stand-in operator of `dir` as the headless program.
        bool attachWithFakeOperator(const QTemporaryDir &dir, const QString &recordingDir)
        {
            HandOffOptions o;
            o.launch.program = fakeOperator(dir);
            o.launch.server = api.url();
            o.launch.token = api.token().toUtf8();
            o.launch.identity = QStringLiteral("headless");
            o.recordingDir = recordingDir;
            if (o.launch.program.isEmpty())
                return false;
            leadership.attach(mgr.get(), kLease, o);
            return true;
        }
        QString holder()
        {
            const Expected<Object> l = QCoro::waitFor(rest->get(kLeases, QStringLiteral("default"), kLease));
            return l ? LeaderElectionRecord::fromLease(*l).holderIdentity : QStringLiteral("<no lease>");
        }
        bool release()
        {
            const Expected<Object> l = QCoro::waitFor(rest->get(kLeases, QStringLiteral("default"), kLease));
            if (!l)
                return false;
            LeaderElectionRecord r = LeaderElectionRecord::fromLease(*l);
            r.holderIdentity.clear();
            return QCoro::waitFor(
                rest->update(kLeases, QStringLiteral("default"), LeaderElectionRecord::applyTo(*l, r)))
                .ok();
        }
    };

private Q_SLOTS:
    void initTestCase()
    {
        testing::verifyNoGuiLibrariesLoaded();
        QStandardPaths::setTestModeEnabled(true); // a default recording folder is not the user's
    }

    void shouldShowACandidateUntilTheLeaseIsFreeThenTheLeader()
    {
        Fixture f;
        QVERIFY(f.start(true, QStringLiteral("other")));
        f.leadership.attach(f.mgr.get(), kLease, HandOffOptions{});
        QCOMPARE(f.state.leaseName, kLease);
        QCOMPARE(f.state.leaseNamespace, QStringLiteral("default"));
        QCOMPARE(f.state.identity, QStringLiteral("workbench"));
        QVERIFY(f.state.handOffPossible);
        // Another identity holds the lease: a candidate that sees who holds it
        QTRY_COMPARE_WITH_TIMEOUT(f.state.holder, QStringLiteral("other"), 10000);
        QCOMPARE(f.state.role, LeadershipState::Role::Candidate);
        QVERIFY(f.state.leaseFound);
        QCOMPARE(f.state.leaseDurationSeconds, 3600);
        QVERIFY(!f.state.canTakeBack());
        // Released: this workbench takes it and leads
        QVERIFY(f.release());
        QTRY_COMPARE_WITH_TIMEOUT(f.state.role, LeadershipState::Role::Leader, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(f.state.holder, QStringLiteral("workbench"), 10000);
        QCOMPARE(f.state.leaseDurationSeconds, 15);
        QVERIFY(f.state.leadsHere());
        QVERIFY(f.state.canHandOff());
        // Detached: Off
        f.leadership.attach(nullptr, {}, {});
        QCOMPARE(f.state.role, LeadershipState::Role::Off);
    }

    void shouldOfferNoHandOffWithoutLeaderElection()
    {
        Fixture f;
        QVERIFY(f.start(false));
        f.leadership.attach(f.mgr.get(), kLease, HandOffOptions{});
        QCOMPARE(f.state.role, LeadershipState::Role::Off);
        QVERIFY(!f.state.handOffPossible);
        QCOMPARE(f.state.handOffUnavailable, QStringLiteral("leader election is off"));
        QVERIFY(!f.state.canHandOff());
        f.leadership.handOff();
        QCOMPARE(f.failures, QStringList{QStringLiteral("leader election is off")});
    }

    void shouldRefuseAHandOffToAMissingProgram()
    {
        Fixture f;
        QVERIFY(f.start(true));
        HandOffOptions o;
        o.launch.program = QStringLiteral("/nonexistent/opbench-operator");
        o.launch.server = f.api.url();
        o.launch.token = f.api.token().toUtf8();
        o.launch.identity = QStringLiteral("headless");
        f.leadership.attach(f.mgr.get(), kLease, o);
        QTRY_COMPARE_WITH_TIMEOUT(f.state.role, LeadershipState::Role::Leader, 10000);
        f.leadership.handOff();
        QCOMPARE(f.failures.size(), 1);
        QVERIFY2(f.failures.first().contains(QStringLiteral("/nonexistent/opbench-operator")),
            qPrintable(f.failures.first()));
        QCOMPARE(f.state.headless, LeadershipState::Headless::None);
        QCOMPARE(f.state.role, LeadershipState::Role::Leader); // nothing released
        QCOMPARE(f.holder(), QStringLiteral("workbench"));
    }

    void shouldHandOffToTheHeadlessProcessAndTakeBack()
    {
        Fixture f;
        QVERIFY(f.start(true));
        QTemporaryDir dir;
        QVERIFY(f.attachWithFakeOperator(dir, {}));
        QTRY_COMPARE_WITH_TIMEOUT(f.state.role, LeadershipState::Role::Leader, 10000);
        // Hand off: the process runs, the lease is released to it
        f.leadership.handOff();
        QTRY_COMPARE_WITH_TIMEOUT(f.state.headless, LeadershipState::Headless::Running, 10000);
        QVERIFY(f.state.headlessPid > 0);
        QCOMPARE(f.state.headlessIdentity, QStringLiteral("headless"));
        QTRY_COMPARE_WITH_TIMEOUT(f.state.role, LeadershipState::Role::HandedOff, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(f.holder(), QString(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(f.logLines.join(u'\n').contains(QStringLiteral("fake operator as 127.0.0.1")), 10000);
        QVERIFY(f.state.canTakeBack());
        QVERIFY(!f.state.canHandOff());
        // Take back: the process is stopped (exit 0: no failure) and this workbench leads again
        f.leadership.takeBack();
        QTRY_COMPARE_WITH_TIMEOUT(f.state.headless, LeadershipState::Headless::Exited, 15000);
        QCOMPARE(f.state.headlessExitCode, 0);
        QVERIFY2(f.failures.isEmpty(), qPrintable(f.failures.join(u'\n')));
        QTRY_COMPARE_WITH_TIMEOUT(f.state.role, LeadershipState::Role::Leader, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(f.holder(), QStringLiteral("workbench"), 10000);
    }

    void shouldOfferTheHeadlessRunsRecordingOnTakeBack()
    {
        Fixture f;
        QVERIFY(f.start(true));
        QTemporaryDir dir;
        QVERIFY(f.attachWithFakeOperator(dir, dir.filePath(QStringLiteral("session"))));
        QSignalSpy offered(&f.leadership, &Leadership::recordingAvailable);
        QTRY_COMPARE_WITH_TIMEOUT(f.state.role, LeadershipState::Role::Leader, 10000);
        f.leadership.handOff();
        QTRY_COMPARE_WITH_TIMEOUT(f.state.role, LeadershipState::Role::HandedOff, 10000);
        QVERIFY(f.state.recordingPath.isEmpty()); // nothing offered while it leads
        // The process was told to record into the session folder; Take back offers that file.
        const QString expected = dir.filePath(QStringLiteral("session/headless-1.rec"));
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(expected), 10000);
        f.leadership.takeBack();
        QTRY_COMPARE_WITH_TIMEOUT(offered.size(), 1, 15000);
        QCOMPARE(offered.first().at(0).toString(), expected);
        QCOMPARE(offered.first().at(1).toInt(), 2);
        QTRY_COMPARE_WITH_TIMEOUT(f.state.recordingPath, expected, 5000);
        QCOMPARE(f.state.recordingReconciles, 2);
        QCOMPARE(f.state.recordingMessage, QStringLiteral("recording available: %1 (2 reconciles)").arg(expected));
        QVERIFY(f.logLines.contains(f.state.recordingMessage));
        QTRY_COMPARE_WITH_TIMEOUT(f.state.role, LeadershipState::Role::Leader, 10000);
        // A second hand-off records into a new file of the same session.
        f.leadership.handOff();
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(dir.filePath(QStringLiteral("session/headless-2.rec"))), 10000);
    }
};

QTEST_GUILESS_MAIN(tst_Leadership)
#include "tst_leadership.moc"
