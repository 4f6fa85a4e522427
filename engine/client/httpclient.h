// SPDX-License-Identifier: Apache-2.0
#pragma once
// A small HTTP/1.1 client on the calling thread, for the REST client's request/response calls:
// keep-alive connections pooled per server, one request per connection at a time, plain TCP or
// TLS (QSslSocket), Content-Length and chunked bodies. It exists because QNetworkAccessManager
// runs every exchange through its own HTTP thread (two thread hops and ~60 signal connections
// per request, and at most six connections per host); here a request is one write on a socket
// owned by the thread that awaits it. A proxy (kubeconfig proxy-url) is used as QAbstractSocket
// does: SOCKS5, or an HTTP proxy asked to CONNECT to the server.

#include <QByteArray>
#include <QList>
#include <QNetworkProxy>
#include <QObject>
#include <QPointer>
#include <QSslConfiguration>
#include <QStringList>
#include <QUrl>

#include <memory>

namespace opbench::detail {

class HttpConnection;

/// One exchange. Owned by the HttpClient that made it (delete it, or deleteLater, when done;
/// deleting it mid-flight closes its connection). `finished` is emitted exactly once.
class HttpReply : public QObject
{
    Q_OBJECT
public:
    enum class Error { None, ConnectionRefused, HostNotFound, RemoteClosed, Tls, Aborted, Protocol, Network };
    ~HttpReply() override;

    int statusCode() const { return m_code; }
    /// A response header's value (name case-insensitive), or empty.
    QByteArray rawHeader(QByteArrayView name) const;
    bool hasRawHeader(QByteArrayView name) const;
    QByteArray readAll();
    /// The body bytes received and not yet taken, as a view valid until the next takeView() or
    /// readAll() or until control returns to the event loop. Unlike readAll(), the buffer keeps
    /// its memory for the next bytes: a streamed list reuses one buffer, nothing per read.
    QByteArrayView takeView();
    /// Body bytes received and not yet taken.
    qint64 bytesAvailable() const { return m_body.size(); }
    bool isFinished() const { return m_finished; }
    Error error() const { return m_error; }
    QString errorString() const { return m_errorString; }
    /// TLS verification failures, each naming the certificate.
    const QStringList &tlsErrors() const { return m_tlsErrors; }
    const QUrl &url() const { return m_url; }
    /// Stops the exchange (its connection is closed); emits finished with Error::Aborted.
    void abort();
    /// Streams the body: headersReceived once the status and headers are in, then readyRead as
    /// body bytes arrive (take them with readAll()), then finished. Without it only finished.
    void setStreaming(bool on) { m_streaming = on; }
    bool headersComplete() const { return m_headersComplete; }

Q_SIGNALS:
    void headersReceived();
    void readyRead();
    void finished();

private:
    friend class HttpClient;
    friend class HttpConnection;
    explicit HttpReply(QObject *parent)
        : QObject(parent)
    { }
    void finish(Error error = Error::None, const QString &text = {});
    void headersDone();
    void bodyAppended();

    QUrl m_url;
    QByteArray m_request; // the bytes to write (request line, headers, body)
    QByteArray m_sslKey;  // which TLS identity the request needs
    QSslConfiguration m_ssl;
    int m_code = 0;
    QList<QPair<QByteArray, QByteArray>> m_headers; // lower-case names
    QByteArray m_body;
    QByteArray m_taken; // what takeView() last handed out (its memory returns to m_body next time)
    QStringList m_tlsErrors;
    Error m_error = Error::None;
    QString m_errorString;
    bool m_finished = false;
    bool m_retried = false;
    bool m_streaming = false;
    bool m_headersComplete = false;
    bool m_readyPending = false;
    QPointer<HttpConnection> m_connection;
};

class HttpClient : public QObject
{
    Q_OBJECT
public:
    /// `server`: scheme, host, port (and path prefix, kept by the caller). `peerVerifyName`:
    /// the TLS server name to verify instead of the host, when set.
    HttpClient(QUrl server, QString peerVerifyName, QNetworkProxy proxy = QNetworkProxy(QNetworkProxy::NoProxy),
        QObject *parent = nullptr);
    ~HttpClient() override;

    /// Starts `method url` (`url` on this client's server: its path and query are sent).
    /// `headers` are complete "Name: value\r\n" lines (Host and Content-Length are added).
    /// `ssl` is used for https servers; connections are reused only by requests with the same
    /// client identity.
    HttpReply *send(const QByteArray &method, const QUrl &url, const QByteArray &headers, const QByteArray &body,
        const QSslConfiguration &ssl = {});

    /// Connections open now (idle or busy), for tests.
    int connectionCount() const { return int(m_connections.size()); }

private:
    friend class HttpConnection;
    void dispatch(HttpReply *reply);
    void released(HttpConnection *c); // finished its exchange and may be reused
    void closed(HttpConnection *c);   // gone; its exchange (if any) already finished or requeued
    void requeue(HttpReply *reply);   // a reused connection closed before answering: once more

    QUrl m_server;
    QString m_peerVerifyName;
    QNetworkProxy m_proxy;
    QByteArray m_hostHeader;
    QList<HttpConnection *> m_connections; // children
    QList<QPointer<HttpReply>> m_waiting;  // beyond kMaxConnections
};

} // namespace opbench::detail
