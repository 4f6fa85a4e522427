// SPDX-License-Identifier: Apache-2.0
#pragma once
// WebhookConnection: one accepted TLS connection of the WebhookServer. A minimal HTTP/1.1
// server side: request line, headers, a Content-Length or chunked body (bounded), one request
// per exchange, keep-alive unless the client asks to close, "Expect: 100-continue" answered.
// A request whose handler answers later holds the connection: the requests after it on the
// same connection are read when it was answered (HTTP/1.1 answers in order).

#include "engine/webhook/webhookserver.h"

#include <QObject>
#include <QPointer>
#include <QSslSocket>

#include <optional>

namespace opbench {

class WebhookConnection : public QObject
{
    Q_OBJECT
public:
    WebhookConnection(QSslSocket *socket, WebhookServer *server);

private:
    struct Head
    {
        QByteArray method;
        QByteArray target;
        QByteArray contentType;
        qint64 contentLength = -1;
        bool chunked = false;
        bool keepAlive = true;
        bool expectContinue = false;
    };
    enum class Step { Done, NeedMore, Failed };

    void onReadyRead();
    Step parseHead();
    Step readBody();
    Step readChunked();
    void respond(const WebhookReply &reply, bool close);
    void answered(const WebhookReply &reply, bool close);
    void fail(int code, const QByteArray &message);

    QPointer<QSslSocket> m_socket;
    WebhookServer *m_server;
    QByteArray m_buffer;
    std::optional<Head> m_head;
    QByteArray m_body;
    qsizetype m_chunkPos = 0; // chunked: parse position in m_buffer
    bool m_continueSent = false;
    bool m_waiting = false; // a request's answer is pending
    bool m_reading = false; // inside onReadyRead's loop
};

} // namespace opbench
