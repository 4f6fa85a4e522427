// SPDX-License-Identifier: Apache-2.0
// Two opbench-operator processes with leader election against the embedded API server: one
// leads; kill -9 (also in the middle of reconciling a burst) → the other takes over within lease
// duration + retry period (17 s); SIGTERM → released at once.
// `--embedded`: the no-cluster demo reconciles its sample apps to Running and exits 0 on SIGTERM.
#include "engine/api/lease.h"
#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"
#include "tests/support/testapiserver.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
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
} // namespace

class TestOperatorProcess : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QProcess> launch(const QString &identity, const QString &traceFile = {})
    {
        auto p = std::make_unique<QProcess>();
        p->setProgram(QStringLiteral(OPBENCH_BINARY_DIR "/app/opbench-operator"));
        QStringList args{QStringLiteral("--kubeconfig"), m_api.kubeconfigPath(), QStringLiteral("--leader-elect"),
            QStringLiteral("--leader-election-namespace"), QStringLiteral("default"), QStringLiteral("--identity"),
            identity, QStringLiteral("--health-probe-bind-address"), QStringLiteral("0"),
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

    testing::TestApiServer m_api;
    std::unique_ptr<RestClient> m_rest;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(
            QFile::exists(QStringLiteral(OPBENCH_BINARY_DIR "/app/opbench-operator")), "build opbench-operator first");
        QVERIFY2(m_api.start(), qPrintable(m_api.errorString()));
        Expected<RestConfig> cfg = loadConfig(m_api.kubeconfigPath());
        QVERIFY(cfg.ok());
        m_rest = std::make_unique<RestClient>(cfg.value());
    }

    void shouldFailOverOnKillAndReleaseOnSigterm()
    {
        auto a = launch(QStringLiteral("op-a"));
        QVERIFY(a->waitForStarted());
        QTRY_COMPARE_WITH_TIMEOUT(holder(), QStringLiteral("op-a"), 15000);
        auto b = launch(QStringLiteral("op-b"));
        QVERIFY(b->waitForStarted());
        QTest::qWait(3000);
        QCOMPARE(holder(), QStringLiteral("op-a")); // b stays a candidate
        QCOMPARE(lease().leaseTransitions(), 0);

        ::kill(pid_t(a->processId()), SIGKILL);
        QVERIFY(a->waitForFinished(5000));
        QElapsedTimer took;
        took.start();
        QTRY_COMPARE_WITH_TIMEOUT(holder(), QStringLiteral("op-b"), 30000);
        const qint64 takeoverMs = took.elapsed();
        qInfo("takeover after kill -9: %lld ms", takeoverMs);
        QVERIFY2(takeoverMs <= 15000 + 2000, qPrintable(QString::number(takeoverMs)));
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
    // LeaseDuration + RetryPeriod (15 s + 2 s) of the kill, and finishes the work.
    void shouldTakeOverWithin17sWhenTheLeaderIsKilledMidReconcile()
    {
        QTemporaryDir dir;
        const QString trace = dir.filePath(QStringLiteral("a.jsonl"));
        auto a = launch(QStringLiteral("mid-a"), trace);
        QVERIFY(a->waitForStarted());
        QTRY_COMPARE_WITH_TIMEOUT(holder(), QStringLiteral("mid-a"), 15000);
        auto b = launch(QStringLiteral("mid-b"));
        QVERIFY(b->waitForStarted());
        const auto stopB = qScopeGuard([&b] { // also on failure: SIGTERM releases the lease for the next test
            if (b->state() != QProcess::NotRunning) {
                b->terminate();
                b->waitForFinished(15000);
            }
        });
        QTest::qWait(3000);
        QCOMPARE(holder(), QStringLiteral("mid-a"));

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
        qInfo("deployments of the burst when the leader was killed: %d of %d", doneAtKill, apps);
        QVERIFY2(doneAtKill < apps, "the leader finished before it was killed: not mid-reconcile");

        QTRY_COMPARE_WITH_TIMEOUT(holder(), QStringLiteral("mid-b"), 30000);
        const qint64 takeoverMs = took.elapsed();
        qInfo("takeover after kill -9 mid-reconcile: %lld ms", takeoverMs);
        QVERIFY2(takeoverMs <= 17000, qPrintable(QString::number(takeoverMs)));
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
        QVERIFY2(log.contains("Shutdown signal received"), log.constData());
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
