// SPDX-License-Identifier: Apache-2.0
// QueueItemsModel under QAbstractItemModelTester: keyed diffs keep rows (and selections).
#include "ui/models/queueitemsmodel.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace opbench::ui;

namespace {
QueueRow row(const QString &key, const QString &state, int retries = 0, QStringList causes = {})
{
    QueueRow r;
    r.key = key;
    r.state = state;
    r.retries = retries;
    r.causes = std::move(causes);
    return r;
}
} // namespace

class tst_QueueItemsModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldShowItemsSortedWithTheirCauses()
    {
        QueueItemsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.apply({row("default/web", "queued", 0, {"watch MODIFIED", "owner ← Deployment/default/web"}),
            row("default/api", "processing")});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, QueueItemsModel::KeyColumn).data().toString(), QStringLiteral("default/api"));
        QCOMPARE(model.index(1, QueueItemsModel::CausesColumn).data().toString(),
            QStringLiteral("watch MODIFIED · owner ← Deployment/default/web"));
    }

    void shouldDiffSnapshotsByKey()
    {
        QueueItemsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.apply({row("a", "queued"), row("b", "queued"), row("c", "queued")});
        const QPersistentModelIndex c = model.index(2, 0);
        // When "a" leaves, "b" goes to retry 1 and "d" arrives
        model.apply({row("d", "queued"), row("c", "queued"), row("b", "queued", 1)});
        // Then "c" kept its identity and "b" shows its retry
        QVERIFY(c.isValid());
        QCOMPARE(c.data().toString(), QStringLiteral("c"));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(0, QueueItemsModel::StateColumn).data().toString(), QStringLiteral("retry 1"));
        model.apply({});
        QCOMPARE(model.rowCount(), 0);
    }

    void shouldCountDownABackoffAndSayWhatItWas()
    {
        QueueItemsModel model;
        QueueRow waiting = row("default/web", "waiting", 2);
        waiting.readyInMs = 640;
        waiting.backoffMs = 800;
        model.apply({waiting});
        const QModelIndex state = model.index(0, QueueItemsModel::StateColumn);
        QCOMPARE(state.data().toString(), QStringLiteral("backoff: ready in 640 ms"));
        waiting.readyInMs = 2500;
        model.apply({waiting});
        QCOMPARE(state.data().toString(), QStringLiteral("backoff: ready in 2.5 s"));
        // Tried again: the 10 ms wait was too short to see, so the row says it happened.
        QueueRow retried = row("default/web", "processing", 2);
        retried.backoffMs = 10;
        model.apply({retried});
        QCOMPARE(state.data().toString(), QStringLiteral("processing · retry 2 after 10 ms backoff"));
    }
};

QTEST_GUILESS_MAIN(tst_QueueItemsModel)
#include "tst_queueitemsmodel.moc"
