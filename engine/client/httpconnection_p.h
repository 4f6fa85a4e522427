// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to HttpClient (httpclient.h): one keep-alive connection, one exchange at a time, its
// HTTP/1.1 response (Content-Length, chunked or until close) parsed as it arrives.

#include "engine/client/httpclient.h"

#include <QByteArray>
#include <QNetworkProxy>
#include <QObject>
#include <QPointer>
#include <QUrl>

#include <optional>

class QSslSocket;

namespace opbench::detail {

/// One keep-alive connection: one exchange at a time, the response parsed as it arrives.
class HttpConnection : public QObject
{
public:
    HttpConnection(HttpClient *client, const QUrl &server, const QString &peerName, const QNetworkProxy &proxy,
        const HttpReply *first);

    bool isIdle() const { return m_connected && !m_reply && !m_closed; }
    const QByteArray &identity() const { return m_identity; }

    void start(HttpReply *reply);

    /// The reader took the streamed body: read on if reading had stopped for it.
    void resume();

    /// Closes the connection without a word to the exchange (it was aborted or deleted).
    void drop();

private:
    enum class Phase { Head, Length, ChunkSize, ChunkData, ChunkEnd, Trailers, UntilClose };

    void onConnected();

    void onReadyRead();

    /// Consumes m_buf; false on a protocol error. Completes the exchange when the body ends.
    bool parse();

    /// One step of a chunked body (ChunkSize to Trailers): nullopt to go on parsing, else
    /// what parse() returns.
    std::optional<bool> parseChunked();

    bool parseHead(QByteArrayView head);

    void compact();

    void complete();

    void fail(HttpReply::Error error, const QString &text);

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

} // namespace opbench::detail
