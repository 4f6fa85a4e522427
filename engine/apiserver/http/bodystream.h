// SPDX-License-Identifier: Apache-2.0
#pragma once
// BodyStream: a list response written to the connection item by item as the socket drains,
// as kube-apiserver's streaming list encoder does (1.33+), instead of a body built whole.
//
// The body is `head`, the items (comma-separated, each appended by a callback), then `tail`.
// Items are encoded into chunks of about kChunkBytes; each chunk is handed to the socket without
// a copy (Qt's write buffer shares a QByteArray of 4 KB or more) and framed in place with
// chunked transfer encoding; a small pool of chunk buffers is reused once the socket is done
// with them. Encoding pauses while more than kHighWaterBytes are unsent and
// resumes on bytesWritten, so neither this object nor the socket ever holds more than a few
// chunks: the memory of one list response is bounded by a constant (plus its largest item), not
// by the list. A body that fits in one chunk goes out as an ordinary Content-Length response.
//
// The socket is held through the Responder's QPointer and the stream is a child of the socket:
// a client that leaves ends the stream (Qt 6.4's own responder would write to a freed socket).
// Responder::cutBodyOnSend() (fault injection) is honoured: half the items, then the connection
// closes without the terminating chunk.

#include "engine/apiserver/http/exchange.h"

#include <QObject>

#include <array>
#include <functional>

namespace opbench::apiserver {

class BodyStream : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BodyStream)
public:
    /// Appends item `index` (no separator) to `out`.
    using AppendItem = std::function<void(qsizetype index, QByteArray &out)>;

    /// Sends a 200 response of `contentType` on `responder` whose body is `head`, the `count`
    /// items joined by ',', then `tail`. Returns at once; the rest goes out as the socket drains.
    /// `appendItem` must stay valid (capture what it needs by value) until the stream ends.
    static void send(Responder responder, const QByteArray &contentType, QByteArray head, qsizetype count,
        AppendItem appendItem, QByteArray tail);

    /// A chunk is cut after the item that makes it reach this size.
    static constexpr qsizetype kChunkBytes = qint64(64) * 1024;
    /// Encoding pauses while the socket holds more than this unsent.
    static constexpr qint64 kHighWaterBytes = qint64(128) * 1024;

    /// Streams in progress on this thread (for tests and the cost guard).
    static int active();

private:
    BodyStream(Responder responder, QByteArray tail, qsizetype count, AppendItem appendItem);
    ~BodyStream() override;
    /// A chunk buffer from the pool: one the socket has let go of (its memory is reused, so
    /// a long list does not keep faulting in fresh pages), or a new one.
    QByteArray &takeBuffer();
    /// Encodes items into a pool buffer (after a reserved framing prefix) until it reaches
    /// kChunkBytes or the items run out; appends the tail after the last item.
    QByteArray &encodeChunk(QByteArrayView start);
    /// Frames `chunk` (made by encodeChunk) in place and hands it to the socket (shared).
    void writeChunk(QByteArray &chunk);
    /// Writes chunks while the socket has room; finishes or closes when done.
    void pump();
    void finish();

    Responder m_responder;
    QByteArray m_tail;
    qsizetype m_count = 0;
    qsizetype m_stopAt = 0; // m_count, or about half of it when the body is to be cut
    qsizetype m_next = 0;
    AppendItem m_appendItem;
    std::array<QByteArray, 4> m_pool; // chunk buffers, each shared with the socket until sent
    size_t m_nextSlot = 0;
    bool m_pumping = false;
    bool m_done = false;
};

} // namespace opbench::apiserver
