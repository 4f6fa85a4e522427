// SPDX-License-Identifier: Apache-2.0
// ChildrenTreeModel under QAbstractItemModelTester: the ownership tree follows owner references
// whatever order the objects arrive in, and loses a deleted Deployment's subtree.
#include "ui/models/childrentreemodel.h"
#include "ui/models/objectbadge.h"
#include "ui/widgets/badgedelegate.h"
#include "ui/widgets/childrenpanel.h"
#include "ui/widgets/palette.h"

#include <QAbstractItemModelTester>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

using namespace opbench;
using namespace opbench::ui;

namespace {
Object make(const QString &kind, const QString &name, const QString &uid, const QString &ownerUid = {},
    const QJsonObject &status = {})
{
    QJsonObject meta{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), QStringLiteral("default")},
        {QStringLiteral("uid"), uid}};
    if (!ownerUid.isEmpty()) {
        meta.insert(QStringLiteral("ownerReferences"),
            QJsonArray{QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                {QStringLiteral("kind"), QStringLiteral("Owner")}, {QStringLiteral("name"), QStringLiteral("owner")},
                {QStringLiteral("uid"), ownerUid}, {QStringLiteral("controller"), true}}});
    }
    return Object::fromJson({{QStringLiteral("apiVersion"), QStringLiteral("v1")}, {QStringLiteral("kind"), kind},
        {QStringLiteral("metadata"), meta}, {QStringLiteral("spec"), QJsonObject{{QStringLiteral("replicas"), 1}}},
        {QStringLiteral("status"), status}});
}

CacheBatch batch(CacheEntry::Op op, const QString &kind, const Object &o)
{
    CacheBatch b;
    b.entries.append({op, kind, o});
    return b;
}
} // namespace

class tst_ChildrenTreeModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldNotSelectTheOwnerOfADeletedObject()
    {
        // Given the Children panel showing an app, its Deployment (selected) and a sibling ConfigMap
        ChildrenTreeModel model;
        ChildrenPanel panel(&model, workbench::CreateForm{});
        model.apply(batch(CacheEntry::Op::Upsert, "MyApplication", make("MyApplication", "web", "a1")));
        const Object deployment = make("Deployment", "web", "d1", "a1");
        model.apply(batch(CacheEntry::Op::Upsert, "Deployment", deployment));
        model.apply(batch(CacheEntry::Op::Upsert, "ConfigMap", make("ConfigMap", "web", "c1", "a1")));
        panel.view()->setCurrentIndex(model.indexOfUid(QStringLiteral("d1")));
        QVERIFY(panel.view()->currentIndex().isValid());
        // When the Deployment is deleted
        model.apply(batch(CacheEntry::Op::Remove, "Deployment", deployment));
        // Then nothing is selected (not the app, which the next "Delete selected" would delete)
        QVERIFY(!panel.view()->currentIndex().isValid());
        QVERIFY(!panel.view()->selectionModel()->hasSelection());
        QSignalSpy deleted(&panel, &ChildrenPanel::deleteRequested);
        QSignalSpy rejected(&panel, &ChildrenPanel::deleteRejected);
        QTest::mouseClick(panel.findChild<QWidget *>(QStringLiteral("deleteButton")), Qt::LeftButton);
        QCOMPARE(deleted.size(), 0);
        QCOMPARE(rejected.size(), 1);
        // And another object's removal leaves the selection alone
        panel.view()->setCurrentIndex(model.indexOfUid(QStringLiteral("a1")));
        model.apply(batch(CacheEntry::Op::Remove, "ConfigMap", make("ConfigMap", "web", "c1", "a1")));
        QCOMPARE(
            panel.view()->currentIndex().data(ChildrenTreeModel::KeyRole).toString(), QStringLiteral("default/web"));
    }

    void shouldBuildTheOwnershipTreeInAnyArrivalOrder()
    {
        ChildrenTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        // Given children arriving before their owners
        model.apply(
            batch(CacheEntry::Op::Upsert, "Pod", make("Pod", "web-abc-1", "p1", "rs1", {{"phase", "Running"}})));
        model.apply(batch(CacheEntry::Op::Upsert, "ReplicaSet", make("ReplicaSet", "web-abc", "rs1", "d1")));
        model.apply(batch(CacheEntry::Op::Upsert, "Deployment", make("Deployment", "web", "d1", "a1")));
        QCOMPARE(model.rowCount(), 0);
        // When the MyApplication arrives, the whole chain hangs under it
        model.apply(batch(CacheEntry::Op::Upsert, "MyApplication", make("MyApplication", "web", "a1")));
        QCOMPARE(model.rowCount(), 1);
        const QModelIndex pod = model.indexOfUid(QStringLiteral("p1"));
        QVERIFY(pod.isValid());
        QCOMPARE(pod.data().toString(), QStringLiteral("Pod web-abc-1"));
        QCOMPARE(pod.parent().parent().parent(), model.index(0, 0));
        QCOMPARE(pod.siblingAtColumn(ChildrenTreeModel::StatusColumn).data().toString(), QStringLiteral("Running"));
    }

    void shouldBadgePhasesAndAvailableReplicas()
    {
        // Given an app that failed, its Deployment with none of 2 replicas available, a pending pod
        ChildrenTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.apply(batch(
            CacheEntry::Op::Upsert, "MyApplication", make("MyApplication", "broken", "a1", {}, {{"phase", "Failed"}})));
        Object deployment = make("Deployment", "broken", "d1", "a1", {{"availableReplicas", 0}});
        model.apply(batch(CacheEntry::Op::Upsert, "Deployment", deployment));
        model.apply(batch(CacheEntry::Op::Upsert, "Pod", make("Pod", "broken-1", "p1", "d1", {{"phase", "Pending"}})));
        // Then the app's status carries a red Failed badge
        const QModelIndex app = model.index(0, ChildrenTreeModel::StatusColumn);
        QCOMPARE(app.data(BadgeTextRole).toString(), QStringLiteral("Failed"));
        QCOMPARE(app.data(BadgeColourRole).value<QColor>(), resultColour(ResultColour::Error));
        // And the Deployment reads available/desired, the pod a grey Pending
        const QModelIndex dep = model.index(0, ChildrenTreeModel::StatusColumn, model.index(0, 0));
        QCOMPARE(dep.data(BadgeTextRole).toString(), QStringLiteral("0/1"));
        const QModelIndex pod = model.indexOfUid(QStringLiteral("p1")).siblingAtColumn(ChildrenTreeModel::StatusColumn);
        QCOMPARE(pod.data(BadgeTextRole).toString(), QStringLiteral("Pending"));
        QCOMPARE(pod.data(BadgeColourRole).value<QColor>(), phaseColour(QStringLiteral("Pending")));
        // And the delegate paints the rest of the status text beside the pill, not twice
        QCOMPARE(
            textAfterBadge(dep.data().toString(), dep.data(BadgeTextRole).toString()), QStringLiteral("available"));
    }

    void shouldDropADeletedDeploymentAndAttachItsReplacement()
    {
        ChildrenTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.apply(batch(CacheEntry::Op::Upsert, "MyApplication", make("MyApplication", "web", "a1")));
        const Object deployment = make("Deployment", "web", "d1", "a1", {{"availableReplicas", 1}});
        model.apply(batch(CacheEntry::Op::Upsert, "Deployment", deployment));
        model.apply(batch(CacheEntry::Op::Upsert, "ReplicaSet", make("ReplicaSet", "web-abc", "rs1", "d1")));
        const QModelIndex app = model.index(0, 0);
        QCOMPARE(model.rowCount(app), 1);
        QCOMPARE(
            model.index(0, ChildrenTreeModel::StatusColumn, app).data().toString(), QStringLiteral("1/1 available"));
        // When the Deployment is deleted, its subtree leaves the tree
        model.apply(batch(CacheEntry::Op::Remove, "Deployment", deployment));
        QCOMPARE(model.rowCount(app), 0);
        QVERIFY(!model.indexOfUid(QStringLiteral("rs1")).isValid());
        // And a re-created Deployment (new uid) appears under the same app
        model.apply(batch(CacheEntry::Op::Upsert, "Deployment", make("Deployment", "web", "d2", "a1")));
        QCOMPARE(model.rowCount(app), 1);
        // The orphaned ReplicaSet goes away with its delete event
        model.apply(batch(CacheEntry::Op::Remove, "ReplicaSet", make("ReplicaSet", "web-abc", "rs1", "d1")));
        QCOMPARE(model.rowCount(app), 1);
    }
};

QTEST_MAIN(tst_ChildrenTreeModel)
#include "tst_childrentreemodel.moc"
