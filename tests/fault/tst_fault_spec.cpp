// SPDX-License-Identifier: Apache-2.0
// The fault harness on the MyApplication operator: stability (no hot loop once converged) and
// Acto-style spec mutations generated from the CRD's openAPIV3Schema.
#include "tests/fault/faultworkload.h"

#include <QTest>

using namespace opbench;
using namespace opbench::testing;
using faultsuite::app;

class TestFaultSpec : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void shouldStayQuietOnceConverged()
    {
        FaultHarness h(myapp::definition(), faultsuite::options("tst_fault_spec"));
        const StabilityReport r = h.stability(faultsuite::twoApps());
        QVERIFY2(r.ok, qPrintable(r.failure));
        QCOMPARE(r.writesAfter, 0);
        QCOMPARE(r.reconcilesAfter, 2); // each app queued once: one reconcile each, nothing more
        qInfo("converged in %d reconciles and %d writes; the extra round: %d reconciles, %d writes",
            r.reconcilesToConverge, r.writesToConverge, r.reconcilesAfter, r.writesAfter);
    }

    void shouldRefuseInvalidSpecsAndConvergeOnValidOnes()
    {
        FaultHarness h(myapp::definition(), faultsuite::options("tst_fault_spec"));
        const MutationReport r = h.specMutations(faultsuite::twoApps(), app(QStringLiteral("web"), {}, 1));
        qInfo().noquote() << r.log.join(u'\n');
        QVERIFY2(r.ok, qPrintable(r.failure));
        QVERIFY(r.valid >= 3);   // image, replicas, a label
        QVERIFY(r.invalid >= 7); // replicas 0, -1, 2^31, "three"; image "", 42, missing
    }
};

QTEST_GUILESS_MAIN(TestFaultSpec)
#include "tst_fault_spec.moc"
