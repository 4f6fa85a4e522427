// SPDX-License-Identifier: Apache-2.0
#pragma once
// A tiny HTTP/1.1 (optionally HTTPS) server for REST client tests: records every request and
// answers from a handler with canned responses, optionally streamed as timed chunks.

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QObject>
#include <QPair>
#include <QPointer>
#include <QSslCertificate>
#include <QSslKey>
#include <QTcpSocket>
#include <QUrlQuery>

#include <functional>

class QTcpServer;

namespace opbench::test {

struct FakeRequest
{
    QByteArray method;
    QByteArray path;                      // without the query
    QByteArray rawQuery;                  // as sent (percent-encoded)
    QMap<QByteArray, QByteArray> headers; // lower-case names
    QByteArray body;
    /// Common name of the TLS client certificate, when one was presented.
    QString clientCommonName;
    /// Decoded query value (Go rules: '+' is a space).
    QString query(const QString &key) const;
    bool hasQuery(const QString &key) const;
};

struct FakeResponse
{
    int code = 200;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
    /// When non-empty: Transfer-Encoding chunked, one write per entry, `chunkIntervalMs` apart.
    QList<QByteArray> chunks;
    int chunkIntervalMs = 5;
    /// Keep the stream open after the last chunk (no terminating chunk).
    bool keepOpen = false;
    /// Write each chunk only when the test calls FakeServer::releaseChunk() (instead of timed):
    /// a test on a FakeClock then decides how much fake time passes between two events.
    bool chunksOnDemand = false;
    /// Never answer (for client timeouts).
    bool hang = false;

    static FakeResponse json(int code, const QByteArray &body);
};

class FakeServer : public QObject
{
    Q_OBJECT
public:
    using Handler = std::function<FakeResponse(const FakeRequest &)>;
    explicit FakeServer(QObject *parent = nullptr);
    ~FakeServer() override;

    /// Listens on 127.0.0.1 (plain HTTP, or TLS when a certificate is given). Returns the port.
    quint16 listen(const QSslCertificate &cert = QSslCertificate(), const QSslKey &key = QSslKey());
    QString url() const;
    /// Before listen(): ask TLS clients for a certificate signed by `ca` (and refuse others).
    void requireClientCertificates(const QList<QSslCertificate> &ca) { m_clientCa = ca; }
    void setHandler(Handler h) { m_handler = std::move(h); }
    /// Streams answered with chunksOnDemand that still have chunks to write.
    int onDemandStreams() const;
    /// Writes the next chunk of every on-demand stream; returns how many were written.
    int releaseChunk();

    QList<FakeRequest> requests;

private:
    void onConnection(QTcpSocket *s);
    void onReadyRead(QTcpSocket *s);
    void respond(QTcpSocket *s, const FakeResponse &r);

    QTcpServer *m_server = nullptr;
    bool m_tls = false;
    Handler m_handler;
    QMap<QTcpSocket *, QByteArray> m_buffers;
    struct OnDemand
    {
        QPointer<QTcpSocket> socket;
        QList<QByteArray> chunks; // not written yet
        bool keepOpen = false;
    };
    QList<OnDemand> m_onDemand;
    QList<QSslCertificate> m_clientCa;
};

/// Generates a CA and a server certificate for 127.0.0.1/localhost signed by it (openssl CLI),
/// into `dir`: ca.crt, ca.key, server.crt, server.key, and a client certificate for CN=jane,
/// O=devs: client.crt, client.key. Returns false (with a message) on failure.
bool makeCertificates(const QString &dir, const QString &caName, QString *error);

} // namespace opbench::test
