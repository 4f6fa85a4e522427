// SPDX-License-Identifier: Apache-2.0
#include "engine/client/httpclient.h"

#include "engine/client/httpconnection_p.h"

#include <QCryptographicHash>
#include <QNetworkProxy>
#include <QSslSocket>
#include <QTimer>

namespace opbench::detail {

namespace {

/// Past this many open connections a request waits for one to come free.
constexpr int kMaxConnections = 32;

QByteArray identityOf(const QSslConfiguration &ssl)
{
    const QSslCertificate cert = ssl.localCertificate();
    return cert.isNull() ? QByteArray() : cert.digest(QCryptographicHash::Sha256);
}

} // namespace

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
