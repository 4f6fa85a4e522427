// SPDX-License-Identifier: Apache-2.0
// Whole-cache time travel against the embedded cluster: after an update and a delete, moving the
// Cache panel's history slider back shows the old version and the deleted object under a
// "viewing the past" banner; back to live shows the cache as it is. Models under the tester.
#include "ui/models/cachefilterproxy.h"
#include "ui/models/cachetreemodel.h"
#include "ui/session/enginesession.h"
#include "ui/widgets/cachepanel.h"

#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QSlider>
#include <QTest>

#include <qcoro/qcorotask.h>

using namespace opbench;
using namespace opbench::ui;

namespace {
const GroupVersionResource MyApps{
    QStringLiteral("example.com"), QStringLiteral("v1alpha1"), QStringLiteral("myapplications")};
const QString kAppKind = QStringLiteral("MyApplication");

/// Whether the operator's first status write for `key` is in the model.
bool hasPhase(const CacheTreeModel *model, const QString &key)
{
    const Object o = model->indexOf(kAppKind, key).data(CacheTreeModel::ObjectRole).value<Object>();
    return !o.value({QLatin1String("status"), QLatin1String("phase")}).toString().isEmpty();
}

int replicasOf(const CacheTreeModel *model, const QString &key)
{
    const Object o = model->indexOf(kAppKind, key).data(CacheTreeModel::ObjectRole).value<Object>();
    return o.value({QLatin1String("spec"), QLatin1String("replicas")}).toInt();
}
} // namespace

class tst_TimeTravel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldShowTheWholeCacheAsItWasAtAnEarlierResourceVersion()
    {
        // Given the Cache panel wired to a session the way the window wires it
        EngineSession session(SessionOptions{});
        CacheTreeModel live;
        QAbstractItemModelTester tester(&live, QAbstractItemModelTester::FailureReportingMode::QtTest);
        CachePanel panel(&live);
        QAbstractItemModelTester proxyTester(panel.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        connect(session.cacheFeed(), &CacheFeed::batch, &live, &CacheTreeModel::apply);
        connect(&panel, &CachePanel::timeTravelRequested, session.cacheFeed(), &CacheFeed::requestCacheAt);
        connect(session.cacheFeed(), &CacheFeed::cacheAt, &panel, &CachePanel::showPast);
        panel.show();
        session.start();
        QTRY_VERIFY_WITH_TIMEOUT(live.indexOf(kAppKind, QStringLiteral("default/cache")).isValid(), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(live.indexOf(kAppKind, QStringLiteral("default/worker")).isValid(), 30000);
        auto config = loadConfig(session.cluster().kubeconfigPath);
        QVERIFY(config.ok());
        RestClient client(config.value());
        // The operator's first status writes have landed (the cache shows a phase for each app)
        for (const char *app : {"default/frontend", "default/backend", "default/worker", "default/cache"})
            QTRY_VERIFY2_WITH_TIMEOUT(hasPhase(&live, QLatin1String(app)), app, 30000);
        const int replicasBefore = replicasOf(&live, QStringLiteral("default/worker"));
        const QString before = QString::number(live.latestRv());

        // When "worker" is scaled and "cache" is deleted
        auto patched = QCoro::waitFor(client.patch(MyApps, QStringLiteral("default"), QStringLiteral("worker"),
            PatchType::Merge, QByteArray(R"({"spec":{"replicas":4}})")));
        QVERIFY(patched.ok());
        auto removed = QCoro::waitFor(client.remove(MyApps, QStringLiteral("default"), QStringLiteral("cache")));
        QVERIFY(removed.ok());
        QTRY_VERIFY_WITH_TIMEOUT(!live.indexOf(kAppKind, QStringLiteral("default/cache")).isValid(), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(replicasOf(&live, QStringLiteral("default/worker")), 4, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(
            panel.historySlider()->isEnabled() && panel.historySlider()->maximum() > before.toInt(), 5000);
        QVERIFY(panel.historySlider()->minimum() <= before.toInt());
        QVERIFY(!panel.isViewingPast());

        // And the user drags the history slider back to before those changes
        panel.historySlider()->setValue(before.toInt());
        // Then the tree shows the past: the deleted app is there, the scaled one has its old replicas
        QTRY_VERIFY2_WITH_TIMEOUT(panel.isViewingPast(),
            qPrintable(panel.timeTravelBanner()->text() + u' ' + before + u' '
                + QString::number(panel.historySlider()->minimum())),
            10000);
        const CacheTreeModel *past = panel.shownModel();
        QVERIFY(past != &live);
        QVERIFY(past->indexOf(kAppKind, QStringLiteral("default/cache")).isValid());
        QCOMPARE(replicasOf(past, QStringLiteral("default/worker")), replicasBefore);
        QVERIFY(panel.timeTravelBanner()->isVisible());
        QVERIFY2(panel.timeTravelBanner()->text().contains(before), qPrintable(panel.timeTravelBanner()->text()));
        QVERIFY(panel.proxy()->sourceModel() == past);

        // When the user goes back to live, the cache is as it is now
        panel.backToLive();
        QVERIFY(!panel.isViewingPast());
        QVERIFY(!panel.timeTravelBanner()->isVisible());
        QVERIFY(panel.proxy()->sourceModel() == &live);
        QVERIFY(!live.indexOf(kAppKind, QStringLiteral("default/cache")).isValid());
        QCOMPARE(panel.historySlider()->value(), panel.historySlider()->maximum());
    }
};

QTEST_MAIN(tst_TimeTravel)
#include "tst_timetravel.moc"
