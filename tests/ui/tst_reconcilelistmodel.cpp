// SPDX-License-Identifier: Apache-2.0
// ReconcileListModel under QAbstractItemModelTester: appends, bounded history, result colours.
#include "ui/models/reconcilefilterproxy.h"
#include "ui/models/reconcilelistmodel.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace opbench;
using namespace opbench::ui;

namespace {
ReconcileTrace trace(const QString &id, const QString &key, ReconcileTrace::Result result)
{
    ReconcileTrace t;
    t.id = id;
    t.request = QueueKey::fromString(key);
    t.result = result;
    t.duration = std::chrono::milliseconds(12);
    t.causes.merge(Cause::watchEvent(Cause::EventType::Modified, QStringLiteral("example.com/v1alpha1, Kind=MyApplication"),
                                     key, QStringLiteral("41")),
                   8);
    t.causes.merge(Cause::manual(), 8);
    return t;
}
} // namespace

class tst_ReconcileListModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldAppendTracesWithResultAndCauses()
    {
        ReconcileListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.append({trace("aaaaaaaa-1", "default/web", ReconcileTrace::Result::Success),
                      trace("bbbbbbbb-2", "default/api", ReconcileTrace::Result::Error)});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(1, ReconcileListModel::KeyColumn).data().toString(), QStringLiteral("default/api"));
        QCOMPARE(model.index(1, ReconcileListModel::ResultColumn).data().toString(), QStringLiteral("error"));
        QCOMPARE(model.index(1, ReconcileListModel::ResultColumn).data(Qt::ForegroundRole).value<QColor>(),
                 colourForResult(ReconcileTrace::Result::Error));
        QVERIFY(model.index(0, ReconcileListModel::CausesColumn).data().toString().endsWith(QStringLiteral("(+1)")));
        QCOMPARE(model.index(0, ReconcileListModel::DurationColumn).data().toString(), QStringLiteral("12.0 ms"));
    }

    void shouldDropTheOldestBeyondCapacity()
    {
        ReconcileListModel model(3);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.append({trace("1", "ns/a", ReconcileTrace::Result::Success), trace("2", "ns/b", ReconcileTrace::Result::Success)});
        model.append({trace("3", "ns/c", ReconcileTrace::Result::Success), trace("4", "ns/d", ReconcileTrace::Result::Success)});
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(0, ReconcileListModel::KeyColumn).data().toString(), QStringLiteral("ns/b"));
        QCOMPARE(model.totalAppended(), 4);
    }

    void shouldFilterByKeyAndResultWhileTracesArrive()
    {
        // Given the filter proxy the Reconciles panel uses, both under the tester
        ReconcileListModel model;
        ReconcileFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.append({trace("1", "default/web", ReconcileTrace::Result::Success),
                      trace("2", "default/api", ReconcileTrace::Result::Error)});
        // When the user filters on a key, then on a result
        proxy.setFilters(QStringLiteral("web"), {});
        QCOMPARE(proxy.rowCount(), 1);
        model.append({trace("3", "default/web", ReconcileTrace::Result::Error)});
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setFilters(QStringLiteral("web"), QStringLiteral("error"));
        // Then only the matching reconciles stay visible, new ones included
        QCOMPARE(proxy.rowCount(), 1);
        QCOMPARE(proxy.index(0, ReconcileListModel::IdColumn).data(ReconcileListModel::IdRole).toString(), QStringLiteral("3"));
        proxy.setFilters({}, {});
        QCOMPARE(proxy.rowCount(), 3);
    }
};

QTEST_GUILESS_MAIN(tst_ReconcileListModel)
#include "tst_reconcilelistmodel.moc"
