// SPDX-License-Identifier: Apache-2.0
#pragma once
// RawGet (opbench-bench apiserver's list timing): GETs over one keep-alive socket with no client
// library in between, so the figure is the server's time to answer, not a client's. The body
// (Content-Length or chunked) is collected into one buffer that is reserved once and reused by
// every request: after the first, the client allocates nothing proportional to the list and
// takes no page faults for it, so the time left is the server's (and the kernel's loopback).

#include <QObject>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QUrl>

namespace opbench::bench {

/// The Content-Length of an HTTP head already lower-cased; -1 when it has none.
inline qint64 contentLengthOf(const QByteArray &lowerHead)
{
    const qsizetype cl = lowerHead.indexOf("content-length:");
    if (cl < 0)
        return -1;
    const qsizetype lineEnd = lowerHead.indexOf("\r\n", cl);
    return lowerHead.mid(cl + 15, (lineEnd < 0 ? lowerHead.size() : lineEnd) - cl - 15).trimmed().toLongLong();
}

class RawGet : public QObject
{
    Q_OBJECT
public:
    RawGet(QUrl server, QByteArray authorization, QSslConfiguration ssl, QObject *parent = nullptr);

    /// Sends `GET path`; finished() turns true when the whole answer has arrived or the
    /// connection failed (failed() then says why).
    void get(const QString &path);
    bool finished() const { return m_finished; }
    QString failed() const { return m_failed; }
    int status() const { return m_status; }
    /// The body of the last answer (chunked framing removed); valid until the next get().
    const QByteArray &body() const { return m_body; }

private:
    void onReadyRead();
    bool parseHead();
    bool takeChunks();

    QUrl m_server;
    QByteArray m_authorization;
    QSslSocket m_socket;
    QByteArray m_in;   // bytes read and not yet consumed
    QByteArray m_body; // the answer's body, reserved once
    qsizetype m_consumed = 0;
    qsizetype m_contentLength = -1;
    bool m_headDone = false;
    bool m_chunked = false;
    bool m_finished = true;
    int m_status = 0;
    QString m_failed;
};

} // namespace opbench::bench
