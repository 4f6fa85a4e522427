// SPDX-License-Identifier: Apache-2.0
#include "engine/recording/recording.h"

#include "engine/recording/recordingformat.h"

#include <QFile>
#include <QJsonDocument>

namespace opbench {

Recording Recording::read(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        Recording r;
        r.m_source = path;
        r.fail(0, 0, QStringLiteral("cannot be read: ") + f.errorString());
        return r;
    }
    return parse(f.readAll(), path);
}

void Recording::fail(qint64 offset, int line, const QString &what)
{
    m_errorOffset = offset;
    m_error = line > 0
        ? QStringLiteral("%1: damaged at byte offset %2 (line %3): %4").arg(m_source).arg(offset).arg(line).arg(what)
        : QStringLiteral("%1: %2").arg(m_source, what);
}

Recording Recording::parse(const QByteArray &bytes, const QString &source)
{
    Recording r;
    r.m_source = source;
    qint64 offset = 0;
    int line = 0;
    while (offset < bytes.size()) {
        ++line;
        const qint64 end = bytes.indexOf('\n', offset);
        if (end < 0) {
            r.fail(offset, line,
                QStringLiteral("the record is cut off (no end of line; %1 bytes)").arg(bytes.size() - offset));
            break;
        }
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(bytes.mid(offset, end - offset), &err);
        if (err.error != QJsonParseError::NoError || !doc.isObject()) {
            r.fail(offset, line,
                QStringLiteral("not a JSON record (%1 at column %2)")
                    .arg(err.error != QJsonParseError::NoError ? err.errorString() : QStringLiteral("not an object"))
                    .arg(err.offset + 1));
            break;
        }
        RecordingRecord rec{offset, line, 0, {}, doc.object()};
        rec.seq = qint64(rec.json.value(QLatin1String("seq")).toDouble(-1));
        rec.type = rec.json.value(QLatin1String("t")).toString();
        const qint64 expected = r.m_records.size();
        if (rec.seq != expected) {
            r.fail(offset, line, QStringLiteral("sequence number %1 where %2 was expected").arg(rec.seq).arg(expected));
            break;
        }
        if (expected == 0) {
            const QString format = rec.json.value(QLatin1String("format")).toString();
            if (rec.type != QLatin1String("header")
                || (format != QLatin1String(recording::kFormat) && format != QLatin1String(recording::kFormatV1))) {
                r.fail(offset, line,
                    QStringLiteral("not an opbench recording (the first record is not a \"%1\" header)")
                        .arg(QLatin1String(recording::kFormat)));
                break;
            }
            r.m_header = rec.json;
        }
        if (rec.type == QLatin1String("rs"))
            r.m_reconciles.append(int(r.m_records.size()));
        else if (rec.type == QLatin1String("ev"))
            r.m_events.append(int(r.m_records.size()));
        r.m_records.append(std::move(rec));
        offset = end + 1;
    }
    if (r.m_records.isEmpty() && r.m_error.isEmpty())
        r.fail(0, 1, QStringLiteral("empty file (no header)"));
    return r;
}

} // namespace opbench
