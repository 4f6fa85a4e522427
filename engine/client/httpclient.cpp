// SPDX-License-Identifier: Apache-2.0
#include "engine/client/httpclient.h"

#include <QCryptographicHash>
#include <QNetworkProxy>
#include <QSslSocket>
#include <QTimer>

namespace opbench::detail {

namespace {

/// Past this many open connections a request waits for one to come free.
constexpr int kMaxConnections = 32;
/// A streamed body not yet taken by its reader stops the reading here (and, with the socket's
/// read buffer of the same size, the sender, by TCP flow control).
constexpr qint64 kStreamBufferBytes = 1024 * 1024;

QByteArray identityOf(const QSslConfiguration &ssl)
{
    const QSslCertificate cert = ssl.localCertificate();
    return cert.isNull() ? QByteArray() : cert.digest(QCryptographicHash::Sha256);
}

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

/// One keep-alive connection: one exchange at a time, the response parsed as it arrives.
class HttpConnection : public QObject
{
public:
    HttpConnection(HttpClient *client, const QUrl &server, const QString &peerName, const QNetworkProxy &proxy,
        const HttpReply *first)
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

    bool isIdle() const { return m_connected && !m_reply && !m_closed; }
    const QByteArray &identity() const { return m_identity; }

    void start(HttpReply *reply)
    {
        m_reply = reply;
        reply->m_connection = this;
        m_gotBytes = false;
        m_phase = Phase::Head;
        if (m_connected)
            m_socket->write(reply->m_request);
    }

    /// The reader took the streamed body: read on if reading had stopped for it.
    void resume()
    {
        if (!m_paused)
            return;
        m_paused = false;
        QMetaObject::invokeMethod(
            this, [this]() { onReadyRead(); }, Qt::QueuedConnection);
    }

    /// Closes the connection without a word to the exchange (it was aborted or deleted).
    void drop()
    {
        if (m_closed)
            return;
        m_closed = true;
        m_reply = nullptr;
        m_socket->abort();
        m_client->closed(this);
        deleteLater();
    }

private:
    enum class Phase { Head, Length, ChunkSize, ChunkData, ChunkEnd, Trailers, UntilClose };

    void onConnected()
    {
        m_connected = true;
        if (m_reply)
            m_socket->write(m_reply->m_request);
    }

    void onReadyRead()
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

    /// Consumes m_buf; false on a protocol error. Completes the exchange when the body ends.
    bool parse()
    {
        for (;;) {
            switch (m_phase) {
            case Phase::Head: {
                const qsizetype end = m_buf.indexOf("\r\n\r\n", m_pos);
                if (end < 0)
                    return m_buf.size() - m_pos < 1024 * 1024;
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

    bool parseHead(QByteArrayView head)
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

    void compact()
    {
        if (m_pos > 0) {
            m_buf.remove(0, m_pos);
            m_pos = 0;
        }
    }

    void complete()
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

    void fail(HttpReply::Error error, const QString &text)
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

    friend class HttpClient;
    HttpClient *m_client;
    QSslSocket *m_socket; // child
    QByteArray m_identity;
    QPointer<HttpReply> m_reply;
    QByteArray m_buf;
    qsizetype m_pos = 0;
    qint64 m_remaining = 0;
    Phase m_phase = Phase::Head;
    int m_served = 0;
    bool m_connected = false;
    bool m_closed = false;
    bool m_gotBytes = false;
    bool m_keepAlive = true;
    bool m_paused = false;
};

// ---------------------------------------------------------------------------------------------

QByteArray HttpReply::rawHeader(QByteArrayView name) const
{
    for (const auto &[n, v] : m_headers)
        if (QByteArrayView(n).compare(name, Qt::CaseInsensitive) == 0)
            return v;
    return {};
}

bool HttpReply::hasRawHeader(QByteArrayView name) const
{
    for (const auto &h : m_headers)
        if (QByteArrayView(h.first).compare(name, Qt::CaseInsensitive) == 0)
            return true;
    return false;
}

QByteArray HttpReply::readAll()
{
    QByteArray taken = std::exchange(m_body, {});
    if (HttpConnection *c = m_connection.data())
        c->resume();
    return taken;
}

QByteArrayView HttpReply::takeView()
{
    m_taken.swap(m_body); // the bytes go to the view's buffer; m_body gets the old one's memory
    m_body.truncate(0);
    if (HttpConnection *c = m_connection.data())
        c->resume();
    return m_taken;
}

HttpReply::~HttpReply()
{
    if (HttpConnection *c = m_connection.data(); c && !m_finished)
        c->drop(); // its response would arrive for nobody
}

void HttpReply::abort()
{
    if (m_finished)
        return;
    if (HttpConnection *c = m_connection.data())
        c->drop();
    m_connection = nullptr;
    finish(Error::Aborted, QStringLiteral("Operation canceled"));
}

void HttpReply::headersDone()
{
    m_headersComplete = true;
    if (m_streaming)
        QMetaObject::invokeMethod(this, &HttpReply::headersReceived, Qt::QueuedConnection);
}

void HttpReply::bodyAppended()
{
    if (!m_streaming || m_readyPending)
        return;
    m_readyPending = true;
    QMetaObject::invokeMethod(
        this,
        [this]() {
            m_readyPending = false;
            Q_EMIT readyRead();
        },
        Qt::QueuedConnection);
}

void HttpReply::finish(Error error, const QString &text)
{
    if (m_finished)
        return;
    m_finished = true;
    m_error = error;
    m_errorString = text;
    // Emitted from the event loop, never from inside a socket's signal: whoever awaits may
    // delete the client (and with it the socket) when it resumes.
    QMetaObject::invokeMethod(this, &HttpReply::finished, Qt::QueuedConnection);
}

// ---------------------------------------------------------------------------------------------

HttpClient::HttpClient(QUrl server, QString peerVerifyName, QNetworkProxy proxy, QObject *parent)
    : QObject(parent)
    , m_server(std::move(server))
    , m_peerVerifyName(std::move(peerVerifyName))
    , m_proxy(std::move(proxy))
{
    const bool https = m_server.scheme() == QLatin1String("https");
    const int port = m_server.port(-1);
    m_hostHeader = m_server.host(QUrl::FullyEncoded).toLatin1();
    if (m_hostHeader.contains(':'))
        m_hostHeader = '[' + m_hostHeader + ']';
    if (port > 0 && port != (https ? 443 : 80))
        m_hostHeader += ':' + QByteArray::number(port);
}

HttpClient::~HttpClient()
{
    const QList<HttpConnection *> all = std::exchange(m_connections, {});
    for (HttpConnection *c : all) {
        c->m_closed = true;
        delete c;
    }
}

HttpReply *HttpClient::send(const QByteArray &method, const QUrl &url, const QByteArray &headers,
    const QByteArray &body, const QSslConfiguration &ssl)
{
    auto *reply = new HttpReply(this);
    reply->m_url = url;
    QByteArray target = url.path(QUrl::FullyEncoded).toLatin1();
    if (target.isEmpty())
        target = "/";
    if (url.hasQuery())
        target.append('?').append(url.query(QUrl::FullyEncoded).toLatin1());
    QByteArray &r = reply->m_request;
    r.reserve(method.size() + target.size() + headers.size() + body.size() + 96);
    r.append(method).append(' ').append(target).append(" HTTP/1.1\r\nHost: ").append(m_hostHeader).append("\r\n");
    r.append(headers);
    if (!body.isEmpty() || (method != "GET" && method != "HEAD" && method != "DELETE"))
        r.append("Content-Length: ").append(QByteArray::number(body.size())).append("\r\n");
    r.append("\r\n").append(body);
    if (m_server.scheme() == QLatin1String("https")) {
        reply->m_ssl = ssl;
        reply->m_sslKey = identityOf(ssl);
    }
    dispatch(reply);
    return reply;
}

void HttpClient::dispatch(HttpReply *reply)
{
    for (HttpConnection *c : std::as_const(m_connections)) {
        if (c->isIdle() && c->identity() == reply->m_sslKey) {
            ++c->m_served;
            c->start(reply);
            return;
        }
    }
    if (m_connections.size() >= kMaxConnections) {
        // Make room by closing an idle connection of another identity, else wait.
        for (HttpConnection *c : std::as_const(m_connections)) {
            if (c->isIdle()) {
                c->drop();
                break;
            }
        }
        if (m_connections.size() >= kMaxConnections) {
            m_waiting.append(reply);
            return;
        }
    }
    auto *c = new HttpConnection(this, m_server, m_peerVerifyName, m_proxy, reply);
    m_connections.append(c);
    c->start(reply);
}

void HttpClient::released(HttpConnection *c)
{
    while (!m_waiting.isEmpty()) {
        HttpReply *next = m_waiting.takeFirst().data();
        if (!next || next->isFinished())
            continue;
        if (next->m_sslKey == c->identity()) {
            ++c->m_served;
            c->start(next);
        } else {
            dispatch(next);
        }
        return;
    }
}

void HttpClient::closed(HttpConnection *c)
{
    m_connections.removeOne(c);
    while (!m_waiting.isEmpty() && m_connections.size() < kMaxConnections) {
        HttpReply *next = m_waiting.takeFirst().data();
        if (next && !next->isFinished()) {
            // Not from inside the closing connection's signal handler.
            QTimer::singleShot(0, next, [this, next]() { dispatch(next); });
            return;
        }
    }
}

void HttpClient::requeue(HttpReply *reply)
{
    QTimer::singleShot(0, reply, [this, reply]() { dispatch(reply); });
}

} // namespace opbench::detail
