// SPDX-License-Identifier: Apache-2.0
#include "bench/rawget.h"

namespace opbench::bench {

namespace {
constexpr qsizetype kReserve = qsizetype(64) * 1024 * 1024; // more than a 10k-Deployment list (33 MB)
}

RawGet::RawGet(QUrl server, QByteArray authorization, QSslConfiguration ssl, QObject *parent)
    : QObject(parent)
    , m_server(std::move(server))
    , m_authorization(std::move(authorization))
{
    m_in.reserve(kReserve);
    m_body.reserve(kReserve);
    connect(&m_socket, &QIODevice::readyRead, this, &RawGet::onReadyRead);
    connect(&m_socket, &QAbstractSocket::errorOccurred, this, [this](QAbstractSocket::SocketError) {
        if (!m_finished) {
            m_failed = m_socket.errorString();
            m_finished = true;
        }
    });
    if (m_server.scheme() == QLatin1String("https")) {
        m_socket.setSslConfiguration(ssl);
        m_socket.connectToHostEncrypted(m_server.host(), quint16(m_server.port()));
    } else {
        m_socket.connectToHost(m_server.host(), quint16(m_server.port()));
    }
}

void RawGet::get(const QString &path)
{
    m_in.resize(0);
    m_body.resize(0);
    m_consumed = 0;
    m_contentLength = -1;
    m_headDone = false;
    m_chunked = false;
    m_finished = false;
    m_status = 0;
    m_failed.clear();
    QByteArray req = "GET " + path.toUtf8() + " HTTP/1.1\r\nHost: " + m_server.host().toUtf8()
        + "\r\nAccept: application/json\r\n";
    if (!m_authorization.isEmpty())
        req += "Authorization: " + m_authorization + "\r\n";
    m_socket.write(req + "\r\n");
}

void RawGet::onReadyRead()
{
    const qint64 available = m_socket.bytesAvailable();
    const qsizetype at = m_in.size();
    m_in.resize(at + available);
    const qint64 got = m_socket.read(m_in.data() + at, available);
    m_in.resize(at + qMax<qint64>(0, got));
    if (m_finished || (!m_headDone && !parseHead()))
        return;
    if (m_chunked) {
        m_finished = takeChunks();
    } else {
        m_body.append(m_in.constData() + m_consumed, m_in.size() - m_consumed);
        m_consumed = m_in.size();
        m_finished = m_body.size() >= m_contentLength;
    }
    if (m_finished)
        m_in.resize(0);
}

bool RawGet::parseHead()
{
    const qsizetype end = m_in.indexOf("\r\n\r\n");
    if (end < 0)
        return false;
    const QByteArray head = m_in.left(end).toLower();
    m_status = head.mid(9, 3).toInt();
    m_chunked = head.contains("transfer-encoding: chunked");
    m_contentLength = contentLengthOf(head);
    m_consumed = end + 4;
    m_headDone = true;
    return true;
}

/// Moves whole chunks from m_in to m_body; true at the terminating zero-length chunk.
bool RawGet::takeChunks()
{
    for (;;) {
        const qsizetype lineEnd = m_in.indexOf("\r\n", m_consumed);
        if (lineEnd < 0)
            return false;
        bool ok = false;
        const qsizetype size = QByteArray(m_in.constData() + m_consumed, lineEnd - m_consumed).toLongLong(&ok, 16);
        if (!ok) {
            m_failed = QStringLiteral("bad chunk size at byte %1").arg(m_consumed);
            return true;
        }
        if (m_in.size() < lineEnd + 2 + size + 2)
            return false;
        if (size == 0)
            return true;
        m_body.append(m_in.constData() + lineEnd + 2, size);
        m_consumed = lineEnd + 2 + size + 2;
    }
}

} // namespace opbench::bench
