// SPDX-License-Identifier: Apache-2.0
#include "bench/apiserverwatchfanout.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace opbench::bench {

qint64 steadyNowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

struct WatchFanout::Stream
{
    QSslSocket socket;
    QByteArray raw; // bytes not parsed yet
    bool headersDone = false;
    bool counted = false; // established/failed recorded
};

WatchFanout::WatchFanout(QUrl server, QByteArray authorization, QSslConfiguration ssl, QObject *parent)
    : QObject(parent)
    , m_server(std::move(server))
    , m_authorization(std::move(authorization))
    , m_ssl(std::move(ssl))
{ }

WatchFanout::~WatchFanout() = default;

void WatchFanout::open(int count, const QString &pathAndQuery)
{
    const bool tls = m_server.scheme() == QLatin1String("https");
    QByteArray request = "GET " + pathAndQuery.toUtf8() + " HTTP/1.1\r\nHost: " + m_server.host().toUtf8()
        + "\r\nAccept: application/json\r\n";
    if (!m_authorization.isEmpty())
        request += "Authorization: " + m_authorization + "\r\n";
    request += "\r\n";
    for (int i = 0; i < count; ++i) {
        auto s = std::make_unique<Stream>();
        Stream *raw = s.get();
        connect(&raw->socket, &QIODevice::readyRead, this, [this, raw]() { onReadyRead(raw); });
        connect(&raw->socket, &QAbstractSocket::errorOccurred, this, [this, raw](QAbstractSocket::SocketError) {
            if (!raw->counted) {
                raw->counted = true;
                ++m_failed;
                Q_EMIT progress();
            }
        });
        if (tls) {
            raw->socket.setSslConfiguration(m_ssl);
            raw->socket.connectToHostEncrypted(m_server.host(), quint16(m_server.port()));
        } else {
            raw->socket.connectToHost(m_server.host(), quint16(m_server.port()));
        }
        raw->socket.write(request); // buffered until connected (and encrypted)
        m_streams.push_back(std::move(s));
    }
}

void WatchFanout::onReadyRead(Stream *s)
{
    s->raw += s->socket.readAll();
    if (!s->headersDone) {
        const qsizetype end = s->raw.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        const bool ok = s->raw.startsWith("HTTP/1.1 200");
        s->raw.remove(0, end + 4);
        s->headersDone = true;
        if (!s->counted) {
            s->counted = true;
            ok ? ++m_established : ++m_failed;
        }
        Q_EMIT progress();
    }
    parseBody(s);
}

void WatchFanout::parseBody(Stream *s)
{
    // Chunked framing: "<hex>\r\n<data>\r\n"; every event is one chunk ending in '\n'.
    bool any = false;
    for (;;) {
        const qsizetype lineEnd = s->raw.indexOf("\r\n");
        if (lineEnd < 0)
            break;
        bool ok = false;
        const qsizetype size = s->raw.left(lineEnd).toLongLong(&ok, 16);
        if (!ok || s->raw.size() < lineEnd + 2 + size + 2)
            break;
        const QByteArray data = s->raw.mid(lineEnd + 2, size);
        s->raw.remove(0, lineEnd + 2 + size + 2);
        if (size == 0)
            continue; // terminating chunk
        const qint64 now = steadyNowNs();
        const QJsonObject event = QJsonDocument::fromJson(data).object();
        const QString sent = event.value(QLatin1String("object"))
                                 .toObject()
                                 .value(QLatin1String("data"))
                                 .toObject()
                                 .value(QLatin1String("sentNs"))
                                 .toString();
        if (!sent.isEmpty()) {
            m_latenciesNs << (now - sent.toLongLong());
            any = true;
        }
    }
    if (any)
        Q_EMIT progress();
}

double WatchFanout::percentileMs(double p) const
{
    if (m_latenciesNs.isEmpty())
        return 0;
    QList<qint64> sorted = m_latenciesNs;
    std::sort(sorted.begin(), sorted.end());
    const qsizetype idx
        = std::clamp<qsizetype>(qsizetype(std::ceil(p / 100.0 * double(sorted.size()))) - 1, 0, sorted.size() - 1);
    return double(sorted.at(idx)) / 1e6;
}

} // namespace opbench::bench
