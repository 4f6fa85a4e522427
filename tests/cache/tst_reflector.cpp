// SPDX-License-Identifier: Apache-2.0
// Reflector + informer against the embedded API server over real HTTP on loopback.
#include "engine/apiserver/storage/store.h"
#include "engine/cache/informer.h"
#include "engine/cache/reflector.h"
#include "engine/client/restclient.h"
#include "engine/testing/fakeclock.h"
#include "tests/support/testapiserver.h"

#include <QSignalSpy>
#include <QTest>

#include <qcoro/qcorotask.h>

using namespace opbench;
using testing::TestApiServer;

namespace {
const GroupVersionResource ConfigMaps{QString(), QStringLiteral("v1"), QStringLiteral("configmaps")};

QJsonObject configMap(const QString &name, const QString &value)
{
    return {{QStringLiteral("apiVersion"), QStringLiteral("v1")}, {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
        {QStringLiteral("metadata"),
            QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), QStringLiteral("default")}}},
        {QStringLiteral("data"), QJsonObject{{QStringLiteral("v"), value}}}};
}

class Recorder final : public ResourceEventHandler
{
public:
    QStringList events;
    int tombstones = 0;
    void onAdd(const Object &o, bool) override { events << QStringLiteral("add ") + o.name(); }
    void onUpdate(const Object &, const Object &n) override
    {
        events << QStringLiteral("update %1=%2")
                      .arg(n.name(), n.value({QLatin1String("data"), QLatin1String("v")}).toString());
    }
    void onDelete(const Object &o, bool unknown) override
    {
        events << QStringLiteral("delete ") + o.name();
        tombstones += unknown ? 1 : 0;
    }
};
} // namespace

class tst_Reflector : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<TestApiServer> m_api;
    std::unique_ptr<RestClient> m_client;

    Expected<Object> createNow(const QString &name, const QString &value)
    {
        return QCoro::waitFor(
            m_client->create(ConfigMaps, QStringLiteral("default"), Object::fromJson(configMap(name, value))));
    }
    std::unique_ptr<Informer> informer(bool watchList = false, Clock *clock = nullptr)
    {
        InformerOptions o;
        o.clock = clock;
        o.useWatchList = watchList;
        o.resource = ConfigMaps;
        o.kind = QStringLiteral("ConfigMap");
        o.namespaceName = QStringLiteral("default");
        o.client = m_client.get();
        return std::make_unique<Informer>(std::move(o));
    }
    QStringList serverNames()
    {
        auto list = QCoro::waitFor(m_client->list(ConfigMaps, QStringLiteral("default")));
        QStringList out;
        for (const Object &o : list->items)
            out << o.name();
        out.sort();
        return out;
    }
    static QStringList cacheNames(const Informer &inf)
    {
        QStringList out;
        for (const Object &o : inf.store().list())
            out << o.name();
        out.sort();
        return out;
    }

private Q_SLOTS:
    void init()
    {
        m_api = std::make_unique<TestApiServer>();
        QVERIFY2(m_api->start(), qPrintable(m_api->errorString()));
        auto config = loadConfig(m_api->kubeconfigPath());
        QVERIFY2(config.ok(), config.ok() ? "" : qPrintable(config.error().message()));
        m_client = std::make_unique<RestClient>(std::move(*config));
    }
    void cleanup()
    {
        m_client.reset();
        m_api.reset();
    }

    void shouldSyncThousandsOfObjectsThroughPagedLists()
    {
        // Given 1,200 objects (three pages of 500).
        for (int i = 0; i < 1200; ++i)
            QVERIFY(createNow(QStringLiteral("cm-%1").arg(i), QString::number(i)).ok());
        // When an informer starts.
        auto inf = informer();
        Recorder r;
        inf->addEventHandler(&r);
        inf->start();
        // Then it lists everything once and holds exactly what the server has.
        QTRY_VERIFY_WITH_TIMEOUT(inf->hasSynced(), 20000);
        QCOMPARE(inf->store().size(), 1200);
        QCOMPARE(r.events.size(), 1200);
        QCOMPARE(inf->reflector()->listCount(), 1);
        QVERIFY(!inf->lastSyncResourceVersion().isEmpty());
        QTRY_COMPARE(inf->reflector()->state(), Reflector::State::Watching);
    }

    void shouldDeliverWatchUpdatesInOrder()
    {
        auto inf = informer();
        Recorder r;
        inf->addEventHandler(&r);
        inf->start();
        QTRY_VERIFY(inf->hasSynced());
        QTRY_COMPARE(inf->reflector()->state(), Reflector::State::Watching);
        auto created = createNow(QStringLiteral("a"), QStringLiteral("1"));
        QVERIFY(created.ok());
        QJsonObject doc = created->json();
        for (int v = 2; v <= 5; ++v) {
            doc.insert(QStringLiteral("data"), QJsonObject{{QStringLiteral("v"), QString::number(v)}});
            auto updated
                = QCoro::waitFor(m_client->update(ConfigMaps, QStringLiteral("default"), Object::fromJson(doc)));
            QVERIFY2(updated.ok(), updated.ok() ? "" : qPrintable(updated.error().message()));
            doc = updated->json();
        }
        QVERIFY(QCoro::waitFor(m_client->remove(ConfigMaps, QStringLiteral("default"), QStringLiteral("a"))).ok());
        QTRY_COMPARE(r.events.size(), 6);
        QCOMPARE(r.events,
            (QStringList{QStringLiteral("add a"), QStringLiteral("update a=2"), QStringLiteral("update a=3"),
                QStringLiteral("update a=4"), QStringLiteral("update a=5"), QStringLiteral("delete a")}));
        QCOMPARE(inf->store().size(), 0);
    }

    void droppedWatchShouldResumeWithoutRelisting()
    {
        testing::FakeClock clock; // the reflector's: how long its watch lasted
        auto inf = informer(false, &clock);
        inf->start();
        QTRY_VERIFY(inf->hasSynced());
        QTRY_COMPARE(inf->reflector()->state(), Reflector::State::Watching);
        // The watch is streaming (an event came through it) before the clock moves: its start is
        // taken when its reply begins, which under load can be after the state says Watching.
        QVERIFY(createNow(QStringLiteral("before-drop"), QStringLiteral("x")).ok());
        QTRY_VERIFY(inf->store().contains(QStringLiteral("default/before-drop")));
        // A watch that ran for a while (a very short one, under 1 s with no events, ends the
        // round and relists after a backoff, as client-go: tst_reflector_faults).
        clock.advance(std::chrono::seconds(2));
        const int watchesBefore = inf->reflector()->watchCount();
        m_api->runOnServerThread([](apiserver::ApiServer &s) { s.dropWatches(); });
        QTRY_VERIFY(inf->reflector()->watchCount() > watchesBefore);
        QVERIFY(createNow(QStringLiteral("after-drop"), QStringLiteral("x")).ok());
        QTRY_VERIFY(inf->store().contains(QStringLiteral("default/after-drop")));
        QCOMPARE(inf->reflector()->listCount(), 1);
    }

    void compactedHistoryShouldRelistAndTurnMissedDeletionsIntoTombstones()
    {
        for (int i = 0; i < 10; ++i)
            QVERIFY(createNow(QStringLiteral("keep-%1").arg(i), QString()).ok());
        auto inf = informer();
        Recorder r;
        inf->addEventHandler(&r);
        inf->start();
        QTRY_VERIFY(inf->hasSynced());
        QTRY_COMPARE(inf->reflector()->state(), Reflector::State::Watching);
        // Given the reflector is kept off the server (every request throttled) ...
        m_api->runOnServerThread([](apiserver::ApiServer &s) {
            s.setFaults({QStringLiteral("throttle:rate=1,retry-after=1")});
            s.dropWatches();
        });
        QTRY_COMPARE_WITH_TIMEOUT(inf->reflector()->state(), Reflector::State::BackingOff, 10000);
        // ... while objects are deleted and created and the history is compacted.
        m_api->runOnServerThread([](apiserver::ApiServer &s) {
            for (int i = 0; i < 5; ++i)
                QVERIFY(
                    s.store()->remove(ConfigMaps, QStringLiteral("default"), QStringLiteral("keep-%1").arg(i)).ok());
            QVERIFY(s.store()
                        ->create(ConfigMaps, QStringLiteral("default"), configMap(QStringLiteral("new-one"), QString()))
                        .ok());
            s.compactHistory();
            s.clearFaults();
        });
        // Then the re-watch gets 410, the reflector relists, and the cache matches the server.
        QTRY_COMPARE_WITH_TIMEOUT(r.tombstones, 5, 20000);
        QTRY_COMPARE(cacheNames(*inf), serverNames());
        QVERIFY(inf->reflector()->listCount() >= 2);
        QVERIFY(r.events.contains(QStringLiteral("add new-one")));
        QVERIFY(inf->reflector()->lastError().has_value());
    }

    void streamingListShouldSyncThroughOneWatch()
    {
        // Given objects on the server, when an informer starts with WatchList on ...
        for (int i = 0; i < 50; ++i)
            QVERIFY(createNow(QStringLiteral("s-%1").arg(i), QString::number(i)).ok());
        auto inf = informer(true);
        Recorder r;
        inf->addEventHandler(&r);
        inf->start();
        // ... it syncs from the initial events without a LIST, and the same stream goes on.
        QTRY_VERIFY(inf->hasSynced());
        QCOMPARE(inf->store().size(), 50);
        QCOMPARE(inf->reflector()->listCount(), 0);
        QCOMPARE(inf->reflector()->watchListCount(), 1);
        QCOMPARE(inf->reflector()->watchCount(), 1);
        QVERIFY(!inf->lastSyncResourceVersion().isEmpty());
        QTRY_COMPARE(inf->reflector()->state(), Reflector::State::Watching);
        QVERIFY(createNow(QStringLiteral("later"), QStringLiteral("x")).ok());
        QTRY_VERIFY(inf->store().contains(QStringLiteral("default/later")));
        QCOMPARE(inf->reflector()->watchCount(), 1);
        QCOMPARE(r.events.size(), 51);
    }

    void streamingListRefusedShouldFallBackToListAndWatch()
    {
        QVERIFY(createNow(QStringLiteral("a"), QString()).ok());
        // Every request fails with 422 until the reflector has fallen back: the watch-list request
        // is refused, so the reflector must switch to LIST (and keep trying it with backoff).
        m_api->runOnServerThread(
            [](apiserver::ApiServer &s) { s.setFaults({QStringLiteral("error:rate=1,code=422")}); });
        auto inf = informer(true);
        inf->start();
        QTRY_VERIFY(inf->reflector()->watchListUnsupported());
        m_api->runOnServerThread([](apiserver::ApiServer &s) { s.clearFaults(); });
        QTRY_VERIFY_WITH_TIMEOUT(inf->hasSynced(), 10000);
        QCOMPARE(inf->store().size(), 1);
        QVERIFY(inf->reflector()->listCount() >= 1);
        QCOMPARE(inf->reflector()->watchListCount(), 0);
    }

    void stoppingMidListShouldLeaveNothingRunning()
    {
        for (int i = 0; i < 300; ++i)
            QVERIFY(createNow(QStringLiteral("cm-%1").arg(i), QString()).ok());
        auto inf = informer();
        inf->start();
        QCOMPARE(inf->reflector()->state(), Reflector::State::Listing);
        inf->stop(); // the reflector goes away mid-list
        // The in-flight list completes and is ignored. The positive signal that it completed: the
        // same list, asked after the stop, has been answered (the server answers on one thread,
        // in the order the requests came in), and the events queued with it were handled.
        QCOMPARE(serverNames().size(), 300);
        QCoreApplication::processEvents();
        QVERIFY(!inf->hasSynced());
        QCOMPARE(inf->store().size(), 0);
        QVERIFY(!inf->isRunning());
    }
};

QTEST_GUILESS_MAIN(tst_Reflector)
#include "tst_reflector.moc"
