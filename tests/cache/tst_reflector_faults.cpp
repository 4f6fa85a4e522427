// SPDX-License-Identifier: Apache-2.0
// Reflector recovery from API faults, against a scripted HTTP server over loopback and a
// FakeClock for its backoff: a resourceVersion the server has not reached (504 "Too large
// resource version"), a watch answered 410 again and again, and an expired continue token.
#include "engine/base/clock.h"
#include "engine/cache/informer.h"
#include "engine/cache/reflector.h"
#include "engine/client/restclient.h"
#include "engine/testing/fakeclock.h"
#include "tests/client/fakeserver.h"

#include <QTest>

using namespace opbench;
using namespace std::chrono_literals;
using opbench::test::FakeRequest;
using opbench::test::FakeResponse;
using opbench::test::FakeServer;

namespace {

const GroupVersionResource ConfigMaps{QString(), QStringLiteral("v1"), QStringLiteral("configmaps")};

QByteArray item(const QByteArray &name)
{
    return R"({"metadata":{"name":")" + name + R"(","namespace":"default","uid":"uid-)" + name
        + R"(","resourceVersion":"3"},"data":{"v":"1"}})";
}

FakeResponse listOf(const QByteArray &rv, const QList<QByteArray> &names, const QByteArray &continueToken = {})
{
    QByteArray items;
    for (const QByteArray &n : names)
        items += (items.isEmpty() ? "" : ",") + item(n);
    QByteArray meta = R"("resourceVersion":")" + rv + '"';
    if (!continueToken.isEmpty())
        meta += R"(,"continue":")" + continueToken + '"';
    return FakeResponse::json(
        200, R"({"kind":"ConfigMapList","apiVersion":"v1","metadata":{)" + meta + R"(},"items":[)" + items + "]}");
}

FakeResponse status(int code, const QByteArray &reason, const QByteArray &message, const QByteArray &details = {})
{
    return FakeResponse::json(code,
        R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":")" + message + R"(","reason":")" + reason
            + '"' + (details.isEmpty() ? QByteArray() : ",\"details\":" + details) + R"(,"code":)"
            + QByteArray::number(code) + "}");
}

FakeResponse tooLarge()
{
    return status(504, "Timeout", "Timeout: Too large resource version: 100, current: 7",
        R"({"causes":[{"reason":"ResourceVersionTooLarge","message":"Too large resource version"}],"retryAfterSeconds":1})");
}

/// A watch that stays open (a bookmark, then nothing).
FakeResponse openWatch(const QByteArray &rv)
{
    FakeResponse r = FakeResponse::json(200, {});
    r.chunks = {R"({"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":")"
        + rv + "\"}}}\n"};
    r.keepOpen = true;
    return r;
}

/// A watch that ends at once with an ERROR event 410 Expired.
FakeResponse expiredWatch()
{
    FakeResponse r = FakeResponse::json(200, {});
    r.chunks = {
        R"x({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","message":"too old resource version: 100 (150)","reason":"Expired","code":410}})x"
        "\n"};
    return r;
}

bool isWatch(const FakeRequest &r) { return r.hasQuery(QStringLiteral("watch")); }

QStringList names(const Informer &inf)
{
    QStringList out;
    for (const Object &o : inf.store().list())
        out << o.name();
    out.sort();
    return out;
}

} // namespace

class tst_ReflectorFaults : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<FakeServer> m_server;
    std::unique_ptr<testing::FakeClock> m_clock;
    std::unique_ptr<RestClient> m_client;

    std::unique_ptr<Informer> informer(bool watchList = false)
    {
        InformerOptions o;
        o.useWatchList = watchList;
        o.resource = ConfigMaps;
        o.kind = QStringLiteral("ConfigMap");
        o.namespaceName = QStringLiteral("default");
        o.client = m_client.get();
        o.clock = m_clock.get();
        return std::make_unique<Informer>(std::move(o));
    }
    QList<FakeRequest> lists() const
    {
        QList<FakeRequest> out;
        for (const FakeRequest &r : m_server->requests)
            if (!isWatch(r))
                out << r;
        return out;
    }
    int watches() const
    {
        int n = 0;
        for (const FakeRequest &r : m_server->requests)
            n += isWatch(r) ? 1 : 0;
        return n;
    }
    /// Moves the fake clock in 100 ms steps, letting HTTP replies in between, until `pred`.
    template<typename Pred> bool stepUntil(Pred pred, std::chrono::milliseconds limit)
    {
        for (auto t = 0ms; t <= limit; t += 100ms) {
            QTest::qWait(5);
            if (pred())
                return true;
            m_clock->advance(100ms);
        }
        return pred();
    }

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<FakeServer>();
        QVERIFY(m_server->listen());
        m_clock = std::make_unique<testing::FakeClock>();
        RestConfig rc;
        rc.server = QUrl(m_server->url());
        rc.clock = m_clock.get();
        m_client = std::make_unique<RestClient>(rc);
    }
    void cleanup()
    {
        m_client.reset();
        m_server.reset();
        m_clock.reset();
    }

    // Review #13: a streaming list that takes longer than the 10 s deadline in all, but keeps
    // making progress, is not thrown away, and WatchList stays on (before: abandoned at 10 s and
    // WatchList off for the rest of the process).
    void shouldKeepASlowStreamingListThatMakesProgress()
    {
        const QList<QByteArray> all{"a", "b", "c", "d", "e", "f", "g", "h"};
        m_server->setHandler([all](const FakeRequest &r) {
            if (!isWatch(r))
                return listOf("9", all);
            if (!r.hasQuery(QStringLiteral("sendInitialEvents")))
                return openWatch("9");
            FakeResponse resp = FakeResponse::json(200, {});
            for (const QByteArray &n : all)
                resp.chunks.append(R"({"type":"ADDED","object":)" + item(n) + "}\n");
            resp.chunks.append(
                R"({"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"9",)"
                R"("annotations":{"k8s.io/initial-events-end":"true"}}}})"
                "\n");
            resp.chunksOnDemand = true; // each event when the test lets it out
            resp.keepOpen = true;
            return resp;
        });
        auto inf = informer(true);
        inf->start();
        // 3 s of the reflector's time between two events, moved only once the reflector has
        // taken the event: the stream takes 24 s of its time in all (more than the 10 s deadline),
        // and never more than 3 s pass without progress — however fast or slow the machine.
        QTRY_COMPARE_WITH_TIMEOUT(m_server->onDemandStreams(), 1, 10000);
        for (int i = 1; i <= all.size(); ++i) {
            QCOMPARE(m_server->releaseChunk(), 1);
            QTRY_COMPARE_WITH_TIMEOUT(inf->reflector()->initialEventCount(), i, 10000);
            m_clock->advance(3s);
        }
        QCOMPARE(m_server->releaseChunk(), 1); // the end bookmark
        QTRY_VERIFY_WITH_TIMEOUT(inf->hasSynced(), 10000);
        QVERIFY(inf->hasSynced());
        QCOMPARE(names(*inf), QStringList({"a", "b", "c", "d", "e", "f", "g", "h"}));
        QCOMPARE(inf->reflector()->watchListCount(), 1);
        QVERIFY(!inf->reflector()->watchListUnsupported());
        QCOMPARE(lists().size(), 0);
    }

    // Finding 5: the server lost its history (restored from a backup, restarted without its state
    // file) and is now at 7 while the cache saw 100. Relisting "not older than 100" gets a 504
    // "Too large resource version" every time; client-go then lists with resourceVersion unset.
    void shouldRelistFromScratchWhenTheResourceVersionIsTooLarge()
    {
        m_server->setHandler([](const FakeRequest &r) {
            const QString rv = r.query(QStringLiteral("resourceVersion"));
            if (isWatch(r))
                return rv == QLatin1String("100") ? expiredWatch() : openWatch("7");
            if (rv == QLatin1String("0"))
                return listOf("100", {"old"});
            if (rv == QLatin1String("100"))
                return tooLarge();
            return listOf("7", {"new"}); // resourceVersion unset: the server's current state
        });
        auto inf = informer();
        inf->start();
        QTRY_VERIFY(inf->hasSynced());
        QCOMPARE(names(*inf), QStringList{QStringLiteral("old")});
        QVERIFY2(stepUntil([&] { return names(*inf) == QStringList{QStringLiteral("new")}; }, 120s),
            qPrintable(names(*inf).join(u',') + QStringLiteral(" after %1 lists").arg(lists().size())));
        int tooLargeLists = 0;
        for (const FakeRequest &r : lists())
            tooLargeLists += r.query(QStringLiteral("resourceVersion")) == QLatin1String("100") ? 1 : 0;
        QCOMPARE(tooLargeLists, 1); // not retried at the same resourceVersion
        QVERIFY(stepUntil([&] { return inf->reflector()->state() == Reflector::State::Watching; }, 5s));
        QCOMPARE(inf->lastSyncResourceVersion(), QStringLiteral("7"));
    }

    // Finding 11: a watch answered 410 is relisted after a backoff (client-go returns from
    // ListAndWatch and waits its backoff), not at once: a server whose watches keep expiring
    // does not get a loop of full lists.
    void shouldBackOffBeforeRelistingAfterAnExpiredWatch()
    {
        m_server->setHandler([](const FakeRequest &r) { return isWatch(r) ? expiredWatch() : listOf("100", {"a"}); });
        auto inf = informer();
        inf->start();
        QTRY_VERIFY(inf->hasSynced());
        QTRY_VERIFY(watches() >= 1);
        QTRY_COMPARE(inf->reflector()->state(), Reflector::State::BackingOff);
        // Time moves only on the fake clock: the relist is due between 800 ms and 1.6 s.
        m_clock->advance(700ms);
        QCOMPARE(inf->reflector()->state(), Reflector::State::BackingOff); // still waiting
        m_clock->advance(900ms);
        // The positive signal: the next round ran (relisted, watched, expired, backing off again),
        // so every list of the first round has reached the server: exactly one relist, no storm.
        QTRY_VERIFY_WITH_TIMEOUT(watches() >= 2, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(inf->reflector()->state(), Reflector::State::BackingOff, 10000);
        QCOMPARE(lists().size(), 2);
        QCOMPARE(lists().last().query(QStringLiteral("resourceVersion")), QStringLiteral("100"));
        QCOMPARE(names(*inf), QStringList{QStringLiteral("a")});
    }

    // Finding 12: the continue token expired between two pages of the first list. client-go's
    // pager (FullListIfExpired) then makes one unpaginated list at the original resourceVersion;
    // paging again would expire again on a large, busy collection.
    void aVeryShortWatchShouldRelistAfterTheBackoff()
    {
        // Runtime review #11 (second half): a watch the server closes within 1 s with no events
        // ends client-go's ListAndWatch round; the next round, after the backoff, lists again.
        int watchCount = 0;
        m_server->setHandler([&watchCount](const FakeRequest &r) {
            if (isWatch(r))
                return ++watchCount == 1 ? FakeResponse::json(200, {}) : openWatch("100");
            return listOf("100", {"a"});
        });
        auto inf = informer();
        inf->start();
        QVERIFY(stepUntil([&] { return watches() >= 2; }, 60s));
        QStringList order;
        for (const FakeRequest &r : m_server->requests)
            order << (isWatch(r) ? QStringLiteral("watch") : QStringLiteral("list"));
        QCOMPARE(order,
            (QStringList{
                QStringLiteral("list"), QStringLiteral("watch"), QStringLiteral("list"), QStringLiteral("watch")}));
        QVERIFY(inf->reflector()->lastBackoff().count() > 0);
    }

    void watchEventsOfAnotherKindShouldBeSkipped()
    {
        // Runtime review #18 (last item): client-go's reflector drops watch events whose object is
        // not of the expected group/version/kind and reports them; they never reach the cache.
        m_server->setHandler([](const FakeRequest &r) {
            if (!isWatch(r))
                return listOf("100", {"a"});
            FakeResponse w = FakeResponse::json(200, {});
            w.chunks = {
                R"({"type":"ADDED","object":{"kind":"Secret","apiVersion":"v1","metadata":{"name":"s","namespace":"default","uid":"u-s","resourceVersion":"101"}}})"
                "\n",
                R"({"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"apps/v1","metadata":{"name":"g","namespace":"default","uid":"u-g","resourceVersion":"102"}}})"
                "\n",
                R"({"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"b","namespace":"default","uid":"u-b","resourceVersion":"103"}}})"
                "\n"};
            w.keepOpen = true;
            return w;
        });
        auto inf = informer();
        QStringList errors;
        inf->start();
        QVERIFY(inf->reflector());
        connect(
            inf->reflector(), &Reflector::errorOccurred, this, [&errors](const Status &s) { errors << s.message(); });
        QTRY_COMPARE(names(*inf), (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
        QCOMPARE(errors.size(), 2);
        QVERIFY2(errors[0].contains(u"expected gvk v1, Kind=ConfigMap, but watch event object had gvk v1, Kind=Secret"),
            qPrintable(errors[0]));
        QVERIFY2(errors[1].contains(u"had gvk apps/v1, Kind=ConfigMap"), qPrintable(errors[1]));
    }

    void relistsShouldPageWhenTheFirstListCameInPages()
    {
        // Runtime review #12 (second half): a list at resourceVersion=0 answered in pages means the
        // server has no watch cache (it honours limit); client-go then keeps paging its relists
        // (paginatedResult) instead of asking etcd for everything at once.
        int watchCount = 0;
        m_server->setHandler([&watchCount](const FakeRequest &r) {
            if (isWatch(r))
                return ++watchCount == 1 ? expiredWatch() : openWatch("200");
            if (r.hasQuery(QStringLiteral("continue")))
                return listOf("100", {"b"});
            const QString limit = r.query(QStringLiteral("limit"));
            if (!limit.isEmpty() && limit != QLatin1String("0"))
                return listOf("100", {"a"}, "page-2");
            return listOf("100", {"a", "b"});
        });
        auto inf = informer();
        inf->start();
        QVERIFY(stepUntil([&] { return watches() >= 2; }, 60s));
        const QList<FakeRequest> ls = lists();
        QCOMPARE(ls.size(), 4); // the first list's two pages, then the relist's two
        QCOMPARE(ls.at(0).query(QStringLiteral("resourceVersion")), QStringLiteral("0"));
        QCOMPARE(ls.at(2).query(QStringLiteral("resourceVersion")), QStringLiteral("100"));
        QCOMPARE(ls.at(2).query(QStringLiteral("limit")), QStringLiteral("500"));
        QVERIFY(ls.at(3).hasQuery(QStringLiteral("continue")));
        QCOMPARE(names(*inf), (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
    }

    void shouldFallBackToOneFullListWhenTheContinueTokenExpires()
    {
        m_server->setHandler([](const FakeRequest &r) {
            if (isWatch(r))
                return openWatch("100");
            if (r.hasQuery(QStringLiteral("continue")))
                return status(
                    410, "Expired", "The provided continue parameter is too old to display a consistent list result.");
            const QString limit = r.query(QStringLiteral("limit"));
            if (!limit.isEmpty() && limit != QLatin1String("0"))
                return listOf("100", {"a"}, "page-2");
            return listOf("100", {"a", "b", "c"});
        });
        auto inf = informer();
        inf->start();
        QVERIFY(stepUntil([&] { return inf->hasSynced(); }, 60s));
        QCOMPARE(names(*inf), (QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}));
        const QList<FakeRequest> ls = lists();
        QCOMPARE(ls.size(), 3); // page 1, the expired page 2, one full list
        QVERIFY(!ls.last().hasQuery(QStringLiteral("limit"))
            || ls.last().query(QStringLiteral("limit")) == QLatin1String("0"));
        QVERIFY(!ls.last().hasQuery(QStringLiteral("continue")));
        QCOMPARE(ls.last().query(QStringLiteral("resourceVersion")), QStringLiteral("0"));
    }
};

QTEST_GUILESS_MAIN(tst_ReflectorFaults)
#include "tst_reflector_faults.moc"
