// SPDX-License-Identifier: Apache-2.0
// Fault injection: errors with a code, 429 with Retry-After, latency, dropped watches, and the
// run-time switch through the ApiServer API.
#include "tests/support/testhttp.h"

#include "engine/apiserver/faults.h"

#include <QElapsedTimer>
#include <QtTest>

using namespace opbench::testsupport;
using opbench::apiserver::ApiServer;
using opbench::apiserver::FaultSpec;

class TestApiServerFaults : public QObject
{
    Q_OBJECT
private:
    TestApiServer m_api;
    std::unique_ptr<TestHttp> m_http;

    void setFaults(const QStringList &specs)
    {
        bool ok = false;
        m_api.runOnServerThread([&](ApiServer &s) { ok = s.setFaults(specs); });
        QVERIFY(ok);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_api.start(), qPrintable(m_api.errorString()));
        m_http = std::make_unique<TestHttp>(m_api);
    }
    void cleanup()
    {
        m_api.runOnServerThread([](ApiServer &s) { s.clearFaults(); });
    }

    void shouldParseSpecs_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<bool>("valid");
        QTest::newRow("drop") << "drop-watch:every=5s" << true;
        QTest::newRow("error") << "error:rate=0.05,code=500" << true;
        QTest::newRow("throttle") << "throttle:rate=0.1,retry-after=1" << true;
        QTest::newRow("latency") << "latency:ms=50" << true;
        QTest::newRow("unknown kind") << "explode:now" << false;
        QTest::newRow("bad rate") << "error:rate=2" << false;
        QTest::newRow("drop without interval") << "drop-watch" << false;
    }
    void shouldParseSpecs()
    {
        QFETCH(QString, spec);
        QFETCH(bool, valid);
        QCOMPARE(FaultSpec::parse(spec).ok(), valid);
    }

    void shouldFailRequestsWithTheGivenCode()
    {
        setFaults({QStringLiteral("error:rate=1,code=503")});
        const HttpReply r = m_http->get(QStringLiteral("/api/v1/namespaces"));
        QCOMPARE(r.code, 503);
        QCOMPARE(r.json().value(QLatin1String("kind")).toString(), QStringLiteral("Status"));
        QCOMPARE(m_http->get(QStringLiteral("/healthz")).code, 200); // only resource requests fail
    }

    void shouldThrottleWithRetryAfter()
    {
        setFaults({QStringLiteral("throttle:rate=1,retry-after=2")});
        const HttpReply r = m_http->get(QStringLiteral("/api/v1/namespaces"));
        QCOMPARE(r.code, 429);
        QCOMPARE(r.header("Retry-After"), QByteArray("2"));
        QCOMPARE(r.json().value(QLatin1String("details")).toObject().value(QLatin1String("retryAfterSeconds")).toInt(), 2);
    }

    void shouldDelayRequests()
    {
        setFaults({QStringLiteral("latency:ms=300")});
        QElapsedTimer t;
        t.start();
        QCOMPARE(m_http->get(QStringLiteral("/api/v1/namespaces")).code, 200);
        QVERIFY(t.elapsed() >= 250); // a lower bound only: the server must have waited
    }

    void shouldDropWatches()
    {
        WatchStream w(m_api);
        w.open(QStringLiteral("/api/v1/namespaces/default/configmaps?watch=1"));
        QVERIFY(QTest::qWaitFor([&]() { return w.statusCode() == 200; }, 5000));
        setFaults({QStringLiteral("drop-watch:every=100ms")});
        QVERIFY(w.waitForEnd(5000));
    }

    void shouldRecoverWhenFaultsAreCleared()
    {
        setFaults({QStringLiteral("error:rate=1,code=500")});
        QCOMPARE(m_http->get(QStringLiteral("/api/v1/namespaces")).code, 500);
        m_api.runOnServerThread([](ApiServer &s) { s.clearFaults(); });
        QCOMPARE(m_http->get(QStringLiteral("/api/v1/namespaces")).code, 200);
    }
};

QTEST_GUILESS_MAIN(TestApiServerFaults)
#include "tst_apiserver_faults.moc"
