// SPDX-License-Identifier: Apache-2.0
#pragma once
// RawWriter (opbench-bench apiserver --raw-connections N): creates ConfigMaps over N keep-alive
// connections on raw sockets, one request in flight per connection, with no client library in
// between — what the server sustains when the client costs next to nothing (our RestClient goes
// through QNAM: 6 connections per host and a hop to QNAM's own thread per request).

#include <QObject>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QUrl>

#include <memory>
#include <vector>

namespace opbench::bench {

class RawWriter : public QObject
{
    Q_OBJECT
public:
    RawWriter(QUrl server, QByteArray authorization, QSslConfiguration ssl, QObject *parent = nullptr);
    ~RawWriter() override;

    /// Starts `count` POSTs of ConfigMaps named `<prefix>-<i>` to namespace `ns` over `connections`
    /// sockets; finished() says when all have answered (or a connection failed).
    void start(int connections, int count, const QString &ns, const QString &prefix);
    bool finished() const { return m_answered + m_lost >= m_count; }
    int created() const { return m_created; }   ///< 201 answers
    int answered() const { return m_answered; } ///< any HTTP answer
    int lost() const { return m_lost; }         ///< requests on connections that failed

private:
    struct Connection;
    void sendNext(Connection *c);
    void onReadyRead(Connection *c);

    QUrl m_server;
    QByteArray m_authorization;
    QSslConfiguration m_ssl;
    std::vector<std::unique_ptr<Connection>> m_connections;
    QString m_ns;
    QString m_prefix;
    int m_count = 0;
    int m_next = 0;
    int m_created = 0;
    int m_answered = 0;
    int m_lost = 0;
};

} // namespace opbench::bench
