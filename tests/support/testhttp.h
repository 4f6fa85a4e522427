// SPDX-License-Identifier: Apache-2.0
#pragma once
// Small synchronous HTTP helpers for integration tests against TestApiServer (no dependency on
// the project's REST client): call() for one request, WatchStream for a chunked watch read
// line by line over a raw socket (one connection per stream, no QNAM 6-connection limit).

#include "tests/support/testapiserver.h"

#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QSslSocket>

namespace opbench::testing {

struct HttpReply
{
    int code = 0; // 0: transport error (see error)
    QByteArray body;
    QList<QPair<QByteArray, QByteArray>> headers;
    QString error;

    QJsonObject json() const;
    QByteArray header(const QByteArray &name) const;
};

class TestHttp
{
public:
    explicit TestHttp(const TestApiServer &server)
        : m_server(server)
    { }
    /// Sends one request and waits (at most `timeoutMs`).
    HttpReply call(const QByteArray &method, const QString &pathAndQuery, const QByteArray &body = {},
        const QByteArray &contentType = "application/json", const QList<QPair<QByteArray, QByteArray>> &headers = {},
        int timeoutMs = 10000);
    HttpReply get(const QString &path) { return call("GET", path); }
    HttpReply post(const QString &path, const QJsonObject &body) { return call("POST", path, toBytes(body)); }
    HttpReply put(const QString &path, const QJsonObject &body) { return call("PUT", path, toBytes(body)); }
    HttpReply del(const QString &path, const QJsonObject &body = {})
    {
        return call("DELETE", path, body.isEmpty() ? QByteArray() : toBytes(body));
    }
    static QByteArray toBytes(const QJsonObject &o);

private:
    const TestApiServer &m_server;
    QNetworkAccessManager m_nam;
};

/// A watch over a raw (TLS or plain) socket: headers, then chunked NDJSON events.
class WatchStream : public QObject
{
    Q_OBJECT
public:
    explicit WatchStream(const TestApiServer &server, QObject *parent = nullptr);
    /// Sends `GET pathAndQuery` (add watch=1 yourself) with extra headers.
    void open(const QString &pathAndQuery, const QList<QPair<QByteArray, QByteArray>> &headers = {});
    /// Waits until at least `n` events arrived in total (or the stream ended / timeout).
    bool waitForEvents(int n, int timeoutMs = 10000);
    /// Waits until the server ended the stream (terminating chunk) or closed the connection.
    bool waitForEnd(int timeoutMs = 10000);
    const QList<QJsonObject> &events() const { return m_events; }
    /// Raw event lines as received (each ends without the newline).
    const QList<QByteArray> &lines() const { return m_lines; }
    int statusCode() const { return m_code; }
    QByteArray headerBlock() const { return m_head; }
    bool ended() const { return m_ended; }
    bool malformedFraming() const { return m_malformed; }
    QStringList types() const;
    void close();

Q_SIGNALS:
    void eventReceived();

private:
    void onReadyRead();
    void parseChunks();
    QSslSocket m_socket;
    QByteArray m_buffer;  // raw bytes not parsed yet
    QByteArray m_payload; // de-chunked bytes not yet split into lines
    QByteArray m_head;
    int m_code = 0;
    bool m_headersDone = false;
    bool m_ended = false;
    bool m_malformed = false;
    QList<QJsonObject> m_events;
    QList<QByteArray> m_lines;
    const TestApiServer &m_server;
};

} // namespace opbench::testing
