// SPDX-License-Identifier: Apache-2.0
#pragma once
// WatchFanout (opbench-bench apiserver): N concurrent watch streams on raw sockets (one TCP/TLS
// connection each, no QNAM 6-connections-per-host limit) that parse the chunked NDJSON events and
// record, per delivered event, the latency from the writer's timestamp carried in the object
// (data.sentNs, steady clock of this process) to its arrival.

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QUrl>

#include <memory>

namespace opbench::bench {

/// Nanoseconds on the steady clock (what writers put in data.sentNs).
qint64 steadyNowNs();

class WatchFanout : public QObject
{
    Q_OBJECT
public:
    /// `server` is http(s)://host:port; `authorization` the full header value (may be empty).
    WatchFanout(QUrl server, QByteArray authorization, QSslConfiguration ssl, QObject *parent = nullptr);
    ~WatchFanout() override;

    /// Opens `count` watches of `pathAndQuery` (add watch=1 yourself).
    void open(int count, const QString &pathAndQuery);
    /// Streams whose response headers (HTTP 200) have arrived.
    int established() const { return m_established; }
    /// Streams that failed (connection error, non-200 status).
    int failed() const { return m_failed; }
    /// Events received over all streams, and their latencies in nanoseconds.
    qint64 delivered() const { return qint64(m_latenciesNs.size()); }
    const QList<qint64> &latenciesNs() const { return m_latenciesNs; }
    /// The p-th percentile (0..100) of the latencies in milliseconds; 0 when there are none.
    double percentileMs(double p) const;

Q_SIGNALS:
    void progress();

private:
    struct Stream;
    void onReadyRead(Stream *s);
    void parseBody(Stream *s);

    QUrl m_server;
    QByteArray m_authorization;
    QSslConfiguration m_ssl;
    std::vector<std::unique_ptr<Stream>> m_streams;
    int m_established = 0;
    int m_failed = 0;
    QList<qint64> m_latenciesNs;
};

} // namespace opbench::bench
