// SPDX-License-Identifier: Apache-2.0
// The bridge end to end: EngineSession starts the embedded API server and the engine on their
// own threads; the cache tree (fed only by queued snapshots) follows objects created, updated
// and deleted through the real server over loopback.
#include "ui/models/cachetreemodel.h"
#include "ui/session/enginesession.h"

#include "engine/cache/history.h"
#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

#include <qcoro/qcorotask.h>

using namespace opbench;
using namespace opbench::ui;

namespace {
const GroupVersionResource MyApps{
    QStringLiteral("example.com"), QStringLiteral("v1alpha1"), QStringLiteral("myapplications")};
const QString kAppKind = QStringLiteral("MyApplication");

QJsonObject app(const QString &name, int replicas)
{
    return {{QStringLiteral("apiVersion"), QStringLiteral("example.com/v1alpha1")}, {QStringLiteral("kind"), kAppKind},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}},
        {QStringLiteral("spec"),
            QJsonObject{
                {QStringLiteral("image"), QStringLiteral("nginx:1.25")}, {QStringLiteral("replicas"), replicas}}}};
}
} // namespace

class tst_CacheLive : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        m_session = std::make_unique<EngineSession>(SessionOptions{});
        m_tester = std::make_unique<QAbstractItemModelTester>(
            &m_model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        connect(m_session->cacheFeed(), &CacheFeed::batch, &m_model, &CacheTreeModel::apply);
        QSignalSpy started(m_session.get(), &EngineSession::started);
        QSignalSpy failed(m_session.get(), &EngineSession::failed);
        m_session->start();
        QVERIFY2(started.wait(30000), qPrintable(failed.isEmpty() ? QString() : failed.first().first().toString()));
        QVERIFY(m_session->cluster().embedded);
        auto config = loadConfig(m_session->cluster().kubeconfigPath);
        QVERIFY2(config.ok(), qPrintable(config.ok() ? QString() : config.error().message()));
        m_client = std::make_unique<RestClient>(config.value());
    }

    void cleanupTestCase()
    {
        m_client.reset();
        m_tester.reset();
        m_session.reset();
    }

    void shouldShowTheSampleApplicationsAndSyncState()
    {
        // The five samples are created at start-up and every informer syncs
        QTRY_COMPARE_WITH_TIMEOUT(m_model.syncedCount(), 4, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(m_model.indexOf(kAppKind, QStringLiteral("default/broken")).isValid(), 20000);
        for (const char *name : {"frontend", "backend", "worker", "cache"})
            QVERIFY(m_model.indexOf(kAppKind, QStringLiteral("default/") + QLatin1String(name)).isValid());
    }

    void shouldFollowAddsUpdatesAndDeletes()
    {
        // When an object is created through the server
        auto created
            = QCoro::waitFor(m_client->create(MyApps, QStringLiteral("default"), Object::fromJson(app("extra", 1))));
        QVERIFY2(created.ok(), qPrintable(created.ok() ? QString() : created.error().message()));
        // Then it appears in the tree
        QTRY_VERIFY_WITH_TIMEOUT(m_model.indexOf(kAppKind, QStringLiteral("default/extra")).isValid(), 10000);
        const QPersistentModelIndex row = m_model.indexOf(kAppKind, QStringLiteral("default/extra"));

        // When it is updated, the same row shows the new resourceVersion
        auto patched = QCoro::waitFor(m_client->patch(MyApps, QStringLiteral("default"), QStringLiteral("extra"),
            PatchType::Merge, R"({"spec":{"replicas":4}})"));
        QVERIFY2(patched.ok(), qPrintable(patched.ok() ? QString() : patched.error().message()));
        const QString rv = patched->resourceVersion();
        // (the operator may write the object's status afterwards: the row shows that version or a newer one)
        QTRY_VERIFY_WITH_TIMEOUT(
            compareResourceVersions(row.data(CacheTreeModel::ResourceVersionRole).toString(), rv) >= 0, 10000);
        QCOMPARE(row.data(CacheTreeModel::ObjectRole)
                     .value<Object>()
                     .value({QLatin1String("spec"), QLatin1String("replicas")})
                     .toInt(),
            4);

        // And its history holds both versions (for the diff and the slider)
        QSignalSpy versions(m_session->cacheFeed(), &CacheFeed::versionsReady);
        m_session->post(&CacheFeed::requestVersions, kAppKind, QStringLiteral("default/extra"));
        // (the engine thread may answer before a wait() would start: wait on the count instead)
        QTRY_VERIFY_WITH_TIMEOUT(!versions.isEmpty(), 5000);
        const auto v = versions.first().first().value<ObjectVersions>();
        QVERIFY(v.changes.size() >= 2);
        QVERIFY(compareResourceVersions(v.current.resourceVersion(), rv) >= 0);

        // When it is deleted, it leaves the tree
        auto removed = QCoro::waitFor(m_client->remove(MyApps, QStringLiteral("default"), QStringLiteral("extra")));
        QVERIFY(removed.ok());
        QTRY_VERIFY_WITH_TIMEOUT(!m_model.indexOf(kAppKind, QStringLiteral("default/extra")).isValid(), 10000);
        QVERIFY(!row.isValid());
    }

    void shouldWriteTheEmbeddedKubeconfig()
    {
        const QString path = QDir::temp().filePath(QStringLiteral("tst_cachelive-kubeconfig"));
        QVERIFY(m_session->writeKubeconfig(path).ok());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains(m_session->cluster().server.toString().toUtf8()));
        QCOMPARE(f.permissions() & (QFileDevice::ReadOther | QFileDevice::ReadGroup), QFileDevice::Permissions());
        f.remove();
    }

private:
    CacheTreeModel m_model;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
    std::unique_ptr<EngineSession> m_session;
    std::unique_ptr<RestClient> m_client;
};

QTEST_GUILESS_MAIN(tst_CacheLive)
#include "tst_cachelive.moc"
