// SPDX-License-Identifier: Apache-2.0
// ReconcileListModel under QAbstractItemModelTester: appends, bounded history, result colours.
#include "ui/models/causechips.h"
#include "ui/models/reconcilefilterproxy.h"
#include "ui/models/reconcilelistmodel.h"
#include "ui/models/reconcilerate.h"
#include "ui/widgets/chipsdelegate.h"
#include "ui/widgets/palette.h"

#include <QApplication>

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
    t.causes.merge(Cause::watchEvent(Cause::EventType::Modified,
                       QStringLiteral("example.com/v1alpha1, Kind=MyApplication"), key, QStringLiteral("41")),
        8);
    t.causes.merge(Cause::manual(), 8);
    return t;
}
} // namespace

class tst_ReconcileListModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldLetTheRateDecayToZeroWhenIdle()
    {
        // Given 16 reconciles in the last seconds (a 5 s window)
        ReconcileRate rate(5000);
        rate.add(10, 1000);
        rate.add(6, 3000);
        QCOMPARE(rate.perSecond(3000), 3.2);
        // When a minute passes with none, it reads 0, not the last figure
        QCOMPARE(rate.perSecond(6500), 1.2);
        QCOMPARE(rate.perSecond(63000), 0.0);
    }

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
        // Causes read as chips, short enough to see whole, with every cause's full text on hover
        const QModelIndex causes = model.index(0, ReconcileListModel::CausesColumn);
        QCOMPARE(causes.data(CauseChipsRole).toStringList(),
            QStringList({QStringLiteral("watch MODIFIED MyApplication/web rv 41"), QStringLiteral("manual")}));
        QCOMPARE(causes.data(Qt::ToolTipRole).toString(),
            QStringLiteral("watch MODIFIED example.com/v1alpha1, Kind=MyApplication default/web rv 41\nmanual"));
        QCOMPARE(model.index(0, ReconcileListModel::DurationColumn).data().toString(), QStringLiteral("12.0 ms"));
    }

    void shouldShowEveryCauseAsAChipWithItsFullTextOnHover()
    {
        // Given a reconcile caused by a child's event, a retry and a requeue, one cause dropped
        ReconcileListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        ReconcileTrace t = trace("cccccccc-3", "default/web", ReconcileTrace::Result::Success);
        t.causes = CauseList();
        t.causes.merge(Cause::ownerMapping(Cause::EventType::Modified, QStringLiteral("Deployment.v1.apps"),
                           QStringLiteral("default/web"), QStringLiteral("52")),
            3);
        t.causes.merge(Cause::rateLimitedRetry(3, QStringLiteral("the object has been modified")), 3);
        t.causes.merge(Cause::requeueAfter(std::chrono::seconds(30)), 3);
        t.causes.merge(Cause::manual(), 3);
        model.append({t});
        const QModelIndex causes = model.index(0, ReconcileListModel::CausesColumn);
        // Then each cause is its own short chip (no "owner ← AD…"; objects in the reconciled key's
        // namespace named without it), retries amber
        const QStringList chips = causes.data(CauseChipsRole).toStringList();
        QCOMPARE(chips,
            QStringList({QStringLiteral("owner \u2190 Deployment/web"), QStringLiteral("retry 3 (error)"),
                QStringLiteral("after 30s"), QStringLiteral("+1 more")}));
        QCOMPARE(
            causes.data(CauseChipColoursRole).toList().at(1).value<QColor>(), resultColour(ResultColour::RateLimited));
        QCOMPARE(causeChipText(Cause::ownerMapping(Cause::EventType::Added, QStringLiteral("Deployment.v1.apps"),
                                   QStringLiteral("other/api"), {}),
                     QStringLiteral("default")),
            QStringLiteral("owner \u2190 Deployment/other/api"));
        // A requeue the reconciler asked for is no error: "requeue 1", not "retry 1 (error)", and not amber
        const Cause requeued = Cause::requestedRequeue(1);
        QCOMPARE(causeChipText(requeued, QStringLiteral("default")), QStringLiteral("requeue 1"));
        QVERIFY(causeChipColour(requeued) != resultColour(ResultColour::RateLimited));
        CauseList merged;
        for (const char *rv : {"52", "53", "54"})
            merged.merge(Cause::ownerMapping(Cause::EventType::Modified, QStringLiteral("Deployment.v1.apps"),
                             QStringLiteral("default/web"), QLatin1String(rv)),
                8);
        QCOMPARE(causeChips(merged, QStringLiteral("default")),
            QStringList{QStringLiteral("owner \u2190 Deployment/web \u00d73")});
        // And hovering shows the whole text of every cause
        const QString tip = causes.data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("owner \u2190 MODIFIED Deployment.v1.apps default/web rv 52")),
            qPrintable(tip));
        QVERIFY(tip.contains(QStringLiteral("the object has been modified")));
        QVERIFY(tip.contains(QStringLiteral("1 more")));
        // And a narrow column folds the chips that do not fit into a "+N" chip instead of cutting text
        const QFontMetrics fm(QApplication::font());
        QCOMPARE(chipsThatFit(chips, fm, 100000), int(chips.size()));
        const int fit = chipsThatFit(chips, fm, fm.horizontalAdvance(chips.first()) + 60);
        QCOMPARE(fit, 1);
    }

    void shouldDropTheOldestBeyondCapacity()
    {
        ReconcileListModel model(3);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.append(
            {trace("1", "ns/a", ReconcileTrace::Result::Success), trace("2", "ns/b", ReconcileTrace::Result::Success)});
        model.append(
            {trace("3", "ns/c", ReconcileTrace::Result::Success), trace("4", "ns/d", ReconcileTrace::Result::Success)});
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
        QCOMPARE(proxy.index(0, ReconcileListModel::IdColumn).data(ReconcileListModel::IdRole).toString(),
            QStringLiteral("3"));
        proxy.setFilters({}, {});
        QCOMPARE(proxy.rowCount(), 3);
    }
};

QTEST_MAIN(tst_ReconcileListModel)
#include "tst_reconcilelistmodel.moc"
