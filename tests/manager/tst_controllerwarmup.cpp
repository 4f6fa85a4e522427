// SPDX-License-Identifier: Apache-2.0
// Runtime review #10: a controller's informers (For, Owns, Watches kinds) start when the
// controller starts, that is after this replica won the lease, as controller-runtime's Kind
// source does; a standby replica lists and watches nothing for them. With
// ControllerOptions::enableWarmup (controller-runtime's EnableWarmup, default off) they start
// before the election instead: the standby holds a synced cache, queues requests, and reconciles
// nothing until it leads.
// Against the embedded API server over HTTP; requests are counted in its audit log. The lease is
// held by another identity (written by the test) until the test releases it.
#include "engine/controller/builder.h"
#include "engine/manager/leaderelector.h"
#include "engine/manager/leaselock.h"
#include "engine/manager/manager.h"
#include "tests/support/testapiserver.h"

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace opbench;
using namespace std::chrono_literals;
using testing::TestApiServer;

namespace {

const GroupVersionResource kConfigMaps{QString(), QStringLiteral("v1"), QStringLiteral("configmaps")};
const GroupVersionResource kSecrets{QString(), QStringLiteral("v1"), QStringLiteral("secrets")};
const GroupVersionResource kLeases{
    QStringLiteral("coordination.k8s.io"), QStringLiteral("v1"), QStringLiteral("leases")};
const GroupVersionKind kConfigMap{QString(), QStringLiteral("v1"), QStringLiteral("ConfigMap")};
const GroupVersionKind kSecret{QString(), QStringLiteral("v1"), QStringLiteral("Secret")};
const QString kLeaseName = QStringLiteral("warmup");

Object named(const QString &apiVersion, const QString &kind, const QString &name)
{
    return Object::fromJson(QJsonObject{{QStringLiteral("apiVersion"), apiVersion}, {QStringLiteral("kind"), kind},
        {QStringLiteral("metadata"),
            QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), QStringLiteral("default")}}}});
}

/// How many requests with `verb` on `resource` the server's audit log holds.
int audited(const QString &path, const QString &verb, const QString &resource)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    int n = 0;
    for (const QByteArray &line : f.readAll().split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        n += o.value(QStringLiteral("verb")).toString() == verb
            && o.value(QStringLiteral("resource")).toString() == resource;
    }
    return n;
}

} // namespace

class TestControllerWarmup : public QObject
{
    Q_OBJECT

    struct Fixture
    {
        QTemporaryDir dir;
        std::unique_ptr<TestApiServer> api;
        RestConfig cfg;
        std::unique_ptr<Manager> mgr;
        Controller *controller = nullptr;
        QStringList reconciled;
        QString auditPath() const { return dir.filePath(QStringLiteral("audit.log")); }
        int reads(const GroupVersionResource &gvr) const
        {
            return audited(auditPath(), QStringLiteral("list"), gvr.resource)
                + audited(auditPath(), QStringLiteral("watch"), gvr.resource);
        }
    };

    /// A server with one ConfigMap and a lease held by "other", and a manager ("standby") whose
    /// controller reconciles ConfigMaps and maps Secrets to ConfigMaps of the same name; started.
    static bool setUp(Fixture &f, std::optional<bool> warmup, bool managerDefault = false)
    {
        apiserver::ApiServerOptions so = TestApiServer::plainOptions();
        so.auditLog = f.auditPath();
        f.api = std::make_unique<TestApiServer>(so);
        if (!f.api->start())
            return false;
        Expected<RestConfig> cfg = loadConfig(f.api->kubeconfigPath());
        if (!cfg.ok())
            return false;
        f.cfg = *cfg;
        RestClient rest(f.cfg);
        if (!QCoro::waitFor(rest.create(kConfigMaps, QStringLiteral("default"),
                                named(QStringLiteral("v1"), QStringLiteral("ConfigMap"), QStringLiteral("cm1"))))
                 .ok())
            return false;
        LeaderElectionRecord held;
        held.holderIdentity = QStringLiteral("other");
        held.leaseDurationSeconds = 3600;
        held.acquireTime = held.renewTime = QDateTime::currentDateTimeUtc();
        const Object lease = LeaderElectionRecord::applyTo(
            named(QStringLiteral("coordination.k8s.io/v1"), QStringLiteral("Lease"), kLeaseName), held);
        if (!QCoro::waitFor(rest.create(kLeases, QStringLiteral("default"), lease)).ok())
            return false;

        ManagerOptions mo;
        mo.restConfig = f.cfg;
        mo.leaderElection = true;
        mo.leaderElectionId = kLeaseName;
        mo.leaderElectionNamespace = QStringLiteral("default");
        mo.identity = QStringLiteral("standby");
        mo.leaseDuration = 15s;
        mo.renewDeadline = 1s;
        mo.retryPeriod = 200ms;
        mo.leaderElectionThread = false;
        mo.gracefulShutdownTimeout = 5s;
        mo.controllerWarmup = managerDefault;
        auto created = Manager::create(mo);
        if (!created.ok())
            return false;
        f.mgr = std::move(created.value());
        QStringList *reconciled = &f.reconciled;
        auto reconciler = makeReconciler([reconciled](Request r) -> QCoro::Task<ReconcileOutcome> {
            reconciled->append(r.namespaceName + u'/' + r.name);
            co_return Result{};
        });
        ControllerOptions co;
        co.enableWarmup = warmup;
        co.skipNameValidation = true;
        auto built = ControllerBuilder(f.mgr->cache())
                         .named(QStringLiteral("warmup"))
                         .withOptions(std::move(co))
                         .forKind(kConfigMap)
                         .watches(kSecret,
                             [](const Object &o) {
                                 return QList<QueueKey>{{o.namespaceName(), o.name()}};
                             })
                         .build(reconciler, f.mgr.get());
        if (!built.ok())
            return false;
        f.controller = *built;
        f.mgr->add(f.controller);
        return QCoro::waitFor(f.mgr->start()).ok();
    }

    /// Writes an empty holder into the lease: the standby may take it on its next try.
    static bool releaseLease(Fixture &f)
    {
        RestClient rest(f.cfg);
        Expected<Object> lease = QCoro::waitFor(rest.get(kLeases, QStringLiteral("default"), kLeaseName));
        if (!lease.ok())
            return false;
        LeaderElectionRecord r = LeaderElectionRecord::fromLease(*lease);
        r.holderIdentity.clear();
        return QCoro::waitFor(rest.update(kLeases, QStringLiteral("default"), LeaderElectionRecord::applyTo(*lease, r)))
            .ok();
    }

    /// Waits until the standby has read the lease `tries` more times (retry period 200 ms).
    /// The positive signal behind "the standby did nothing": its elector ran that many rounds
    /// after the manager started, so whatever the manager starts before or beside the election
    /// (warm-up informers, their lists and watches) has been started and its requests sent.
    static void waitForLeaseTries(Fixture &f, int tries)
    {
        const int before = audited(f.auditPath(), QStringLiteral("get"), kLeases.resource);
        QTRY_VERIFY_WITH_TIMEOUT(
            audited(f.auditPath(), QStringLiteral("get"), kLeases.resource) >= before + tries, 20000);
    }

    static void tearDown(Fixture &f)
    {
        bool finished = false;
        connect(f.mgr.get(), &Manager::finished, f.mgr.get(), [&finished](int, const QString &) { finished = true; });
        f.mgr->stop();
        QTRY_VERIFY_WITH_TIMEOUT(finished, 10000);
    }

private Q_SLOTS:
    void standbyShouldNotListOrWatchTheControllersKinds()
    {
        Fixture f;
        QVERIFY(setUp(f, false));
        // Standing by: the lease was read, another identity holds it.
        QTRY_COMPARE_WITH_TIMEOUT(f.mgr->elector()->observedLeader(), QStringLiteral("other"), 10000);
        QVERIFY(!f.mgr->isLeader());
        waitForLeaseTries(f, 3);
        QVERIFY(!f.mgr->isLeader());
        QCOMPARE(f.reads(kConfigMaps), 0);
        QCOMPARE(f.reads(kSecrets), 0);
        QVERIFY(f.mgr->cache()->informers().isEmpty());
        QVERIFY(f.reconciled.isEmpty());
        // Leading: the informers start, sync, and the controller reconciles.
        QVERIFY(releaseLease(f));
        QTRY_VERIFY_WITH_TIMEOUT(f.mgr->isLeader(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(f.reconciled.contains(QStringLiteral("default/cm1")), 10000);
        QVERIFY(audited(f.auditPath(), QStringLiteral("list"), kConfigMaps.resource) >= 1);
        QVERIFY(audited(f.auditPath(), QStringLiteral("list"), kSecrets.resource) >= 1);
        QTRY_VERIFY_WITH_TIMEOUT(audited(f.auditPath(), QStringLiteral("watch"), kConfigMaps.resource) >= 1, 5000);
        QCOMPARE(f.mgr->cache()->informers().size(), 2);
        tearDown(f);
    }

    void managerDefaultShouldWarmUpControllersThatLeaveItUnset()
    {
        // ManagerOptions::controllerWarmup (--controller-warmup): the default for controllers
        // whose options leave enableWarmup unset; an explicit false still wins.
        Fixture f;
        QVERIFY(setUp(f, std::nullopt, true));
        QTRY_COMPARE_WITH_TIMEOUT(f.mgr->elector()->observedLeader(), QStringLiteral("other"), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(f.mgr->cache()->informers().size() == 2 && f.mgr->cache()->hasSynced(), 10000);
        QVERIFY(!f.mgr->isLeader());
        tearDown(f);
        Fixture g;
        QVERIFY(setUp(g, false, true));
        QTRY_COMPARE_WITH_TIMEOUT(g.mgr->elector()->observedLeader(), QStringLiteral("other"), 10000);
        waitForLeaseTries(g, 3);
        QVERIFY(g.mgr->cache()->informers().isEmpty());
        QCOMPARE(g.reads(kConfigMaps), 0);
        tearDown(g);
    }

    void warmupShouldSyncTheCachesBeforeLeading()
    {
        Fixture f;
        QVERIFY(setUp(f, true));
        QTRY_COMPARE_WITH_TIMEOUT(f.mgr->elector()->observedLeader(), QStringLiteral("other"), 10000);
        // Standing by with warm caches: listed, watching, synced; nothing reconciled.
        QTRY_COMPARE_WITH_TIMEOUT(f.mgr->cache()->informers().size(), 2, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(f.mgr->cache()->hasSynced(), 10000);
        QVERIFY(audited(f.auditPath(), QStringLiteral("list"), kConfigMaps.resource) >= 1);
        QVERIFY(audited(f.auditPath(), QStringLiteral("list"), kSecrets.resource) >= 1);
        QTRY_VERIFY_WITH_TIMEOUT(audited(f.auditPath(), QStringLiteral("watch"), kConfigMaps.resource) >= 1, 5000);
        QVERIFY(!f.mgr->isLeader());
        QVERIFY(!f.controller->isRunning());
        // The synced cache has queued cm1; a running controller would reconcile it at once.
        waitForLeaseTries(f, 3);
        QVERIFY(!f.controller->isRunning());
        QVERIFY(f.reconciled.isEmpty());
        const int listsBefore = audited(f.auditPath(), QStringLiteral("list"), kConfigMaps.resource);
        // Leading: the requests queued while standing by are reconciled; no new list.
        QVERIFY(releaseLease(f));
        QTRY_VERIFY_WITH_TIMEOUT(f.mgr->isLeader(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(f.reconciled.contains(QStringLiteral("default/cm1")), 10000);
        QCOMPARE(audited(f.auditPath(), QStringLiteral("list"), kConfigMaps.resource), listsBefore);
        tearDown(f);
    }
};

QTEST_GUILESS_MAIN(TestControllerWarmup)
#include "tst_controllerwarmup.moc"
