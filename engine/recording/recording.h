// SPDX-License-Identifier: Apache-2.0
#pragma once
// Recording: a recording file read back (RunRecorder wrote it; docs/recording.md has the format),
// with an index a viewer can seek through: every record keeps its byte offset and line, and
// reconciles() / events() list the positions of the reconcile starts and informer events.
//
// A damaged file is read up to the damage: the records before it are kept and error() names the
// byte offset and line of the first bad record and what is wrong with it (not JSON, cut off before
// its end of line, a sequence number out of order, a missing header).

#include <QJsonObject>
#include <QList>
#include <QString>

namespace opbench {

struct RecordingRecord
{
    qint64 offset = 0; ///< byte offset of the line in the file
    int line = 0;      ///< 1-based
    qint64 seq = 0;
    QString type; ///< "header", "informer", "ev", "rs", "call", "re", "leader"; format 2 adds the raw
                  ///< "lp", "ws", "we", "wx" (list pages, watch starts, events, ends) and "qa" (queue adds)
    QJsonObject json;
};

class Recording
{
public:
    /// Reads `path`; never fails as a whole: see ok() and error().
    static Recording read(const QString &path);
    /// Parses bytes already read (`source` names them in errors).
    static Recording parse(const QByteArray &bytes, const QString &source);

    /// True when every byte was read without damage.
    [[nodiscard]] bool ok() const { return m_error.isEmpty(); }
    /// "" or "<source>: … at byte offset N (line L): …".
    [[nodiscard]] const QString &error() const { return m_error; }
    /// The byte offset of the damage (-1 when none).
    [[nodiscard]] qint64 errorOffset() const { return m_errorOffset; }

    [[nodiscard]] const QJsonObject &header() const { return m_header; }
    [[nodiscard]] const QList<RecordingRecord> &records() const { return m_records; }
    /// Positions in records() of the reconcile starts ("rs"), in order.
    [[nodiscard]] const QList<int> &reconciles() const { return m_reconciles; }
    /// Positions in records() of the informer events ("ev"), in order.
    [[nodiscard]] const QList<int> &events() const { return m_events; }

private:
    void fail(qint64 offset, int line, const QString &what);

    QString m_source;
    QString m_error;
    qint64 m_errorOffset = -1;
    QJsonObject m_header;
    QList<RecordingRecord> m_records;
    QList<int> m_reconciles;
    QList<int> m_events;
};

} // namespace opbench
