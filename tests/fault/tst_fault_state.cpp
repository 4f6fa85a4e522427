// SPDX-License-Identifier: Apache-2.0
// The fault harness on the MyApplication operator: intermediate state (a crash right after each
// write), stale state (a held-back cache, an app deleted and recreated under the same name) and
// unobserved state (lost watch events), each compared with the fault-free reference run.
#include "tests/fault/faultworkload.h"

#include <QTest>

using namespace opbench;
using namespace opbench::testing;
using faultsuite::app;

namespace {
const GroupVersionKind kDeployment{QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("Deployment")};

/// After twoApps(): "web" deleted and created again under the same name (a new uid).
Workload recreateWeb()
{
    return {Step::remove(app(QStringLiteral("web"), {}, 1)),
        Step::create(app(QStringLiteral("web"), QStringLiteral("nginx:1.27"), 1))};
}
} // namespace

class TestFaultState : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void referenceRunShouldRecordEndStateAndCounts()
    {
        FaultHarness h(myapp::definition(), faultsuite::options("tst_fault_state"));
        const RunReport ref = h.reference(faultsuite::twoApps());
        QVERIFY2(ref.ok, qPrintable(ref.failure));
        QVERIFY(ref.end.objects.contains(QStringLiteral("Deployment default/web")));
        QVERIFY(ref.end.objects.contains(QStringLiteral("MyApplication default/api")));
        QVERIFY(ref.end.objects.value(QStringLiteral("Deployment default/web")).contains("\"image\":\"nginx:1.26\""));
        QCOMPARE(ref.end.creates.value(QStringLiteral("deployments default/web")), 1);
        QCOMPARE(ref.end.creates.value(QStringLiteral("myapplications default/web")), 1);
        QVERIFY(ref.operatorWrites >= 4);
        // A second fault-free run gives the same end state: the oracle itself is deterministic.
        FaultHarness again(myapp::definition(), faultsuite::options("tst_fault_state"));
        const RunReport second = again.reference(faultsuite::twoApps());
        QVERIFY2(second.ok, qPrintable(second.failure));
        const QString diff = compareEndStates(ref.end, second.end);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }

    void oracleShouldShowBothStatesWhenTheyDiffer()
    {
        FaultHarness h(myapp::definition(), faultsuite::options("tst_fault_state"));
        const RunReport ref = h.reference(faultsuite::twoApps());
        QVERIFY2(ref.ok, qPrintable(ref.failure));
        EndState other = ref.end;
        other.objects[QStringLiteral("Deployment default/web")].replace("nginx:1.26", "nginx:1.25");
        other.creates[QStringLiteral("deployments default/web")] = 2;
        const QString diff = compareEndStates(ref.end, other);
        QVERIFY(diff.contains(QStringLiteral("~ Deployment default/web")));
        QVERIFY(diff.contains(QStringLiteral("creates of deployments default/web: reference 1, faulty 2")));
        QVERIFY(diff.contains(QStringLiteral("reference end state:")));
        QVERIFY(diff.contains(QStringLiteral("faulty end state:")));
    }

    void shouldConvergeAfterCrashRightAfterEveryWrite()
    {
        FaultHarness h(myapp::definition(), faultsuite::options("tst_fault_state"));
        const Workload w = faultsuite::twoApps();
        const RunReport ref = h.reference(w);
        QVERIFY2(ref.ok, qPrintable(ref.failure));
        for (int i = 1; i <= ref.operatorWrites; ++i) {
            const RunReport r = h.crashAfterWrite(w, i);
            QVERIFY2(r.ok, qPrintable(r.failure));
            qInfo("crash after write %d (%s): converged, %d writes", i, qPrintable(ref.writes.value(i - 1)),
                r.operatorWrites);
        }
    }

    void shouldNotActOnStaleDeploymentsWhenAppIsRecreated()
    {
        FaultHarness h(myapp::definition(), faultsuite::options("tst_fault_state"));
        const RunReport r = h.staleCache(faultsuite::twoApps(), recreateWeb(), {kDeployment});
        QVERIFY2(r.ok, qPrintable(r.failure));
        QCOMPARE(r.unconditionalWrites, 0);
        qInfo("stale Deployments: converged; %d conflicts caught by the server", r.conflicts);
    }

    void shouldNotActOnStaleAppWhenItIsRecreated()
    {
        FaultHarness h(myapp::definition(), faultsuite::options("tst_fault_state"));
        const RunReport r = h.staleCache(faultsuite::twoApps(), recreateWeb(), {myapp::kMyApplicationGvk});
        QVERIFY2(r.ok, qPrintable(r.failure));
        QCOMPARE(r.unconditionalWrites, 0);
        qInfo("stale MyApplications: converged; %d conflicts caught by the server", r.conflicts);
    }

    void shouldConvergeAfterLostAppEvents()
    {
        FaultHarness h(myapp::definition(), faultsuite::options("tst_fault_state"));
        const Workload dropped
            = {Step::mergePatch(app(QStringLiteral("api"), {}, 1), R"({"spec":{"image":"httpd:2.5","replicas":2}})")};
        const Workload after
            = {Step::mergePatch(app(QStringLiteral("api"), {}, 1), R"({"metadata":{"labels":{"team":"a"}}})")};
        const RunReport r = h.unobserved(faultsuite::twoApps(), dropped, after, {myapp::kMyApplicationGvk});
        QVERIFY2(r.ok, qPrintable(r.failure));
    }
};

QTEST_GUILESS_MAIN(TestFaultState)
#include "tst_fault_state.moc"
