// SPDX-License-Identifier: Apache-2.0
// CacheTreeModel and CacheFilterProxy under QAbstractItemModelTester, driven by batches.
#include "ui/models/cachefilterproxy.h"
#include "ui/models/cachetreemodel.h"
#include "ui/models/objectbadge.h"
#include "ui/widgets/palette.h"

#include <QAbstractItemModelTester>
#include <QJsonObject>
#include <QTest>

using namespace opbench;
using namespace opbench::ui;

namespace {

Object makeObject(
    const QString &kind, const QString &ns, const QString &name, const QString &rv, const QJsonObject &labels = {})
{
    QJsonObject meta{{QStringLiteral("name"), name}, {QStringLiteral("resourceVersion"), rv}};
    if (!ns.isEmpty())
        meta.insert(QStringLiteral("namespace"), ns);
    if (!labels.isEmpty())
        meta.insert(QStringLiteral("labels"), labels);
    return Object::fromJson({{QStringLiteral("apiVersion"), QStringLiteral("v1")}, {QStringLiteral("kind"), kind},
        {QStringLiteral("metadata"), meta}});
}

CacheBatch upserts(const QString &kind, const QList<Object> &objects)
{
    CacheBatch b;
    for (const Object &o : objects)
        b.entries.append({CacheEntry::Op::Upsert, kind, o});
    return b;
}

CacheBatch removal(const QString &kind, const Object &o)
{
    CacheBatch b;
    b.entries.append({CacheEntry::Op::Remove, kind, o});
    return b;
}

} // namespace

class tst_CacheTreeModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldBuildKindNamespaceObjectTreeWithCounts()
    {
        // Given a model under the tester
        CacheTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        // When pods arrive in two namespaces
        model.apply(upserts(QStringLiteral("Pod"),
            {makeObject("Pod", "default", "b", "5"), makeObject("Pod", "default", "a", "6"),
                makeObject("Pod", "kube-system", "dns", "7")}));
        // Then kind -> namespace -> object, sorted, with counts
        QCOMPARE(model.rowCount(), 1);
        const QModelIndex pods = model.index(0, 0);
        QCOMPARE(pods.data().toString(), QStringLiteral("Pod (3)"));
        QCOMPARE(model.rowCount(pods), 2);
        const QModelIndex def = model.index(0, 0, pods);
        QCOMPARE(def.data().toString(), QStringLiteral("default (2)"));
        QCOMPARE(model.index(0, 0, def).data().toString(), QStringLiteral("a"));
        QCOMPARE(model.index(1, 0, def).data().toString(), QStringLiteral("b"));
        QCOMPARE(model.objectCount(), 3);
    }

    void shouldUpdateInPlaceAndKeepPersistentIndexes()
    {
        CacheTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.apply(upserts(QStringLiteral("Pod"), {makeObject("Pod", "default", "a", "1")}));
        const QPersistentModelIndex a = model.indexOf(QStringLiteral("Pod"), QStringLiteral("default/a"));
        QVERIFY(a.isValid());
        // When the object changes and a sibling is added before it
        model.apply(upserts(QStringLiteral("Pod"),
            {makeObject("Pod", "default", "a", "9"), makeObject("Pod", "default", "0first", "10")}));
        // Then the persistent index (a selection) follows the object and shows the new version
        QVERIFY(a.isValid());
        QCOMPARE(a.row(), 1);
        QCOMPARE(a.sibling(a.row(), CacheTreeModel::InfoColumn).data().toString(), QStringLiteral("rv 9"));
    }

    void shouldRemoveObjectsAndEmptyNamespaces()
    {
        CacheTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const Object dns = makeObject("Pod", "kube-system", "dns", "3");
        model.apply(upserts(QStringLiteral("Pod"), {makeObject("Pod", "default", "a", "2"), dns}));
        model.apply(removal(QStringLiteral("Pod"), dns));
        const QModelIndex pods = model.index(0, 0);
        QCOMPARE(model.rowCount(pods), 1);
        QCOMPARE(pods.data().toString(), QStringLiteral("Pod (1)"));
        QVERIFY(!model.indexOf(QStringLiteral("Pod"), QStringLiteral("kube-system/dns")).isValid());
        // Removing something unknown changes nothing
        model.apply(removal(QStringLiteral("Pod"), dns));
        QCOMPARE(model.objectCount(), 1);
    }

    void shouldShowInformerSyncStateAndResourceVersion()
    {
        CacheTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        CacheBatch b;
        b.informers.append({QStringLiteral("Deployment"), false, QString(), QString(), 0});
        model.apply(b);
        const QModelIndex info = model.index(0, CacheTreeModel::InfoColumn);
        QVERIFY(info.data().toString().startsWith(QStringLiteral("syncing")));
        QCOMPARE(model.syncedCount(), 0);
        b.informers[0] = {QStringLiteral("Deployment"), true, QStringLiteral("41"), QStringLiteral("42"), 0};
        model.apply(b);
        QCOMPARE(info.data().toString(), QStringLiteral("synced ✓ · rv 42"));
        QCOMPARE(model.syncedCount(), 1);
    }

    void shouldBadgeEveryObjectThatReportsAPhase()
    {
        // Given apps in each phase, a pod, and a Deployment with 2 of 3 replicas available
        CacheTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto withStatus = [](Object o, const QJsonObject &status, const QJsonObject &spec = {}) {
            QJsonObject json = o.json();
            json.insert(QStringLiteral("status"), status);
            if (!spec.isEmpty())
                json.insert(QStringLiteral("spec"), spec);
            return Object::fromJson(json);
        };
        model.apply(upserts(QStringLiteral("MyApplication"),
            {withStatus(makeObject("MyApplication", "default", "web", "5"), {{"phase", "Running"}}),
                withStatus(makeObject("MyApplication", "default", "slow", "6"), {{"phase", "Pending"}}),
                withStatus(makeObject("MyApplication", "default", "broken", "7"),
                    {{"phase", "Failed"}, {"message", "image cannot be pulled"}}),
                makeObject("MyApplication", "default", "new", "8")}));
        model.apply(upserts(
            QStringLiteral("Pod"), {withStatus(makeObject("Pod", "default", "web-1", "9"), {{"phase", "Running"}})}));
        model.apply(upserts(QStringLiteral("Deployment"),
            {withStatus(
                makeObject("Deployment", "default", "web", "10"), {{"availableReplicas", 2}}, {{"replicas", 3}})}));
        auto badge = [&model](const char *kind, const char *key, int role) {
            return model.indexOf(QLatin1String(kind), QLatin1String(key))
                .siblingAtColumn(CacheTreeModel::InfoColumn)
                .data(role);
        };
        // Then the phase reads at a glance, in the gui.md colours
        QCOMPARE(badge("MyApplication", "default/broken", BadgeTextRole).toString(), QStringLiteral("Failed"));
        QCOMPARE(badge("MyApplication", "default/broken", BadgeColourRole).value<QColor>(),
            resultColour(ResultColour::Error));
        QCOMPARE(badge("MyApplication", "default/web", BadgeColourRole).value<QColor>(),
            resultColour(ResultColour::Success));
        QCOMPARE(badge("MyApplication", "default/slow", BadgeColourRole).value<QColor>(),
            phaseColour(QStringLiteral("Pending")));
        QVERIFY(badge("MyApplication", "default/broken", Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("image cannot be pulled")));
        QCOMPARE(badge("Pod", "default/web-1", BadgeTextRole).toString(), QStringLiteral("Running"));
        // And an object without a phase has no badge; a Deployment shows available/desired
        QVERIFY(badge("MyApplication", "default/new", BadgeTextRole).toString().isEmpty());
        QCOMPARE(badge("Deployment", "default/web", BadgeTextRole).toString(), QStringLiteral("2/3"));
        // And the resourceVersion is still there beside the badge
        QCOMPARE(badge("MyApplication", "default/broken", Qt::DisplayRole).toString(), QStringLiteral("rv 7"));
    }

    void shouldFilterByLabelSelectorOrText_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<int>("visible");
        QTest::addColumn<bool>("error");
        QTest::newRow("empty") << QString() << 3 << false;
        QTest::newRow("equality") << QStringLiteral("app=web") << 1 << false;
        QTest::newRow("set") << QStringLiteral("tier in (backend)") << 2 << false;
        QTest::newRow("not equal") << QStringLiteral("tier!=backend") << 1 << false;
        QTest::newRow("text") << QStringLiteral("work") << 1 << false;
        QTest::newRow("bad selector") << QStringLiteral("app=(") << 0 << true;
    }

    void shouldFilterByLabelSelectorOrText()
    {
        QFETCH(QString, filter);
        QFETCH(int, visible);
        QFETCH(bool, error);
        CacheTreeModel model;
        CacheFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.apply(upserts(QStringLiteral("MyApplication"),
            {makeObject("MyApplication", "default", "web", "1", {{"app", "web"}, {"tier", "frontend"}}),
                makeObject("MyApplication", "default", "api", "2", {{"app", "api"}, {"tier", "backend"}}),
                makeObject("MyApplication", "default", "worker", "3", {{"app", "worker"}, {"tier", "backend"}})}));
        QCOMPARE(proxy.setFilter(filter).isEmpty(), !error);
        int shown = 0;
        for (int k = 0; k < proxy.rowCount(); ++k) {
            const QModelIndex kind = proxy.index(k, 0);
            for (int n = 0; n < proxy.rowCount(kind); ++n)
                shown += proxy.rowCount(proxy.index(n, 0, kind));
        }
        QCOMPARE(shown, visible);
    }
};

QTEST_GUILESS_MAIN(tst_CacheTreeModel)
#include "tst_cachetreemodel.moc"
