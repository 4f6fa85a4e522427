// SPDX-License-Identifier: Apache-2.0
#pragma once
// WatchDecoder: turns the bytes of a watch response (newline-delimited JSON events, arriving in
// arbitrary chunks) into WatchEvents. Pure: no I/O, no Qt event loop.
//
// It keeps its own line buffer, so an event split at any byte offset decodes. A line that is
// not a valid event is reported (with its first bytes) and skipped; decoding goes on.

#include "engine/api/object.h"
#include "engine/api/status.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace opbench {

struct WatchEvent
{
    enum class Type { Added, Modified, Deleted, Bookmark, Error };
    Type type = Type::Added;
    /// The object (Added/Modified/Deleted; for Bookmark the partial object the server sent).
    Object object;
    /// The object's resourceVersion (for a Bookmark, the RV to resume from).
    QString resourceVersion;
    /// For Error events: the server's Status (e.g. 410 Expired).
    Status error;

    static QString typeName(Type t);
};

class WatchDecoder
{
public:
    /// Appends bytes and decodes every complete line. Returns the events completed by them.
    QList<WatchEvent> feed(const QByteArray &chunk);
    /// The stream ended: decodes a final line that lacked its newline.
    QList<WatchEvent> finish();
    /// Messages about malformed lines since the last call ("malformed watch event …: <first
    /// bytes>").
    QStringList takeErrors();
    /// Bytes of an incomplete line still buffered.
    qsizetype pendingBytes() const { return m_buffer.size() - m_consumed; }

    /// Decodes one line (without its newline); nullopt + error text when malformed.
    static std::optional<WatchEvent> decodeLine(const QByteArray &line, QString *error);

private:
    void decodeInto(const QByteArray &line, QList<WatchEvent> &out);
    QByteArray m_buffer;
    qsizetype m_consumed = 0;
    QStringList m_errors;
};

} // namespace opbench

Q_DECLARE_METATYPE(opbench::WatchEvent)
