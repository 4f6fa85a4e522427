// SPDX-License-Identifier: Apache-2.0
#include "engine/client/httpconnection_p.h"

#include <QSslSocket>

namespace opbench::detail {

namespace {

/// A streamed body not yet taken by its reader stops the reading here (and, with the socket's
/// read buffer of the same size, the sender, by TCP flow control).
constexpr qint64 kStreamBufferBytes = qint64(1024) * 1024;

QString describe(const QSslError &e)
{
    QString text = e.errorString();
    if (!e.certificate().isNull())
        text += QStringLiteral(" (server certificate \"%1\", issued by \"%2\")")
                    .arg(e.certificate().subjectDisplayName(), e.certificate().issuerDisplayName());
    return text;
}

HttpReply::Error errorOf(QAbstractSocket::SocketError e)
{
    switch (e) {
    case QAbstractSocket::ConnectionRefusedError:
        return HttpReply::Error::ConnectionRefused;
    case QAbstractSocket::HostNotFoundError:
        return HttpReply::Error::HostNotFound;
    case QAbstractSocket::RemoteHostClosedError:
        return HttpReply::Error::RemoteClosed;
    case QAbstractSocket::SslHandshakeFailedError:
    case QAbstractSocket::SslInternalError:
    case QAbstractSocket::SslInvalidUserDataError:
        return HttpReply::Error::Tls;
    default:
        return HttpReply::Error::Network;
    }
}

} // namespace

HttpConnection::HttpConnection(
    HttpClient *client, const QUrl &server, const QString &peerName, const QNetworkProxy &proxy, const HttpReply *first)
    : QObject(client)
    , m_client(client)
    , m_socket(new QSslSocket(this))
    , m_identity(first->m_sslKey)
{
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    m_socket->setReadBufferSize(kStreamBufferBytes);
    m_socket->setProxy(proxy);
    connect(m_socket, &QAbstractSocket::readyRead, this, [this]() { onReadyRead(); });
    connect(m_socket, &QAbstractSocket::errorOccurred, this,
        [this](QAbstractSocket::SocketError e) { fail(errorOf(e), m_socket->errorString()); });
    connect(m_socket, &QAbstractSocket::disconnected, this,
        [this]() { fail(HttpReply::Error::RemoteClosed, QStringLiteral("the server closed the connection")); });
    const quint16 port = quint16(server.port(server.scheme() == QLatin1String("https") ? 443 : 80));
    if (server.scheme() == QLatin1String("https")) {
        m_socket->setSslConfiguration(first->m_ssl);
        connect(m_socket, &QSslSocket::sslErrors, this, [this](const QList<QSslError> &errors) {
            if (!m_reply)
                return;
            for (const QSslError &e : errors)
                if (const QString t = describe(e); !m_reply->m_tlsErrors.contains(t))
                    m_reply->m_tlsErrors.append(t);
        });
        connect(m_socket, &QSslSocket::encrypted, this, [this]() { onConnected(); });
        m_socket->connectToHostEncrypted(server.host(), port, peerName.isEmpty() ? server.host() : peerName);
    } else {
        connect(m_socket, &QAbstractSocket::connected, this, [this]() { onConnected(); });
        m_socket->connectToHost(server.host(), port);
    }
}

void HttpConnection::start(HttpReply *reply)
{
    m_reply = reply;
    reply->m_connection = this;
    m_gotBytes = false;
    m_phase = Phase::Head;
    if (m_connected)
        m_socket->write(reply->m_request);
}

void HttpConnection::resume()
{
    if (!m_paused)
        return;
    m_paused = false;
    QMetaObject::invokeMethod(
        this, [this]() { onReadyRead(); }, Qt::QueuedConnection);
}

void HttpConnection::drop()
{
    if (m_closed)
        return;
    m_closed = true;
    m_reply = nullptr;
    m_socket->abort();
    m_client->closed(this);
    deleteLater();
}

void HttpConnection::onConnected()
{
    m_connected = true;
    if (m_reply)
        m_socket->write(m_reply->m_request);
}

void HttpConnection::onReadyRead()
{
    if (m_closed)
        return;
    if (!m_reply) { // bytes nobody asked for, or the exchange was deleted
        drop();
        return;
    }
    if (m_reply->m_streaming && m_reply->m_body.size() >= kStreamBufferBytes) {
        m_paused = true; // until the reader takes what it has
        return;
    }
    if (m_socket->bytesAvailable() == 0)
        return;
    m_gotBytes = true;
    if (m_buf.isEmpty())
        m_buf = m_socket->readAll(); // no second copy
    else
        m_buf += m_socket->readAll();
    if (!parse())
        fail(HttpReply::Error::Protocol, QStringLiteral("malformed HTTP response from the server"));
}

bool HttpConnection::parse()
{
    for (;;) {
        switch (m_phase) {
        case Phase::Head: {
            const qsizetype end = m_buf.indexOf("\r\n\r\n", m_pos);
            if (end < 0)
                return m_buf.size() - m_pos < qint64(1024) * 1024;
            if (!parseHead(QByteArrayView(m_buf).sliced(m_pos, end - m_pos)))
                return false;
            m_pos = end + 4;
            break;
        }
        case Phase::Length: {
            const qsizetype take = std::min<qsizetype>(m_remaining, m_buf.size() - m_pos);
            if (m_pos == 0 && take == m_buf.size() && m_reply->m_body.isEmpty()) {
                m_reply->m_body = std::exchange(m_buf, {}); // the common case: no copy
            } else {
                m_reply->m_body.append(QByteArrayView(m_buf).sliced(m_pos, take));
                m_pos += take;
            }
            if (take > 0)
                m_reply->bodyAppended();
            m_remaining -= take;
            if (m_remaining > 0) {
                compact();
                return true;
            }
            complete();
            return true;
        }
        case Phase::ChunkSize:
        case Phase::ChunkData:
        case Phase::ChunkEnd:
        case Phase::Trailers:
            if (const std::optional<bool> done = parseChunked())
                return *done;
            break;
        case Phase::UntilClose:
            m_reply->m_body.append(QByteArrayView(m_buf).sliced(m_pos));
            if (m_buf.size() > m_pos)
                m_reply->bodyAppended();
            m_buf.clear();
            m_pos = 0;
            return true;
        }
    }
}

std::optional<bool> HttpConnection::parseChunked()
{
    switch (m_phase) {
    case Phase::ChunkSize: {
        const qsizetype eol = m_buf.indexOf("\r\n", m_pos);
        if (eol < 0)
            return m_buf.size() - m_pos < 1024;
        QByteArrayView line = QByteArrayView(m_buf).sliced(m_pos, eol - m_pos);
        if (const qsizetype semi = line.indexOf(';'); semi >= 0)
            line = line.first(semi);
        bool ok = false;
        m_remaining = line.trimmed().toLongLong(&ok, 16);
        if (!ok || m_remaining < 0)
            return false;
        m_pos = eol + 2;
        m_phase = m_remaining == 0 ? Phase::Trailers : Phase::ChunkData;
        break;
    }
    case Phase::ChunkData: {
        const qsizetype take = std::min<qsizetype>(m_remaining, m_buf.size() - m_pos);
        m_reply->m_body.append(QByteArrayView(m_buf).sliced(m_pos, take));
        if (take > 0)
            m_reply->bodyAppended();
        m_pos += take;
        m_remaining -= take;
        if (m_remaining > 0) {
            compact();
            return true;
        }
        m_phase = Phase::ChunkEnd;
        break;
    }
    case Phase::ChunkEnd:
        if (m_buf.size() - m_pos < 2) {
            compact();
            return true;
        }
        if (m_buf.at(m_pos) != '\r' || m_buf.at(m_pos + 1) != '\n')
            return false;
        m_pos += 2;
        m_phase = Phase::ChunkSize;
        break;
    case Phase::Trailers: {
        const qsizetype eol = m_buf.indexOf("\r\n", m_pos);
        if (eol < 0) {
            compact();
            return true;
        }
        const bool last = eol == m_pos; // the empty line after the trailers
        m_pos = eol + 2;
        if (last) {
            complete();
            return true;
        }
        break;
    }
    default:
        break;
    }
    return std::nullopt;
}

bool HttpConnection::parseHead(QByteArrayView head)
{
    const qsizetype eol = head.indexOf("\r\n");
    const QByteArrayView statusLine = eol < 0 ? head : head.first(eol);
    // "HTTP/1.1 200 OK"
    if (!statusLine.startsWith("HTTP/1.") || statusLine.size() < 12)
        return false;
    bool ok = false;
    const int code = statusLine.sliced(9, 3).toInt(&ok);
    if (!ok)
        return false;
    const bool http10 = statusLine.at(7) == '0';
    if (code >= 100 && code < 200) // an interim response: the real one follows
        return true;
    m_reply->m_code = code;
    m_reply->m_headers.clear();
    bool chunked = false, close = http10, keepAlive = false;
    qint64 length = -1;
    qsizetype pos = eol < 0 ? head.size() : eol + 2;
    while (pos < head.size()) {
        qsizetype next = head.indexOf("\r\n", pos);
        if (next < 0)
            next = head.size();
        const QByteArrayView line = head.sliced(pos, next - pos);
        pos = next + 2;
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            return false;
        QByteArray name = line.first(colon).trimmed().toByteArray().toLower();
        QByteArray value = line.sliced(colon + 1).trimmed().toByteArray();
        if (name == "content-length") {
            length = value.toLongLong(&ok);
            if (!ok || length < 0)
                return false;
        } else if (name == "transfer-encoding") {
            chunked = value.toLower().contains("chunked");
        } else if (name == "connection") {
            const QByteArray v = value.toLower();
            close = close || v.contains("close");
            keepAlive = v.contains("keep-alive");
        }
        m_reply->m_headers.append({std::move(name), std::move(value)});
    }
    m_keepAlive = !close || (http10 && keepAlive);
    m_reply->headersDone();
    if (m_reply->m_request.startsWith("HEAD ") || code == 204 || code == 304) {
        m_remaining = 0;
        m_phase = Phase::Length;
    } else if (chunked) {
        m_phase = Phase::ChunkSize;
    } else if (length >= 0) {
        m_remaining = length;
        m_reply->m_body.reserve(length);
        m_phase = Phase::Length;
    } else {
        m_keepAlive = false;
        m_phase = Phase::UntilClose;
    }
    return true;
}

void HttpConnection::compact()
{
    if (m_pos > 0) {
        m_buf.remove(0, m_pos);
        m_pos = 0;
    }
}

void HttpConnection::complete()
{
    HttpReply *reply = m_reply;
    m_reply = nullptr;
    reply->m_connection = nullptr;
    m_buf.remove(0, std::min(m_pos, m_buf.size()));
    m_pos = 0;
    if (m_keepAlive && m_buf.isEmpty()) {
        m_client->released(this);
    } else {
        m_closed = true;
        m_socket->disconnectFromHost();
        m_client->closed(this);
        deleteLater();
    }
    reply->finish();
}

void HttpConnection::fail(HttpReply::Error error, const QString &text)
{
    if (m_closed)
        return;
    if (m_reply && error == HttpReply::Error::RemoteClosed && m_socket->bytesAvailable() > 0) {
        // The server finished and closed: what it sent before is still to be read (reading
        // may have stopped for a slow reader).
        m_keepAlive = false;
        m_gotBytes = true;
        m_buf += m_socket->readAll();
        if (!parse()) {
            error = HttpReply::Error::Protocol;
        } else if (!m_reply || m_closed) {
            return; // the response completed
        }
    }
    HttpReply *reply = m_reply;
    m_closed = true;
    m_reply = nullptr;
    if (reply && m_phase == Phase::UntilClose && error == HttpReply::Error::RemoteClosed) {
        reply->m_body.append(QByteArrayView(m_buf).sliced(m_pos));
        reply->m_connection = nullptr;
        m_client->closed(this);
        deleteLater();
        reply->finish();
        return;
    }
    const bool retry = reply && m_served > 0 && !m_gotBytes && !reply->m_retried;
    m_socket->abort();
    m_client->closed(this);
    deleteLater();
    if (!reply)
        return;
    reply->m_connection = nullptr;
    if (retry) { // a kept-alive connection the server had closed: a fresh one, once
        reply->m_retried = true;
        m_client->requeue(reply);
        return;
    }
    reply->finish(error, text);
}

} // namespace opbench::detail
