// SPDX-License-Identifier: Apache-2.0
// RestClient and WatchStream against a local fake HTTP(S) server.
#include "engine/base/clock.h"
#include "engine/base/metrics.h"
#include "engine/client/auth.h"
#include "engine/client/execauth.h"
#include "engine/client/restclient.h"
#include "engine/client/tlsfiles.h"
#include "engine/client/watchstream.h"
#include "engine/testing/fakeclock.h"
#include "tests/client/fakeserver.h"
#include "tests/client/testutil.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <qcoro/qcorotask.h>

#include <algorithm>

using namespace opbench;
using namespace opbench::test;
using namespace std::chrono_literals;

namespace {

const GroupVersionResource kConfigMaps{QString(), QStringLiteral("v1"), QStringLiteral("configmaps")};
const GroupVersionResource kDeployments{QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("deployments")};
const GroupVersionResource kNamespaces{QString(), QStringLiteral("v1"), QStringLiteral("namespaces")};

const QByteArray kConfigMap = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"demo\","
                              "\"namespace\":\"ns1\",\"resourceVersion\":\"7\"}}";

RestConfig plainConfig(const FakeServer &server)
{
    RestConfig cfg;
    cfg.server = QUrl(server.url());
    cfg.timeout = 5s;
    return cfg;
}

Object configMap() { return *Object::parse(kConfigMap); }

double requestCount(const QString &code, const QString &method, const QString &host)
{
    const Counter *c = MetricsRegistry::global()
                           .counter(QStringLiteral("rest_client_requests_total"), QString(),
                               {QStringLiteral("code"), QStringLiteral("method"), QStringLiteral("host")})
                           ->find({code, method, host});
    return c ? c->value() : 0.0;
}

/// Two calls in a row; the reasons of their errors ("" for a success).
QCoro::Task<QStringList> getTwice(RestClient *client)
{
    QStringList reasons;
    const Expected<Object> a = co_await client->get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("a"));
    reasons << (a.ok() ? QString() : a.error().reason());
    const Expected<Object> b = co_await client->get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("b"));
    reasons << (b.ok() ? QString() : b.error().reason());
    co_return reasons;
}

} // namespace

static QStringList g_messages;

static void recordMessage(QtMsgType, const QMessageLogContext &, const QString &msg) { g_messages << msg; }

class TestRestClient : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qInstallMessageHandler(recordMessage); }

    void cleanupTestCase()
    {
        qInstallMessageHandler(nullptr);
        // Nothing the client logged, in any scenario above, carries a credential.
        for (const QString &m : std::as_const(g_messages)) {
            for (const char *secret : {"t0ken", "tls-token", "watch-token", "exec-token", "bob:pw"})
                QVERIFY2(!m.contains(QLatin1String(secret)), qPrintable(m));
        }
    }

    void shouldKeepTheServerPathPrefix()
    {
        FakeServer server;
        QVERIFY(server.listen());
        server.setHandler([](const FakeRequest &) { return FakeResponse::json(200, kConfigMap); });
        RestConfig cfg = plainConfig(server);
        cfg.server.setPath(QStringLiteral("/k8s/clusters/c-1/"));
        RestClient client(cfg);
        QVERIFY(QCoro::waitFor(client.get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("demo"))).ok());
        QCOMPARE(server.requests[0].path, QByteArray("/k8s/clusters/c-1/api/v1/namespaces/ns1/configmaps/demo"));
    }

    void shouldSendListQueryParametersAndDecodeList()
    {
        FakeServer server;
        QVERIFY(server.listen());
        server.setHandler([](const FakeRequest &) {
            return FakeResponse::json(200,
                "{\"kind\":\"ConfigMapList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"42\","
                "\"continue\":\"next\"},"
                "\"items\":[{\"metadata\":{\"name\":\"a\",\"namespace\":\"ns1\",\"managedFields\":[{\"manager\":\"m\"}]"
                "}}]}");
        });
        RestClient client(plainConfig(server));
        ListOptions o;
        o.labelSelector = QStringLiteral("app in (a, b),tier!=db");
        o.fieldSelector = QStringLiteral("metadata.name=foo");
        o.limit = 500;
        o.continueToken = QStringLiteral("tok+/=");
        o.resourceVersion = QStringLiteral("0");
        o.resourceVersionMatch = QStringLiteral("NotOlderThan");
        o.timeoutSeconds = 30;
        o.allowWatchBookmarks = true;
        o.sendInitialEvents = true;
        Expected<Object::List> list = QCoro::waitFor(client.list(kConfigMaps, QStringLiteral("ns1"), o, true));
        QVERIFY_OK(list);
        QCOMPARE(list->resourceVersion, QStringLiteral("42"));
        QCOMPARE(list->continueToken, QStringLiteral("next"));
        QCOMPARE(list->items.size(), 1);
        QCOMPARE(list->items[0].kind(), QStringLiteral("ConfigMap"));
        QCOMPARE(list->items[0].apiVersion(), QStringLiteral("v1"));
        QVERIFY(!list->items[0].toJsonBytes().contains("managedFields"));

        QCOMPARE(server.requests.size(), 1);
        const FakeRequest &r = server.requests[0];
        QCOMPARE(r.method, QByteArray("GET"));
        QCOMPARE(r.path, QByteArray("/api/v1/namespaces/ns1/configmaps"));
        QCOMPARE(r.query(QStringLiteral("labelSelector")), o.labelSelector);
        QCOMPARE(r.query(QStringLiteral("fieldSelector")), o.fieldSelector);
        QCOMPARE(r.query(QStringLiteral("limit")), QStringLiteral("500"));
        QCOMPARE(r.query(QStringLiteral("continue")), o.continueToken); // '+' sent as %2B
        QCOMPARE(r.query(QStringLiteral("resourceVersion")), QStringLiteral("0"));
        QCOMPARE(r.query(QStringLiteral("resourceVersionMatch")), QStringLiteral("NotOlderThan"));
        QCOMPARE(r.query(QStringLiteral("timeoutSeconds")), QStringLiteral("30"));
        QCOMPARE(r.query(QStringLiteral("allowWatchBookmarks")), QStringLiteral("true"));
        QCOMPARE(r.query(QStringLiteral("sendInitialEvents")), QStringLiteral("true"));
        QVERIFY(!r.hasQuery(QStringLiteral("watch")));
        QVERIFY(r.headers.value("user-agent").startsWith("opbench/"));
        QCOMPARE(r.headers.value("accept"), QByteArray("application/json"));
        QVERIFY(!r.headers.contains("authorization"));
    }

    void shouldUseVerbsPathsAndOptions_data()
    {
        QTest::addColumn<int>("op");
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QByteArray>("path");
        QTest::addColumn<QByteArray>("contentType");
        QTest::addColumn<QString>("query");
        QTest::newRow("get") << 0 << QByteArray("GET") << QByteArray("/apis/apps/v1/namespaces/ns1/deployments/web")
                             << QByteArray() << QString();
        QTest::newRow("create") << 1 << QByteArray("POST") << QByteArray("/api/v1/namespaces/ns1/configmaps")
                                << QByteArray("application/json")
                                << QStringLiteral("dryRun=All&fieldManager=opbench&fieldValidation=Strict");
        QTest::newRow("update") << 2 << QByteArray("PUT") << QByteArray("/api/v1/namespaces/ns1/configmaps/demo")
                                << QByteArray("application/json") << QStringLiteral("fieldManager=opbench");
        QTest::newRow("status") << 3 << QByteArray("PUT") << QByteArray("/api/v1/namespaces/ns1/configmaps/demo/status")
                                << QByteArray("application/json") << QString();
        QTest::newRow("merge") << 4 << QByteArray("PATCH") << QByteArray("/apis/apps/v1/namespaces/ns1/deployments/web")
                               << QByteArray("application/merge-patch+json") << QString();
        QTest::newRow("json") << 5 << QByteArray("PATCH")
                              << QByteArray("/apis/apps/v1/namespaces/ns1/deployments/web/status")
                              << QByteArray("application/json-patch+json") << QString();
        QTest::newRow("smp") << 6 << QByteArray("PATCH") << QByteArray("/apis/apps/v1/namespaces/ns1/deployments/web")
                             << QByteArray("application/strategic-merge-patch+json") << QString();
        QTest::newRow("apply") << 7 << QByteArray("PATCH") << QByteArray("/apis/apps/v1/namespaces/ns1/deployments/web")
                               << QByteArray("application/apply-patch+yaml")
                               << QStringLiteral("fieldManager=opbench&force=true");
        QTest::newRow("cluster-scoped") << 8 << QByteArray("GET") << QByteArray("/api/v1/namespaces/kube-system")
                                        << QByteArray() << QString();
        QTest::newRow("deletecollection")
            << 10 << QByteArray("DELETE") << QByteArray("/api/v1/namespaces/ns1/configmaps")
            << QByteArray("application/json") << QStringLiteral("labelSelector=app%3Dweb");
        QTest::newRow("raw") << 9 << QByteArray("GET") << QByteArray("/version") << QByteArray()
                             << QStringLiteral("timeout=32s");
    }

    void shouldUseVerbsPathsAndOptions()
    {
        QFETCH(int, op);
        QFETCH(QByteArray, method);
        QFETCH(QByteArray, path);
        QFETCH(QByteArray, contentType);
        QFETCH(QString, query);
        FakeServer server;
        QVERIFY(server.listen());
        server.setHandler([](const FakeRequest &) { return FakeResponse::json(200, kConfigMap); });
        RestClient client(plainConfig(server));
        const QString ns = QStringLiteral("ns1");
        WriteOptions w;
        PatchOptions p;
        Expected<Object> r = Status();
        switch (op) {
        case 0:
            r = QCoro::waitFor(client.get(kDeployments, ns, QStringLiteral("web")));
            break;
        case 1:
            w.dryRun = true;
            w.fieldManager = QStringLiteral("opbench");
            w.fieldValidation = QStringLiteral("Strict");
            r = QCoro::waitFor(client.create(kConfigMaps, QString(), configMap(), w));
            break;
        case 2:
            w.fieldManager = QStringLiteral("opbench");
            r = QCoro::waitFor(client.update(kConfigMaps, ns, configMap(), w));
            break;
        case 3:
            r = QCoro::waitFor(client.updateStatus(kConfigMaps, ns, configMap()));
            break;
        case 4:
            r = QCoro::waitFor(
                client.patch(kDeployments, ns, QStringLiteral("web"), PatchType::Merge, "{\"spec\":{}}"));
            break;
        case 5:
            p.subresource = QStringLiteral("status");
            r = QCoro::waitFor(client.patch(kDeployments, ns, QStringLiteral("web"), PatchType::JSONPatch, "[]", p));
            break;
        case 6:
            r = QCoro::waitFor(client.patch(kDeployments, ns, QStringLiteral("web"), PatchType::StrategicMerge, "{}"));
            break;
        case 7:
            p.fieldManager = QStringLiteral("opbench");
            p.force = true;
            r = QCoro::waitFor(client.patch(kDeployments, ns, QStringLiteral("web"), PatchType::Apply, "{}", p));
            break;
        case 8:
            r = QCoro::waitFor(client.get(kNamespaces, QString(), QStringLiteral("kube-system")));
            break;
        case 10: {
            ListOptions sel;
            sel.labelSelector = QStringLiteral("app=web");
            r = QCoro::waitFor(client.deleteCollection(kConfigMaps, ns, sel));
            break;
        }
        case 9: {
            Expected<RawResponse> raw = QCoro::waitFor(
                client.raw("GET", QStringLiteral("/version"), {{QStringLiteral("timeout"), QStringLiteral("32s")}}));
            QVERIFY(raw.ok());
            QCOMPARE(raw->code, 200);
            r = Object::parse(raw->body);
            break;
        }
        }
        QVERIFY_OK(r);
        QCOMPARE(r->name(), QStringLiteral("demo"));
        QCOMPARE(server.requests.size(), 1);
        const FakeRequest &req = server.requests[0];
        QCOMPARE(req.method, method);
        QCOMPARE(req.path, path);
        QCOMPARE(req.headers.value("content-type"), contentType);
        QCOMPARE(QString::fromLatin1(req.rawQuery), query);
        if (method == "POST" || method == "PUT")
            QCOMPARE(req.body, kConfigMap);
    }

    void shouldTurnStatusBodiesIntoTypedErrors()
    {
        FakeServer server;
        QVERIFY(server.listen());
        server.setHandler([](const FakeRequest &r) {
            if (r.path.endsWith("/conflict"))
                return FakeResponse::json(409,
                    "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                    "\"message\":\"Operation cannot be fulfilled on configmaps \\\"demo\\\": the object has been "
                    "modified\","
                    "\"reason\":\"Conflict\",\"details\":{\"name\":\"demo\",\"kind\":\"configmaps\"},\"code\":409}");
            FakeResponse plain;
            plain.code = 404;
            plain.body = "404 page not found";
            return plain;
        });
        RestClient client(plainConfig(server));
        Expected<Object> c = QCoro::waitFor(client.get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("conflict")));
        QVERIFY(!c.ok());
        QVERIFY(isConflict(c.error()));
        QCOMPARE(c.error().code(), 409);
        QCOMPARE(c.error().details().name, QStringLiteral("demo"));
        QVERIFY(c.error().message().startsWith(QStringLiteral("Operation cannot be fulfilled")));
        Expected<Object> nf = QCoro::waitFor(client.get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("other")));
        QVERIFY(!nf.ok());
        QVERIFY(isNotFound(nf.error()));
        QVERIFY2(nf.error().message().contains(QStringLiteral("404 page not found")), qPrintable(nf.error().message()));
    }

    void shouldReturnDeleteResults()
    {
        FakeServer server;
        QVERIFY(server.listen());
        server.setHandler([](const FakeRequest &r) {
            if (r.path.endsWith("/kept"))
                return FakeResponse::json(200,
                    "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"kept\","
                    "\"deletionTimestamp\":\"2024-05-01T10:00:00Z\",\"finalizers\":[\"x/y\"]}}");
            return FakeResponse::json(200,
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Success\","
                "\"details\":{\"name\":\"gone\",\"kind\":\"configmaps\",\"uid\":\"u1\"}}");
        });
        RestClient client(plainConfig(server));
        DeleteOptions o;
        o.propagationPolicy = QStringLiteral("Foreground");
        o.gracePeriodSeconds = 0;
        o.preconditionUid = QStringLiteral("u1");
        o.preconditionResourceVersion = QStringLiteral("7");
        o.dryRun = true;
        Expected<DeleteResult> gone
            = QCoro::waitFor(client.remove(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("gone"), o));
        QVERIFY(gone.ok());
        QVERIFY(gone->gone());
        QCOMPARE(gone->status.details().uid, QStringLiteral("u1"));
        Expected<DeleteResult> kept
            = QCoro::waitFor(client.remove(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("kept")));
        QVERIFY(kept.ok());
        QVERIFY(!kept->gone());
        QVERIFY(kept->object.isBeingDeleted());

        const FakeRequest &r = server.requests[0];
        QCOMPARE(r.method, QByteArray("DELETE"));
        QCOMPARE(r.query(QStringLiteral("dryRun")), QStringLiteral("All"));
        const QJsonObject body = QJsonDocument::fromJson(r.body).object();
        QCOMPARE(body.value(QLatin1String("kind")).toString(), QStringLiteral("DeleteOptions"));
        QCOMPARE(body.value(QLatin1String("propagationPolicy")).toString(), QStringLiteral("Foreground"));
        QCOMPARE(body.value(QLatin1String("gracePeriodSeconds")).toInt(-1), 0);
        QCOMPARE(body.value(QLatin1String("preconditions")).toObject().value(QLatin1String("uid")).toString(),
            QStringLiteral("u1"));
        QCOMPARE(
            body.value(QLatin1String("preconditions")).toObject().value(QLatin1String("resourceVersion")).toString(),
            QStringLiteral("7"));
    }

    // A call started inside a CancelScope is aborted when its predicate turns true; a call
    // started after the scope closed is not affected by it.
    void shouldCancelOnlyTheCallsStartedInsideTheScope()
    {
        FakeServer server;
        QVERIFY(server.listen());
        server.setHandler([](const FakeRequest &) {
            FakeResponse r;
            r.hang = true;
            return r;
        });
        RestConfig cfg = plainConfig(server);
        cfg.timeout = 3s;
        RestClient client(cfg);
        bool cancelled = false;
        QCoro::Task<Expected<Object>> inside = [&] {
            RestClient::CancelScope scope(&client, [&cancelled] { return cancelled; });
            return client.get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("inside"));
        }();
        QCoro::Task<Expected<Object>> outside
            = client.get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("outside"));
        QTRY_COMPARE(server.requests.size(), 2);
        cancelled = true;
        Expected<Object> a = QCoro::waitFor(std::move(inside));
        QVERIFY(!a.ok());
        QCOMPARE(a.error().reason(), QString::fromLatin1(StatusReason::Cancelled));
        Expected<Object> b = QCoro::waitFor(std::move(outside));
        QVERIFY(!b.ok());
        QCOMPARE(b.error().reason(), QString::fromLatin1(StatusReason::Timeout)); // ran to its own timeout
    }

    void shouldTimeOutAHangingRequest()
    {
        FakeServer server;
        QVERIFY(server.listen());
        server.setHandler([](const FakeRequest &) {
            FakeResponse r;
            r.hang = true;
            return r;
        });
        RestConfig cfg = plainConfig(server);
        cfg.timeout = 300ms;
        RestClient client(cfg);
        Expected<Object> r = QCoro::waitFor(client.get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("demo")));
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code(), 0);
        QCOMPARE(r.error().reason(), QString::fromLatin1(StatusReason::Timeout));
        QVERIFY2(r.error().message().contains(QStringLiteral("300 ms")), qPrintable(r.error().message()));
    }

    void shouldReportConnectionFailures()
    {
        FakeServer server;
        const quint16 port = server.listen();
        QVERIFY(port);
        RestConfig cfg = plainConfig(server);
        cfg.server.setPort(1); // nothing listens on port 1
        RestClient client(cfg);
        Expected<Object> r = QCoro::waitFor(client.get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("demo")));
        QVERIFY(!r.ok());
        QCOMPARE(r.error().reason(), QString::fromLatin1(StatusReason::ConnectionFailed));
        QVERIFY(isTransportError(r.error()) || r.error().code() == 0);
    }

    void shouldHonourRetryAfterOn429ThroughTheClock()
    {
        FakeServer server;
        QVERIFY(server.listen());
        int calls = 0;
        server.setHandler([&calls](const FakeRequest &) {
            if (++calls <= 2) {
                FakeResponse r = FakeResponse::json(429,
                    "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"TooManyRequests\","
                    "\"message\":\"slow down\",\"details\":{\"retryAfterSeconds\":3},\"code\":429}");
                r.headers.append(qMakePair(QByteArray("Retry-After"), QByteArray("3")));
                return r;
            }
            return FakeResponse::json(200, kConfigMap);
        });
        testing::FakeClock clock;
        RestConfig cfg = plainConfig(server);
        cfg.clock = &clock;
        RestClient client(cfg);
        const QString host = QStringLiteral("127.0.0.1:%1").arg(cfg.server.port());
        QCoro::Task<Expected<Object>> task = client.get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("demo"));
        QTRY_COMPARE(clock.pending(), 1);
        QCOMPARE(server.requests.size(), 1);
        clock.advance(2900ms);
        // Still waiting for Retry-After: the retry's timer is still pending on the fake clock (a
        // retry due earlier would have run inside advance(), leaving none).
        QCOMPARE(clock.pending(), 1);
        QCOMPARE(server.requests.size(), 1);
        clock.advance(100ms);
        QTRY_COMPARE(server.requests.size(), 2);
        QTRY_COMPARE(clock.pending(), 1);
        clock.advance(3s);
        Expected<Object> r = QCoro::waitFor(std::move(task));
        QVERIFY_OK(r);
        QCOMPARE(server.requests.size(), 3);
        QCOMPARE(requestCount(QStringLiteral("429"), QStringLiteral("GET"), host), 2.0);
        QCOMPARE(requestCount(QStringLiteral("200"), QStringLiteral("GET"), host), 1.0);
    }

    // A client destroyed while a call sleeps on Retry-After, on a rate-limit slot, or while its
    // request hangs, finishes that call with Cancelled during its destructor: the coroutine frames
    // do not stay suspended (LeakSanitizer found ~40 such frames from abandoned lease renewals).
    void shouldFinishPendingCallsWhenDestroyed_data()
    {
        QTest::addColumn<int>("wait");
        QTest::newRow("retry-after pause") << 0;
        QTest::newRow("rate-limit slot") << 1;
        QTest::newRow("hung request") << 2;
    }

    void shouldFinishPendingCallsWhenDestroyed()
    {
        QFETCH(int, wait);
        FakeServer server;
        QVERIFY(server.listen());
        server.setHandler([wait](const FakeRequest &) {
            if (wait == 0) {
                FakeResponse r = FakeResponse::json(429,
                    "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                    "\"reason\":\"TooManyRequests\",\"code\":429}");
                r.headers.append(qMakePair(QByteArray("Retry-After"), QByteArray("30")));
                return r;
            }
            if (wait == 2) {
                FakeResponse r;
                r.hang = true;
                return r;
            }
            return FakeResponse::json(200, kConfigMap);
        });
        testing::FakeClock clock;
        RestConfig cfg = plainConfig(server);
        cfg.clock = &clock;
        cfg.timeout = -1ms; // only the destructor ends a hung request
        if (wait == 1) {
            cfg.qps = 0.1;
            cfg.burst = 1;
        } else {
            cfg.qps = 0;
        }
        auto client = std::make_unique<RestClient>(cfg);
        if (wait == 1) { // takes the only token
            const Expected<Object> first
                = QCoro::waitFor(client->get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("demo")));
            QVERIFY_OK(first);
        }
        const qsizetype before = server.requests.size();
        QCoro::Task<Expected<Object>> pending = client->get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("demo"));
        QCoro::Task<QStringList> chained = getTwice(client.get());
        if (wait == 1)
            QCOMPARE(clock.pending(), 2); // both wait for a slot
        else
            QTRY_COMPARE(server.requests.size(), before + 2);
        if (wait == 0)
            QTRY_COMPARE(clock.pending(), 2); // both sleep on Retry-After
        client.reset();
        QVERIFY(pending.isReady());
        QVERIFY(chained.isReady());
        QCOMPARE(clock.pending(), 0);
        const Expected<Object> r = QCoro::waitFor(std::move(pending));
        QVERIFY(!r.ok());
        QCOMPARE(r.error().reason(), QString::fromLatin1(StatusReason::Cancelled));
        // The second call of the chain was started from code the destructor resumed: it fails
        // at once instead of touching the half-destroyed client.
        const QStringList reasons = QCoro::waitFor(std::move(chained));
        QCOMPARE(reasons,
            QStringList({QString::fromLatin1(StatusReason::Cancelled), QString::fromLatin1(StatusReason::Cancelled)}));
    }

    void shouldGiveUpAfterBoundedRetries()
    {
        FakeServer server;
        QVERIFY(server.listen());
        server.setHandler([](const FakeRequest &) {
            FakeResponse r = FakeResponse::json(429,
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"TooManyRequests\","
                "\"message\":\"slow down\",\"code\":429}");
            r.headers.append(qMakePair(QByteArray("Retry-After"), QByteArray("0")));
            return r;
        });
        RestClient client(plainConfig(server));
        Expected<Object> r = QCoro::waitFor(client.get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("demo")));
        QVERIFY(!r.ok());
        QVERIFY(isTooManyRequests(r.error()));
        QCOMPARE(server.requests.size(), 11); // the first try + 10 retries, as client-go
    }

    void shouldSendCredentials_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("bearer over http") << 0 << QByteArray("Bearer t0ken");
        QTest::newRow("basic") << 1 << ("Basic " + QByteArray("bob:pw").toBase64());
    }

    void shouldSendCredentials()
    {
        QFETCH(int, mode);
        QFETCH(QByteArray, expected);
        FakeServer server;
        QVERIFY(server.listen());
        server.setHandler([](const FakeRequest &) { return FakeResponse::json(200, kConfigMap); });
        RestConfig cfg = plainConfig(server);
        if (mode == 0)
            cfg.auth = std::make_shared<StaticTokenAuth>("t0ken");
        else
            cfg.auth = std::make_shared<BasicAuth>(QStringLiteral("bob"), QStringLiteral("pw"));
        RestClient client(cfg);
        QVERIFY(QCoro::waitFor(client.get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("demo"))).ok());
        QVERIFY(QCoro::waitFor(client.get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("demo"))).ok());
        QCOMPARE(server.requests.size(), 2);
        for (const FakeRequest &r : server.requests)
            QCOMPARE(r.headers.value("authorization"), expected);
    }

    void shouldRefreshExecCredentialsOn401()
    {
        QTemporaryDir dir;
        FakeServer server;
        QVERIFY(server.listen());
        server.setHandler([](const FakeRequest &r) {
            if (r.headers.value("authorization") != "Bearer exec-token-2")
                return FakeResponse::json(401,
                    "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"Unauthorized\","
                    "\"reason\":\"Unauthorized\",\"code\":401}");
            return FakeResponse::json(200, kConfigMap);
        });
        ExecConfig e;
        e.apiVersion = QStringLiteral("client.authentication.k8s.io/v1beta1");
        e.command = QStringLiteral("/usr/bin/python3");
        e.args = QStringList{QStringLiteral(OPBENCH_SOURCE_DIR "/tests/data/client/exec-plugin.py")};
        e.env = {{QStringLiteral("PLUGIN_STATE"), dir.path() + QStringLiteral("/n")}};
        auto auth = std::make_shared<ExecAuth>(e);
        RestConfig cfg = plainConfig(server);
        cfg.auth = auth;
        RestClient client(cfg);
        Expected<Object> r = QCoro::waitFor(client.get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("demo")));
        QVERIFY_OK(r);
        QCOMPARE(server.requests.size(), 2);
        QCOMPARE(auth->runs(), 2);
        // A second 401 in a row is returned, not retried forever.
        server.setHandler([](const FakeRequest &) {
            return FakeResponse::json(401,
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"Unauthorized\","
                "\"reason\":\"Unauthorized\",\"code\":401}");
        });
        Expected<Object> denied
            = QCoro::waitFor(client.get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("demo")));
        QVERIFY(!denied.ok());
        QVERIFY(isUnauthorized(denied.error()));
        QCOMPARE(server.requests.size(), 4);
    }

    void shouldVerifyServerCertificates()
    {
        QTemporaryDir good, bad;
        QString err;
        QVERIFY2(makeCertificates(good.path(), QStringLiteral("good-ca"), &err), qPrintable(err));
        QVERIFY2(makeCertificates(bad.path(), QStringLiteral("other-ca"), &err), qPrintable(err));
        Expected<QList<QSslCertificate>> serverCert = readCertificates(good.path() + QStringLiteral("/server.crt"));
        Expected<QSslKey> serverKey = readPrivateKey(good.path() + QStringLiteral("/server.key"));
        QVERIFY(serverCert.ok() && serverKey.ok());
        FakeServer server;
        QVERIFY(server.listen(serverCert->first(), *serverKey));
        server.setHandler([](const FakeRequest &) { return FakeResponse::json(200, kConfigMap); });
        RestConfig cfg = plainConfig(server);
        cfg.auth = std::make_shared<StaticTokenAuth>("tls-token");

        // A wrong CA: a clear TLS error naming the host and the CA source.
        RestConfig wrong = cfg;
        wrong.tls.caCertificates = *readCertificates(bad.path() + QStringLiteral("/ca.crt"));
        wrong.tls.caSource = QStringLiteral("certificate-authority %1/ca.crt").arg(bad.path());
        RestClient wrongClient(wrong);
        Expected<Object> r
            = QCoro::waitFor(wrongClient.get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("demo")));
        QVERIFY(!r.ok());
        QCOMPARE(r.error().reason(), QString::fromLatin1(StatusReason::TlsError));
        const QString msg = r.error().message();
        QVERIFY2(msg.contains(QStringLiteral("\"127.0.0.1\"")) && msg.contains(bad.path()), qPrintable(msg));
        QVERIFY2(!msg.contains(QStringLiteral("tls-token")), qPrintable(msg));
        QVERIFY(server.requests.isEmpty());

        // The right CA passes, and the token goes over TLS.
        RestConfig right = cfg;
        right.tls.caCertificates = *readCertificates(good.path() + QStringLiteral("/ca.crt"));
        RestClient rightClient(right);
        Expected<Object> ok
            = QCoro::waitFor(rightClient.get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("demo")));
        QVERIFY_OK(ok);
        QCOMPARE(server.requests.last().headers.value("authorization"), QByteArray("Bearer tls-token"));

        // tls-server-name: a name in the certificate passes, another one fails and is named.
        right.tls.serverName = QStringLiteral("api.example.test");
        RestClient named(right);
        QVERIFY(QCoro::waitFor(named.get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("demo"))).ok());
        right.tls.serverName = QStringLiteral("wrong.example.test");
        RestClient misnamed(right);
        Expected<Object> mis = QCoro::waitFor(misnamed.get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("demo")));
        QVERIFY(!mis.ok());
        QVERIFY2(
            mis.error().message().contains(QStringLiteral("wrong.example.test")), qPrintable(mis.error().message()));

        // Verified connections say nothing about TLS.
        auto tlsWarnings = [] {
            return std::count_if(g_messages.cbegin(), g_messages.cend(),
                [](const QString &m) { return m.contains(QLatin1String("insecure-skip-tls-verify")); });
        };
        QCOMPARE(tlsWarnings(), 0);
        // insecure-skip-tls-verify accepts any certificate, with a visible warning naming the
        // server (once per server).
        RestConfig insecure = cfg;
        insecure.tls.insecure = true;
        RestClient insecureClient(insecure);
        QVERIFY(QCoro::waitFor(insecureClient.get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("demo"))).ok());
        QCOMPARE(tlsWarnings(), 1);
        RestClient insecureAgain(insecure);
        QCOMPARE(tlsWarnings(), 1);
        const QString warning = *std::find_if(g_messages.cbegin(), g_messages.cend(),
            [](const QString &m) { return m.contains(QLatin1String("insecure-skip-tls-verify")); });
        QVERIFY2(warning.contains(insecure.server.toString()), qPrintable(warning));
    }

    void shouldAuthenticateWithAClientCertificate()
    {
        QTemporaryDir dir;
        QString err;
        QVERIFY2(makeCertificates(dir.path(), QStringLiteral("cluster-ca"), &err), qPrintable(err));
        const QList<QSslCertificate> ca = *readCertificates(dir.path() + QStringLiteral("/ca.crt"));
        FakeServer server;
        server.requireClientCertificates(ca);
        QVERIFY(server.listen(readCertificates(dir.path() + QStringLiteral("/server.crt"))->first(),
            *readPrivateKey(dir.path() + QStringLiteral("/server.key"))));
        server.setHandler([](const FakeRequest &) { return FakeResponse::json(200, kConfigMap); });
        RestConfig cfg = plainConfig(server);
        cfg.tls.caCertificates = ca;
        cfg.tls.clientCertificate = readCertificates(dir.path() + QStringLiteral("/client.crt"))->first();
        cfg.tls.clientKey = *readPrivateKey(dir.path() + QStringLiteral("/client.key"));
        RestClient client(cfg);
        Expected<Object> r = QCoro::waitFor(client.get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("demo")));
        QVERIFY_OK(r);
        QCOMPARE(server.requests.size(), 1);
        QCOMPARE(server.requests[0].clientCommonName, QStringLiteral("jane"));
        QVERIFY(!server.requests[0].headers.contains("authorization"));
        // Without the certificate the server refuses the handshake.
        RestConfig anonymous = cfg;
        anonymous.tls.clientCertificate = QSslCertificate();
        anonymous.tls.clientKey = QSslKey();
        RestClient anonymousClient(anonymous);
        Expected<Object> refused
            = QCoro::waitFor(anonymousClient.get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("demo")));
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code(), 0);
        QCOMPARE(server.requests.size(), 1);
    }

    void shouldRateLimitWhenConfigured()
    {
        FakeServer server;
        QVERIFY(server.listen());
        server.setHandler([](const FakeRequest &) { return FakeResponse::json(200, kConfigMap); });
        testing::FakeClock clock;
        RestConfig cfg = plainConfig(server);
        cfg.clock = &clock;
        cfg.qps = 1;
        cfg.burst = 1;
        RestClient client(cfg);
        QVERIFY(QCoro::waitFor(client.get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("demo"))).ok());
        QCoro::Task<Expected<Object>> second = client.get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("demo"));
        QTRY_COMPARE(clock.pending(), 1);
        QCOMPARE(server.requests.size(), 1);
        clock.advance(1s);
        QVERIFY(QCoro::waitFor(std::move(second)).ok());
        QCOMPARE(server.requests.size(), 2);
    }

    void shouldStreamWatchEventsAcrossChunkBoundaries()
    {
        QByteArray stream;
        for (int i = 1; i <= 20; ++i)
            stream += "{\"type\":\"" + QByteArray(i % 2 ? "ADDED" : "MODIFIED")
                + "\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                  "\"metadata\":{\"name\":\"cm"
                + QByteArray::number(i) + "\",\"resourceVersion\":\"" + QByteArray::number(100 + i) + "\"}}}\n";
        stream += "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{"
                  "\"resourceVersion\":\"200\"}}}\n";
        FakeServer server;
        QVERIFY(server.listen());
        server.setHandler([stream](const FakeRequest &) {
            FakeResponse r;
            r.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
            for (qsizetype i = 0; i < stream.size(); i += 7)
                r.chunks.append(stream.mid(i, 7));
            r.chunkIntervalMs = 1;
            return r;
        });
        RestConfig cfg = plainConfig(server);
        cfg.auth = std::make_shared<StaticTokenAuth>("watch-token");
        RestClient client(cfg);
        ListOptions o;
        o.resourceVersion = QStringLiteral("100");
        o.allowWatchBookmarks = true;
        std::unique_ptr<WatchStream> watch = client.watch(kConfigMaps, QStringLiteral("ns1"), o);
        QStringList seen;
        connect(watch.get(), &WatchStream::eventReceived, this,
            [&seen](const WatchEvent &e) { seen << WatchEvent::typeName(e.type) + u':' + e.resourceVersion; });
        QSignalSpy finished(watch.get(), &WatchStream::finished);
        watch->start();
        QVERIFY(finished.wait(10000));
        QCOMPARE(seen.size(), 21);
        QCOMPARE(seen.first(), QStringLiteral("ADDED:101"));
        QCOMPARE(seen[1], QStringLiteral("MODIFIED:102"));
        QCOMPARE(seen.last(), QStringLiteral("BOOKMARK:200"));
        QVERIFY(!finished.first().first().value<std::optional<Status>>().has_value());
        const FakeRequest &r = server.requests[0];
        QCOMPARE(r.query(QStringLiteral("watch")), QStringLiteral("true"));
        QCOMPARE(r.query(QStringLiteral("resourceVersion")), QStringLiteral("100"));
        QCOMPARE(r.query(QStringLiteral("allowWatchBookmarks")), QStringLiteral("true"));
        QCOMPARE(r.headers.value("authorization"), QByteArray("Bearer watch-token"));
    }

    void shouldFinishWatchWithErrorEventStatus()
    {
        FakeServer server;
        QVERIFY(server.listen());
        server.setHandler([](const FakeRequest &) {
            FakeResponse r;
            r.chunks.append("not json at all\n");
            r.chunks.append(
                "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                "\"message\":\"too old resource version: 1 (50)\",\"reason\":\"Expired\",\"code\":410}}\n");
            return r;
        });
        RestClient client(plainConfig(server));
        std::unique_ptr<WatchStream> watch = client.watch(kConfigMaps, QString(), {});
        QSignalSpy events(watch.get(), &WatchStream::eventReceived);
        QSignalSpy decodeErrors(watch.get(), &WatchStream::decodeError);
        QSignalSpy finished(watch.get(), &WatchStream::finished);
        watch->start();
        QVERIFY(finished.wait(10000));
        QCOMPARE(decodeErrors.size(), 1);
        QVERIFY(decodeErrors.first().first().toString().contains(QStringLiteral("not json")));
        QCOMPARE(events.size(), 1);
        const std::optional<Status> st = finished.first().first().value<std::optional<Status>>();
        QVERIFY(st.has_value());
        QVERIFY(isGone(*st));
        QCOMPARE(st->code(), 410);
        QCOMPARE(server.requests[0].path, QByteArray("/api/v1/configmaps"));
        // A finished stream can be started again (a fresh request, a fresh decoder).
        watch->start();
        QVERIFY(finished.wait(10000));
        QCOMPARE(server.requests.size(), 2);
        QCOMPARE(events.size(), 2);
        QCOMPARE(decodeErrors.size(), 2);
    }

    void shouldFinishWatchWithHttpError()
    {
        FakeServer server;
        QVERIFY(server.listen());
        server.setHandler([](const FakeRequest &) {
            return FakeResponse::json(403,
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"configmaps is "
                "forbidden\",\"reason\":\"Forbidden\",\"code\":403}");
        });
        RestClient client(plainConfig(server));
        std::unique_ptr<WatchStream> watch = client.watch(kConfigMaps, QString(), {});
        QSignalSpy finished(watch.get(), &WatchStream::finished);
        watch->start();
        QVERIFY(finished.wait(10000));
        const std::optional<Status> st = finished.first().first().value<std::optional<Status>>();
        QVERIFY(st.has_value());
        QVERIFY(isForbidden(*st));
        QCOMPARE(st->message(), QStringLiteral("configmaps is forbidden"));
    }

    void shouldKeepAnIdleWatchOpenPastTheRequestTimeout()
    {
        FakeServer server;
        QVERIFY(server.listen());
        server.setHandler([](const FakeRequest &) {
            FakeResponse r;
            r.chunks.append(
                "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"late\",\"resourceVersion\":\"9\"}}}\n");
            r.chunkIntervalMs = 700; // headers at once, the first event after 700 ms
            return r;
        });
        RestConfig cfg = plainConfig(server);
        cfg.timeout = 300ms;
        RestClient client(cfg);
        std::unique_ptr<WatchStream> watch = client.watch(kConfigMaps, QString(), {});
        QSignalSpy events(watch.get(), &WatchStream::eventReceived);
        QSignalSpy finished(watch.get(), &WatchStream::finished);
        watch->start();
        QVERIFY(finished.wait(5000));
        QCOMPARE(events.size(), 1);
        QVERIFY(!finished.first().first().value<std::optional<Status>>().has_value());
    }

    void shouldTimeOutAWatchWhoseHeadersNeverCome()
    {
        FakeServer server;
        QVERIFY(server.listen());
        server.setHandler([](const FakeRequest &) {
            FakeResponse r;
            r.hang = true;
            return r;
        });
        RestConfig cfg = plainConfig(server);
        cfg.timeout = 200ms;
        RestClient client(cfg);
        std::unique_ptr<WatchStream> watch = client.watch(kConfigMaps, QString(), {});
        QSignalSpy finished(watch.get(), &WatchStream::finished);
        watch->start();
        QVERIFY(finished.wait(5000));
        const std::optional<Status> st = finished.first().first().value<std::optional<Status>>();
        QVERIFY(st.has_value());
        QCOMPARE(st->reason(), QString::fromLatin1(StatusReason::Timeout));
    }

    // Review #14: a half-open watch (the server stops sending without closing the connection)
    // ends once nothing arrived for the idle timeout, when it asked for bookmarks (a live server
    // sends one a minute); data arriving keeps it alive; a watch without bookmarks may be silent.
    void shouldEndASilentWatchThatAskedForBookmarks()
    {
        FakeServer server;
        QVERIFY(server.listen());
        server.setHandler([](const FakeRequest &) {
            FakeResponse r = FakeResponse::json(200, {});
            for (int i = 1; i <= 2; ++i)
                r.chunks.append("{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"x\",\"resourceVersion\":\""
                    + QByteArray::number(i) + "\"}}}\n");
            r.chunkIntervalMs = 1000;
            r.keepOpen = true; // then silence, the connection left open
            return r;
        });
        testing::FakeClock clock;
        RestConfig cfg = plainConfig(server);
        cfg.clock = &clock;
        RestClient client(cfg);
        ListOptions bookmarks;
        bookmarks.allowWatchBookmarks = true;
        std::unique_ptr<WatchStream> watch = client.watch(kConfigMaps, QStringLiteral("ns1"), bookmarks);
        std::unique_ptr<WatchStream> quiet = client.watch(kConfigMaps, QStringLiteral("ns1"), {});
        QCOMPARE(watch->idleTimeout(), std::chrono::milliseconds(150s));
        QSignalSpy events(watch.get(), &WatchStream::eventReceived);
        QSignalSpy finished(watch.get(), &WatchStream::finished);
        QSignalSpy quietEvents(quiet.get(), &WatchStream::eventReceived);
        QSignalSpy quietFinished(quiet.get(), &WatchStream::finished);
        watch->start();
        quiet->start();
        QTRY_COMPARE(events.size(), 1);
        clock.advance(100s);
        QTRY_COMPARE(events.size(), 2); // heard from the server 100 s after the first event
        clock.advance(100s);            // 200 s after the first event, 100 s after the last
        QCOMPARE(finished.size(), 0);
        QVERIFY(watch->isRunning());
        clock.advance(51s);
        QCOMPARE(finished.size(), 1);
        const std::optional<Status> st = finished.first().first().value<std::optional<Status>>();
        QVERIFY(st.has_value());
        QCOMPARE(st->reason(), QString::fromLatin1(StatusReason::Timeout));
        QVERIFY2(st->message().contains(QLatin1String("presumed dead")), qPrintable(st->message()));
        QTRY_COMPARE(quietEvents.size(), 2);
        clock.advance(std::chrono::hours(1));
        QCOMPARE(quietFinished.size(), 0);
        QVERIFY(quiet->isRunning());
    }

    void shouldSurviveDestructionFromASlotAndCancel()
    {
        FakeServer server;
        QVERIFY(server.listen());
        server.setHandler([](const FakeRequest &) {
            FakeResponse r;
            for (int i = 0; i < 5; ++i)
                r.chunks.append("{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"x\",\"resourceVersion\":\""
                    + QByteArray::number(i) + "\"}}}\n");
            r.keepOpen = true;
            r.chunksOnDemand = true; // written when the test says, to every open watch at once
            return r;
        });
        RestClient client(plainConfig(server));
        // Destroyed by the first event's slot. A control watch gets the same chunks at the same
        // time: once it has all five, so would the destroyed one have.
        QPointer<WatchStream> watch = client.watch(kConfigMaps, QString(), {}).release();
        int seen = 0;
        connect(watch.data(), &WatchStream::eventReceived, this, [&seen, &watch](const WatchEvent &) {
            ++seen;
            delete watch.data();
        });
        std::unique_ptr<WatchStream> control = client.watch(kConfigMaps, QString(), {});
        QSignalSpy controlEvents(control.get(), &WatchStream::eventReceived);
        watch->start();
        control->start();
        QTRY_COMPARE(server.onDemandStreams(), 2);
        for (int i = 0; i < 5; ++i)
            QCOMPARE(server.releaseChunk(), 2);
        QTRY_COMPARE(controlEvents.size(), 5);
        QVERIFY(watch.isNull());
        QCOMPARE(seen, 1);
        control.reset();
        // Cancelled while streaming: no more signals (again beside a control watch).
        std::unique_ptr<WatchStream> second = client.watch(kConfigMaps, QString(), {});
        QSignalSpy events(second.get(), &WatchStream::eventReceived);
        QSignalSpy finished(second.get(), &WatchStream::finished);
        std::unique_ptr<WatchStream> control2 = client.watch(kConfigMaps, QString(), {});
        QSignalSpy control2Events(control2.get(), &WatchStream::eventReceived);
        second->start();
        control2->start();
        QTRY_COMPARE(server.onDemandStreams(), 2);
        QCOMPARE(server.releaseChunk(), 2);
        QTRY_VERIFY(events.size() >= 1);
        second->cancel();
        const qsizetype n = events.size();
        for (int i = 1; i < 5; ++i)
            server.releaseChunk();
        QTRY_COMPARE(control2Events.size(), 5);
        QCOMPARE(events.size(), n);
        QCOMPARE(finished.size(), 0);
        QVERIFY(!second->isRunning());
        control2.reset();
        // And a client destroyed mid-request answers Cancelled, without crashing.
        server.setHandler([](const FakeRequest &) {
            FakeResponse r;
            r.hang = true;
            return r;
        });
        auto doomed = std::make_unique<RestClient>(plainConfig(server));
        QCoro::Task<Expected<Object>> pending = doomed->get(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("demo"));
        QTRY_COMPARE(server.requests.size(), 5); // four watches above, then this request
        doomed.reset();
        Expected<Object> r = QCoro::waitFor(std::move(pending));
        QVERIFY(!r.ok());
        QCOMPARE(r.error().reason(), QString::fromLatin1(StatusReason::Cancelled));
    }
};

QTEST_GUILESS_MAIN(TestRestClient)
#include "tst_restclient.moc"
