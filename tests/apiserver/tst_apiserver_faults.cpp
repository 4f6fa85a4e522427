// SPDX-License-Identifier: Apache-2.0
// Fault injection: errors with a code, 429 with Retry-After, latency, dropped watches, and the
// run-time switch through the ApiServer API.
#include "tests/support/testhttp.h"

#include "engine/apiserver/faults.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QtTest>

using namespace opbench::testing;
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
        QTest::newRow("reset") << "reset:rate=0.1" << true;
        QTest::newRow("expire-continue") << "expire-continue:rate=1" << true;
        QTest::newRow("filters") << "error:code=410,verb=list,resource=deployments,count=1" << true;
        QTest::newRow("name, user, agent")
            << "error:code=409,verb=update,resource=deployments,name=web,user=admin,agent=opbench/,count=1" << true;
        QTest::newRow("empty name") << "error:name=" << false;
        QTest::newRow("bad count") << "error:count=-1" << false;
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
        QCOMPARE(
            r.json().value(QLatin1String("details")).toObject().value(QLatin1String("retryAfterSeconds")).toInt(), 2);
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

    void shouldCutResponsesMidBodyAfterServingThem()
    {
        setFaults({QStringLiteral("reset:rate=1")});
        const QJsonObject cm{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("cut-reply")}}},
            {QStringLiteral("data"), QJsonObject{{QStringLiteral("k"), QStringLiteral("v")}}}};
        const HttpReply r = m_http->post(QStringLiteral("/api/v1/namespaces/default/configmaps"), cm);
        // Half the reply, then the connection closed: no complete object reaches the client.
        QVERIFY2(r.code == 0 || QJsonDocument::fromJson(r.body).isNull(), qPrintable(QString::fromUtf8(r.body)));
        int fired = 0;
        m_api.runOnServerThread([&](ApiServer &s) { fired = s.faultInjector()->firedCount(FaultSpec::Kind::Reset); });
        QCOMPARE(fired, 1);
        m_api.runOnServerThread([](ApiServer &s) { s.clearFaults(); });
        // The write was served before its reply was cut: the client cannot tell, the server has it.
        QCOMPARE(m_http->get(QStringLiteral("/api/v1/namespaces/default/configmaps/cut-reply")).code, 200);
    }

    void shouldExpireContinueTokens()
    {
        for (int i = 0; i < 3; ++i) {
            const QJsonObject cm{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
                {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("page-%1").arg(i)}}}};
            QCOMPARE(m_http->post(QStringLiteral("/api/v1/namespaces/default/configmaps"), cm).code, 201);
        }
        setFaults({QStringLiteral("expire-continue:rate=1")});
        const HttpReply first = m_http->get(QStringLiteral("/api/v1/namespaces/default/configmaps?limit=1"));
        QCOMPARE(first.code, 200); // the first page has no token to expire
        const QString token
            = first.json().value(QLatin1String("metadata")).toObject().value(QLatin1String("continue")).toString();
        QVERIFY(!token.isEmpty());
        const HttpReply next = m_http->get(QStringLiteral("/api/v1/namespaces/default/configmaps?limit=1&continue=")
            + QString::fromLatin1(QUrl::toPercentEncoding(token)));
        QCOMPARE(next.code, 410);
        QCOMPARE(next.json().value(QLatin1String("reason")).toString(), QStringLiteral("Expired"));
    }

    void shouldApplyFiltersAndCount()
    {
        setFaults({QStringLiteral("error:code=503,verb=list,resource=configmaps,count=1")});
        QCOMPARE(m_http->get(QStringLiteral("/api/v1/namespaces")).code, 200); // another resource
        QCOMPARE(m_http->get(QStringLiteral("/api/v1/namespaces/default/configmaps/nope")).code, 404); // another verb
        QCOMPARE(m_http->get(QStringLiteral("/api/v1/namespaces/default/configmaps")).code, 503);
        QCOMPARE(m_http->get(QStringLiteral("/api/v1/namespaces/default/configmaps")).code, 200); // count spent
    }

    void shouldFilterByNameAndUserAgent()
    {
        // The tour's conflict lesson: only the operator's (User-Agent "opbench/…") next read of
        // configmap "web" fails; kubectl and other names go through.
        setFaults({QStringLiteral("error:code=409,verb=get,resource=configmaps,name=web,agent=opbench/,count=1")});
        const QString web = QStringLiteral("/api/v1/namespaces/default/configmaps/web");
        const QList<QPair<QByteArray, QByteArray>> kubectl{{"User-Agent", "kubectl/v1.30.0 (linux/amd64)"}};
        const QList<QPair<QByteArray, QByteArray>> opbench{{"User-Agent", "opbench/0.1"}};
        QCOMPARE(m_http->call("GET", web, {}, "application/json", kubectl).code, 404);
        QCOMPARE(m_http
                     ->call("GET", QStringLiteral("/api/v1/namespaces/default/configmaps/db"), {}, "application/json",
                         opbench)
                     .code,
            404);
        const HttpReply hit = m_http->call("GET", web, {}, "application/json", opbench);
        QCOMPARE(hit.code, 409);
        // Word for word what a write with a stale resourceVersion gets from Kubernetes.
        QCOMPARE(hit.json().value(QLatin1String("reason")).toString(), QStringLiteral("Conflict"));
        QCOMPARE(hit.json().value(QLatin1String("message")).toString(),
            QStringLiteral("Operation cannot be fulfilled on configmaps \"web\": the object has been modified; please "
                           "apply your changes to the latest version and try again"));
        QCOMPARE(m_http->call("GET", web, {}, "application/json", opbench).code, 404); // count spent
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
