// SPDX-License-Identifier: Apache-2.0
#pragma once
// One HTTP exchange of the embedded API server: the request copied out of Qt's (reused,
// non-copyable) QHttpServerRequest, and a Responder that writes the reply straight to the socket.
//
// Every write goes through a QPointer<QTcpSocket>: when the client has gone, writes are
// dropped (Qt 6.4's own responder keeps a raw pointer and crashes). Responses are framed here
// (Content-Length, or chunked for watches), so any status code can be sent.

#include "engine/api/status.h"

#include <QByteArray>
#include <QHash>
#include <QHostAddress>
#include <QJsonObject>
#include <QPointer>
#include <QTcpSocket>
#include <QUrlQuery>

#include <functional>
#include <memory>

class QHttpServerRequest;

namespace opbench::apiserver {

struct Request
{
    QByteArray method;                     // "GET", "POST", ... (upper case as sent)
    QString path;                          // percent-decoded path, no query
    QUrlQuery query;                       // '+' already decoded as a space
    QHash<QByteArray, QByteArray> headers; // lower-case names
    QByteArray body;
    QHostAddress remote;
    QString user; // set by authentication

    /// Copies what the server needs out of Qt's request.
    static Request fromQt(const QHttpServerRequest &request);
    QByteArray header(const char *lowerName) const { return headers.value(QByteArray(lowerName)); }
    bool hasParam(const QString &name) const { return query.hasQueryItem(name); }
    QString param(const QString &name) const;
    /// Go-style booleans as the API server reads them: false only when absent, "0" or "false"
    /// (any case); `watch=`, `watch=1`, `watch=True` are true.
    bool boolParam(const QString &name) const;
    /// The media type of Content-Type without parameters ("application/json").
    QByteArray contentMediaType() const;
    /// True when the Accept header asks for a meta.k8s.io Table.
    bool wantsTable() const;
};

class Responder
{
public:
    explicit Responder(QTcpSocket *socket);

    /// Called once with the status code when the status line goes out (audit, metrics).
    void setOnStatus(std::function<void(int)> fn) { m_state->onStatus = std::move(fn); }

    bool alive() const { return !m_state->socket.isNull(); }
    QTcpSocket *socket() const { return m_state->socket.data(); }
    bool sent() const { return m_state->code != 0; }
    int code() const { return m_state->code; }

    using Headers = QList<QPair<QByteArray, QByteArray>>;
    /// A complete response with a Content-Length.
    void send(int code, const QByteArray &contentType, const QByteArray &body, const Headers &extra = {});
    void sendJson(int code, const QJsonObject &body, const Headers &extra = {});
    /// A Status body with its code (429 adds Retry-After).
    void sendStatus(const Status &status);
    void sendText(int code, const QByteArray &text);

    /// Chunked streaming: headers go out (and are flushed) at once.
    bool beginChunked(int code, const QByteArray &contentType);
    /// One chunk; false when the client has gone.
    bool writeChunk(const QByteArray &data);
    /// The terminating chunk.
    void endChunked();
    /// Closes the connection (fault injection).
    void abort();
    /// Fault injection (reset): the next complete response sends its head and half its body,
    /// then the connection is closed.
    void cutBodyOnSend() { m_state->cutBody = true; }
    /// True when cutBodyOnSend() was called (streamed bodies honour it too, see bodystream.h).
    bool cutsBody() const { return m_state->cutBody; }

private:
    /// Records the code (audit) and returns the status line and headers.
    QByteArray head(int code, const QByteArray &contentType, const Headers &extra, qint64 contentLength);
    struct State
    {
        QPointer<QTcpSocket> socket;
        int code = 0;
        std::function<void(int)> onStatus;
        bool cutBody = false;
    };
    std::shared_ptr<State> m_state;
};

/// "OK", "Not Found", ... for a status code.
QByteArray reasonPhrase(int code);

} // namespace opbench::apiserver
