// SPDX-License-Identifier: Apache-2.0
#include "engine/client/watchdecoder.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace opbench {

QString WatchEvent::typeName(Type t)
{
    switch (t) {
    case Type::Added:
        return QStringLiteral("ADDED");
    case Type::Modified:
        return QStringLiteral("MODIFIED");
    case Type::Deleted:
        return QStringLiteral("DELETED");
    case Type::Bookmark:
        return QStringLiteral("BOOKMARK");
    case Type::Error:
        return QStringLiteral("ERROR");
    }
    return {};
}

static QString preview(const QByteArray &line)
{
    QString p = QString::fromUtf8(line.left(80));
    if (line.size() > 80)
        p += QStringLiteral("…");
    return p;
}

static std::optional<WatchEvent::Type> parseType(QByteArrayView t)
{
    if (t == "ADDED")
        return WatchEvent::Type::Added;
    if (t == "MODIFIED")
        return WatchEvent::Type::Modified;
    if (t == "DELETED")
        return WatchEvent::Type::Deleted;
    if (t == "BOOKMARK")
        return WatchEvent::Type::Bookmark;
    if (t == "ERROR")
        return WatchEvent::Type::Error;
    return std::nullopt;
}

/// The API server writes {"type":"X","object":{…}}: slice the object out and decode it once
/// (Object::parse validates it). Anything else takes the general path.
static std::optional<WatchEvent> decodeFast(const QByteArray &line)
{
    static const QByteArray head = "{\"type\":\"";
    static const QByteArray mid = "\",\"object\":";
    if (!line.startsWith(head))
        return std::nullopt;
    const qsizetype typeEnd = line.indexOf('"', head.size());
    if (typeEnd < 0
        || QByteArrayView(line).sliced(typeEnd).first(qMin(mid.size(), line.size() - typeEnd)) != QByteArrayView(mid))
        return std::nullopt;
    const std::optional<WatchEvent::Type> type
        = parseType(QByteArrayView(line).sliced(head.size(), typeEnd - head.size()));
    const qsizetype objStart = typeEnd + mid.size();
    qsizetype end = line.size();
    while (end > objStart && (line[end - 1] == ' ' || line[end - 1] == '\t'))
        --end;
    if (!type || *type == WatchEvent::Type::Error || end <= objStart || line[end - 1] != '}')
        return std::nullopt;
    Expected<Object> obj = Object::parse(line.mid(objStart, end - 1 - objStart));
    if (!obj || obj->isNull())
        return std::nullopt;
    WatchEvent ev;
    ev.type = *type;
    ev.object = *obj;
    ev.resourceVersion = ev.object.resourceVersion();
    return ev;
}

std::optional<WatchEvent> WatchDecoder::decodeLine(const QByteArray &line, QString *error)
{
    if (std::optional<WatchEvent> fast = decodeFast(line))
        return fast;
    auto fail = [&](const QString &why) -> std::optional<WatchEvent> {
        if (error)
            *error = QStringLiteral("malformed watch event (%1): %2").arg(why, preview(line));
        return std::nullopt;
    };
    QJsonParseError perr{};
    const QJsonDocument doc = QJsonDocument::fromJson(line, &perr);
    if (perr.error != QJsonParseError::NoError)
        return fail(QStringLiteral("%1 at offset %2").arg(perr.errorString()).arg(perr.offset));
    if (!doc.isObject())
        return fail(QStringLiteral("not a JSON object"));
    const QJsonObject root = doc.object();
    const QString type = root.value(QLatin1String("type")).toString();
    const QJsonValue objValue = root.value(QLatin1String("object"));
    if (!objValue.isObject())
        return fail(QStringLiteral("no \"object\""));
    const QJsonObject obj = objValue.toObject();
    const std::optional<WatchEvent::Type> t = parseType(type.toUtf8());
    if (!t)
        return fail(QStringLiteral("unknown type \"%1\"").arg(type));
    WatchEvent ev;
    ev.type = *t;
    if (ev.type == WatchEvent::Type::Error) {
        ev.error = obj.value(QLatin1String("kind")).toString() == QLatin1String("Status")
            ? Status::fromJson(obj, obj.value(QLatin1String("code")).toInt())
            : Status::internalError(QStringLiteral("watch ERROR event without a Status: %1").arg(preview(line)));
        return ev;
    }
    ev.object = Object::fromJson(obj);
    ev.resourceVersion = ev.object.resourceVersion();
    return ev;
}

void WatchDecoder::decodeInto(const QByteArray &line, QList<WatchEvent> &out)
{
    QByteArray l = line;
    if (l.endsWith('\r'))
        l.chop(1);
    if (l.trimmed().isEmpty())
        return;
    QString error;
    if (std::optional<WatchEvent> ev = decodeLine(l, &error))
        out.append(std::move(*ev));
    else
        m_errors.append(error);
}

QList<WatchEvent> WatchDecoder::feed(const QByteArray &chunk)
{
    QList<WatchEvent> out;
    const qsizetype searchFrom = m_buffer.size();
    m_buffer.append(chunk);
    qsizetype nl = m_buffer.indexOf('\n', searchFrom);
    while (nl >= 0) {
        decodeInto(m_buffer.mid(m_consumed, nl - m_consumed), out);
        m_consumed = nl + 1;
        nl = m_buffer.indexOf('\n', m_consumed);
    }
    // Compact once the consumed prefix dominates (amortised O(n)).
    if (m_consumed > 0 && m_consumed * 2 >= m_buffer.size()) {
        m_buffer.remove(0, m_consumed);
        m_consumed = 0;
    }
    return out;
}

QList<WatchEvent> WatchDecoder::finish()
{
    QList<WatchEvent> out;
    decodeInto(m_buffer.mid(m_consumed), out);
    m_buffer.clear();
    m_consumed = 0;
    return out;
}

QStringList WatchDecoder::takeErrors()
{
    QStringList e;
    e.swap(m_errors);
    return e;
}

} // namespace opbench
