// SPDX-License-Identifier: Apache-2.0
// The workbench's webhook debugger (engine/webhook/webhookgate.h) with the embedded API server
// calling a webhook over loopback HTTPS, as on a cluster: a webhook breakpoint holds a create
// (the client's request stays pending, the held request is shown: webhook, operation, object,
// the review's request), Continue answers with the handler's verdict, Step shows the verdict
// before answering, "step into" holds the next request only, a ConversionReview is held as
// well, and a request held longer than the webhook's timeoutSeconds does not fail (the
// server's deadline waits while the gate holds the review uid: ApiServerOptions::webhookHeld,
// workbench only). The caller's time scale (webhookMsPerSecond) makes the webhook's
// timeoutSeconds of 10 (kube-apiserver's default) last two real seconds (room for a call on a
// loaded machine), and the test waits on the deadline having passed, never on a clock.
#include "engine/testing/testapiserver.h"
#include "engine/webhook/admissionwebhook.h"
#include "engine/webhook/webhookgate.h"
#include "tests/apiserver/webhookconfigs.h"
#include "tests/webhook/webhooktestkit.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QSslConfiguration>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <memory>
#include <stdexcept>

using namespace opbench;
using opbench::testing::TestApiServer;

namespace {

const QString kPath = QStringLiteral("/validate-configmaps");
const QString kConvert = QStringLiteral("/convert");

/// A ConversionReview's answer: every object back, at the desired version (enough for the gate).
WebhookReply convertAll(const WebhookRequest &http)
{
    const QJsonObject request = QJsonDocument::fromJson(http.body).object().value(QLatin1String("request")).toObject();
    QJsonArray converted;
    for (const QJsonValue v : request.value(QLatin1String("objects")).toArray()) {
        QJsonObject o = v.toObject();
        o.insert(QStringLiteral("apiVersion"), request.value(QLatin1String("desiredAPIVersion")));
        converted.append(o);
    }
    const QJsonObject response{{"uid", request.value(QLatin1String("uid"))}, {"convertedObjects", converted},
        {"result", QJsonObject{{"status", "Success"}}}};
    const QJsonObject review{
        {"apiVersion", "apiextensions.k8s.io/v1"}, {"kind", "ConversionReview"}, {"response", response}};
    return WebhookReply(200, QJsonDocument(review).toJson(QJsonDocument::Compact));
}

/// Denies ConfigMaps named "bad…", throws for "boom…", allows the rest.
AdmissionResponse decide(const AdmissionRequest &request)
{
    if (request.name.startsWith(QLatin1String("boom")))
        throw std::runtime_error("the handler exploded");
    if (request.name.startsWith(QLatin1String("bad")))
        return AdmissionResponse::denied(QStringLiteral("bad names are refused"));
    return AdmissionResponse::allowedResponse();
}

} // namespace

class TestWebhookGate : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    WebhookGate m_gate;
    std::shared_ptr<std::atomic<int>> m_deadlines = std::make_shared<std::atomic<int>>(0);
    std::unique_ptr<WebhookServer> m_hooks;
    std::unique_ptr<TestApiServer> m_api;
    QNetworkAccessManager m_nam;

    QNetworkReply *post(const QString &path, const QJsonObject &body)
    {
        QNetworkRequest request = m_api->request(path);
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        return m_nam.post(request, QJsonDocument(body).toJson(QJsonDocument::Compact));
    }
    /// Starts creating ConfigMap default/`name` (labelled for the test's webhook).
    QNetworkReply *createConfigMap(const QString &name)
    {
        return post(QStringLiteral("/api/v1/namespaces/default/configmaps"),
            testing::labelledConfigMap(name, QStringLiteral("gate")));
    }
    static int codeOf(QNetworkReply *reply)
    {
        return reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    }
    /// Waits until the server's deadline for a held call passed `times` more times.
    bool deadlinePassed(int times)
    {
        const int target = *m_deadlines + times;
        return QTest::qWaitFor([&] { return *m_deadlines >= target; }, 20000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        QVERIFY2(test::writeServingCert(m_dir.path(), QStringLiteral("127.0.0.1"), &error), qPrintable(error));
        m_hooks = std::make_unique<WebhookServer>(test::loopbackOptions(m_dir.path()));
        QVERIFY(m_hooks->registerHandler(kPath, admissionWebhook(kPath, decide)));
        QVERIFY(m_hooks->registerHandler(kConvert, convertAll));
        m_gate.attach(m_hooks.get());
        QVERIFY(m_hooks->start());

        apiserver::ApiServerOptions options = TestApiServer::plainOptions();
        options.webhookMsPerSecond = 200; // timeoutSeconds: 10 lasts 2 s
        // The workbench's hook, counting how often the server asked (once per deadline passed).
        options.webhookHeld = [held = m_gate.heldPredicate(), asked = m_deadlines](const QString &uid) {
            const bool on = held(uid);
            if (on)
                ++*asked;
            return on;
        };
        m_api = std::make_unique<TestApiServer>(options);
        QVERIFY2(m_api->start(), qPrintable(m_api->errorString()));

        QFile ca(m_dir.filePath(QStringLiteral("ca.crt")));
        QVERIFY(ca.open(QIODevice::ReadOnly));
        const QString url = QStringLiteral("https://127.0.0.1:%1%2").arg(m_hooks->port()).arg(kPath);
        QNetworkReply *configured = post(testing::kValidatingConfigs,
            testing::webhookConfiguration(false, QStringLiteral("gate"),
                {testing::configMapHook(QStringLiteral("gate.example.com"), QStringLiteral("gate"), url, ca.readAll(),
                    {{"timeoutSeconds", 10}, {"failurePolicy", "Fail"}})}));
        QTRY_VERIFY_WITH_TIMEOUT(configured->isFinished(), 20000);
        QCOMPARE(codeOf(configured), 201);
        configured->deleteLater();
    }

    void cleanupTestCase()
    {
        m_api.reset();
        m_gate.attach(nullptr);
        m_hooks.reset();
    }

    void init()
    {
        m_gate.continueAll(); // what a failed test left held
        for (const WebhookBreakpointRow &b : m_gate.state().breakpoints)
            m_gate.removeBreakpoint(b.id);
        m_gate.setStepInto(false);
    }

    void continueAnswersWithTheHandlersVerdict_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("allowed") << QStringLiteral("good-1") << 201 << QString();
        QTest::newRow("denied") << QStringLiteral("bad-1") << 403
                                << QStringLiteral("admission webhook \"gate.example.com\" denied the request: bad "
                                                  "names are refused");
    }
    void continueAnswersWithTheHandlersVerdict()
    {
        QFETCH(QString, name);
        QFETCH(int, code);
        QFETCH(QString, message);
        // Given a breakpoint on the webhook's path, for creates
        m_gate.addBreakpoint(QStringLiteral("webhook %1 op=CREATE").arg(kPath));
        QCOMPARE(m_gate.state().error, QString());
        // When a client creates a ConfigMap
        QNetworkReply *reply = createConfigMap(name);
        // Then the request is held: the client waits, the workbench shows what was asked
        QTRY_COMPARE_WITH_TIMEOUT(m_gate.state().held.size(), 1, 20000);
        const HeldWebhookRequest held = m_gate.state().held.first();
        QCOMPARE(held.info.path, kPath);
        QCOMPARE(held.info.operation, QStringLiteral("CREATE"));
        QCOMPARE(held.info.objectKind, QStringLiteral("ConfigMap"));
        QCOMPARE(held.info.namespaceName, QStringLiteral("default"));
        QCOMPARE(held.info.name, name);
        QCOMPARE(held.review, QStringLiteral("AdmissionReview"));
        QCOMPARE(held.reason, QStringLiteral("webhook %1 op=CREATE").arg(kPath));
        QCOMPARE(held.stage, HeldWebhookRequest::Stage::Held);
        QVERIFY2(held.request.contains(QByteArrayLiteral("\"uid\"")), held.request.constData());
        QVERIFY(held.request.contains(name.toUtf8()));
        QCOMPARE(m_gate.state().breakpoints.value(0).hits, 1);
        // And it stays held past the webhook's timeoutSeconds (the deadline passed twice)
        QVERIFY(deadlinePassed(2));
        QVERIFY(!reply->isFinished());
        // When the user continues, the handler runs and the client gets its verdict
        m_gate.continueRequest(held.id);
        QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 20000);
        QCOMPARE(codeOf(reply), code);
        const QByteArray body = reply->readAll();
        if (!message.isEmpty()) // the Status kube-apiserver answers
            QCOMPARE(QJsonDocument::fromJson(body).object().value(QLatin1String("message")).toString(), message);
        QVERIFY(m_gate.state().held.isEmpty());
        reply->deleteLater();
    }

    void stepShowsTheVerdictBeforeAnswering_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<bool>("failed");
        QTest::newRow("denied") << QStringLiteral("bad-2") << 403
                                << QStringLiteral("denied (403): bad names are refused") << false;
        QTest::newRow("handler throws") << QStringLiteral("boom-1") << 500
                                        << QStringLiteral("failed (500): panic: the handler exploded [recovered]")
                                        << true;
    }
    void stepShowsTheVerdictBeforeAnswering()
    {
        QFETCH(QString, name);
        QFETCH(int, code);
        QFETCH(QString, verdict);
        QFETCH(bool, failed);
        m_gate.addBreakpoint(QStringLiteral("webhook validate name=default/%1").arg(name));
        QNetworkReply *reply = createConfigMap(name);
        QTRY_COMPARE_WITH_TIMEOUT(m_gate.state().held.size(), 1, 20000);
        // Step: the handler runs, its answer is shown and kept
        m_gate.stepRequest(0);
        const HeldWebhookRequest answered = m_gate.state().held.value(0);
        QCOMPARE(answered.stage, HeldWebhookRequest::Stage::Answered);
        QCOMPARE(answered.verdict, verdict);
        QCOMPARE(answered.failed, failed);
        QVERIFY2(answered.response.contains("\"allowed\": false"), answered.response.constData());
        // The client still waits, past the timeout
        QVERIFY(deadlinePassed(2));
        QVERIFY(!reply->isFinished());
        // Continue sends the kept answer
        m_gate.continueRequest(answered.id);
        QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 20000);
        QCOMPARE(codeOf(reply), code);
        QVERIFY(m_gate.state().held.isEmpty());
        reply->deleteLater();
    }

    void stepIntoHoldsTheNextRequestOnly()
    {
        m_gate.setStepInto(true);
        QNetworkReply *first = createConfigMap(QStringLiteral("good-2"));
        QTRY_COMPARE_WITH_TIMEOUT(m_gate.state().held.size(), 1, 20000);
        QCOMPARE(m_gate.state().held.first().reason, QStringLiteral("step into"));
        QVERIFY(!m_gate.state().stepInto);
        QNetworkReply *second = createConfigMap(QStringLiteral("good-3"));
        QTRY_VERIFY_WITH_TIMEOUT(second->isFinished(), 20000);
        QCOMPARE(codeOf(second), 201);
        QVERIFY(!first->isFinished());
        m_gate.continueAll();
        QTRY_VERIFY_WITH_TIMEOUT(first->isFinished(), 20000);
        QCOMPARE(codeOf(first), 201);
        first->deleteLater();
        second->deleteLater();
    }

    void holdsAConversionReview()
    {
        // The API server sends a ConversionReview the same way; here it comes straight over HTTPS.
        m_gate.addBreakpoint(QStringLiteral("webhook convert kind=Thing"));
        const QJsonObject thing{{"apiVersion", "example.com/v1"}, {"kind", "Thing"},
            {"metadata", QJsonObject{{"name", "one"}, {"namespace", "default"}}}};
        const QJsonObject review{{"apiVersion", "apiextensions.k8s.io/v1"}, {"kind", "ConversionReview"},
            {"request",
                QJsonObject{
                    {"uid", "conversion-1"}, {"desiredAPIVersion", "example.com/v2"}, {"objects", QJsonArray{thing}}}}};
        QNetworkRequest request(QUrl(QStringLiteral("https://127.0.0.1:%1%2").arg(m_hooks->port()).arg(kConvert)));
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.setCaCertificates(QSslCertificate::fromPath(m_dir.filePath(QStringLiteral("ca.crt"))));
        request.setSslConfiguration(tls);
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        QNetworkReply *reply = m_nam.post(request, QJsonDocument(review).toJson(QJsonDocument::Compact));
        QTRY_COMPARE_WITH_TIMEOUT(m_gate.state().held.size(), 1, 20000);
        const HeldWebhookRequest held = m_gate.state().held.first();
        QCOMPARE(held.review, QStringLiteral("ConversionReview"));
        QCOMPARE(held.info.operation, QStringLiteral("CONVERT"));
        QCOMPARE(held.info.objectKind, QStringLiteral("Thing"));
        QCOMPARE(held.info.name, QStringLiteral("one"));
        QCOMPARE(held.info.uid, QStringLiteral("conversion-1"));
        QVERIFY(m_gate.heldPredicate()(QStringLiteral("conversion-1")));
        m_gate.stepRequest(held.id);
        QCOMPARE(m_gate.state().held.value(0).verdict, QStringLiteral("converted"));
        QVERIFY(m_gate.heldPredicate()(QStringLiteral("conversion-1"))); // not answered yet
        m_gate.continueRequest(held.id);
        QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 20000);
        QCOMPARE(codeOf(reply), 200);
        QVERIFY(reply->readAll().contains("example.com/v2"));
        QVERIFY(!m_gate.heldPredicate()(QStringLiteral("conversion-1")));
        reply->deleteLater();
    }

    void unmatchedAndDisabledBreakpointsLetRequestsThrough()
    {
        m_gate.addBreakpoint(QStringLiteral("webhook /mutate-elsewhere"));
        m_gate.addBreakpoint(QStringLiteral("webhook any op=DELETE"));
        m_gate.addBreakpoint(QStringLiteral("webhook any"));
        m_gate.setBreakpointEnabled(m_gate.state().breakpoints.last().id, false);
        QNetworkReply *reply = createConfigMap(QStringLiteral("good-4"));
        QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 20000);
        QCOMPARE(codeOf(reply), 201);
        QVERIFY(m_gate.state().held.isEmpty());
        reply->deleteLater();
    }

    void neverHitsIsPublishedWithTheState()
    {
        // The workbench says why no request can reach the gate (a real cluster); the Breakpoints
        // and Admission docks show it.
        QSignalSpy published(&m_gate, &WebhookGate::stateChanged);
        const QString reason = QStringLiteral("never hits: the operator's webhooks are not served here");
        m_gate.setNeverHits(reason);
        QCOMPARE(published.size(), 1);
        QCOMPARE(published.last().at(0).value<WebhookGateState>().neverHits, reason);
        m_gate.setNeverHits(reason); // unchanged: nothing new to show
        QCOMPARE(published.size(), 1);
        m_gate.setNeverHits({});
        QVERIFY(m_gate.state().neverHits.isEmpty());
    }

    void badBreakpointsAreRefusedWithTheReason()
    {
        m_gate.addBreakpoint(QStringLiteral("webhook validate op=PATCH"));
        QVERIFY2(m_gate.state().error.contains(QStringLiteral("unknown operation \"PATCH\"")),
            qPrintable(m_gate.state().error));
        QVERIFY(m_gate.state().breakpoints.isEmpty());
        const Expected<WebhookBreakpoint> b = WebhookBreakpoint::parse(QStringLiteral("webhook convert kind=Thing"));
        QVERIFY(b);
        QCOMPARE(b->describe(), QStringLiteral("webhook convert kind=Thing"));
        QVERIFY(!WebhookBreakpoint::parse(QStringLiteral("webhook a b")));
        QVERIFY(!WebhookBreakpoint::isWebhookSpec(QStringLiteral("key default/webhook")));
    }
};

QTEST_GUILESS_MAIN(TestWebhookGate)
#include "tst_webhookgate.moc"
