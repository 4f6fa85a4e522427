// SPDX-License-Identifier: Apache-2.0
// Two opbench-operator processes with leader election against the embedded API server: one
// leads; kill -9 (also in the middle of reconciling a burst) → the other takes over within a
// bound derived from the lease settings (takeoverBound()); SIGTERM → released at once.
// The standby runs as its own user ("standby", rules file), so the server's audit log shows when
// it has read the lease: "it stays a candidate" is checked after it was seen trying.
// `--embedded`: the no-cluster demo registers its webhooks, reconciles its sample apps (created
// through them) to Running and exits 0 on SIGTERM; kubectl against it sees an untagged image
// denied by the validating webhook and a tagged one defaulted.
#include "engine/api/lease.h"
#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"
#include "engine/manager/manager.h"
#include "tests/support/testapiserver.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace opbench;

namespace {
const GroupVersionResource kLeases{
    QStringLiteral("coordination.k8s.io"), QStringLiteral("v1"), QStringLiteral("leases")};
const QString kLeaseName = QStringLiteral("myapplication-operator.example.com");
const GroupVersionResource kApps{
    QStringLiteral("example.com"), QStringLiteral("v1alpha1"), QStringLiteral("myapplications")};
const GroupVersionResource kDeployments{QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("deployments")};

Object myApp(const QString &name)
{
    return Object::fromJson(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("example.com/v1alpha1")},
        {QStringLiteral("kind"), QStringLiteral("MyApplication")},
        {QStringLiteral("metadata"),
            QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), QStringLiteral("default")}}},
        {QStringLiteral("spec"),
            QJsonObject{{QStringLiteral("image"), QStringLiteral("nginx:1.25")}, {QStringLiteral("replicas"), 1}}}});
}

int lineCount(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? int(f.readAll().count('\n')) : 0;
}

/// How long a standby may take to lead after the leader died, from the lease settings the
/// operator runs with (opbench-operator has no flags for them: ManagerOptions' defaults, 15 s /
/// 2 s). The standby sees the holder's last renewal at most 0.9 RetryPeriod after it was written
/// (its retries are jittered into [0.5, 0.9) RetryPeriod), and tries again exactly when that
/// lease runs out: LeaseDuration + 0.9 RetryPeriod (16.8 s). Margin: one more RetryPeriod (a try
/// whose request failed or came back late) and 3 s for a loaded machine (process scheduling,
/// this test's own polling).
qint64 takeoverBound()
{
    const ManagerOptions defaults;
    return qint64(defaults.leaseDuration.count()) + 2 * qint64(defaults.retryPeriod.count()) + 3000;
}

/// Requests by `user` with `verb` on `resource` in the server's audit log.
int audited(const QString &path, const QString &user, const QString &verb, const QString &resource)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    int n = 0;
    for (const QByteArray &line : f.readAll().split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        n += o.value(QLatin1String("user")).toString() == user && o.value(QLatin1String("verb")).toString() == verb
            && o.value(QLatin1String("resource")).toString() == resource;
    }
    return n;
}
} // namespace

class TestOperatorProcess : public QObject
{
    Q_OBJECT

private:
    /// `standby`: as user "standby" (its lease reads are then told apart in the audit log).
    std::unique_ptr<QProcess> launch(const QString &identity, const QString &traceFile = {}, bool standby = false)
    {
        auto p = std::make_unique<QProcess>();
        p->setProgram(QStringLiteral(OPBENCH_BINARY_DIR "/app/opbench-operator"));
        QStringList args{QStringLiteral("--kubeconfig"), standby ? m_standbyKubeconfig : m_api->kubeconfigPath(),
            QStringLiteral("--leader-elect"), QStringLiteral("--leader-election-namespace"), QStringLiteral("default"),
            QStringLiteral("--identity"), identity, QStringLiteral("--health-probe-bind-address"), QStringLiteral("0"),
            QStringLiteral("--metrics-bind-address"), QStringLiteral("0")};
        if (!traceFile.isEmpty())
            args << QStringLiteral("--trace-file") << traceFile;
        p->setArguments(args);
        p->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p->start();
        return p;
    }
    Lease lease()
    {
        Expected<Object> r = QCoro::waitFor(m_rest->get(kLeases, QStringLiteral("default"), kLeaseName));
        return r ? Lease(r.value()) : Lease();
    }
    QString holder() { return lease().holderIdentity(); }
    int standbyLeaseReads() const
    {
        return audited(m_dir.filePath(QStringLiteral("audit.log")), QStringLiteral("standby"), QStringLiteral("get"),
            QStringLiteral("leases"));
    }
    /// Waits until the standby has read the lease twice more (it saw the leader's lease and
    /// had its chance to take it), then checks it did not: `leader` still holds it.
    void verifyStandbyStaysCandidate(const QString &leader, int transitions)
    {
        const int reads = standbyLeaseReads();
        QTRY_VERIFY_WITH_TIMEOUT(standbyLeaseReads() >= reads + 2, 30000);
        QCOMPARE(holder(), leader);
        QCOMPARE(lease().leaseTransitions(), transitions);
    }

    /// Apps whose status write in the trace file set phase Running.
    static QSet<QString> runningInTrace(const QString &path)
    {
        QFile f(path);
        QSet<QString> out;
        if (!f.open(QIODevice::ReadOnly))
            return out;
        for (const QByteArray &line : f.readAll().split('\n')) {
            const QJsonObject t = QJsonDocument::fromJson(line).object();
            for (const QJsonValue &c : t.value(QLatin1String("calls")).toArray()) {
                const QJsonObject call = c.toObject();
                if (call.value(QLatin1String("verb")).toString() != QLatin1String("updateStatus")
                    || call.value(QLatin1String("code")).toInt() != 200)
                    continue;
                for (const QJsonValue &d : call.value(QLatin1String("diff")).toArray())
                    if (d[QLatin1String("path")].toString() == QLatin1String("status.phase")
                        && d[QLatin1String("new")].toString() == QLatin1String("Running"))
                        out.insert(t.value(QLatin1String("name")).toString());
            }
        }
        return out;
    }

    QTemporaryDir m_dir;
    std::unique_ptr<testing::TestApiServer> m_api;
    QString m_standbyKubeconfig;
    std::unique_ptr<RestClient> m_rest;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(
            QFile::exists(QStringLiteral(OPBENCH_BINARY_DIR "/app/opbench-operator")), "build opbench-operator first");
        QVERIFY(m_dir.isValid());
        QFile rules(m_dir.filePath(QStringLiteral("rules.yaml")));
        QVERIFY(rules.open(QIODevice::WriteOnly));
        rules.write("users:\n- name: standby\n  token: standby-token\n");
        rules.close();
        apiserver::ApiServerOptions o = testing::TestApiServer::plainOptions();
        o.rulesFile = rules.fileName();
        o.auditLog = m_dir.filePath(QStringLiteral("audit.log"));
        m_api = std::make_unique<testing::TestApiServer>(o);
        QVERIFY2(m_api->start(), qPrintable(m_api->errorString()));
        // The same kubeconfig with the standby's token.
        QFile admin(m_api->kubeconfigPath());
        QVERIFY(admin.open(QIODevice::ReadOnly));
        const QByteArray config = admin.readAll();
        QVERIFY(config.contains("token: " + m_api->token().toUtf8()));
        m_standbyKubeconfig = m_dir.filePath(QStringLiteral("standby.kubeconfig"));
        QFile standby(m_standbyKubeconfig);
        QVERIFY(standby.open(QIODevice::WriteOnly));
        standby.write(QByteArray(config).replace("token: " + m_api->token().toUtf8(), "token: standby-token"));
        standby.close();
        Expected<RestConfig> cfg = loadConfig(m_api->kubeconfigPath());
        QVERIFY(cfg.ok());
        m_rest = std::make_unique<RestClient>(cfg.value());
    }

    void shouldFailOverOnKillAndReleaseOnSigterm()
    {
        auto a = launch(QStringLiteral("op-a"));
        QVERIFY(a->waitForStarted());
        QTRY_COMPARE_WITH_TIMEOUT(holder(), QStringLiteral("op-a"), 15000);
        auto b = launch(QStringLiteral("op-b"), {}, true);
        QVERIFY(b->waitForStarted());
        const auto stopB = qScopeGuard([&b] { // also on failure: SIGTERM releases the lease for the next test
            if (b->state() != QProcess::NotRunning) {
                b->terminate();
                b->waitForFinished(15000);
            }
        });
        verifyStandbyStaysCandidate(QStringLiteral("op-a"), 0); // b stays a candidate
        if (QTest::currentTestFailed())
            return;

        ::kill(pid_t(a->processId()), SIGKILL);
        QVERIFY(a->waitForFinished(5000));
        QElapsedTimer took;
        took.start();
        QTRY_COMPARE_WITH_TIMEOUT(holder(), QStringLiteral("op-b"), 30000);
        const qint64 takeoverMs = took.elapsed();
        qInfo("takeover after kill -9: %lld ms (bound %lld ms)", takeoverMs, takeoverBound());
        QVERIFY2(takeoverMs <= takeoverBound(), qPrintable(QString::number(takeoverMs)));
        QCOMPARE(lease().leaseTransitions(), 1);

        took.restart();
        b->terminate(); // SIGTERM
        QVERIFY(b->waitForFinished(15000));
        QCOMPARE(b->exitStatus(), QProcess::NormalExit);
        QCOMPARE(b->exitCode(), 0);
        QCOMPARE(holder(), QString());
        QCOMPARE(lease().leaseDurationSeconds(), 1);
        qInfo("SIGTERM to exit with the lease released: %lld ms", took.elapsed());
    }

    // kill -9 of the leader while it reconciles a burst of new apps: the standby leads within
    // takeoverBound() of the kill, and finishes the work.
    void shouldTakeOverWhenTheLeaderIsKilledMidReconcile()
    {
        QTemporaryDir dir;
        const QString trace = dir.filePath(QStringLiteral("a.jsonl"));
        auto a = launch(QStringLiteral("mid-a"), trace);
        QVERIFY(a->waitForStarted());
        QTRY_COMPARE_WITH_TIMEOUT(holder(), QStringLiteral("mid-a"), 15000);
        auto b = launch(QStringLiteral("mid-b"), {}, true);
        QVERIFY(b->waitForStarted());
        const auto stopB = qScopeGuard([&b] { // also on failure: SIGTERM releases the lease for the next test
            if (b->state() != QProcess::NotRunning) {
                b->terminate();
                b->waitForFinished(15000);
            }
        });
        const int transitions = lease().leaseTransitions();
        verifyStandbyStaysCandidate(QStringLiteral("mid-a"), transitions);
        if (QTest::currentTestFailed())
            return;

        constexpr int apps = 200;
        const int tracedBefore = lineCount(trace);
        for (int i = 0; i < apps; ++i)
            QVERIFY(QCoro::waitFor(
                m_rest->create(kApps, QStringLiteral("default"), myApp(QStringLiteral("burst-%1").arg(i))))
                        .ok());
        QTRY_VERIFY_WITH_TIMEOUT(lineCount(trace) >= tracedBefore + 5, 15000); // a is reconciling the burst
        ::kill(pid_t(a->processId()), SIGKILL);
        QElapsedTimer took;
        took.start();
        QVERIFY(a->waitForFinished(5000));
        auto deployments = [&] {
            Expected<Object::List> l = QCoro::waitFor(m_rest->list(kDeployments, QStringLiteral("default")));
            int n = 0;
            if (l)
                for (const Object &d : l->items)
                    n += d.name().startsWith(QLatin1String("burst-")) ? 1 : 0;
            return n;
        };
        const int doneAtKill = deployments();
        // Informational only: a fast machine may have finished the burst already (the kill then
        // tests a takeover with nothing left to do, which must work too).
        qInfo("deployments of the burst when the leader was killed: %d of %d", doneAtKill, apps);

        QTRY_COMPARE_WITH_TIMEOUT(holder(), QStringLiteral("mid-b"), 30000);
        const qint64 takeoverMs = took.elapsed();
        qInfo("takeover after kill -9 mid-reconcile: %lld ms (bound %lld ms)", takeoverMs, takeoverBound());
        QVERIFY2(takeoverMs <= takeoverBound(), qPrintable(QString::number(takeoverMs)));
        QTRY_COMPARE_WITH_TIMEOUT(deployments(), apps, 60000);

        b->terminate();
        QVERIFY(b->waitForFinished(15000));
        QCOMPARE(b->exitCode(), 0);
    }

    void shouldRunEmbeddedDemoToRunningAndExitOnSigterm()
    {
        QTemporaryDir dir;
        const QString trace = dir.filePath(QStringLiteral("trace.jsonl"));
        QProcess p;
        p.setProgram(QStringLiteral(OPBENCH_BINARY_DIR "/app/opbench-operator"));
        p.setArguments(
            {QStringLiteral("--embedded"), QStringLiteral("--health-probe-bind-address"), QStringLiteral("0"),
                QStringLiteral("--trace-file"), trace, QStringLiteral("--zap-encoder"), QStringLiteral("console")});
        p.start();
        QVERIFY(p.waitForStarted());
        const QSet<QString> expected{
            QStringLiteral("frontend"), QStringLiteral("backend"), QStringLiteral("worker"), QStringLiteral("cache")};
        QTRY_VERIFY_WITH_TIMEOUT(runningInTrace(trace).contains(expected), 30000);
        QVERIFY(!runningInTrace(trace).contains(QStringLiteral("broken"))); // its image never pulls
        QCOMPARE(p.state(), QProcess::Running);
        p.terminate(); // SIGTERM
        QVERIFY(p.waitForFinished(15000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
        const QByteArray log = p.readAllStandardError();
        QVERIFY2(log.contains("embedded API server started"), log.constData());
        // The sample operator's webhooks, served on loopback and registered with no flag given.
        QVERIFY2(log.contains("webhooks registered with the embedded API server"), log.constData());
        QVERIFY2(log.contains("Shutdown signal received"), log.constData());
    }

    void shouldDenyAnUntaggedImageForKubectlOnTheEmbeddedDemo()
    {
        const QString kubectl = QStandardPaths::findExecutable(QStringLiteral("kubectl"));
        if (kubectl.isEmpty())
            QSKIP("no kubectl on PATH");
        QProcess p;
        p.setProgram(QStringLiteral(OPBENCH_BINARY_DIR "/app/opbench-operator"));
        p.setArguments({QStringLiteral("--embedded"), QStringLiteral("--health-probe-bind-address"),
            QStringLiteral("0"), QStringLiteral("--zap-encoder"), QStringLiteral("console")});
        p.start();
        QVERIFY(p.waitForStarted());
        auto stop = qScopeGuard([&p] {
            p.terminate();
            p.waitForFinished(15000);
        });
        QByteArray log;
        QTRY_VERIFY_WITH_TIMEOUT(
            (log += p.readAllStandardError()).contains("webhooks registered with the embedded API server"), 30000);
        static const QRegularExpression field(QStringLiteral("\"kubeconfig\": ?\"([^\"]+)\""));
        const QString kubeconfig = field.match(QString::fromUtf8(log)).captured(1);
        QVERIFY2(!kubeconfig.isEmpty(), log.constData());
        const auto create = [&](const QString &name, const QString &image) {
            QProcess k;
            k.start(kubectl,
                {QStringLiteral("--kubeconfig"), kubeconfig, QStringLiteral("create"), QStringLiteral("-f"),
                    QStringLiteral("-")});
            k.write(QStringLiteral("apiVersion: example.com/v1alpha1\nkind: MyApplication\nmetadata:\n  name: %1\n  "
                                   "namespace: default\nspec:\n  image: %2\n")
                        .arg(name, image)
                        .toUtf8());
            k.closeWriteChannel();
            k.waitForFinished(30000);
            return std::make_pair(
                k.exitCode(), QString::fromUtf8(k.readAllStandardError() + k.readAllStandardOutput()));
        };
        // The validating webhook's field error, as kubectl prints the API server's answer.
        const auto [deniedCode, denied] = create(QStringLiteral("bare"), QStringLiteral("nginx"));
        QCOMPARE(deniedCode, 1);
        // The webhook's Status carries its field causes, which the API server keeps (as
        // kube-apiserver does): kubectl prints them as it prints any Invalid error.
        QVERIFY2(denied.contains(QStringLiteral("The MyApplication \"bare\" is invalid: spec.image: Invalid value: "
                                                "\"nginx\": must carry a tag or a digest")),
            qPrintable(denied));
        // A tagged image passes, and comes back with the defaulting webhook's labels.
        const auto [createdCode, created] = create(QStringLiteral("tagged"), QStringLiteral("nginx:1.27"));
        QVERIFY2(createdCode == 0, qPrintable(created));
        QProcess get;
        get.start(kubectl,
            {QStringLiteral("--kubeconfig"), kubeconfig, QStringLiteral("get"), QStringLiteral("myapp"),
                QStringLiteral("tagged"), QStringLiteral("-o"),
                QStringLiteral("jsonpath={.metadata.labels.app\\.kubernetes\\.io/instance}")});
        QVERIFY(get.waitForFinished(30000));
        QCOMPARE(QString::fromUtf8(get.readAllStandardOutput()), QStringLiteral("tagged"));
    }

    void shouldExitWithClearMessageWhenNoCluster()
    {
        QProcess p;
        p.setProgram(QStringLiteral(OPBENCH_BINARY_DIR "/app/opbench-operator"));
        QTemporaryDir dir;
        const QString kc = dir.filePath(QStringLiteral("kubeconfig"));
        QFile f(kc);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: http://127.0.0.1:9\n"
                "users:\n- name: u\n  user: {}\ncontexts:\n- name: x\n  context:\n    cluster: c\n    user: "
                "u\ncurrent-context: x\n");
        f.close();
        p.setArguments(
            {QStringLiteral("--kubeconfig"), kc, QStringLiteral("--health-probe-bind-address"), QStringLiteral("0")});
        p.start();
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 3);
        QVERIFY(p.readAllStandardError().contains("no cluster reachable"));
    }
};

QTEST_GUILESS_MAIN(TestOperatorProcess)
#include "tst_operatorprocess.moc"
