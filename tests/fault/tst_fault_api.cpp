// SPDX-License-Identifier: Apache-2.0
// The fault harness on the MyApplication operator: API faults injected by the embedded server
// (5xx, 429 with Retry-After, latency, responses cut mid-body, 410 on watch resumes and on a
// paged list's continue token, restarts from the state file); each run converges to the
// fault-free reference end state with the same create/delete counts.
#include "tests/fault/faultworkload.h"

#include <QJsonArray>
#include <QTest>

using namespace opbench;
using namespace opbench::testing;

class TestFaultApi : public QObject
{
    Q_OBJECT

private:
    /// Runs the base workload under `faults`; `fired` must have fired at least once.
    void run(const FaultHarness::ApiFaults &faults, const QString &fired)
    {
        FaultHarness h(myapp::definition(), faultsuite::options("tst_fault_api"));
        const RunReport r = h.apiFaults(faultsuite::twoApps(), faults);
        QVERIFY2(r.ok, qPrintable(r.failure));
        qInfo("%s: converged after %d reconciles, %d writes; fired %s %d time(s)", qPrintable(faults.faults.join(u';')),
            r.reconciles, r.operatorWrites, qPrintable(fired), r.injected.value(fired));
        if (!fired.isEmpty())
            QVERIFY2(r.injected.value(fired) > 0, qPrintable(fired + QStringLiteral(" never fired")));
    }

private Q_SLOTS:
    void shouldConvergeUnderServerErrors()
    {
        run({{QStringLiteral("error:rate=0.15,code=500"), QStringLiteral("error:rate=0.1,code=503")}},
            QStringLiteral("error"));
    }
    void shouldConvergeUnderThrottling()
    {
        run({{QStringLiteral("throttle:rate=0.15,retry-after=1")}}, QStringLiteral("throttle"));
    }
    void shouldConvergeUnderLatency() { run({{QStringLiteral("latency:ms=20")}}, QString()); }
    void shouldConvergeWhenResponsesAreCutMidBody()
    {
        run({{QStringLiteral("reset:rate=0.15")}}, QStringLiteral("reset"));
    }
    void shouldConvergeWhenWatchesExpire()
    {
        FaultHarness::ApiFaults f;
        f.expireWatches = true;
        run(f, QStringLiteral("expire-watches"));
    }
    void shouldConvergeWhenPagedListContinueTokensExpire()
    {
        FaultHarness::ApiFaults f;
        // The reflector's first list (resourceVersion 0) is served unpaginated, as the watch cache
        // does; after that list gets 410 it lists again consistently, in pages: the token of
        // the second page then expires.
        f.faults = {QStringLiteral("error:code=410,verb=list,resource=deployments,count=1"),
            QStringLiteral("expire-continue:resource=deployments,count=1")};
        // More than one page (500) of Deployments, which the operator caches: its first list
        // goes on with a continue token. Scaled to 0 and owned by no app: nothing to reconcile.
        f.paddingCount = 501;
        f.paddingTemplate = Object::fromJson(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("apps/v1")},
            {QStringLiteral("kind"), QStringLiteral("Deployment")},
            {QStringLiteral("spec"),
                QJsonObject{{QStringLiteral("replicas"), 0},
                    {QStringLiteral("selector"),
                        QJsonObject{{QStringLiteral("matchLabels"),
                            QJsonObject{{QStringLiteral("pad"), QStringLiteral("yes")}}}}},
                    {QStringLiteral("template"),
                        QJsonObject{{QStringLiteral("metadata"),
                                        QJsonObject{{QStringLiteral("labels"),
                                            QJsonObject{{QStringLiteral("pad"), QStringLiteral("yes")}}}}},
                            {QStringLiteral("spec"),
                                QJsonObject{{QStringLiteral("containers"),
                                    QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("c")},
                                        {QStringLiteral("image"), QStringLiteral("pause")}}}}}}}}}}});
        run(f, QStringLiteral("expire-continue"));
    }
    void shouldConvergeAcrossServerRestartsFromItsStateFile()
    {
        FaultHarness::ApiFaults f;
        f.restartServer = true;
        run(f, QStringLiteral("restart"));
    }
};

QTEST_GUILESS_MAIN(TestFaultApi)
#include "tst_fault_api.moc"
