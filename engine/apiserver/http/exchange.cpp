// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/http/exchange.h"

#include <QHttpServerRequest>
#include <QJsonDocument>

namespace opbench::apiserver {

Request Request::fromQt(const QHttpServerRequest &request)
{
    Request r;
    static const char *const names[] = {"GET", "PUT", "DELETE", "POST", "HEAD", "OPTIONS", "PATCH", "CONNECT", "TRACE"};
    const int m = int(request.method());
    r.method = "UNKNOWN";
    for (int i = 0; i < 9; ++i)
        if (m == (1 << i))
            r.method = names[i];
    const QUrl url = request.url();
    r.path = url.path(QUrl::FullyDecoded);
    QString rawQuery = url.query(QUrl::FullyEncoded);
    rawQuery.replace(u'+', QLatin1String("%20"));
    r.query.setQuery(rawQuery);
    for (const auto &h : request.headers())
        r.headers.insert(h.first.toLower(), h.second);
    r.body = request.body();
    r.remote = request.remoteAddress();
    return r;
}

QString Request::param(const QString &name) const { return query.queryItemValue(name, QUrl::FullyDecoded); }

bool Request::boolParam(const QString &name) const
{
    if (!query.hasQueryItem(name))
        return false;
    const QString v = param(name).toLower();
    return v != QLatin1String("0") && v != QLatin1String("false");
}

QByteArray Request::contentMediaType() const
{
    QByteArray ct = header("content-type");
    const qsizetype semi = ct.indexOf(';');
    if (semi >= 0)
        ct.truncate(semi);
    return ct.trimmed().toLower();
}

bool Request::wantsTable() const { return header("accept").contains("as=Table"); }

QByteArray reasonPhrase(int code)
{
    switch (code) {
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 202:
        return "Accepted";
    case 204:
        return "No Content";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 406:
        return "Not Acceptable";
    case 409:
        return "Conflict";
    case 410:
        return "Gone";
    case 413:
        return "Request Entity Too Large";
    case 415:
        return "Unsupported Media Type";
    case 422:
        return "Unprocessable Entity";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    default:
        return "Status";
    }
}

Responder::Responder(QTcpSocket *socket)
    : m_state(std::make_shared<State>())
{
    m_state->socket = socket;
}

QByteArray Responder::head(int code, const QByteArray &contentType, const Headers &extra, qint64 contentLength)
{
    m_state->code = code;
    if (m_state->onStatus)
        m_state->onStatus(code);
    QByteArray head = "HTTP/1.1 " + QByteArray::number(code) + ' ' + reasonPhrase(code) + "\r\n";
    if (!contentType.isEmpty())
        head += "Content-Type: " + contentType + "\r\n";
    head += "Cache-Control: no-cache, private\r\n";
    for (const auto &h : extra)
        head += h.first + ": " + h.second + "\r\n";
    if (contentLength >= 0)
        head += "Content-Length: " + QByteArray::number(contentLength) + "\r\n";
    else
        head += "Transfer-Encoding: chunked\r\n";
    head += "\r\n";
    return head;
}

void Responder::send(int code, const QByteArray &contentType, const QByteArray &body, const Headers &extra)
{
    if (sent())
        return;
    if (QTcpSocket *s = m_state->socket.data()) {
        s->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        const QByteArray h = head(code, contentType, extra, body.size());
        if (m_state->cutBody) { // injected reset: the client gets half the body, then EOF
            s->write(h + body.left(body.size() / 2));
            s->flush();
            s->disconnectFromHost();
        } else if (body.size() < 64 * 1024) {
            s->write(h + body); // one write: one segment for small replies
        } else {
            s->write(h); // large bodies (lists): no 2nd multi-megabyte copy just to prepend the head
            s->write(body);
        }
    }
}

void Responder::sendJson(int code, const QJsonObject &body, const Headers &extra)
{
    send(code, "application/json", QJsonDocument(body).toJson(QJsonDocument::Compact), extra);
}

void Responder::sendStatus(const Status &status)
{
    Headers extra;
    if (status.code() == 429)
        extra << qMakePair(QByteArray("Retry-After"), QByteArray::number(qMax(1, status.details().retryAfterSeconds)));
    send(status.code() > 0 ? status.code() : 500, "application/json", status.toJsonBytes(), extra);
}

void Responder::sendText(int code, const QByteArray &text) { send(code, "text/plain; charset=utf-8", text); }

bool Responder::beginChunked(int code, const QByteArray &contentType)
{
    if (sent())
        return false;
    const QByteArray h = head(code, contentType, {}, -1);
    if (!m_state->socket)
        return false;
    m_state->socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    m_state->socket->write(h);
    m_state->socket->flush();
    return true;
}

bool Responder::writeChunk(const QByteArray &data)
{
    QTcpSocket *s = m_state->socket.data();
    if (!s || s->state() != QAbstractSocket::ConnectedState)
        return false;
    s->write(QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n");
    return true;
}

void Responder::endChunked()
{
    if (QTcpSocket *s = m_state->socket.data())
        s->write("0\r\n\r\n");
}

void Responder::abort()
{
    if (QTcpSocket *s = m_state->socket.data())
        s->abort();
}

} // namespace opbench::apiserver
