// SPDX-License-Identifier: Apache-2.0
// WebhookServer over real HTTPS on loopback: handlers by path, bounded bodies, a throwing handler,
// controller-runtime's metric names, the started checker and certificate rotation.
#include "engine/base/metrics.h"
#include "engine/webhook/webhookserver.h"
#include "tests/webhook/webhooktestkit.h"

#include <QSignalSpy>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <optional>
#include <stdexcept>

using namespace opbench;

class TestWebhookServer : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    MetricsRegistry m_metrics;

    std::unique_ptr<WebhookServer> makeServer(qint64 maxBody = qint64(3) * 1024 * 1024)
    {
        WebhookServerOptions o = test::loopbackOptions(m_dir.path(), &m_metrics);
        o.maxBodyBytes = maxBody;
        auto server = std::make_unique<WebhookServer>(o);
        (void)server->registerHandler(QStringLiteral("/echo"),
            [](const WebhookRequest &r) { return WebhookReply(200, r.method + ' ' + r.contentType + ' ' + r.body); });
        (void)server->registerHandler(QStringLiteral("/throws"),
            [](const WebhookRequest &) -> WebhookReply { throw std::runtime_error("handler exploded"); });
        return server;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QString error;
        QVERIFY2(test::writeServingCert(m_dir.path(), QStringLiteral("first"), &error), qPrintable(error));
    }

    void defaultsAreControllerRuntimes()
    {
        // controller-runtime: port 9443, <tmp>/k8s-webhook-server/serving-certs, tls.crt/tls.key.
        const WebhookServerOptions o;
        QCOMPARE(o.port, 9443);
        QVERIFY(o.effectiveCertDir().endsWith(QLatin1String("/k8s-webhook-server/serving-certs")));
        QCOMPARE(o.certName, QStringLiteral("tls.crt"));
        QCOMPARE(o.keyName, QStringLiteral("tls.key"));
        QCOMPARE(o.maxBodyBytes, qint64(3) * 1024 * 1024);
    }

    void servesRegisteredPathsOverHttps()
    {
        auto server = makeServer();
        QVERIFY(server->start());
        const auto r = test::postHttps(m_dir.path(), server->port(), QStringLiteral("/echo"), "hello");
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.code, 200);
        QCOMPARE(r.body, QByteArray("POST application/json hello"));
        QCOMPARE(test::postHttps(m_dir.path(), server->port(), QStringLiteral("/nowhere"), "x").code, 404);
        QVERIFY(!server->registerHandler(QStringLiteral("/echo"), {}));
    }

    void refusesLargeBodies()
    {
        auto server = makeServer(1024);
        QVERIFY(server->start());
        const auto r = test::postHttps(m_dir.path(), server->port(), QStringLiteral("/echo"), QByteArray(2048, 'x'));
        QCOMPARE(r.code, 413);
        QVERIFY2(r.body.contains("limit is 1024 bytes"), r.body.constData());
        QCOMPARE(
            test::postHttps(m_dir.path(), server->port(), QStringLiteral("/echo"), QByteArray(1024, 'x')).code, 200);
    }

    void answersLaterFromAnAsyncHandler()
    {
        // A handler may keep its responder and answer once the event loop ran on; one that drops
        // it unanswered gets 500 rather than leaving the API server waiting for its timeout.
        auto server = makeServer();
        std::optional<WebhookResponder> kept;
        QVERIFY(server->registerAsyncHandler(QStringLiteral("/later"),
            [&kept](const WebhookRequest &, const WebhookResponder &respond) { kept = respond; }));
        QVERIFY(server->registerAsyncHandler(
            QStringLiteral("/dropped"), [](const WebhookRequest &, const WebhookResponder &) {}));
        QVERIFY(server->start());
        QTimer answerer; // answers the kept request from the event loop, as soon as there is one
        answerer.setInterval(5);
        connect(&answerer, &QTimer::timeout, this, [&kept] {
            if (kept && !kept->answered())
                kept->reply(WebhookReply(200, QByteArrayLiteral("answered later")));
        });
        answerer.start();
        const auto later = test::postHttps(m_dir.path(), server->port(), QStringLiteral("/later"), "x");
        QVERIFY2(later.error.isEmpty(), qPrintable(later.error));
        QCOMPARE(later.code, 200);
        QCOMPARE(later.body, QByteArray("answered later"));
        QVERIFY(kept && kept->answered());
        kept->reply(WebhookReply(500, "ignored: answered once")); // a second answer is ignored
        const auto dropped = test::postHttps(m_dir.path(), server->port(), QStringLiteral("/dropped"), "x");
        QCOMPARE(dropped.code, 500);
        QVERIFY2(dropped.body.contains("dropped the request unanswered"), dropped.body.constData());
        // The connection serves on after a late answer
        QCOMPARE(test::postHttps(m_dir.path(), server->port(), QStringLiteral("/echo"), "again").code, 200);
    }

    void keepsAliveAndReadsChunkedBodies()
    {
        // One connection: a Content-Length request, then a chunked one sent in two writes; both
        // answered in order on the same connection (keep-alive), then "Connection: close".
        auto server = makeServer();
        QVERIFY(server->start());
        QSslSocket socket;
        QSslConfiguration config = QSslConfiguration::defaultConfiguration();
        config.setCaCertificates(QSslCertificate::fromPath(m_dir.path() + QStringLiteral("/ca.crt")));
        socket.setSslConfiguration(config);
        QSignalSpy encrypted(&socket, &QSslSocket::encrypted);
        socket.connectToHostEncrypted(QStringLiteral("127.0.0.1"), server->port());
        QVERIFY(encrypted.wait(20000));
        socket.write("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: a/b\r\nContent-Length: 3\r\n\r\none");
        socket.write(
            "POST /echo?x=1 HTTP/1.1\r\nHost: x\r\nContent-Type: c/d\r\nTransfer-Encoding: chunked\r\n\r\n3\r\ntw");
        QByteArray received;
        const auto readUntil = [&](const QByteArray &needle) {
            QSignalSpy ready(&socket, &QSslSocket::readyRead);
            while (!received.contains(needle)) {
                received += socket.readAll();
                if (!received.contains(needle) && !ready.wait(20000))
                    return false;
            }
            return true;
        };
        QVERIFY(readUntil("POST a/b one"));
        socket.write("o\r\n0\r\n\r\nPOST /echo HTTP/1.1\r\nConnection: close\r\nContent-Length: 5\r\n\r\nthree");
        QVERIFY2(readUntil("POST c/d two"), received.constData());
        QVERIFY2(readUntil("POST  three"), received.constData());
        QCOMPARE(received.count("HTTP/1.1 200 OK"), 3);
        QVERIFY(received.contains("Connection: close"));
        QSignalSpy closed(&socket, &QSslSocket::disconnected);
        QVERIFY(socket.state() == QAbstractSocket::UnconnectedState || closed.wait(20000));
    }

    void throwingHandlerGets500AndServerKeepsServing()
    {
        auto server = makeServer();
        QVERIFY(server->start());
        const auto r = test::postHttps(m_dir.path(), server->port(), QStringLiteral("/throws"), "{}");
        QCOMPARE(r.code, 500);
        QVERIFY2(r.body.contains("handler exploded"), r.body.constData());
        QCOMPARE(test::postHttps(m_dir.path(), server->port(), QStringLiteral("/echo"), "again").code, 200);
    }

    void countsRequestsPerWebhookAndCode()
    {
        auto server = makeServer();
        QVERIFY(server->start());
        auto *total = m_metrics.counter(QStringLiteral("controller_runtime_webhook_requests_total"), {},
            {QStringLiteral("webhook"), QStringLiteral("code")});
        const auto value = [&](const char *path, const char *code) {
            const Counter *c = total->find({QLatin1String(path), QLatin1String(code)});
            return c ? c->value() : 0.0;
        };
        const double echo200 = value("/echo", "200"), throws500 = value("/throws", "500");
        test::postHttps(m_dir.path(), server->port(), QStringLiteral("/echo"), "a");
        test::postHttps(m_dir.path(), server->port(), QStringLiteral("/echo"), "b");
        test::postHttps(m_dir.path(), server->port(), QStringLiteral("/throws"), "c");
        QCOMPARE(value("/echo", "200"), echo200 + 2);
        QCOMPARE(value("/throws", "500"), throws500 + 1);
        const QByteArray text = m_metrics.exposition();
        QVERIFY(text.contains("controller_runtime_webhook_latency_seconds_count{webhook=\"/echo\",code=\"200\"}"));
        QVERIFY(text.contains("controller_runtime_webhook_requests_in_flight{webhook=\"/echo\"} 0"));
    }

    void startedCheckerFailsUntilServing()
    {
        auto server = makeServer();
        const auto check = server->startedChecker();
        QVERIFY(!check());
        QCOMPARE(check().error().message(), QStringLiteral("webhook server has not been started yet"));
        QVERIFY(server->start());
        QVERIFY(check());
        server->stop();
        QVERIFY(!check());
    }

    void missingCertificateIsNamed()
    {
        WebhookServerOptions o;
        o.port = 0;
        o.certDir = m_dir.path() + QStringLiteral("/absent");
        WebhookServer server(o);
        const Expected<void> started = server.start();
        QVERIFY(!started);
        QVERIFY2(
            started.error().message().contains(QLatin1String("absent/tls.crt")), qPrintable(started.error().message()));
        QVERIFY(!server.isServing());
    }

    void rotatedCertificateIsPresentedOnTheNextHandshake()
    {
        auto server = makeServer();
        QVERIFY(server->start());
        QString error;
        QCOMPARE(
            test::handshakeCertificate(m_dir.path(), server->port(), &error).subjectInfo(QSslCertificate::CommonName),
            QStringList{QStringLiteral("first")});
        QSignalSpy reloaded(server.get(), &WebhookServer::certificateReloaded);
        QVERIFY2(test::writeServingCert(m_dir.path(), QStringLiteral("second"), &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(
            server->certificate().subjectInfo(QSslCertificate::CommonName) == QStringList{QStringLiteral("second")},
            20000);
        QVERIFY(reloaded.count() >= 1);
        QCOMPARE(
            test::handshakeCertificate(m_dir.path(), server->port(), &error).subjectInfo(QSslCertificate::CommonName),
            QStringList{QStringLiteral("second")});
        QCOMPARE(test::postHttps(m_dir.path(), server->port(), QStringLiteral("/echo"), "after").code, 200);
        // A second rotation: the watches survived the rename-replace.
        QVERIFY2(test::writeServingCert(m_dir.path(), QStringLiteral("third"), &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(
            server->certificate().subjectInfo(QSslCertificate::CommonName) == QStringList{QStringLiteral("third")},
            20000);
        QCOMPARE(
            test::handshakeCertificate(m_dir.path(), server->port(), &error).subjectInfo(QSslCertificate::CommonName),
            QStringList{QStringLiteral("third")});
    }
};

QTEST_GUILESS_MAIN(TestWebhookServer)
#include "tst_webhookserver.moc"
