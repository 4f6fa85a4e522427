// SPDX-License-Identifier: Apache-2.0
// What the embedded server reports about each webhook call it makes (ApiServer::webhookCalled,
// the workbench's Admission panel; issue 24): one WebhookCallRecord per AdmissionReview sent,
// naming the webhook, its configuration and the request (operation, resource, namespace/name,
// the review's uid, dryRun), the verdict as the client saw it (a denial's message and code, as
// kube-apiserver words them), the JSONPatch with the object before and after it, the warnings,
// and a failed call as what it was: unreachable, TLS, timeout or bad response, Fail or Ignore.
#include "engine/testing/testapiserver.h"
#include "tests/apiserver/webhookconfigs.h"
#include "tests/apiserver/webhookserver.h"
#include "tests/support/testhttp.h"

#include <QTcpServer>
#include <QtTest>

using namespace opbench;
using namespace opbench::testing;
using apiserver::WebhookCallRecord;

namespace {

const QString kConfigMaps = QStringLiteral("/api/v1/namespaces/default/configmaps");

QString labelOf(const QJsonObject &object, const QString &key)
{
    return object.value(QLatin1String("metadata"))
        .toObject()
        .value(QLatin1String("labels"))
        .toObject()
        .value(key)
        .toString();
}

/// A loopback port nothing listens on.
quint16 closedPort()
{
    QTcpServer s;
    s.listen(QHostAddress::LocalHost, 0);
    const quint16 port = s.serverPort();
    s.close();
    return port;
}

} // namespace

class TestApiServerWebhookCalls : public QObject
{
    Q_OBJECT

    apiserver::TlsMaterial m_tls;
    WebhookServer m_hooks;
    std::unique_ptr<TestApiServer> m_api;
    std::unique_ptr<TestHttp> m_http;
    QObject m_receiver; // on the test thread: records arrive queued
    QList<WebhookCallRecord> m_records;

    void addConfig(bool mutating, const QString &name, const QJsonObject &hook)
    {
        const HttpReply r = m_http->post(
            mutating ? kMutatingConfigs : kValidatingConfigs, webhookConfiguration(mutating, name, {hook}));
        QVERIFY2(r.code == 201, r.body.constData());
    }
    QJsonObject hook(const QString &name, const QString &selector, const QString &path, const QJsonObject &extra = {})
    {
        return configMapHook(name, selector, m_hooks.url(path), m_tls.caCert, extra);
    }
    HttpReply create(const QString &name, const QString &selector, const QString &query = {})
    {
        return m_http->post(kConfigMaps + query, labelledConfigMap(name, selector));
    }

private Q_SLOTS:
    void initTestCase()
    {
        auto tls = apiserver::TlsMaterial::generate();
        QVERIFY2(tls, qPrintable(tls ? QString() : tls.error().message()));
        m_tls = *tls;
        QVERIFY(m_hooks.start(m_tls));
        apiserver::ApiServerOptions options = TestApiServer::plainOptions();
        options.webhookMsPerSecond = 100; // timeoutSeconds: 1 waits 100 ms
        m_api = std::make_unique<TestApiServer>(options);
        QVERIFY2(m_api->start(), qPrintable(m_api->errorString()));
        m_http = std::make_unique<TestHttp>(*m_api);
        m_api->runOnServerThread([this](apiserver::ApiServer &server) {
            connect(&server, &apiserver::ApiServer::webhookCalled, &m_receiver,
                [this](const WebhookCallRecord &r) { m_records << r; });
        });
    }

    void cleanup()
    {
        m_http->call("DELETE", kMutatingConfigs);
        m_http->call("DELETE", kValidatingConfigs);
        m_http->call("DELETE", kConfigMaps);
        m_records.clear(); // each test waited for its calls' records
        m_hooks.calls.clear();
        m_hooks.silent.clear();
        m_hooks.answer = [](const QString &, const QJsonObject &) { return QJsonObject{{"allowed", true}}; };
    }

    void shouldRecordADenialAsTheClientSawIt()
    {
        m_hooks.answer = [](const QString &, const QJsonObject &) {
            return QJsonObject{{"allowed", false}, {"status", QJsonObject{{"message", "no thanks"}}},
                {"warnings", QJsonArray{"think again"}}};
        };
        addConfig(false, QStringLiteral("deny"), hook(QStringLiteral("deny.example.com"), "deny", "/deny"));
        const HttpReply reply
            = create(QStringLiteral("refused"), QStringLiteral("deny"), QStringLiteral("?dryRun=All"));
        QCOMPARE(reply.code, 403);

        QTRY_COMPARE(m_records.size(), 1);
        const WebhookCallRecord r = m_records.first();
        QCOMPARE(r.kind, WebhookCallRecord::Kind::Admission);
        QVERIFY(!r.mutating);
        QCOMPARE(r.webhook, QStringLiteral("deny.example.com"));
        QCOMPARE(r.configuration, QStringLiteral("deny"));
        QCOMPARE(r.url, m_hooks.url(QStringLiteral("/deny?timeout=10s")));
        QCOMPARE(r.operation, QStringLiteral("CREATE"));
        QCOMPARE(r.group, QString());
        QCOMPARE(r.version, QStringLiteral("v1"));
        QCOMPARE(r.resource, QStringLiteral("configmaps"));
        QCOMPARE(r.objectKind, QStringLiteral("ConfigMap"));
        QCOMPARE(r.namespaceName, QStringLiteral("default"));
        QCOMPARE(r.name, QStringLiteral("refused"));
        QVERIFY(r.dryRun);
        QCOMPARE(r.failurePolicy, QStringLiteral("Fail")); // the server's default
        // The uid is the one the webhook received.
        QCOMPARE(m_hooks.calls.size(), 1);
        QCOMPARE(r.uid,
            m_hooks.calls.first()
                .review.value(QLatin1String("request"))
                .toObject()
                .value(QLatin1String("uid"))
                .toString());
        // The verdict as the client got it (kube-apiserver's wording and 403).
        QVERIFY(!r.allowed);
        QCOMPARE(r.code, 403);
        QCOMPARE(r.message, reply.json().value(QLatin1String("message")).toString());
        QCOMPARE(r.message, QStringLiteral("admission webhook \"deny.example.com\" denied the request: no thanks"));
        QCOMPARE(r.warnings, QStringList{QStringLiteral("think again")});
        QVERIFY(!r.failed());
        QVERIFY(r.patch.isEmpty());
        QCOMPARE(labelOf(r.before, QStringLiteral("hook")), QStringLiteral("deny"));
        QCOMPARE(r.after, r.before);
        QVERIFY(r.time.isValid());
    }

    void shouldRecordThePatchWithTheObjectBeforeAndAfter()
    {
        m_hooks.answer = [](const QString &, const QJsonObject &) {
            QJsonObject response = addLabelResponse(QStringLiteral("defaulted"), QStringLiteral("yes"));
            response.insert(QStringLiteral("warnings"), QJsonArray{"label added"});
            return response;
        };
        addConfig(true, QStringLiteral("defaults"), hook(QStringLiteral("label.example.com"), "mutate", "/mutate"));
        const HttpReply reply = create(QStringLiteral("patched"), QStringLiteral("mutate"));
        QCOMPARE(reply.code, 201);

        QTRY_COMPARE(m_records.size(), 1);
        const WebhookCallRecord r = m_records.first();
        QVERIFY(r.mutating);
        QVERIFY(r.allowed);
        QCOMPARE(r.code, 200);
        QVERIFY(r.message.isEmpty());
        QCOMPARE(r.warnings, QStringList{QStringLiteral("label added")});
        QCOMPARE(r.patch.size(), 1);
        QCOMPARE(r.patch.first().toObject().value(QLatin1String("path")).toString(),
            QStringLiteral("/metadata/labels/defaulted"));
        QCOMPARE(labelOf(r.before, QStringLiteral("defaulted")), QString());
        QCOMPARE(labelOf(r.after, QStringLiteral("defaulted")), QStringLiteral("yes"));
        QCOMPARE(labelOf(reply.json(), QStringLiteral("defaulted")), QStringLiteral("yes")); // what was stored
    }

    void shouldRecordAFailedCallAsWhatItWas_data()
    {
        QTest::addColumn<QString>("how");
        QTest::addColumn<QString>("policy");
        QTest::addColumn<int>("status");       // the create's answer
        QTest::addColumn<int>("failure");      // WebhookCallRecord::Failure
        QTest::addColumn<QString>("errorEnd"); // how the call's error ends
        using F = WebhookCallRecord::Failure;
        QTest::newRow("unreachable, Fail") << "unreachable"
                                           << "Fail" << 500 << int(F::Unreachable) << ": connect: connection refused";
        QTest::newRow("unreachable, Ignore")
            << "unreachable"
            << "Ignore" << 201 << int(F::Unreachable) << ": connect: connection refused";
        QTest::newRow("timeout, Fail") << "timeout"
                                       << "Fail" << 500 << int(F::Timeout) << "context deadline exceeded";
        QTest::newRow("timeout, Ignore") << "timeout"
                                         << "Ignore" << 201 << int(F::Timeout) << "context deadline exceeded";
        QTest::newRow("untrusted certificate")
            << "tls"
            << "Fail" << 500 << int(F::Tls) << "x509: certificate signed by unknown authority";
        QTest::newRow("bad patch type") << "patchType"
                                        << "Fail" << 500 << int(F::BadResponse) << "unsupported patch type \"Merge\"";
    }

    void shouldRecordAFailedCallAsWhatItWas()
    {
        QFETCH(QString, how);
        QFETCH(QString, policy);
        QFETCH(int, status);
        QFETCH(int, failure);
        QFETCH(QString, errorEnd);
        QString url = m_hooks.url(QStringLiteral("/hook"));
        QByteArray ca = m_tls.caCert;
        if (how == QLatin1String("unreachable"))
            url = QStringLiteral("https://127.0.0.1:%1/hook").arg(closedPort());
        if (how == QLatin1String("timeout"))
            m_hooks.silent << QStringLiteral("/hook");
        if (how == QLatin1String("tls"))
            ca = TestApiServer::httpsOptions().tls->caCert; // another CA than the webhook's
        if (how == QLatin1String("patchType"))
            m_hooks.answer = [](const QString &, const QJsonObject &) {
                return QJsonObject{{"allowed", true}, {"patchType", "Merge"}, {"patch", "e30="}};
            };
        const QJsonObject extra{{"failurePolicy", policy}, {"timeoutSeconds", 1}};
        addConfig(
            true, QStringLiteral("failing"), configMapHook(QStringLiteral("fails.example.com"), "f", url, ca, extra));
        const HttpReply reply = create(QStringLiteral("failing"), QStringLiteral("f"));
        QCOMPARE(reply.code, status);

        QTRY_COMPARE(m_records.size(), 1);
        const WebhookCallRecord r = m_records.first();
        QVERIFY(r.failed());
        QCOMPARE(int(r.failure), failure);
        QVERIFY2(r.error.endsWith(errorEnd), qPrintable(r.error));
        QCOMPARE(r.failurePolicy, policy);
        QCOMPARE(r.ignored, status == 201);
        if (status == 201) {
            QCOMPARE(r.code, 0);
            QVERIFY(r.message.isEmpty());
        } else {
            // kube-apiserver: `Internal error occurred: failed calling webhook "NAME": …`, 500
            QCOMPARE(r.code, 500);
            QCOMPARE(r.message, reply.json().value(QLatin1String("message")).toString());
            QVERIFY2(r.message.startsWith(
                         QStringLiteral("Internal error occurred: failed calling webhook \"fails.example.com\": ")),
                qPrintable(r.message));
        }
    }

    void shouldRecordEveryValidatingWebhookAndTheReinvocation()
    {
        // Two validating webhooks: two records; a mutating IfNeeded webhook reinvoked after a later
        // webhook's change: its second call is marked as a reinvocation.
        m_hooks.answer = [](const QString &path, const QJsonObject &) {
            if (path.startsWith(QLatin1String("/second")))
                return addLabelResponse(QStringLiteral("second"), QStringLiteral("yes"));
            return QJsonObject{{"allowed", true}};
        };
        const QJsonObject ifNeeded{{"reinvocationPolicy", "IfNeeded"}};
        const HttpReply r = m_http->post(kMutatingConfigs,
            webhookConfiguration(true, QStringLiteral("chain"),
                {hook(QStringLiteral("first.example.com"), "chain", "/first", ifNeeded),
                    hook(QStringLiteral("second.example.com"), "chain", "/second")}));
        QCOMPARE(r.code, 201);
        addConfig(false, QStringLiteral("check"), hook(QStringLiteral("check.example.com"), "chain", "/check"));
        QCOMPARE(create(QStringLiteral("chained"), QStringLiteral("chain")).code, 201);

        QTRY_COMPARE(m_records.size(), 4);
        QStringList order;
        for (const WebhookCallRecord &rec : std::as_const(m_records))
            order << rec.webhook + (rec.reinvocation ? QStringLiteral(" (again)") : QString());
        QCOMPARE(order,
            (QStringList{"first.example.com", "second.example.com", "first.example.com (again)", "check.example.com"}));
        QCOMPARE(labelOf(m_records.at(2).before, QStringLiteral("second")), QStringLiteral("yes"));
        QVERIFY(!m_records.at(3).mutating);
    }
};

QTEST_MAIN(TestApiServerWebhookCalls)
#include "tst_apiserver_webhookcalls.moc"
