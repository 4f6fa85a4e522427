// SPDX-License-Identifier: Apache-2.0
// 1,000 concurrent watch streams on one server, every one receiving every event; clients that
// leave mid-stream do no harm.
#include "tests/support/testhttp.h"

#include "engine/apiserver/storage/watchhub.h"

#include <QTcpSocket>
#include <QtTest>

using namespace opbench::testing;

class TestApiServerManyWatches : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldDeliverEveryEventToAThousandWatches()
    {
        TestApiServer api;
        QVERIFY2(api.start(), qPrintable(api.errorString()));
        TestHttp http(api);
        constexpr int kWatches = 1000;
        constexpr int kEvents = 5;
        std::vector<std::unique_ptr<WatchStream>> streams;
        for (int i = 0; i < kWatches; ++i) {
            streams.push_back(std::make_unique<WatchStream>(api));
            streams.back()->open(QStringLiteral("/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=0"));
        }
        int open = 0;
        QVERIFY(QTest::qWaitFor(
            [&]() {
                api.runOnServerThread([&](opbench::apiserver::ApiServer &s) { open = s.watches()->count(); });
                return open == kWatches;
            },
            60000));
        // A tenth of the clients leave before the events: the server must shrug.
        for (int i = 0; i < kWatches; i += 10)
            streams[size_t(i)]->close();
        for (int e = 0; e < kEvents; ++e)
            QCOMPARE(http.post(QStringLiteral("/api/v1/namespaces/default/configmaps"),
                             {{QStringLiteral("metadata"),
                                 QJsonObject{{QStringLiteral("name"), QStringLiteral("e%1").arg(e)}}}})
                         .code,
                201);
        QVERIFY(QTest::qWaitFor(
            [&]() {
                for (int i = 0; i < kWatches; ++i)
                    if (i % 10 != 0 && streams[size_t(i)]->events().size() < kEvents)
                        return false;
                return true;
            },
            60000));
        for (int i = 1; i < kWatches; ++i)
            if (i % 10 != 0)
                QCOMPARE(streams[size_t(i)]->events().size(), kEvents);
        QCOMPARE(http.get(QStringLiteral("/healthz")).code, 200);
    }

    void shouldCloseAWatcherThatDoesNotRead()
    {
        // A stalled client (paused debugger, SIGSTOPped kubectl) must not make the server buffer
        // its events forever: past the limit its stream is cut off; a reading watcher is unharmed.
        auto options = TestApiServer::plainOptions();
        options.watchBufferLimitBytes = 1024 * 1024;
        TestApiServer api(options);
        QVERIFY2(api.start(), qPrintable(api.errorString()));
        TestHttp http(api);
        const QString path = QStringLiteral("/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=0");
        QTcpSocket stalled;
        stalled.setReadBufferSize(4096); // Qt stops taking bytes from the kernel once this is full
        stalled.connectToHost(api.url().host(), quint16(api.url().port()));
        QVERIFY(stalled.waitForConnected(5000));
        stalled.setSocketOption(QAbstractSocket::ReceiveBufferSizeSocketOption, 4096);
        stalled.write("GET " + path.toUtf8() + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
        WatchStream reading(api);
        reading.open(path);
        auto openWatches = [&api]() {
            int n = 0;
            api.runOnServerThread([&n](opbench::apiserver::ApiServer &s) { n = s.watches()->count(); });
            return n;
        };
        QVERIFY(QTest::qWaitFor([&]() { return openWatches() == 2; }, 10000));

        const QString big(64 * 1024, u'x');
        int writes = 0;
        for (; writes < 1000 && openWatches() == 2; ++writes) {
            const QJsonObject cm{{QStringLiteral("metadata"),
                                     QJsonObject{{QStringLiteral("name"), QStringLiteral("big%1").arg(writes)}}},
                {QStringLiteral("data"), QJsonObject{{QStringLiteral("blob"), big}}}};
            QCOMPARE(http.post(QStringLiteral("/api/v1/namespaces/default/configmaps"), cm).code, 201);
            QTest::qWait(1);
        }
        QCOMPARE(openWatches(), 1); // the stalled one went, after a bounded amount of data
        QVERIFY2(writes < 1000, "the stalled watcher was never closed");
        int closed = 0;
        api.runOnServerThread(
            [&closed](opbench::apiserver::ApiServer &s) { closed = s.watches()->slowWatchersClosed(); });
        QCOMPARE(closed, 1);
        QVERIFY(reading.waitForEvents(writes, 30000)); // the reading watcher got every event
        QCOMPARE(reading.events().size(), writes);
    }
};

QTEST_GUILESS_MAIN(TestApiServerManyWatches)
#include "tst_apiserver_manywatches.moc"
