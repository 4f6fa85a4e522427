// SPDX-License-Identifier: Apache-2.0
// WATCH: framing, initial ADDED, resume from N, bookmarks, timeoutSeconds, selector
// transitions, 410 ERROR beyond the history window, Go-style booleans.
#include "tests/support/testhttp.h"

#include "engine/apiserver/storage/watchhub.h"

#include <QJsonArray>
#include <QtTest>

using namespace opbench::testing;

namespace {
const QString kCms = QStringLiteral("/api/v1/namespaces/default/configmaps");

QJsonObject cm(const QString &name, const QString &app)
{
    return QJsonObject{{QStringLiteral("metadata"),
        QJsonObject{
            {QStringLiteral("name"), name}, {QStringLiteral("labels"), QJsonObject{{QStringLiteral("app"), app}}}}}};
}
QString nameOf(const QJsonObject &event)
{
    return event.value(QLatin1String("object"))
        .toObject()
        .value(QLatin1String("metadata"))
        .toObject()
        .value(QLatin1String("name"))
        .toString();
}
QString rvOf(const QJsonObject &o)
{
    return o.value(QLatin1String("metadata")).toObject().value(QLatin1String("resourceVersion")).toString();
}
} // namespace

class TestApiServerWatch : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<TestApiServer> m_api;
    std::unique_ptr<TestHttp> m_http;

private Q_SLOTS:
    void init()
    {
        auto o = TestApiServer::plainOptions();
        o.watchHistory = 5;
        o.freshnessWaitMs = 300; // future resourceVersions give up quickly
        m_api = std::make_unique<TestApiServer>(o);
        QVERIFY2(m_api->start(), qPrintable(m_api->errorString()));
        m_http = std::make_unique<TestHttp>(*m_api);
    }
    void cleanup()
    {
        m_http.reset();
        m_api.reset();
    }

    void shouldStreamCompactLinesWithHeadersFirst()
    {
        WatchStream w(*m_api);
        w.open(kCms + QStringLiteral("?watch=1"));
        QVERIFY(QTest::qWaitFor([&]() { return w.statusCode() != 0; }, 5000)); // headers before any event
        QCOMPARE(w.statusCode(), 200);
        QVERIFY(w.headerBlock().contains("Transfer-Encoding: chunked"));
        QVERIFY(w.headerBlock().contains("Content-Type: application/json"));
        QCOMPARE(m_http->post(kCms, cm(QStringLiteral("one"), QStringLiteral("x"))).code, 201);
        QVERIFY(w.waitForEvents(1));
        QVERIFY(!w.lines().first().contains('\n'));
        QVERIFY(!w.lines().first().contains(": ")); // compact
        QCOMPARE(w.events().first().value(QLatin1String("type")).toString(), QStringLiteral("ADDED"));
        QCOMPARE(w.events().first().value(QLatin1String("object")).toObject().value(QLatin1String("kind")).toString(),
            QStringLiteral("ConfigMap"));
        QVERIFY(!w.malformedFraming());
    }

    void shouldSendInitialAddedFromUnsetOrZero_data()
    {
        QTest::addColumn<QString>("query");
        QTest::newRow("unset") << "?watch=true";
        QTest::newRow("zero") << "?watch=True&resourceVersion=0";
        QTest::newRow("empty watch value") << "?watch=&resourceVersion=0";
    }
    void shouldSendInitialAddedFromUnsetOrZero()
    {
        QFETCH(QString, query);
        QCOMPARE(m_http->post(kCms, cm(QStringLiteral("pre1"), QStringLiteral("x"))).code, 201);
        QCOMPARE(m_http->post(kCms, cm(QStringLiteral("pre2"), QStringLiteral("x"))).code, 201);
        WatchStream w(*m_api);
        w.open(kCms + query);
        QVERIFY(w.waitForEvents(2));
        QCOMPARE(w.types(), (QStringList{"ADDED", "ADDED"}));
    }

    void shouldSendOnlyLaterEventsFromN()
    {
        const QJsonObject first = m_http->post(kCms, cm(QStringLiteral("n1"), QStringLiteral("x"))).json();
        QCOMPARE(m_http->post(kCms, cm(QStringLiteral("n2"), QStringLiteral("x"))).code, 201);
        WatchStream w(*m_api);
        w.open(kCms + QStringLiteral("?watch=1&resourceVersion=") + rvOf(first));
        QVERIFY(w.waitForEvents(1));
        QCOMPARE(nameOf(w.events().first()), QStringLiteral("n2")); // replayed from history, n1 not
        QCOMPARE(m_http->del(kCms + QStringLiteral("/n1")).code, 200);
        QVERIFY(w.waitForEvents(2));
        QCOMPARE(w.types(), (QStringList{"ADDED", "DELETED"}));
        QCOMPARE(nameOf(w.events().at(1)), QStringLiteral("n1"));
    }

    void shouldServeMetadataOnlyGetListAndWatch()
    {
        // client-go's metadata client / controller-runtime's metadata-only informers
        const QByteArray listAccept
            = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,"
              "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";
        const QByteArray accept = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,"
                                  "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json";
        QJsonObject withData = cm(QStringLiteral("meta1"), QStringLiteral("x"));
        withData.insert(QStringLiteral("data"), QJsonObject{{QStringLiteral("k"), QStringLiteral("v")}});
        QCOMPARE(m_http->post(kCms, withData).code, 201);

        const QJsonObject one
            = m_http->call("GET", kCms + QStringLiteral("/meta1"), {}, {}, {{"Accept", accept}}).json();
        QCOMPARE(one.value(QLatin1String("kind")).toString(), QStringLiteral("PartialObjectMetadata"));
        QCOMPARE(one.value(QLatin1String("apiVersion")).toString(), QStringLiteral("meta.k8s.io/v1"));
        QCOMPARE(one.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString(),
            QStringLiteral("meta1"));
        QVERIFY(!one.contains(QLatin1String("data")));

        const QJsonObject list
            = m_http->call("GET", kCms + QStringLiteral("?limit=500"), {}, {}, {{"Accept", listAccept}}).json();
        QCOMPARE(list.value(QLatin1String("kind")).toString(), QStringLiteral("PartialObjectMetadataList"));
        QCOMPARE(list.value(QLatin1String("apiVersion")).toString(), QStringLiteral("meta.k8s.io/v1"));
        QVERIFY(!rvOf(list).isEmpty());
        const QJsonObject item = list.value(QLatin1String("items")).toArray().first().toObject();
        QCOMPARE(item.value(QLatin1String("kind")).toString(), QStringLiteral("PartialObjectMetadata"));
        QCOMPARE(item.value(QLatin1String("metadata"))
                     .toObject()
                     .value(QLatin1String("labels"))
                     .toObject()
                     .value(QLatin1String("app"))
                     .toString(),
            QStringLiteral("x"));
        QVERIFY(!item.contains(QLatin1String("data")));

        WatchStream w(*m_api);
        w.open(kCms
                + QStringLiteral("?watch=1&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch="
                                 "NotOlderThan&resourceVersion=")
                + rvOf(list),
            {{"Accept", accept}});
        QVERIFY(w.waitForEvents(2)); // the initial ADDED and the initial-events-end BOOKMARK
        QCOMPARE(m_http->post(kCms, cm(QStringLiteral("meta2"), QStringLiteral("y"))).code, 201);
        QVERIFY(w.waitForEvents(3));
        QCOMPARE(w.types(), (QStringList{"ADDED", "BOOKMARK", "ADDED"}));
        for (const QJsonObject &e : w.events()) {
            const QJsonObject o = e.value(QLatin1String("object")).toObject();
            QCOMPARE(o.value(QLatin1String("kind")).toString(), QStringLiteral("PartialObjectMetadata"));
            QCOMPARE(o.value(QLatin1String("apiVersion")).toString(), QStringLiteral("meta.k8s.io/v1"));
        }
        QCOMPARE(nameOf(w.events().at(2)), QStringLiteral("meta2"));
    }

    void shouldOpenAPlainWatchFromAFutureRvAtOnce()
    {
        // The real watch cache lets a plain watch from a future RV start at once; it then only
        // delivers events after that RV.
        const quint64 current = rvOf(m_http->get(kCms).json()).toULongLong();
        const quint64 future = current + 2;
        WatchStream w(*m_api);
        w.open(kCms + QStringLiteral("?watch=1&resourceVersion=%1").arg(future));
        for (const char *n : {"f1", "f2", "f3"})
            QCOMPARE(m_http->post(kCms, cm(QString::fromLatin1(n), QStringLiteral("x"))).code, 201);
        QVERIFY(w.waitForEvents(1));
        QCOMPARE(w.statusCode(), 200);
        QStringList seen;
        for (const QJsonObject &e : w.events()) {
            QCOMPARE(e.value(QLatin1String("type")).toString(), QStringLiteral("ADDED"));
            QVERIFY(rvOf(e.value(QLatin1String("object")).toObject()).toULongLong() > future);
            seen << nameOf(e);
        }
        QVERIFY2(!seen.contains(QStringLiteral("f1")), qPrintable(seen.join(u',')));
        QVERIFY(w.waitForEvents(seen.contains(QStringLiteral("f3")) ? 1 : 2));
        QCOMPARE(nameOf(w.events().last()), QStringLiteral("f3"));
    }

    void shouldFailAStreamingWatchFromAFutureRvAfterTheWait()
    {
        const quint64 future = rvOf(m_http->get(kCms).json()).toULongLong() + 1000;
        WatchStream w(*m_api);
        w.open(kCms
            + QStringLiteral("?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks="
                             "true&resourceVersion=%1")
                  .arg(future));
        QVERIFY(w.waitForEvents(1));
        QCOMPARE(w.statusCode(), 200); // errors after the RV is parsed go out as an ERROR event
        QCOMPARE(w.types(), QStringList{QStringLiteral("ERROR")});
        const QJsonObject st = w.events().first().value(QLatin1String("object")).toObject();
        QCOMPARE(st.value(QLatin1String("code")).toInt(), 504);
        QCOMPARE(st.value(QLatin1String("reason")).toString(), QStringLiteral("Timeout"));
        QVERIFY(st.value(QLatin1String("message"))
                    .toString()
                    .startsWith(QStringLiteral("Timeout: Too large resource version: %1, current: ").arg(future)));
        const QJsonArray causes
            = st.value(QLatin1String("details")).toObject().value(QLatin1String("causes")).toArray();
        QCOMPARE(causes.size(), 1);
        QCOMPARE(causes.first().toObject().value(QLatin1String("reason")).toString(),
            QStringLiteral("ResourceVersionTooLarge"));
        QVERIFY(w.waitForEnd());
    }

    void shouldStartAStreamingWatchWhenTheFutureRvArrives()
    {
        auto o = TestApiServer::plainOptions();
        o.freshnessWaitMs = 30000; // long: the write below must land inside the wait
        TestApiServer api(o);
        QVERIFY2(api.start(), qPrintable(api.errorString()));
        TestHttp http(api);
        const quint64 future = rvOf(http.get(kCms).json()).toULongLong() + 1;
        const auto requests = [&api] {
            quint64 n = 0;
            api.runOnServerThread([&n](opbench::apiserver::ApiServer &s) { n = s.requestCount(); });
            return n;
        };
        const quint64 before = requests();
        WatchStream w(api);
        w.open(kCms
            + QStringLiteral("?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks="
                             "true&resourceVersion=%1")
                  .arg(future));
        // The watch has reached the server (which then waits for the resourceVersion)
        QTRY_VERIFY_WITH_TIMEOUT(requests() > before, 10000);
        QCOMPARE(http.post(kCms, cm(QStringLiteral("arrives"), QStringLiteral("x"))).code, 201);
        QVERIFY(w.waitForEvents(2));
        QCOMPARE(w.types(), (QStringList{"ADDED", "BOOKMARK"}));
        QCOMPARE(nameOf(w.events().first()), QStringLiteral("arrives"));
    }

    void shouldSendBookmarksOnlyWhenAsked()
    {
        m_api->runOnServerThread([](opbench::apiserver::ApiServer &s) { s.watches()->setBookmarkInterval(50); });
        WatchStream plain(*m_api);
        plain.open(kCms + QStringLiteral("?watch=1&resourceVersion=0"));
        WatchStream marked(*m_api);
        marked.open(kCms + QStringLiteral("?watch=1&resourceVersion=0&allowWatchBookmarks=true"));
        QVERIFY(marked.waitForEvents(1));
        const QJsonObject bm = marked.events().first();
        QCOMPARE(bm.value(QLatin1String("type")).toString(), QStringLiteral("BOOKMARK"));
        QCOMPARE(bm.value(QLatin1String("object")).toObject().value(QLatin1String("kind")).toString(),
            QStringLiteral("ConfigMap"));
        QCOMPARE(bm.value(QLatin1String("object")).toObject().value(QLatin1String("apiVersion")).toString(),
            QStringLiteral("v1"));
        QVERIFY(!rvOf(bm.value(QLatin1String("object")).toObject()).isEmpty());
        // The positive signal: two more bookmark intervals went by on the watch that asked for
        // them; the one that did not ask has had as long to get one.
        QVERIFY(marked.waitForEvents(3));
        QVERIFY(plain.events().isEmpty());
    }

    void shouldCloseCleanlyAtTimeout()
    {
        WatchStream w(*m_api);
        w.open(kCms + QStringLiteral("?watch=1&timeoutSeconds=1"));
        QVERIFY(w.waitForEnd(5000));
        QVERIFY(!w.malformedFraming());
        QCOMPARE(w.statusCode(), 200);
    }

    void shouldTurnSelectorTransitionsIntoAddedAndDeleted()
    {
        WatchStream w(*m_api);
        w.open(kCms + QStringLiteral("?watch=1&labelSelector=app%3Dweb"));
        QVERIFY(QTest::qWaitFor([&]() { return w.statusCode() != 0; }, 5000));
        QJsonObject o = m_http->post(kCms, cm(QStringLiteral("mover"), QStringLiteral("db"))).json();
        QJsonObject m0 = o.value(QLatin1String("metadata")).toObject();
        m0.insert(QStringLiteral("labels"), QJsonObject{{QStringLiteral("app"), QStringLiteral("web")}});
        o.insert(QStringLiteral("metadata"), m0);
        o = m_http->put(kCms + QStringLiteral("/mover"), o).json();
        QVERIFY(w.waitForEvents(1));
        QCOMPARE(w.types(), QStringList{"ADDED"});
        QJsonObject m = o.value(QLatin1String("metadata")).toObject();
        m.insert(QStringLiteral("labels"), QJsonObject{{QStringLiteral("app"), QStringLiteral("db")}});
        o.insert(QStringLiteral("metadata"), m);
        const QJsonObject moved = m_http->put(kCms + QStringLiteral("/mover"), o).json();
        QVERIFY(w.waitForEvents(2));
        QCOMPARE(w.types(), (QStringList{"ADDED", "DELETED"}));
        QCOMPARE(rvOf(w.events().at(1).value(QLatin1String("object")).toObject()), rvOf(moved));
    }

    void shouldHonourFieldSelectorsLikeKubectlDelete()
    {
        QCOMPARE(m_http->post(kCms, cm(QStringLiteral("target"), QStringLiteral("x"))).code, 201);
        QCOMPARE(m_http->post(kCms, cm(QStringLiteral("other"), QStringLiteral("x"))).code, 201);
        WatchStream w(*m_api);
        w.open(kCms + QStringLiteral("?watch=true&fieldSelector=metadata.name%3Dtarget&resourceVersion=0"));
        QVERIFY(w.waitForEvents(1));
        QCOMPARE(m_http->del(kCms + QStringLiteral("/other")).code, 200);
        QCOMPARE(m_http->del(kCms + QStringLiteral("/target")).code, 200);
        QVERIFY(w.waitForEvents(2));
        QCOMPARE(w.types(), (QStringList{"ADDED", "DELETED"}));
        QCOMPARE(nameOf(w.events().at(1)), QStringLiteral("target"));
    }

    void shouldSendExpiredErrorBeyondTheHistoryWindow()
    {
        const QJsonObject first = m_http->post(kCms, cm(QStringLiteral("old"), QStringLiteral("x"))).json();
        for (int i = 0; i < 8; ++i) // history holds 5 events
            QCOMPARE(m_http->post(kCms, cm(QStringLiteral("h%1").arg(i), QStringLiteral("x"))).code, 201);
        WatchStream w(*m_api);
        w.open(kCms + QStringLiteral("?watch=1&resourceVersion=") + rvOf(first));
        QVERIFY(w.waitForEvents(1));
        QVERIFY(w.waitForEnd());
        QCOMPARE(w.statusCode(), 200);
        const QJsonObject err = w.events().first();
        QCOMPARE(err.value(QLatin1String("type")).toString(), QStringLiteral("ERROR"));
        const QJsonObject status = err.value(QLatin1String("object")).toObject();
        QCOMPARE(status.value(QLatin1String("code")).toInt(), 410);
        QCOMPARE(status.value(QLatin1String("reason")).toString(), QStringLiteral("Expired"));
        QVERIFY(
            status.value(QLatin1String("message")).toString().startsWith(QLatin1String("too old resource version: ")));
    }

    void shouldResumeAQuietKindWhileOtherKindsChurn()
    {
        // The window is per resource (the watch cache's): eight Secret writes push every older
        // event out of the 5-event history, yet a ConfigMap watch from before them still resumes.
        const QJsonObject quiet = m_http->post(kCms, cm(QStringLiteral("quiet-kind"), QStringLiteral("x"))).json();
        for (int i = 0; i < 8; ++i)
            QCOMPARE(m_http
                         ->post(QStringLiteral("/api/v1/namespaces/default/secrets"),
                             cm(QStringLiteral("s%1").arg(i), QStringLiteral("x")))
                         .code,
                201);
        WatchStream w(*m_api);
        w.open(kCms + QStringLiteral("?watch=1&resourceVersion=") + rvOf(quiet));
        QVERIFY(QTest::qWaitFor([&]() { return w.statusCode() != 0; }, 5000));
        QCOMPARE(m_http->post(kCms, cm(QStringLiteral("after-churn"), QStringLiteral("x"))).code, 201);
        QVERIFY(w.waitForEvents(1));
        QCOMPARE(w.types(), QStringList{QStringLiteral("ADDED")});
        QCOMPARE(nameOf(w.events().first()), QStringLiteral("after-churn"));
        // Exact lists still answer 410 for a kind that changed since that RV
        QCOMPARE(m_http
                     ->get(QStringLiteral("/api/v1/namespaces/default/secrets?resourceVersion=") + rvOf(quiet)
                         + QStringLiteral("&resourceVersionMatch=Exact"))
                     .code,
            410);
    }

    void shouldBookmarkBeforeTheTimeout()
    {
        // With bookmarks asked for, a BOOKMARK comes 2 s before timeoutSeconds ends the stream, so
        // the reflector rewatches from a fresh resourceVersion.
        QCOMPARE(m_http->post(kCms, cm(QStringLiteral("bm"), QStringLiteral("x"))).code, 201);
        const QString rv = rvOf(m_http->get(kCms).json());
        WatchStream w(*m_api);
        w.open(kCms + QStringLiteral("?watch=1&allowWatchBookmarks=true&timeoutSeconds=3&resourceVersion=") + rv);
        QVERIFY(w.waitForEnd(15000));
        QCOMPARE(w.types(), QStringList{QStringLiteral("BOOKMARK")});
        QCOMPARE(rvOf(w.events().first().value(QLatin1String("object")).toObject()), rv);
    }

    void shouldEmitNothingForNoOpWrites()
    {
        const QJsonObject o = m_http->post(kCms, cm(QStringLiteral("quiet"), QStringLiteral("x"))).json();
        WatchStream w(*m_api);
        w.open(kCms + QStringLiteral("?watch=1&resourceVersion=") + rvOf(o));
        QVERIFY(QTest::qWaitFor([&]() { return w.statusCode() != 0; }, 5000));
        QCOMPARE(m_http->put(kCms + QStringLiteral("/quiet"), o).code, 200);
        QCOMPARE(m_http->post(kCms, cm(QStringLiteral("loud"), QStringLiteral("x"))).code, 201);
        // Events come in commit order: once "loud" is here, an event of the no-op write before it
        // would be here too.
        QTRY_VERIFY_WITH_TIMEOUT(!w.events().isEmpty() && nameOf(w.events().last()) == QLatin1String("loud"), 10000);
        QCOMPARE(w.events().size(), 1);
        QCOMPARE(nameOf(w.events().first()), QStringLiteral("loud"));
    }

    void shouldSendTablesToTableClients()
    {
        WatchStream w(*m_api);
        w.open(kCms + QStringLiteral("?watch=1"),
            {{"Accept", "application/json;as=Table;v=v1;g=meta.k8s.io,application/json"}});
        QVERIFY(QTest::qWaitFor([&]() { return w.statusCode() != 0; }, 5000));
        QCOMPARE(m_http->post(kCms, cm(QStringLiteral("t1"), QStringLiteral("x"))).code, 201);
        QVERIFY(w.waitForEvents(1));
        const QJsonObject obj = w.events().first().value(QLatin1String("object")).toObject();
        QCOMPARE(obj.value(QLatin1String("kind")).toString(), QStringLiteral("Table"));
        QCOMPARE(obj.value(QLatin1String("rows")).toArray().size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestApiServerWatch)
#include "tst_apiserver_watch.moc"
