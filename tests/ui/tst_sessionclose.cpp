// SPDX-License-Identifier: Apache-2.0
// Closing the workbench stops the operator it hosts all the way: the manager finishes its
// shutdown (runnables, caches, the lease release) before the engine thread ends. A user sees it
// on the cluster: the Lease names no holder the moment the window is gone, so a headless replica
// takes over at once instead of waiting out the lease. (Ending the thread mid-shutdown also
// stranded the shutdown's coroutines: LeakSanitizer reported them in every UI test.)
#include "engine/operator/myapplication.h"
#include "ui/session/enginesession.h"

#include "engine/api/lease.h"
#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"
#include "tests/support/testapiserver.h"

#include <QApplication>
#include <QSignalSpy>
#include <QTest>

#include <qcoro/qcorotask.h>

using namespace opbench;
using namespace opbench::ui;

class tst_SessionClose : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldReleaseTheLeaseWhenTheWindowCloses()
    {
        // Every request takes 30 ms, so the lease release is still in flight when the window goes.
        apiserver::ApiServerOptions o = testing::TestApiServer::plainOptions();
        o.faults << apiserver::FaultSpec::parse(QStringLiteral("latency:ms=30")).value();
        testing::TestApiServer api(o);
        QVERIFY2(api.start(), qPrintable(api.errorString()));
        auto cfg = loadConfig(api.kubeconfigPath());
        QVERIFY(cfg.ok());
        RestClient rest(cfg.value());

        // Given the workbench leads on a cluster it reached through a kubeconfig
        SessionOptions so;
        so.kubeconfig = api.kubeconfigPath();
        auto session = std::make_unique<EngineSession>(so);
        LeadershipState state;
        connect(session->leadership(), &Leadership::leadershipState, this,
            [&state](const LeadershipState &s) { state = s; });
        session->start();
        QTRY_VERIFY_WITH_TIMEOUT(state.role == LeadershipState::Role::Leader, 30000);
        const QString identity = state.identity;
        QTRY_COMPARE_WITH_TIMEOUT(lease(rest).holderIdentity(), identity, 5000);

        // When the window closes (the session is destroyed)
        session.reset();

        // Then the Lease names no holder already: released, not left to expire
        const Lease after = lease(rest);
        QVERIFY2(after.holderIdentity().isEmpty(),
            qPrintable(QStringLiteral("the lease is still held by %1").arg(after.holderIdentity())));
        QCOMPARE(after.leaseDurationSeconds(), 1);
    }

private:
    static Lease lease(RestClient &rest)
    {
        const GroupVersionResource leases{
            QStringLiteral("coordination.k8s.io"), QStringLiteral("v1"), QStringLiteral("leases")};
        auto got = QCoro::waitFor(rest.get(leases, QStringLiteral("default"), myapp::leaseName()));
        return got.ok() ? Lease(got.value()) : Lease();
    }
};

QTEST_MAIN(tst_SessionClose)
#include "tst_sessionclose.moc"
