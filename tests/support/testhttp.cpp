// SPDX-License-Identifier: Apache-2.0
#include "tests/support/testhttp.h"

#include <QBuffer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QNetworkReply>
#include <QTimer>
#include <QtTest/QTest>

namespace opbench::testing {

QJsonObject HttpReply::json() const { return QJsonDocument::fromJson(body).object(); }

QByteArray HttpReply::header(const QByteArray &name) const
{
    for (const auto &h : headers)
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    return {};
}

QByteArray TestHttp::toBytes(const QJsonObject &o) { return QJsonDocument(o).toJson(QJsonDocument::Compact); }

HttpReply TestHttp::call(const QByteArray &method, const QString &pathAndQuery, const QByteArray &body,
    const QByteArray &contentType, const QList<QPair<QByteArray, QByteArray>> &headers, int timeoutMs)
{
    QNetworkRequest req = m_server.request(pathAndQuery);
    if (!body.isEmpty() || method == "POST" || method == "PUT" || method == "PATCH")
        req.setHeader(QNetworkRequest::ContentTypeHeader, contentType);
    for (const auto &h : headers)
        req.setRawHeader(h.first, h.second);
    auto *buffer = new QBuffer;
    buffer->setData(body);
    buffer->open(QIODevice::ReadOnly);
    QNetworkReply *reply = m_nam.sendCustomRequest(req, method, buffer);
    buffer->setParent(reply);
    QEventLoop loop;
    QTimer timer;
    timer.setSingleShot(true);
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QObject::connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
    timer.start(timeoutMs);
    loop.exec();
    HttpReply out;
    if (!reply->isFinished()) {
        out.error = QStringLiteral("timeout");
        reply->abort();
    }
    out.code = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    out.body = reply->readAll();
    out.headers = reply->rawHeaderPairs();
    if (out.code == 0)
        out.error = reply->errorString();
    reply->deleteLater();
    return out;
}

WatchStream::WatchStream(const TestApiServer &server, QObject *parent)
    : QObject(parent)
    , m_server(server)
{
    connect(&m_socket, &QIODevice::readyRead, this, &WatchStream::onReadyRead);
    connect(&m_socket, &QAbstractSocket::disconnected, this, [this]() {
        m_ended = true;
        Q_EMIT eventReceived();
    });
}

void WatchStream::open(const QString &pathAndQuery, const QList<QPair<QByteArray, QByteArray>> &headers)
{
    const QUrl url = m_server.url();
    if (url.scheme() == QLatin1String("https")) {
        m_socket.setSslConfiguration(m_server.sslConfiguration());
        m_socket.connectToHostEncrypted(url.host(), quint16(url.port()));
    } else {
        m_socket.connectToHost(url.host(), quint16(url.port()));
    }
    QByteArray req = "GET " + pathAndQuery.toUtf8() + " HTTP/1.1\r\nHost: " + url.host().toUtf8() + "\r\n"
        + "Authorization: Bearer " + m_server.token().toUtf8() + "\r\nAccept: application/json\r\n";
    for (const auto &h : headers)
        req += h.first + ": " + h.second + "\r\n";
    m_socket.write(req + "\r\n");
}

void WatchStream::onReadyRead()
{
    m_buffer += m_socket.readAll();
    if (!m_headersDone) {
        const qsizetype end = m_buffer.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        m_head = m_buffer.left(end);
        m_buffer.remove(0, end + 4);
        m_code = m_head.mid(9, 3).toInt();
        m_headersDone = true;
    }
    parseChunks();
}

void WatchStream::parseChunks()
{
    while (!m_ended) {
        const qsizetype nl = m_buffer.indexOf("\r\n");
        if (nl < 0)
            return;
        bool ok = false;
        const qsizetype size = m_buffer.left(nl).toLongLong(&ok, 16);
        if (!ok) {
            m_malformed = true;
            return;
        }
        if (m_buffer.size() < nl + 2 + size + 2)
            return;
        if (size == 0) {
            m_ended = true;
            m_buffer.clear();
            Q_EMIT eventReceived();
            return;
        }
        m_payload += m_buffer.mid(nl + 2, size);
        if (m_buffer.mid(nl + 2 + size, 2) != "\r\n")
            m_malformed = true;
        m_buffer.remove(0, nl + 2 + size + 2);
        qsizetype lineEnd;
        while ((lineEnd = m_payload.indexOf('\n')) >= 0) {
            const QByteArray line = m_payload.left(lineEnd);
            m_payload.remove(0, lineEnd + 1);
            m_lines << line;
            m_events << QJsonDocument::fromJson(line).object();
        }
        Q_EMIT eventReceived();
    }
}

bool WatchStream::waitForEvents(int n, int timeoutMs)
{
    return QTest::qWaitFor([&]() { return m_events.size() >= n || m_ended; }, timeoutMs) && m_events.size() >= n;
}

bool WatchStream::waitForEnd(int timeoutMs)
{
    return QTest::qWaitFor([&]() { return m_ended; }, timeoutMs);
}

QStringList WatchStream::types() const
{
    QStringList out;
    for (const QJsonObject &e : m_events)
        out << e.value(QLatin1String("type")).toString();
    return out;
}

void WatchStream::close() { m_socket.abort(); }

} // namespace opbench::testing
