// SPDX-License-Identifier: Apache-2.0
// HttpClient, the REST client's HTTP/1.1 transport, against a server that writes exact bytes:
// connections kept alive and reused, chunked bodies split at every byte (with extensions and
// trailers), interim 100 responses, Connection: close and close-delimited bodies, a kept-alive
// connection the server closed (the request is sent again on a fresh one), a reply deleted
// mid-flight (its connection is not reused, so no response goes to the wrong request), malformed
// responses and refused connections as errors.
#include "engine/client/httpclient.h"

#include <QElapsedTimer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <functional>

using namespace opbench::detail;

namespace {

/// Answers each request head with what `script` writes; counts connections and requests.
class ScriptedServer : public QObject
{
public:
    using Script = std::function<void(QTcpSocket *, const QByteArray &head, int requestIndex)>;
    explicit ScriptedServer(Script script)
        : m_script(std::move(script))
    {
        m_server.listen(QHostAddress::LocalHost, 0);
        connect(&m_server, &QTcpServer::newConnection, this, [this]() {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                ++connections;
                s->setParent(this);
                connect(s, &QTcpSocket::readyRead, this, [this, s]() {
                    QByteArray &buf = m_buffers[s];
                    buf += s->readAll();
                    for (qsizetype end; (end = buf.indexOf("\r\n\r\n")) >= 0;) {
                        const QByteArray head = buf.left(end);
                        qsizetype length = 0;
                        for (const QByteArray &line : head.split('\n'))
                            if (line.toLower().startsWith("content-length:"))
                                length = line.mid(15).trimmed().toLongLong();
                        if (buf.size() < end + 4 + length)
                            return;
                        bodies.append(buf.mid(end + 4, length));
                        buf.remove(0, end + 4 + length);
                        heads.append(head);
                        m_script(s, head, requests++);
                    }
                });
            }
        });
    }
    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort())); }

    int connections = 0;
    int requests = 0;
    QList<QByteArray> heads;
    QList<QByteArray> bodies;

private:
    QTcpServer m_server;
    Script m_script;
    QHash<QTcpSocket *, QByteArray> m_buffers;
};

void respond(QTcpSocket *s, const QByteArray &body, const QByteArray &extraHeaders = {})
{
    s->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + extraHeaders
        + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
}

/// Waits for the reply to finish.
bool finish(HttpReply *reply)
{
    return QTest::qWaitFor([reply]() { return reply->isFinished(); }, 5000);
}

QUrl at(const QUrl &server, const QString &pathAndQuery) { return QUrl(server.toString() + pathAndQuery); }

} // namespace

class TestHttpClient : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldReuseOneConnectionForSequentialRequests()
    {
        ScriptedServer server(
            [](QTcpSocket *s, const QByteArray &, int i) { respond(s, "{\"n\":" + QByteArray::number(i) + "}"); });
        HttpClient client(server.url(), {});
        for (int i = 0; i < 3; ++i) {
            HttpReply *r = client.send(
                "GET", at(server.url(), QStringLiteral("/api/v1/pods?limit=5")), "Accept: application/json\r\n", {});
            QVERIFY(finish(r));
            QCOMPARE(r->error(), HttpReply::Error::None);
            QCOMPARE(r->statusCode(), 200);
            QCOMPARE(r->rawHeader("content-type"), QByteArray("application/json"));
            QCOMPARE(r->readAll(), "{\"n\":" + QByteArray::number(i) + "}");
            delete r;
        }
        QCOMPARE(server.connections, 1);
        QVERIFY2(server.heads.first().startsWith("GET /api/v1/pods?limit=5 HTTP/1.1\r\nHost: 127.0.0.1:"),
            server.heads.first());
        QVERIFY(server.heads.first().contains("\r\nAccept: application/json"));
    }

    void shouldSendBodiesWithTheirLength()
    {
        ScriptedServer server([](QTcpSocket *s, const QByteArray &, int) { respond(s, "{}"); });
        HttpClient client(server.url(), {});
        HttpReply *r = client.send("POST", at(server.url(), QStringLiteral("/api/v1/namespaces/a/configmaps")),
            "Content-Type: application/json\r\n", "{\"kind\":\"ConfigMap\"}");
        QVERIFY(finish(r));
        QCOMPARE(r->statusCode(), 200);
        QCOMPARE(server.bodies.value(0), QByteArray("{\"kind\":\"ConfigMap\"}"));
        QVERIFY(server.heads.value(0).contains("Content-Length: 20"));
        // A PUT without a body still says so (servers wait for a body otherwise).
        HttpReply *empty = client.send("PUT", at(server.url(), QStringLiteral("/x")), {}, {});
        QVERIFY(finish(empty));
        QVERIFY(server.heads.value(1).contains("Content-Length: 0"));
    }

    void shouldAssembleChunkedBodiesSplitAtEveryByte()
    {
        const QByteArray wire = "HTTP/1.1 100 Continue\r\n\r\n"
                                "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\nX-Trace: a\r\n\r\n"
                                "5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n";
        ScriptedServer server([wire](QTcpSocket *s, const QByteArray &, int) {
            for (char c : wire) { // one byte per write and per flush: every boundary is a read boundary
                s->write(&c, 1);
                s->flush();
                s->waitForBytesWritten(10);
            }
        });
        HttpClient client(server.url(), {});
        for (int i = 0; i < 2; ++i) {
            HttpReply *r = client.send("GET", at(server.url(), QStringLiteral("/")), {}, {});
            QVERIFY(finish(r));
            QCOMPARE(r->error(), HttpReply::Error::None);
            QCOMPARE(r->statusCode(), 201);
            QCOMPARE(r->rawHeader("X-TRACE"), QByteArray("a"));
            QCOMPARE(r->readAll(), QByteArray("hello, world"));
        }
        QCOMPARE(server.connections, 1); // the connection survives a chunked body
    }

    void shouldOpenANewConnectionAfterConnectionClose()
    {
        ScriptedServer server([](QTcpSocket *s, const QByteArray &, int) {
            respond(s, "{}", "Connection: close\r\n");
            s->disconnectFromHost();
        });
        HttpClient client(server.url(), {});
        for (int i = 0; i < 2; ++i) {
            HttpReply *r = client.send("GET", at(server.url(), QStringLiteral("/")), {}, {});
            QVERIFY(finish(r));
            QCOMPARE(r->error(), HttpReply::Error::None);
            QCOMPARE(r->readAll(), QByteArray("{}"));
        }
        QCOMPARE(server.connections, 2);
    }

    void shouldReadABodyThatEndsWithTheConnection()
    {
        ScriptedServer server([](QTcpSocket *s, const QByteArray &, int) {
            s->write("HTTP/1.0 200 OK\r\n\r\n{\"old\":");
            s->flush();
            s->write("true}");
            s->disconnectFromHost();
        });
        HttpClient client(server.url(), {});
        HttpReply *r = client.send("GET", at(server.url(), QStringLiteral("/")), {}, {});
        QVERIFY(finish(r));
        QCOMPARE(r->error(), HttpReply::Error::None);
        QCOMPARE(r->readAll(), QByteArray("{\"old\":true}"));
    }

    void shouldResendOnceWhenAKeptAliveConnectionWasClosed()
    {
        // The server answers, then closes the connection without saying so (an idle timeout):
        // the next request goes out on a fresh connection and gets its answer.
        ScriptedServer server([](QTcpSocket *s, const QByteArray &, int i) {
            respond(s, "{\"n\":" + QByteArray::number(i) + "}");
            s->flush();
            s->close();
        });
        HttpClient client(server.url(), {});
        HttpReply *first = client.send("GET", at(server.url(), QStringLiteral("/")), {}, {});
        QVERIFY(finish(first));
        QCOMPARE(first->readAll(), QByteArray("{\"n\":0}"));
        HttpReply *second = client.send("POST", at(server.url(), QStringLiteral("/")), {}, "{}");
        QVERIFY(finish(second));
        QCOMPARE(second->error(), HttpReply::Error::None);
        QCOMPARE(second->readAll(), QByteArray("{\"n\":1}"));
        QCOMPARE(server.connections, 2);
        QCOMPARE(server.requests, 2); // sent once on the new connection, not twice
    }

    void shouldNotReuseTheConnectionOfADeletedReply()
    {
        // The first request's answer comes late; its reply is deleted before. The second request
        // must get its own answer, not the first one's.
        QList<QTcpSocket *> pending;
        ScriptedServer server([&pending](QTcpSocket *s, const QByteArray &head, int) {
            if (head.startsWith("GET /slow"))
                pending.append(s);
            else
                respond(s, "\"fast\"");
        });
        HttpClient client(server.url(), {});
        HttpReply *slow = client.send("GET", at(server.url(), QStringLiteral("/slow")), {}, {});
        QTRY_COMPARE(pending.size(), 1);
        delete slow;
        QTRY_COMPARE(client.connectionCount(), 0);
        respond(pending.first(), "\"slow\""); // to a closed connection: goes nowhere
        HttpReply *fast = client.send("GET", at(server.url(), QStringLiteral("/fast")), {}, {});
        QVERIFY(finish(fast));
        QCOMPARE(fast->readAll(), QByteArray("\"fast\""));
        QCOMPARE(server.connections, 2);
    }

    void shouldAbortWithAnError()
    {
        ScriptedServer server([](QTcpSocket *, const QByteArray &, int) {}); // never answers
        HttpClient client(server.url(), {});
        HttpReply *r = client.send("GET", at(server.url(), QStringLiteral("/")), {}, {});
        QTRY_COMPARE(server.requests, 1);
        r->abort();
        QVERIFY(r->isFinished());
        QCOMPARE(r->error(), HttpReply::Error::Aborted);
        QCOMPARE(client.connectionCount(), 0);
    }

    void shouldReportMalformedResponses()
    {
        ScriptedServer server([](QTcpSocket *s, const QByteArray &, int) { s->write("SMTP ready\r\n\r\n"); });
        HttpClient client(server.url(), {});
        HttpReply *r = client.send("GET", at(server.url(), QStringLiteral("/")), {}, {});
        QVERIFY(finish(r));
        QCOMPARE(r->error(), HttpReply::Error::Protocol);
        QVERIFY(r->errorString().contains(QLatin1String("malformed")));
    }

    void shouldReportARefusedConnection()
    {
        quint16 port = 0;
        {
            QTcpServer probe;
            probe.listen(QHostAddress::LocalHost, 0);
            port = probe.serverPort();
        }
        const QUrl url(QStringLiteral("http://127.0.0.1:%1").arg(port));
        HttpClient client(url, {});
        HttpReply *r = client.send("GET", at(url, QStringLiteral("/")), {}, {});
        QVERIFY(finish(r));
        QCOMPARE(r->error(), HttpReply::Error::ConnectionRefused);
        QVERIFY2(
            r->errorString().contains(QLatin1String("refused"), Qt::CaseInsensitive), qPrintable(r->errorString()));
    }

    void shouldStopReadingForASlowStreamReader_data()
    {
        QTest::addColumn<bool>("chunked");
        QTest::newRow("chunked, kept open until the end") << true;
        QTest::newRow("content-length, then the server closes") << false;
    }

    void shouldStopReadingForASlowStreamReader()
    {
        // 8 MB sent at once; the reader takes nothing for a while. The client holds about its
        // stream buffer (1 MB) plus what one read brings, the rest waits in the sockets; then
        // every byte arrives, in order, even though the server closed meanwhile.
        QFETCH(bool, chunked);
        QByteArray payload(8 * 1024 * 1024, Qt::Uninitialized);
        for (qsizetype i = 0; i < payload.size(); ++i)
            payload[i] = char('a' + i % 26);
        ScriptedServer server([&payload, chunked](QTcpSocket *s, const QByteArray &, int) {
            if (chunked) {
                s->write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
                for (qsizetype at = 0; at < payload.size(); at += 100000) {
                    const QByteArray part = payload.mid(at, 100000);
                    s->write(QByteArray::number(part.size(), 16) + "\r\n" + part + "\r\n");
                }
                s->write("0\r\n\r\n");
            } else {
                respond(s, payload, "Connection: close\r\n");
                s->disconnectFromHost();
            }
        });
        HttpClient client(server.url(), {});
        HttpReply *r = client.send("GET", at(server.url(), QStringLiteral("/watch")), {}, {});
        r->setStreaming(true);
        qint64 mostHeld = 0;
        QElapsedTimer idle;
        idle.start();
        while (idle.elapsed() < 400) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
            mostHeld = std::max(mostHeld, r->bytesAvailable());
        }
        QVERIFY2(mostHeld <= 2 * 1024 * 1024, QByteArray::number(mostHeld));
        QVERIFY(mostHeld > 0);
        QByteArray got;
        QVERIFY(QTest::qWaitFor(
            [&]() {
                got += r->readAll();
                return r->isFinished() && r->bytesAvailable() == 0;
            },
            10000));
        QCOMPARE(r->error(), HttpReply::Error::None);
        QCOMPARE(got.size(), payload.size());
        QVERIFY(got == payload);
    }

    void shouldServeManyConcurrentRequests()
    {
        ScriptedServer server([](QTcpSocket *s, const QByteArray &head, int) {
            respond(s, head.mid(4, head.indexOf(' ', 4) - 4)); // echoes the path
        });
        HttpClient client(server.url(), {});
        QList<HttpReply *> replies;
        for (int i = 0; i < 100; ++i)
            replies.append(client.send("GET", at(server.url(), QStringLiteral("/r%1").arg(i)), {}, {}));
        for (int i = 0; i < 100; ++i) {
            QVERIFY(finish(replies[i]));
            QCOMPARE(replies[i]->readAll(), QStringLiteral("/r%1").arg(i).toLatin1());
        }
        QVERIFY2(server.connections <= 32, QByteArray::number(server.connections));
    }
};

QTEST_GUILESS_MAIN(TestHttpClient)
#include "tst_httpclient.moc"
