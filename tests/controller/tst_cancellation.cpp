// SPDX-License-Identifier: Apache-2.0
// A reconcile's cancellation (its timeout, the controller's shutdown) reaches a request in
// flight, over real HTTP to a server that never answers or keeps answering 429 Retry-After:
// the request is aborted and the reconcile ends, instead of waiting out RestConfig::timeout
// (30 s) and up to 10 Retry-After pauses.
#include "engine/testing/fakeclock.h"
#include "tests/controller/scriptedreconciler.h"

#include "engine/cache/informercache.h"
#include "engine/client/restclient.h"
#include "tests/client/fakeserver.h"

#include <QSignalSpy>
#include <QTest>

using namespace opbench;
using namespace opbench::test;
using namespace std::chrono_literals;

namespace {

/// Creates one ConfigMap per reconcile through the client and keeps the result.
class WritingReconciler final : public Reconciler
{
public:
    Client *client = nullptr;
    QList<Status> errors;
    int finished = 0;
    QCoro::Task<ReconcileOutcome> reconcile(Request request) override
    {
        Expected<Object> r = co_await client->create(request.ctx, configMap(request.namespaceName, request.name));
        ++finished;
        if (!r.ok()) {
            errors.append(r.error());
            co_return ReconcileOutcome(r.error());
        }
        co_return ReconcileOutcome();
    }
};

} // namespace

class tst_Cancellation : public QObject
{
    Q_OBJECT

private:
    struct Fixture
    {
        FakeServer server;
        testing::FakeClock clock;
        MetricsRegistry metrics;
        QObject parent;
        std::unique_ptr<RestClient> rest;
        std::unique_ptr<InformerCache> cache;
        std::unique_ptr<Client> client;
        std::shared_ptr<WritingReconciler> rec = std::make_shared<WritingReconciler>();
        Controller *ctrl = nullptr;
        bool start(FakeServer::Handler handler, Clock::Duration timeout)
        {
            server.setHandler(std::move(handler));
            if (!server.listen())
                return false;
            RestConfig rc;
            rc.server = QUrl(server.url());
            rc.clock = &clock;
            rest = std::make_unique<RestClient>(rc);
            cache = std::make_unique<InformerCache>(InformerCacheOptions{});
            client = std::make_unique<Client>(cache.get(), rest.get(), &clock);
            rec->client = client.get();
            ControllerOptions o = testOptions(QStringLiteral("cancel"), &clock, &metrics);
            o.reconcileTimeout = timeout;
            ctrl = startedController(std::move(o), rec, &parent);
            return ctrl != nullptr;
        }
    };

    static FakeResponse hang()
    {
        FakeResponse r;
        r.hang = true;
        return r;
    }
    static FakeResponse throttle()
    {
        FakeResponse r = FakeResponse::json(
            429, R"({"kind":"Status","apiVersion":"v1","status":"Failure","reason":"TooManyRequests","code":429})");
        r.headers.append(qMakePair(QByteArray("Retry-After"), QByteArray("30")));
        return r;
    }

private Q_SLOTS:
    void shouldAbortAWriteInFlightWhenTheReconcileTimesOut()
    {
        Fixture f;
        QVERIFY(f.start([](const FakeRequest &) { return hang(); }, 2s));
        QSignalSpy finished(f.ctrl, &Controller::reconcileFinished);
        f.ctrl->queue()->add({QStringLiteral("ns"), QStringLiteral("a")}, Cause::manual());
        QTRY_COMPARE(f.server.requests.size(), 1); // the POST is in flight; the server never answers
        f.clock.advance(2s);                       // the reconcile timeout
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 5000);
        QCOMPARE(f.rec->errors.size(), 1);
        QCOMPARE(f.rec->errors.first().reason(), QString::fromLatin1(StatusReason::Cancelled));
        QVERIFY(finished.at(0).at(0).value<ReconcileTrace>().timedOut);
    }

    void shouldAbortARetryAfterPauseWhenTheReconcileTimesOut()
    {
        Fixture f;
        QVERIFY(f.start([](const FakeRequest &) { return throttle(); }, 2s));
        QSignalSpy finished(f.ctrl, &Controller::reconcileFinished);
        f.ctrl->queue()->add({QStringLiteral("ns"), QStringLiteral("a")}, Cause::manual());
        QTRY_COMPARE(f.server.requests.size(), 1);
        // The 429 is read (counted by the client: the positive signal); RestClient now waits 30 s
        // on the clock.
        const QUrl url(f.server.url());
        const QString host = QStringLiteral("%1:%2").arg(url.host()).arg(url.port());
        const auto throttled = [&host] {
            double n = 0;
            for (const char *method : {"GET", "POST", "PUT", "PATCH", "DELETE"})
                if (const Counter *c
                    = MetricsRegistry::global()
                          .counter(QStringLiteral("rest_client_requests_total"), QString(),
                              {QStringLiteral("code"), QStringLiteral("method"), QStringLiteral("host")})
                          ->find({QStringLiteral("429"), QString::fromLatin1(method), host}))
                    n += c->value();
            return n;
        };
        QTRY_VERIFY_WITH_TIMEOUT(throttled() >= 1, 10000);
        for (int i = 0; i < 25 && finished.isEmpty(); ++i) {
            f.clock.advance(100ms);
            QTest::qWait(5);
        }
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 5000);
        QCOMPARE(f.server.requests.size(), 1); // not retried after the cancellation
        QCOMPARE(f.rec->errors.first().reason(), QString::fromLatin1(StatusReason::Cancelled));
    }

    void shouldAbortAWriteInFlightWhenTheControllerShutsDown()
    {
        Fixture f;
        QVERIFY(f.start([](const FakeRequest &) { return hang(); }, 0s));
        f.ctrl->queue()->add({QStringLiteral("ns"), QStringLiteral("a")}, Cause::manual());
        QTRY_COMPARE(f.server.requests.size(), 1);
        bool stopped = false;
        f.ctrl->shutdown().then([&stopped] { stopped = true; });
        QTRY_VERIFY_WITH_TIMEOUT(stopped, 5000);
        QCOMPARE(f.rec->finished, 1);
        QCOMPARE(f.rec->errors.first().reason(), QString::fromLatin1(StatusReason::Cancelled));
    }
};

QTEST_GUILESS_MAIN(tst_Cancellation)
#include "tst_cancellation.moc"
