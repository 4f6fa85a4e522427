// SPDX-License-Identifier: Apache-2.0
#include "bench/apiserverrawwriter.h"

#include "bench/rawget.h"

#include <algorithm>

namespace opbench::bench {

struct RawWriter::Connection
{
    QSslSocket socket;
    QByteArray buffer;
    bool busy = false;
    bool dead = false;
};

RawWriter::RawWriter(QUrl server, QByteArray authorization, QSslConfiguration ssl, QObject *parent)
    : QObject(parent)
    , m_server(std::move(server))
    , m_authorization(std::move(authorization))
    , m_ssl(std::move(ssl))
{ }

RawWriter::~RawWriter() = default;

void RawWriter::start(int connections, int count, const QString &ns, const QString &prefix)
{
    m_ns = ns;
    m_prefix = prefix;
    m_count = count;
    for (int i = 0; i < connections; ++i) {
        auto c = std::make_unique<Connection>();
        Connection *raw = c.get();
        connect(&raw->socket, &QIODevice::readyRead, this, [this, raw]() { onReadyRead(raw); });
        connect(&raw->socket, &QAbstractSocket::errorOccurred, this, [this, raw](QAbstractSocket::SocketError) {
            if (!raw->dead && raw->busy)
                ++m_lost;
            raw->dead = true;
        });
        if (m_server.scheme() == QLatin1String("https")) {
            raw->socket.setSslConfiguration(m_ssl);
            raw->socket.connectToHostEncrypted(m_server.host(), quint16(m_server.port()));
        } else {
            raw->socket.connectToHost(m_server.host(), quint16(m_server.port()));
        }
        m_connections.push_back(std::move(c));
        sendNext(raw);
    }
}

void RawWriter::sendNext(Connection *c)
{
    if (m_next >= m_count || c->dead) {
        c->busy = false;
        return;
    }
    const int i = m_next++;
    const QByteArray body = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
        + m_prefix.toUtf8() + '-' + QByteArray::number(i) + "\"},\"data\":{\"i\":\"" + QByteArray::number(i) + "\"}}";
    QByteArray req = "POST /api/v1/namespaces/" + m_ns.toUtf8()
        + "/configmaps HTTP/1.1\r\nHost: " + m_server.host().toUtf8()
        + "\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: "
        + QByteArray::number(body.size()) + "\r\n";
    if (!m_authorization.isEmpty())
        req += "Authorization: " + m_authorization + "\r\n";
    c->busy = true;
    c->socket.write(req + "\r\n" + body);
}

void RawWriter::onReadyRead(Connection *c)
{
    c->buffer += c->socket.readAll();
    for (;;) {
        const qsizetype headEnd = c->buffer.indexOf("\r\n\r\n");
        if (headEnd < 0)
            return;
        const QByteArray head = c->buffer.left(headEnd).toLower();
        const qint64 length = std::max<qint64>(0, contentLengthOf(head));
        if (c->buffer.size() < headEnd + 4 + length)
            return;
        if (c->buffer.startsWith("HTTP/1.1 201"))
            ++m_created;
        ++m_answered;
        c->buffer.remove(0, headEnd + 4 + length);
        sendNext(c);
    }
}

} // namespace opbench::bench
