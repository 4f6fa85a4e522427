// SPDX-License-Identifier: Apache-2.0
// 1,000 concurrent watch streams on one server, every one receiving every event; clients that
// leave mid-stream do no harm.
#include "tests/support/testhttp.h"

#include "engine/apiserver/watchhub.h"

#include <QtTest>

using namespace opbench::testsupport;

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
        QVERIFY(QTest::qWaitFor([&]() {
            api.runOnServerThread([&](opbench::apiserver::ApiServer &s) { open = s.watches()->count(); });
            return open == kWatches;
        }, 60000));
        // A tenth of the clients leave before the events: the server must shrug.
        for (int i = 0; i < kWatches; i += 10)
            streams[size_t(i)]->close();
        for (int e = 0; e < kEvents; ++e)
            QCOMPARE(http.post(QStringLiteral("/api/v1/namespaces/default/configmaps"),
                               {{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("e%1").arg(e)}}}})
                         .code,
                     201);
        QVERIFY(QTest::qWaitFor([&]() {
            for (int i = 0; i < kWatches; ++i)
                if (i % 10 != 0 && streams[size_t(i)]->events().size() < kEvents)
                    return false;
            return true;
        }, 60000));
        for (int i = 1; i < kWatches; ++i)
            if (i % 10 != 0)
                QCOMPARE(streams[size_t(i)]->events().size(), kEvents);
        QCOMPARE(http.get(QStringLiteral("/healthz")).code, 200);
    }
};

QTEST_GUILESS_MAIN(TestApiServerManyWatches)
#include "tst_apiserver_manywatches.moc"
