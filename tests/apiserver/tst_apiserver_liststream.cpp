// SPDX-License-Identifier: Apache-2.0
// Streaming list responses (bodystream.h; kube-apiserver 1.33's streaming list encoder): a list
// larger than one chunk goes out with chunked transfer encoding, encoded as the socket drains, and
// reads back as the same document a client would get item by item; the server never holds more
// than a few chunks of it, stops when the client leaves, and honours the injected reset.
#include "engine/apiserver/http/bodystream.h"
#include "tests/support/testhttp.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTcpServer>
#include <QtTest>

using namespace opbench::testing;
using opbench::apiserver::BodyStream;
using opbench::apiserver::Responder;

namespace {

const QString kCms = QStringLiteral("/api/v1/namespaces/default/configmaps");
constexpr int kObjects = 150; // about 1.3 KB each on the wire: three chunks or so

/// A loopback connection whose server side is ours (no HTTP server involved).
struct SocketPair
{
    QTcpServer listener;
    QTcpSocket client;
    QTcpSocket *server = nullptr;

    bool open()
    {
        if (!listener.listen(QHostAddress::LocalHost))
            return false;
        client.connectToHost(QHostAddress::LocalHost, listener.serverPort());
        if (!client.waitForConnected(5000) || !listener.waitForNewConnection(5000))
            return false;
        server = listener.nextPendingConnection();
        return server != nullptr;
    }
};

/// De-chunks an HTTP response (head, then chunked body); empty when the framing is broken or the
/// terminating chunk is missing.
QByteArray dechunk(const QByteArray &response, bool *complete)
{
    *complete = false;
    const qsizetype headEnd = response.indexOf("\r\n\r\n");
    if (headEnd < 0)
        return {};
    QByteArray body;
    qsizetype at = headEnd + 4;
    for (;;) {
        const qsizetype eol = response.indexOf("\r\n", at);
        if (eol < 0)
            return body;
        bool ok = false;
        const qsizetype n = response.mid(at, eol - at).toLongLong(&ok, 16);
        if (!ok || eol + 2 + n + 2 > response.size())
            return body;
        if (n == 0) {
            *complete = response.mid(eol + 2, 2) == "\r\n";
            return body;
        }
        body += response.mid(eol + 2, n);
        at = eol + 2 + n + 2;
    }
}

QByteArray itemJson(qsizetype i)
{
    return R"({"i":)" + QByteArray::number(i) + R"(,"pad":")" + QByteArray(1000, 'x') + "\"}";
}

} // namespace

class TestApiServerListStream : public QObject
{
    Q_OBJECT
private:
    TestApiServer m_api;
    std::unique_ptr<TestHttp> m_http;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_api.start(), qPrintable(m_api.errorString()));
        m_http = std::make_unique<TestHttp>(m_api);
        for (int i = 0; i < kObjects; ++i) {
            const QJsonObject cm{
                {QStringLiteral("metadata"),
                    QJsonObject{{QStringLiteral("name"), QStringLiteral("big-%1").arg(i, 3, 10, QChar(u'0'))},
                        {QStringLiteral("labels"), QJsonObject{{QStringLiteral("set"), QStringLiteral("big")}}}}},
                {QStringLiteral("data"), QJsonObject{{QStringLiteral("pad"), QString(1000, u'p')}}}};
            QCOMPARE(m_http->post(kCms, cm).code, 201);
        }
    }

    // ---- the stream itself, on a bare socket pair -------------------------------------------

    void shouldEncodeOnlyAsTheSocketDrains()
    {
        SocketPair pair;
        QVERIFY(pair.open());
        constexpr qsizetype items = 20000; // 20 MB of body
        auto encoded = std::make_shared<qsizetype>(0);
        auto maxUnsent = std::make_shared<qint64>(0);
        QPointer<QTcpSocket> server = pair.server;
        BodyStream::send(
            Responder(pair.server), "application/json", "{\"items\":[", items,
            [encoded, maxUnsent, server](qsizetype i, QByteArray &out) {
                ++*encoded;
                if (server)
                    *maxUnsent = qMax(*maxUnsent, server->bytesToWrite());
                out += itemJson(i);
            },
            "]}");
        // Nothing has gone to the kernel yet (no event loop ran): what was encoded is what the
        // socket holds, a few chunks, not the list.
        QVERIFY2(*encoded < 300, qPrintable(QString::number(*encoded)));
        QVERIFY(pair.server->bytesToWrite() <= BodyStream::kHighWaterBytes + 2 * BodyStream::kChunkBytes);
        QCOMPARE(BodyStream::active(), 1);

        QByteArray received;
        bool complete = false;
        QVERIFY(QTest::qWaitFor(
            [&]() {
                received += pair.client.readAll();
                return received.endsWith("\r\n0\r\n\r\n");
            },
            20000));
        QCOMPARE(*encoded, items);
        QVERIFY2(*maxUnsent <= BodyStream::kHighWaterBytes + 2 * BodyStream::kChunkBytes,
            qPrintable(QString::number(*maxUnsent)));
        QVERIFY(received.startsWith("HTTP/1.1 200 OK\r\n"));
        QVERIFY(received.left(received.indexOf("\r\n\r\n")).contains("Transfer-Encoding: chunked"));
        const QByteArray body = dechunk(received, &complete);
        QVERIFY(complete);
        const QJsonArray parsed = QJsonDocument::fromJson(body).object().value(QLatin1String("items")).toArray();
        QCOMPARE(parsed.size(), items);
        QCOMPARE(parsed.at(items - 1).toObject().value(QLatin1String("i")).toInteger(), items - 1);
        QTRY_COMPARE(BodyStream::active(), 0);
    }

    void shouldStopWhenTheClientLeaves()
    {
        SocketPair pair;
        QVERIFY(pair.open());
        auto encoded = std::make_shared<qsizetype>(0);
        BodyStream::send(
            Responder(pair.server), "application/json", "[", 100000,
            [encoded](qsizetype i, QByteArray &out) {
                ++*encoded;
                out += itemJson(i);
            },
            "]");
        QVERIFY(QTest::qWaitFor([&]() { return pair.client.readAll().size() > 0; }, 5000));
        pair.client.abort();
        QTRY_COMPARE(BodyStream::active(), 0);
        QVERIFY2(*encoded < 100000, qPrintable(QString::number(*encoded))); // it stopped early
    }

    void shouldSendASmallBodyWithContentLength()
    {
        SocketPair pair;
        QVERIFY(pair.open());
        BodyStream::send(
            Responder(pair.server), "application/json", "[", 3,
            [](qsizetype i, QByteArray &out) { out += QByteArray::number(i); }, "]");
        QByteArray received;
        QVERIFY(QTest::qWaitFor(
            [&]() {
                received += pair.client.readAll();
                return received.endsWith("[0,1,2]");
            },
            5000));
        QVERIFY(received.contains("Content-Length: 7\r\n"));
        QCOMPARE(BodyStream::active(), 0);
    }

    // ---- through the API server ------------------------------------------------------------

    void shouldStreamLargeListsThatReadBackAsTheObjects_data()
    {
        QTest::addColumn<QByteArray>("accept");
        QTest::addColumn<QString>("arrayKey");
        QTest::addColumn<QString>("query");
        QTest::newRow("list") << QByteArray("application/json") << "items"
                              << "";
        QTest::newRow("metadata") << QByteArray("application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1")
                                  << "items"
                                  << "";
        QTest::newRow("table") << QByteArray("application/json;as=Table;v=v1;g=meta.k8s.io,application/"
                                             "json;as=Table;v=v1beta1;g=meta.k8s.io,application/json")
                               << "rows"
                               << "includeObject=Object"; // rows of metadata would fit one chunk
    }
    void shouldStreamLargeListsThatReadBackAsTheObjects()
    {
        QFETCH(QByteArray, accept);
        QFETCH(QString, arrayKey);
        QFETCH(QString, query);
        const HttpReply r = m_http->call("GET", kCms + QStringLiteral("?labelSelector=set%3Dbig&") + query, {}, {},
            {{QByteArray("Accept"), accept}});
        QCOMPARE(r.code, 200);
        QCOMPARE(r.header("transfer-encoding").toLower(), QByteArray("chunked"));
        const QJsonObject list = r.json();
        const QJsonArray items = list.value(arrayKey).toArray();
        QCOMPARE(items.size(), kObjects);
        QVERIFY(!list.value(QLatin1String("metadata"))
                     .toObject()
                     .value(QLatin1String("resourceVersion"))
                     .toString()
                     .isEmpty());
        for (int i : {0, kObjects / 2, kObjects - 1}) {
            const QString name = QStringLiteral("big-%1").arg(i, 3, 10, QChar(u'0'));
            const QJsonObject one
                = m_http->call("GET", kCms + u'/' + name + u'?' + query, {}, {}, {{QByteArray("Accept"), accept}})
                      .json();
            if (arrayKey == QLatin1String("rows")) {
                QCOMPARE(items.at(i).toObject().value(QLatin1String("cells")).toArray().first().toString(), name);
                // (cells hold ages, which may tick between the two requests)
                QCOMPARE(items.at(i).toObject().value(QLatin1String("object")),
                    one.value(QLatin1String("rows")).toArray().first().toObject().value(QLatin1String("object")));
            } else {
                QCOMPARE(items.at(i).toObject(), one);
            }
        }
        if (arrayKey == QLatin1String("rows"))
            QVERIFY(!list.value(QLatin1String("columnDefinitions")).toArray().isEmpty());
        else if (accept == "application/json")
            QCOMPARE(list.value(QLatin1String("kind")).toString(), QStringLiteral("ConfigMapList"));
        else
            QCOMPARE(list.value(QLatin1String("kind")).toString(), QStringLiteral("PartialObjectMetadataList"));
    }

    void shouldCutAStreamedListWhenAResetIsInjected()
    {
        m_api.runOnServerThread(
            [](opbench::apiserver::ApiServer &s) { s.setFaults({QStringLiteral("reset:rate=1")}); });
        const HttpReply r = m_http->get(kCms + QStringLiteral("?labelSelector=set%3Dbig"));
        m_api.runOnServerThread([](opbench::apiserver::ApiServer &s) { s.clearFaults(); });
        QVERIFY2(r.code == 0 || QJsonDocument::fromJson(r.body).isNull(), qPrintable(QString::number(r.code)));
        QCOMPARE(m_http->get(kCms + QStringLiteral("?labelSelector=set%3Dbig"))
                     .json()
                     .value(QLatin1String("items"))
                     .toArray()
                     .size(),
            kObjects);
    }
};

QTEST_GUILESS_MAIN(TestApiServerListStream)
#include "tst_apiserver_liststream.moc"
