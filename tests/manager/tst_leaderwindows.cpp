// SPDX-License-Identifier: Apache-2.0
// Leader election under a frozen leader (issue 16): two opbench-operator processes, each with its
// own user, against an opbench-apiserver process with an audit log. The leader is frozen
// (SIGSTOP) while it reconciles a burst of apps, the standby takes the lease over and works, and
// then the old leader is thawed (SIGCONT): it must not write again (its lease may have expired:
// the write fence refuses) and must exit with "leader election lost". From the audit log: every
// accepted write of the old leader comes before the first accepted write of the new one, so the
// two identities never write in overlapping leadership windows. (kill -9 mid-reconcile and the
// ≤ 17 s takeover are in tst_operatorprocess.) Lease writes are the election itself and are left
// out; so are Events, which the event recorder sends without the fence (as controller-runtime).
#include "engine/api/lease.h"
#include "engine/api/object.h"
#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"

#include <QDateTime>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <qcoro/qcorotask.h>

#include <csignal>

using namespace opbench;

namespace {

const GroupVersionResource kApps{
    QStringLiteral("example.com"), QStringLiteral("v1alpha1"), QStringLiteral("myapplications")};
const GroupVersionResource kDeployments{QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("deployments")};
const GroupVersionResource kLeases{
    QStringLiteral("coordination.k8s.io"), QStringLiteral("v1"), QStringLiteral("leases")};
const QString kLeaseName = QStringLiteral("myapplication-operator.example.com");

Object myApp(const QString &name)
{
    return Object::fromJson(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("example.com/v1alpha1")},
        {QStringLiteral("kind"), QStringLiteral("MyApplication")},
        {QStringLiteral("metadata"),
            QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), QStringLiteral("default")}}},
        {QStringLiteral("spec"),
            QJsonObject{{QStringLiteral("image"), QStringLiteral("nginx:1.25")}, {QStringLiteral("replicas"), 1}}}});
}

/// Watches opened by `user` on `resource`, from the audit log.
int watchesBy(const QString &auditLog, const QString &user, const QString &resource)
{
    QFile f(auditLog);
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    int n = 0;
    for (const QByteArray &line : f.readAll().split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        n += o.value(QLatin1String("user")).toString() == user
            && o.value(QLatin1String("verb")).toString() == QLatin1String("watch")
            && o.value(QLatin1String("resource")).toString() == resource;
    }
    return n;
}

/// Whether `user` has read the lease (its elector is campaigning: its manager started).
bool readLease(const QString &auditLog, const QString &user)
{
    QFile f(auditLog);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    for (const QByteArray &line : f.readAll().split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (o.value(QLatin1String("user")).toString() == user
            && o.value(QLatin1String("resource")).toString() == QLatin1String("leases"))
            return true;
    }
    return false;
}

struct Write
{
    QDateTime time;
    QString user;
    QString what;
};

/// Accepted writes (create/update/patch/delete with a 2xx code) from the audit log, leases and
/// events left out.
QList<Write> acceptedWrites(const QString &auditLog)
{
    QList<Write> out;
    QFile f(auditLog);
    if (!f.open(QIODevice::ReadOnly))
        return out;
    static const QStringList writeVerbs{QStringLiteral("create"), QStringLiteral("update"), QStringLiteral("patch"),
        QStringLiteral("delete"), QStringLiteral("deletecollection")};
    for (const QByteArray &line : f.readAll().split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        const QString resource = o.value(QLatin1String("resource")).toString();
        const int code = o.value(QLatin1String("code")).toInt();
        if (!writeVerbs.contains(o.value(QLatin1String("verb")).toString()) || code < 200 || code >= 300
            || resource == QLatin1String("leases") || resource == QLatin1String("events"))
            continue;
        out.append({QDateTime::fromString(o.value(QLatin1String("time")).toString(), Qt::ISODateWithMs),
            o.value(QLatin1String("user")).toString(),
            o.value(QLatin1String("verb")).toString() + u' ' + resource + u'/'
                + o.value(QLatin1String("name")).toString()});
    }
    return out;
}

} // namespace

class TestLeaderWindows : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QProcess m_server;
    QString m_adminKubeconfig;
    QString m_adminToken;
    std::unique_ptr<RestClient> m_rest;

    QString kubeconfigFor(const QString &user, const QString &token)
    {
        QFile in(m_adminKubeconfig);
        if (!in.open(QIODevice::ReadOnly))
            return {};
        QByteArray text = in.readAll();
        text.replace(m_adminToken.toUtf8(), token.toUtf8());
        const QString path = m_dir.filePath(user + QStringLiteral(".kubeconfig"));
        QFile out(path);
        if (!out.open(QIODevice::WriteOnly) || out.write(text) != text.size())
            return {};
        return path;
    }
    std::unique_ptr<QProcess> launch(const QString &kubeconfig, const QString &identity)
    {
        auto p = std::make_unique<QProcess>();
        p->setProgram(QStringLiteral(OPBENCH_BINARY_DIR "/app/opbench-operator"));
        p->setArguments({QStringLiteral("--kubeconfig"), kubeconfig, QStringLiteral("--leader-elect"),
            QStringLiteral("--leader-election-namespace"), QStringLiteral("default"), QStringLiteral("--identity"),
            identity, QStringLiteral("--health-probe-bind-address"), QStringLiteral("0"),
            QStringLiteral("--metrics-bind-address"), QStringLiteral("0")});
        p->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p->start();
        return p;
    }
    QString holder()
    {
        Expected<Object> r = QCoro::waitFor(m_rest->get(kLeases, QStringLiteral("default"), kLeaseName));
        return r ? Lease(r.value()).holderIdentity() : QString();
    }
    int deployments()
    {
        Expected<Object::List> l = QCoro::waitFor(m_rest->list(kDeployments, QStringLiteral("default")));
        int n = 0;
        if (l)
            for (const Object &d : l->items)
                n += d.name().startsWith(QLatin1String("win-")) ? 1 : 0;
        return n;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_adminToken = QStringLiteral("admin-") + QString::number(QDateTime::currentMSecsSinceEpoch());
        const QString rules = m_dir.filePath(QStringLiteral("rules.yaml"));
        QFile f(rules);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("users:\n- {name: op-a, token: token-of-a}\n- {name: op-b, token: token-of-b}\n");
        f.close();
        m_adminKubeconfig = m_dir.filePath(QStringLiteral("admin.kubeconfig"));
        m_server.setProgram(QStringLiteral(OPBENCH_BINARY_DIR "/app/opbench-apiserver"));
        m_server.setArguments({QStringLiteral("--token"), m_adminToken, QStringLiteral("--audit-log"),
            m_dir.filePath(QStringLiteral("audit.log")), QStringLiteral("--write-kubeconfig"), m_adminKubeconfig,
            QStringLiteral("--rules"), rules});
        m_server.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_server.start();
        QVERIFY(m_server.waitForStarted());
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT((out += m_server.readAllStandardOutput()).contains("listening on"), 30000);
        QTRY_VERIFY(QFile::exists(m_adminKubeconfig));
        Expected<RestConfig> cfg = loadConfig(m_adminKubeconfig);
        QVERIFY(cfg.ok());
        m_rest = std::make_unique<RestClient>(*cfg);
    }

    void cleanupTestCase()
    {
        m_rest.reset();
        m_server.terminate();
        m_server.waitForFinished(15000);
    }

    void shouldNeverWriteInOverlappingLeadershipWindows()
    {
        const QString kcA = kubeconfigFor(QStringLiteral("op-a"), QStringLiteral("token-of-a"));
        const QString kcB = kubeconfigFor(QStringLiteral("op-b"), QStringLiteral("token-of-b"));
        QVERIFY(!kcA.isEmpty() && !kcB.isEmpty());
        auto a = launch(kcA, QStringLiteral("win-a"));
        QVERIFY(a->waitForStarted());
        const auto cleanup = qScopeGuard([&a] {
            if (a->state() != QProcess::NotRunning) {
                ::kill(pid_t(a->processId()), SIGCONT);
                a->kill();
                a->waitForFinished(5000);
            }
        });
        QTRY_COMPARE_WITH_TIMEOUT(holder(), QStringLiteral("win-a"), 15000);
        auto b = launch(kcB, QStringLiteral("win-b"));
        QVERIFY(b->waitForStarted());
        const auto stopB = qScopeGuard([&b] {
            if (b->state() != QProcess::NotRunning) {
                b->terminate();
                b->waitForFinished(15000);
            }
        });

        constexpr int apps = 100;
        for (int i = 0; i < apps; ++i)
            QVERIFY(
                QCoro::waitFor(m_rest->create(kApps, QStringLiteral("default"), myApp(QStringLiteral("win-%1").arg(i))))
                    .ok());
        QTRY_VERIFY_WITH_TIMEOUT(deployments() >= 5, 15000); // a is working through the burst
        // Runtime review #10: the standby campaigns but has opened no watch on the controller's
        // kinds: its informers start once it leads.
        const QString audit = m_dir.filePath(QStringLiteral("audit.log"));
        QTRY_VERIFY_WITH_TIMEOUT(readLease(audit, QStringLiteral("op-b")), 15000);
        QCOMPARE(watchesBy(audit, QStringLiteral("op-b"), kApps.resource), 0);
        QCOMPARE(watchesBy(audit, QStringLiteral("op-b"), kDeployments.resource), 0);
        ::kill(pid_t(a->processId()), SIGSTOP);
        const int frozenAt = deployments();
        qInfo("deployments when the leader was frozen: %d of %d", frozenAt, apps);
        // More work after the freeze, so the new leader has some even when the old one had
        // finished the whole burst before it froze (a fast or an idle machine).
        constexpr int later = 10;
        for (int i = apps; i < apps + later; ++i)
            QVERIFY(
                QCoro::waitFor(m_rest->create(kApps, QStringLiteral("default"), myApp(QStringLiteral("win-%1").arg(i))))
                    .ok());
        QTRY_COMPARE_WITH_TIMEOUT(holder(), QStringLiteral("win-b"), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(deployments() > frozenAt, 15000); // b works
        QVERIFY(watchesBy(audit, QStringLiteral("op-b"), kApps.resource) >= 1);
        ::kill(pid_t(a->processId()), SIGCONT);
        // The thawed leader sees its lease gone: it stops, with "leader election lost".
        QVERIFY(a->waitForFinished(30000));
        QCOMPARE(a->exitStatus(), QProcess::NormalExit);
        QCOMPARE(a->exitCode(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(deployments(), apps + later, 60000);
        b->terminate();
        QVERIFY(b->waitForFinished(15000));

        const QList<Write> writes = acceptedWrites(m_dir.filePath(QStringLiteral("audit.log")));
        QDateTime lastA, firstB;
        QString lastAWhat, firstBWhat;
        int byA = 0, byB = 0;
        for (const Write &w : writes) {
            if (w.user == QLatin1String("op-a")) {
                ++byA;
                if (!lastA.isValid() || w.time > lastA) {
                    lastA = w.time;
                    lastAWhat = w.what;
                }
            } else if (w.user == QLatin1String("op-b")) {
                ++byB;
                if (!firstB.isValid() || w.time < firstB) {
                    firstB = w.time;
                    firstBWhat = w.what;
                }
            }
        }
        qInfo("accepted writes: %d by a, %d by b; a's last %s at %s, b's first %s at %s", byA, byB,
            qPrintable(lastAWhat), qPrintable(lastA.toString(Qt::ISODateWithMs)), qPrintable(firstBWhat),
            qPrintable(firstB.toString(Qt::ISODateWithMs)));
        QVERIFY(byA > 0 && byB > 0);
        QVERIFY2(lastA < firstB, "the old leader wrote after the new leader had started writing");
    }
};

QTEST_GUILESS_MAIN(TestLeaderWindows)
#include "tst_leaderwindows.moc"
