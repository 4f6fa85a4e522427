// SPDX-License-Identifier: Apache-2.0
#include "engine/webhook/webhookconnection_p.h"

#include "engine/base/logger.h"

namespace opbench {

namespace {

constexpr qsizetype kMaxHeadBytes = qsizetype(64) * 1024;

QByteArray reasonPhrase(int code)
{
    switch (code) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 404:
        return "Not Found";
    case 411:
        return "Length Required";
    case 413:
        return "Request Entity Too Large";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    default:
        return "Status";
    }
}

} // namespace

WebhookConnection::WebhookConnection(QSslSocket *socket, WebhookServer *server)
    : QObject(socket)
    , m_socket(socket)
    , m_server(server)
{
    connect(socket, &QSslSocket::readyRead, this, &WebhookConnection::onReadyRead);
    connect(socket, &QSslSocket::disconnected, socket, &QObject::deleteLater);
    if (socket->bytesAvailable() > 0)
        QMetaObject::invokeMethod(this, &WebhookConnection::onReadyRead, Qt::QueuedConnection);
}

void WebhookConnection::onReadyRead()
{
    if (!m_socket)
        return;
    m_buffer += m_socket->readAll();
    if (m_waiting || m_reading)
        return; // read on once the pending request was answered
    m_reading = true;
    const QPointer<WebhookConnection> self(this);
    while (m_socket && m_socket->state() == QAbstractSocket::ConnectedState && !m_waiting) {
        if (!m_head && parseHead() != Step::Done)
            break;
        if ((m_head->chunked ? readChunked() : readBody()) != Step::Done)
            break;
        WebhookRequest request;
        request.method = m_head->method;
        request.path = QString::fromUtf8(m_head->target.split('?').first());
        request.contentType = m_head->contentType;
        request.body = std::move(m_body);
        const bool close = !m_head->keepAlive;
        m_head.reset();
        m_body.clear();
        m_continueSent = false;
        m_waiting = true;
        m_server->dispatch(request, WebhookResponder([self, close](const WebhookReply &reply) {
            if (self)
                self->answered(reply, close);
        }));
        if (!self)
            return;
    }
    m_reading = false;
}

void WebhookConnection::answered(const WebhookReply &reply, bool close)
{
    m_waiting = false;
    respond(reply, close);
    if (!m_reading && !close && !m_buffer.isEmpty()) // requests that arrived meanwhile
        QMetaObject::invokeMethod(this, &WebhookConnection::onReadyRead, Qt::QueuedConnection);
}

WebhookConnection::Step WebhookConnection::parseHead()
{
    const qsizetype end = m_buffer.indexOf("\r\n\r\n");
    if (end < 0) {
        if (m_buffer.size() > kMaxHeadBytes)
            fail(431, "request headers are larger than 64 KiB");
        return m_buffer.size() > kMaxHeadBytes ? Step::Failed : Step::NeedMore;
    }
    const QList<QByteArray> lines = m_buffer.left(end).split('\n');
    m_buffer.remove(0, end + 4);
    const QList<QByteArray> requestLine = lines.first().trimmed().split(' ');
    if (requestLine.size() != 3 || !requestLine[2].startsWith("HTTP/1.")) {
        fail(400, "malformed request line");
        return Step::Failed;
    }
    Head head;
    head.method = requestLine[0];
    head.target = requestLine[1];
    head.keepAlive = requestLine[2] != "HTTP/1.0";
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines[i].indexOf(':');
        if (colon <= 0)
            continue;
        const QByteArray name = lines[i].left(colon).trimmed().toLower();
        const QByteArray value = lines[i].mid(colon + 1).trimmed();
        if (name == "content-length") {
            bool ok = false;
            head.contentLength = value.toLongLong(&ok);
            if (!ok || head.contentLength < 0) {
                fail(400, "invalid Content-Length");
                return Step::Failed;
            }
        } else if (name == "transfer-encoding") {
            head.chunked = value.toLower().contains("chunked");
        } else if (name == "content-type") {
            head.contentType = value;
        } else if (name == "connection") {
            head.keepAlive = value.toLower() == "keep-alive" || (head.keepAlive && value.toLower() != "close");
        } else if (name == "expect") {
            head.expectContinue = value.toLower() == "100-continue";
        }
    }
    if (head.contentLength > m_server->options().maxBodyBytes) {
        fail(413,
            "request entity is too large; limit is " + QByteArray::number(m_server->options().maxBodyBytes) + " bytes");
        return Step::Failed;
    }
    m_head = head;
    m_chunkPos = 0;
    return Step::Done;
}

WebhookConnection::Step WebhookConnection::readBody()
{
    const qint64 length = std::max<qint64>(0, m_head->contentLength);
    if (m_buffer.size() < length) {
        if (m_head->expectContinue && !m_continueSent) {
            m_continueSent = true;
            m_socket->write("HTTP/1.1 100 Continue\r\n\r\n");
        }
        return Step::NeedMore;
    }
    m_body = m_buffer.left(length);
    m_buffer.remove(0, length);
    return Step::Done;
}

WebhookConnection::Step WebhookConnection::readChunked()
{
    for (;;) {
        const qsizetype eol = m_buffer.indexOf("\r\n", m_chunkPos);
        if (eol < 0)
            return Step::NeedMore;
        bool ok = false;
        const qint64 size = m_buffer.mid(m_chunkPos, eol - m_chunkPos).split(';').first().trimmed().toLongLong(&ok, 16);
        if (!ok || size < 0) {
            fail(400, "malformed chunked request body");
            return Step::Failed;
        }
        if (m_body.size() + size > m_server->options().maxBodyBytes) {
            fail(413,
                "request entity is too large; limit is " + QByteArray::number(m_server->options().maxBodyBytes)
                    + " bytes");
            return Step::Failed;
        }
        if (size == 0) { // last chunk; trailers are not supported, only the final CRLF
            if (m_buffer.size() < eol + 4)
                return Step::NeedMore;
            m_buffer.remove(0, eol + 4);
            return Step::Done;
        }
        if (m_buffer.size() < eol + 2 + size + 2)
            return Step::NeedMore;
        m_body += m_buffer.mid(eol + 2, size);
        m_chunkPos = eol + 2 + size + 2;
    }
}

void WebhookConnection::respond(const WebhookReply &reply, bool close)
{
    if (!m_socket)
        return;
    QByteArray out = "HTTP/1.1 " + QByteArray::number(reply.code) + ' ' + reasonPhrase(reply.code) + "\r\n";
    out += "Content-Type: " + reply.contentType + "\r\n";
    out += "Content-Length: " + QByteArray::number(reply.body.size()) + "\r\n";
    if (close)
        out += "Connection: close\r\n";
    out += "\r\n";
    out += reply.body;
    m_socket->write(out);
    if (close)
        m_socket->disconnectFromHost();
}

void WebhookConnection::fail(int code, const QByteArray &message)
{
    Logger()
        .withName(QStringLiteral("webhook"))
        .info(QStringLiteral("refusing a request"),
            {{QStringLiteral("code"), code}, {QStringLiteral("reason"), QString::fromUtf8(message)}});
    m_buffer.clear();
    respond(WebhookReply(code, message + '\n', QByteArrayLiteral("text/plain; charset=utf-8")), true);
}

} // namespace opbench
