// SPDX-License-Identifier: Apache-2.0
// The informer's dispatch, fed deltas directly (the reflector's network side is covered by
// tst_reflector against the embedded API server).
#include "engine/cache/informer.h"
#include "engine/testing/fakeclock.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using namespace opbench;
using namespace std::chrono_literals;

namespace {
Object cm(const QString &name, const QString &rv, bool withManagedFields = false)
{
    QJsonObject meta{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), QStringLiteral("d")},
        {QStringLiteral("resourceVersion"), rv}};
    if (withManagedFields)
        meta.insert(QStringLiteral("managedFields"),
            QJsonArray{QJsonObject{{QStringLiteral("manager"), QStringLiteral("kubectl")}}});
    return Object::fromJson({{QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("ConfigMap")}, {QStringLiteral("metadata"), meta}});
}

// Records every call as text, e.g. "add d/a 1 initial", "update d/a 1->2", "delete d/b unknown".
class Recorder final : public ResourceEventHandler
{
public:
    QStringList calls;
    void onAdd(const Object &o, bool initial) override
    {
        calls << QStringLiteral("add %1 %2%3")
                     .arg(o.key(), o.resourceVersion(), initial ? QStringLiteral(" initial") : QString());
    }
    void onUpdate(const Object &o, const Object &n) override
    {
        calls << QStringLiteral("update %1 %2->%3").arg(n.key(), o.resourceVersion(), n.resourceVersion());
    }
    void onDelete(const Object &o, bool unknown) override
    {
        calls << QStringLiteral("delete %1%2").arg(o.key(), unknown ? QStringLiteral(" unknown") : QString());
    }
};

InformerOptions options(Clock *clock, int history = 0)
{
    InformerOptions o;
    o.resource = {QString(), QStringLiteral("v1"), QStringLiteral("configmaps")};
    o.kind = QStringLiteral("ConfigMap");
    o.clock = clock;
    o.historyCapacity = history;
    return o;
}
} // namespace

class tst_Informer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldDeliverInitialListThenEventsInOrder()
    {
        testing::FakeClock clock;
        Informer inf(options(&clock));
        Recorder r;
        inf.addEventHandler(&r);
        QSignalSpy synced(&inf, &Informer::synced);
        QVERIFY(!inf.hasSynced());
        inf.replaceAll({cm(QStringLiteral("a"), QStringLiteral("1")), cm(QStringLiteral("b"), QStringLiteral("2"))},
            QStringLiteral("5"));
        QVERIFY(inf.hasSynced());
        QCOMPARE(synced.count(), 1);
        QCOMPARE(inf.lastSyncResourceVersion(), QStringLiteral("5"));
        inf.modified(cm(QStringLiteral("a"), QStringLiteral("6")));
        inf.added(cm(QStringLiteral("c"), QStringLiteral("7")));
        inf.deleted(cm(QStringLiteral("b"), QStringLiteral("8")));
        inf.deleted(cm(QStringLiteral("zzz"), QStringLiteral("9"))); // never known: still told (RealFIFO)
        inf.bookmark(QStringLiteral("12"));
        QCOMPARE(r.calls,
            (QStringList{QStringLiteral("add d/a 1 initial"), QStringLiteral("add d/b 2 initial"),
                QStringLiteral("update d/a 1->6"), QStringLiteral("add d/c 7"), QStringLiteral("delete d/b"),
                QStringLiteral("delete d/zzz")}));
        QCOMPARE(inf.lastSyncResourceVersion(), QStringLiteral("12"));
        QCOMPARE(inf.store().size(), 2);
    }

    void deltaFilterShouldHoldThenReleaseInOrderAndDrop()
    {
        testing::FakeClock clock;
        Informer inf(options(&clock));
        Recorder r;
        inf.addEventHandler(&r);
        inf.replaceAll({cm(QStringLiteral("a"), QStringLiteral("1"))}, QStringLiteral("1"));
        r.calls.clear();
        // Held: the cache stays at rv 1 while the server moves on.
        inf.setDeltaFilter([](const Informer::Delta &) { return Informer::DeltaAction::Hold; });
        inf.modified(cm(QStringLiteral("a"), QStringLiteral("2")));
        inf.deleted(cm(QStringLiteral("a"), QStringLiteral("3")));
        inf.added(cm(QStringLiteral("a"), QStringLiteral("4"))); // recreated under the same name
        QCOMPARE(inf.heldDeltaCount(), 3);
        QVERIFY(r.calls.isEmpty());
        QCOMPARE(inf.store().get(QStringLiteral("d/a")).resourceVersion(), QStringLiteral("1"));
        QCOMPARE(inf.lastSyncResourceVersion(), QStringLiteral("1"));
        // Once something is held, later deltas queue behind it even when the filter says apply.
        inf.setDeltaFilter({});
        inf.modified(cm(QStringLiteral("a"), QStringLiteral("5")));
        QCOMPARE(inf.heldDeltaCount(), 4);
        inf.releaseHeldDeltas();
        QCOMPARE(inf.heldDeltaCount(), 0);
        QCOMPARE(r.calls,
            (QStringList{QStringLiteral("update d/a 1->2"), QStringLiteral("delete d/a"), QStringLiteral("add d/a 4"),
                QStringLiteral("update d/a 4->5")}));
        QCOMPARE(inf.lastSyncResourceVersion(), QStringLiteral("5"));
        // Dropped deltas never reach the store or the handlers.
        r.calls.clear();
        inf.setDeltaFilter([](const Informer::Delta &d) {
            return d.resourceVersion == QLatin1String("6") ? Informer::DeltaAction::Drop : Informer::DeltaAction::Apply;
        });
        inf.modified(cm(QStringLiteral("a"), QStringLiteral("6")));
        inf.modified(cm(QStringLiteral("b"), QStringLiteral("7")));
        QCOMPARE(r.calls, (QStringList{QStringLiteral("add d/b 7")}));
        QCOMPARE(inf.store().get(QStringLiteral("d/a")).resourceVersion(), QStringLiteral("5"));
    }

    void relistShouldTurnMissedDeletionsIntoTombstones()
    {
        testing::FakeClock clock;
        Informer inf(options(&clock));
        Recorder r;
        inf.addEventHandler(&r);
        inf.replaceAll({cm(QStringLiteral("a"), QStringLiteral("1")), cm(QStringLiteral("b"), QStringLiteral("2"))},
            QStringLiteral("2"));
        r.calls.clear();
        // While disconnected: b deleted, a unchanged, c created.
        inf.replaceAll({cm(QStringLiteral("a"), QStringLiteral("1")), cm(QStringLiteral("c"), QStringLiteral("9"))},
            QStringLiteral("9"));
        // The tombstones first, then the adds and updates (client-go's RealFIFO): a handler never
        // sees b and c at once.
        QCOMPARE(r.calls, (QStringList{QStringLiteral("delete d/b unknown"), QStringLiteral("add d/c 9")}));
        QCOMPARE(inf.store().keys().size(), 2);
        QVERIFY(inf.store().contains(QStringLiteral("d/c")));
    }

    void relistShouldDeleteBeforeAddingEvenWhenSeveralChange()
    {
        // A handler counting the objects it was told about never counts more than the server
        // held at any time (one-of-X rules, child counts).
        testing::FakeClock clock;
        Informer inf(options(&clock));
        int live = 0;
        int most = 0;
        ResourceEventHandlerFuncs counter;
        counter.addFunc = [&](const Object &, bool) { most = std::max(most, ++live); };
        counter.deleteFunc = [&](const Object &, bool) { --live; };
        inf.addEventHandler(&counter);
        inf.replaceAll({cm(QStringLiteral("a"), QStringLiteral("1")), cm(QStringLiteral("b"), QStringLiteral("2"))},
            QStringLiteral("2"));
        QCOMPARE(most, 2);
        // While disconnected: a and b replaced by c and d.
        inf.replaceAll({cm(QStringLiteral("c"), QStringLiteral("8")), cm(QStringLiteral("d"), QStringLiteral("9"))},
            QStringLiteral("9"));
        QCOMPARE(live, 2);
        QCOMPARE(most, 2);
    }

    void deleteOfAKeyNeverCachedShouldReachTheHandlers()
    {
        // client-go's RealFIFO calls OnDelete for it (the legacy DeltaFIFO dropped it): the ADDED
        // may have been filtered or missed, and a handler that counts or cleans up must hear of it.
        testing::FakeClock clock;
        Informer inf(options(&clock, 10));
        Recorder r;
        inf.addEventHandler(&r);
        inf.replaceAll({}, QStringLiteral("1"));
        inf.deleted(cm(QStringLiteral("ghost"), QStringLiteral("5")));
        QCOMPARE(r.calls, QStringList{QStringLiteral("delete d/ghost")});
        QCOMPARE(inf.store().size(), 0);
        QCOMPARE(inf.lastSyncResourceVersion(), QStringLiteral("5"));
    }

    void handlerRemovedDuringDeliveryShouldNotBeCalledAgain()
    {
        // The first handler removes the second while an event is being delivered (as a MapFunc
        // or user handler that destroys a controller would): the second hears nothing more.
        testing::FakeClock clock;
        Informer inf(options(&clock));
        Recorder second;
        Informer::HandlerId secondId = 0;
        ResourceEventHandlerFuncs first;
        first.addFunc = [&](const Object &o, bool) {
            if (o.name() == QLatin1String("b"))
                inf.removeEventHandler(secondId);
        };
        inf.addEventHandler(&first);
        secondId = inf.addEventHandler(&second, 5s);
        inf.replaceAll({cm(QStringLiteral("a"), QStringLiteral("1"))}, QStringLiteral("1"));
        inf.added(cm(QStringLiteral("b"), QStringLiteral("2")));
        inf.added(cm(QStringLiteral("c"), QStringLiteral("3")));
        QCOMPARE(second.calls, QStringList{QStringLiteral("add d/a 1 initial")});
        // The same during a resync: both are due, the first removes the second.
        Informer::HandlerId thirdId = 0;
        ResourceEventHandlerFuncs remover;
        remover.updateFunc = [&](const Object &, const Object &) { inf.removeEventHandler(thirdId); };
        inf.addEventHandler(&remover, 5s);
        Recorder third;
        thirdId = inf.addEventHandler(&third, 5s);
        third.calls.clear();
        clock.advance(6s);
        QVERIFY2(third.calls.isEmpty(), qPrintable(third.calls.join(u',')));
    }

    void handlerWhoseOwnerIsDestroyedDuringDeliveryShouldNotBeCalled()
    {
        // The owner of the second handler (a Controller and its Source, in real use) is destroyed
        // synchronously by the first handler; its destructor unregisters the handler. Under ASan
        // a call through the stale pointer is a heap-use-after-free; without it the calls list
        // below shows it.
        struct Owned final : ResourceEventHandler
        {
            Informer *informer;
            Informer::HandlerId id = 0;
            QStringList *log;
            Owned(Informer *inf, QStringList *l)
                : informer(inf)
                , log(l)
            {
                id = inf->addEventHandler(this);
            }
            ~Owned() override { informer->removeEventHandler(id); }
            void onAdd(const Object &o, bool) override { log->append(o.name()); }
            void onUpdate(const Object &, const Object &n) override { log->append(n.name()); }
            void onDelete(const Object &o, bool) override { log->append(o.name()); }
        };
        testing::FakeClock clock;
        Informer inf(options(&clock));
        QStringList log;
        std::unique_ptr<Owned> owned;
        ResourceEventHandlerFuncs destroyer;
        destroyer.addFunc = [&](const Object &, bool) { owned.reset(); };
        inf.addEventHandler(&destroyer);
        owned = std::make_unique<Owned>(&inf, &log);
        inf.added(cm(QStringLiteral("a"), QStringLiteral("1")));
        QVERIFY(!owned);
        QVERIFY2(log.isEmpty(), qPrintable(log.join(u',')));
    }

    void lateHandlerShouldCatchUpWithTheCache()
    {
        testing::FakeClock clock;
        Informer inf(options(&clock));
        inf.replaceAll({cm(QStringLiteral("a"), QStringLiteral("1"))}, QStringLiteral("1"));
        Recorder late;
        const auto id = inf.addEventHandler(&late);
        QCOMPARE(late.calls, QStringList{QStringLiteral("add d/a 1 initial")});
        QVERIFY(inf.handlerHasSynced(id));
        inf.removeEventHandler(id);
        inf.modified(cm(QStringLiteral("a"), QStringLiteral("2")));
        QCOMPARE(late.calls.size(), 1);
    }

    void resyncShouldRedeliverEveryObjectOnItsPeriod()
    {
        testing::FakeClock clock;
        Informer inf(options(&clock));
        Recorder fast;
        Recorder none;
        inf.addEventHandler(&fast, 30s);
        inf.addEventHandler(&none);
        inf.replaceAll({cm(QStringLiteral("a"), QStringLiteral("1"))}, QStringLiteral("1"));
        fast.calls.clear();
        none.calls.clear();
        clock.advance(29s);
        QVERIFY(fast.calls.isEmpty());
        clock.advance(1s);
        QCOMPARE(fast.calls, QStringList{QStringLiteral("update d/a 1->1")});
        clock.advance(30s);
        QCOMPARE(fast.calls.size(), 2);
        QVERIFY(none.calls.isEmpty());
    }

    void shouldStripManagedFieldsBeforeStoringAndRecordHistory()
    {
        testing::FakeClock clock;
        Informer inf(options(&clock, 10));
        QSignalSpy changes(&inf, &Informer::changed);
        inf.replaceAll({cm(QStringLiteral("a"), QStringLiteral("1"), true)}, QStringLiteral("1"));
        inf.modified(cm(QStringLiteral("a"), QStringLiteral("2"), true));
        QVERIFY(!inf.store().get(QStringLiteral("d/a")).toJsonBytes().contains("managedFields"));
        QCOMPARE(changes.count(), 2);
        QCOMPARE(inf.history().changesFor(QStringLiteral("d/a")).size(), 2);
        QHash<QString, Object> now;
        for (const Object &o : inf.store().list())
            now.insert(o.key(), o);
        QCOMPARE(inf.history().contentAt(QStringLiteral("1"), now)->value(QStringLiteral("d/a")).resourceVersion(),
            QStringLiteral("1"));
    }
};

QTEST_GUILESS_MAIN(tst_Informer)
#include "tst_informer.moc"
