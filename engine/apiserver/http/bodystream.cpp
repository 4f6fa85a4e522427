// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/http/bodystream.h"

#include <QSslSocket>

#include <atomic>
#include <cstdio>
#include <cstring>

namespace opbench::apiserver {

namespace {

// Room kept in front of each chunk for its size line ("<hex>\r\n", at most 16 hex digits), so
// that the chunk is framed where it was encoded.
constexpr qsizetype kPrefix = 18;
// Capacity beyond kChunkBytes: the item that crosses kChunkBytes usually fits without a regrowth.
constexpr qsizetype kSlack = qint64(16) * 1024;

std::atomic<int> g_active{0};

qint64 unsent(const QTcpSocket *s)
{
    qint64 n = s->bytesToWrite();
    if (const auto *ssl = qobject_cast<const QSslSocket *>(s))
        n += ssl->encryptedBytesToWrite();
    return n;
}

} // namespace

int BodyStream::active() { return g_active.load(); }

BodyStream::BodyStream(Responder responder, QByteArray tail, qsizetype count, AppendItem appendItem)
    : m_responder(std::move(responder))
    , m_tail(std::move(tail))
    , m_count(count)
    , m_stopAt(count)
    , m_appendItem(std::move(appendItem))
{
    ++g_active;
}

BodyStream::~BodyStream() { --g_active; }

void BodyStream::send(Responder responder, const QByteArray &contentType, QByteArray head, qsizetype count,
    AppendItem appendItem, QByteArray tail)
{
    QTcpSocket *socket = responder.socket();
    if (!socket || responder.sent())
        return;
    auto *stream = new BodyStream(responder, std::move(tail), count, std::move(appendItem));
    QByteArray &first = stream->encodeChunk(head);
    if (stream->m_done) { // all of it in one chunk: an ordinary response (send() cuts it if asked)
        QByteArray body = std::move(first);
        delete stream;
        body.remove(0, kPrefix); // O(1): moves the start, not the bytes
        responder.send(200, contentType, body);
        return;
    }
    if (responder.cutsBody()) { // injected reset: about half the items, then the connection closes
        stream->m_stopAt = qMax(stream->m_next, count / 2);
        stream->m_done = stream->m_next >= stream->m_stopAt;
    }
    if (!responder.beginChunked(200, contentType)) {
        delete stream;
        return;
    }
    stream->setParent(socket); // a socket that goes takes the stream with it
    connect(socket, &QAbstractSocket::disconnected, stream, &QObject::deleteLater);
    connect(socket, &QIODevice::bytesWritten, stream, &BodyStream::pump);
    if (auto *ssl = qobject_cast<QSslSocket *>(socket))
        connect(ssl, &QSslSocket::encryptedBytesWritten, stream, &BodyStream::pump);
    stream->writeChunk(first);
    stream->pump();
}

QByteArray &BodyStream::takeBuffer()
{
    for (QByteArray &b : m_pool) {
        if (b.isDetached()) { // the socket has sent it and let it go: reuse its memory
            b.truncate(0);
            return b;
        }
    }
    QByteArray &b = m_pool[m_nextSlot++ % m_pool.size()]; // all out: the socket keeps that one
    b = QByteArray();
    b.reserve(kPrefix + kChunkBytes + kSlack);
    return b;
}

QByteArray &BodyStream::encodeChunk(QByteArrayView start)
{
    QByteArray &buf = takeBuffer();
    buf.resize(kPrefix);
    buf += start;
    while (m_next < m_stopAt && buf.size() - kPrefix < kChunkBytes) {
        if (m_next > 0)
            buf += ',';
        m_appendItem(m_next, buf);
        ++m_next;
    }
    if (m_next == m_stopAt) {
        if (m_stopAt == m_count)
            buf += m_tail;
        m_done = true; // everything there is to send is encoded
    }
    return buf;
}

void BodyStream::writeChunk(QByteArray &chunk)
{
    QTcpSocket *s = m_responder.socket();
    if (!s)
        return;
    const qsizetype n = chunk.size() - kPrefix;
    const bool terminate = m_done && m_stopAt == m_count;
    if (n == 0 && !terminate)
        return; // an empty chunk would end the body
    qsizetype start = kPrefix;
    if (n > 0) {
        chunk += "\r\n";
        char line[kPrefix + 1];
        const int len = std::snprintf(line, sizeof line, "%llx\r\n", static_cast<unsigned long long>(n));
        start = kPrefix - len;
        std::memcpy(chunk.data() + start, line, size_t(len));
    }
    if (terminate)
        chunk += "0\r\n\r\n";
    chunk.remove(0, start); // O(1) (not shared); appends came first so nothing moves
    s->write(chunk);        // 4 KB or more: Qt's write buffer shares this array, no copy
}

void BodyStream::pump()
{
    if (m_pumping)
        return;
    m_pumping = true;
    QTcpSocket *s = m_responder.socket();
    while (s && s->state() == QAbstractSocket::ConnectedState && !m_done && unsent(s) < kHighWaterBytes)
        writeChunk(encodeChunk({}));
    m_pumping = false;
    if (!s || s->state() != QAbstractSocket::ConnectedState || m_done)
        finish();
}

void BodyStream::finish()
{
    if (QTcpSocket *s = m_responder.socket()) {
        disconnect(s, nullptr, this, nullptr);
        if (m_done && m_stopAt < m_count) { // injected reset: the client gets half, then EOF
            s->flush();
            s->disconnectFromHost();
        }
    }
    m_done = true;
    deleteLater();
}

} // namespace opbench::apiserver
