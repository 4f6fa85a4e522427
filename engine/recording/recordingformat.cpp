// SPDX-License-Identifier: Apache-2.0
#include "engine/recording/recordingformat.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <charconv>
#include <cstring>
#include <optional>

namespace opbench::recording {

namespace {

// The appenders below write through a pointer into room made once (resize) and cut the rest
// (truncate): no temporary UTF-8 copy, no append call per piece. The room for a string is its
// worst case, 6 bytes per UTF-16 unit (`\u00XX`; a non-ASCII unit takes at most 3).
constexpr qsizetype roomFor(qsizetype units) { return 2 + 6 * units; }

char *grow(QByteArray &out, qsizetype n)
{
    const qsizetype at = out.size();
    out.resize(at + n);
    return out.data() + at;
}

void cut(QByteArray &out, const char *end) { out.truncate(end - out.constData()); }

char *putKey(char *p, const char *key, size_t keySize)
{
    *p++ = ',';
    *p++ = '"';
    std::memcpy(p, key, keySize);
    p += keySize;
    *p++ = '"';
    *p++ = ':';
    return p;
}

char *putEscape(char *p, char16_t c)
{
    static constexpr char hex[] = "0123456789abcdef";
    *p++ = '\\';
    switch (c) {
    case u'"':
    case u'\\':
        *p++ = char(c);
        break;
    case u'\n':
        *p++ = 'n';
        break;
    case u'\r':
        *p++ = 'r';
        break;
    case u'\t':
        *p++ = 't';
        break;
    default:
        *p++ = 'u';
        *p++ = '0';
        *p++ = '0';
        *p++ = hex[(c >> 4) & 0xf];
        *p++ = hex[c & 0xf];
    }
    return p;
}

// `s` as a JSON string: quoted, UTF-8, escaped; a lone surrogate becomes U+FFFD.
char *putString(char *p, QStringView s)
{
    *p++ = '"';
    const char16_t *u = s.utf16();
    const qsizetype n = s.size();
    for (qsizetype i = 0; i < n; ++i) {
        const char16_t c = u[i];
        if (c < 0x80) {
            if (c >= 0x20 && c != u'"' && c != u'\\')
                *p++ = char(c);
            else
                p = putEscape(p, c);
        } else if (c < 0x800) {
            *p++ = char(0xc0 | (c >> 6));
            *p++ = char(0x80 | (c & 0x3f));
        } else if (QChar::isHighSurrogate(c) && i + 1 < n && QChar::isLowSurrogate(u[i + 1])) {
            const char32_t cp = QChar::surrogateToUcs4(c, u[++i]);
            *p++ = char(0xf0 | (cp >> 18));
            *p++ = char(0x80 | ((cp >> 12) & 0x3f));
            *p++ = char(0x80 | ((cp >> 6) & 0x3f));
            *p++ = char(0x80 | (cp & 0x3f));
        } else {
            const char16_t v = QChar::isSurrogate(c) ? char16_t(0xfffd) : c;
            *p++ = char(0xe0 | (v >> 12));
            *p++ = char(0x80 | ((v >> 6) & 0x3f));
            *p++ = char(0x80 | (v & 0x3f));
        }
    }
    *p++ = '"';
    return p;
}

} // namespace

void appendString(QByteArray &out, QStringView s)
{
    char *p = grow(out, roomFor(s.size()));
    cut(out, putString(p, s));
}

void appendField(QByteArray &out, const char *key, QStringView value)
{
    const size_t keySize = std::strlen(key);
    char *p = grow(out, qsizetype(keySize) + 4 + roomFor(value.size()));
    cut(out, putString(putKey(p, key, keySize), value));
}

void appendField(QByteArray &out, const char *key, qint64 value)
{
    const size_t keySize = std::strlen(key);
    char *p = putKey(grow(out, qsizetype(keySize) + 4 + 20), key, keySize);
    cut(out, std::to_chars(p, p + 20, value).ptr);
}

void appendBool(QByteArray &out, const char *key, bool value)
{
    const size_t keySize = std::strlen(key);
    char *p = putKey(grow(out, qsizetype(keySize) + 4 + 5), key, keySize);
    std::memcpy(p, value ? "true" : "false", value ? 4 : 5);
    cut(out, p + (value ? 4 : 5));
}

bool isSecret(const GroupVersionKind &gvk) { return gvk.group.isEmpty() && gvk.kind == QLatin1String("Secret"); }

QJsonObject redacted(QJsonObject json)
{
    for (const QString &field : {QStringLiteral("data"), QStringLiteral("stringData")}) {
        QJsonObject values = json.value(field).toObject();
        for (auto it = values.begin(); it != values.end(); ++it)
            it.value() = QLatin1String(kRedacted);
        if (json.contains(field))
            json.insert(field, values);
    }
    return json;
}

QByteArray redactedJson(const Object &obj)
{
    if (!isSecret(obj.gvk()))
        return obj.toJsonBytes();
    return QJsonDocument(redacted(obj.json())).toJson(QJsonDocument::Compact);
}

namespace {

bool isVolatile(const QString &key)
{
    return key == QLatin1String("resourceVersion") || key == QLatin1String("managedFields")
        || key == QLatin1String("creationTimestamp") || key == QLatin1String("lastTransitionTime")
        || key == QLatin1String("lastUpdateTime") || key == QLatin1String("lastHeartbeatTime");
}

QJsonValue stripped(const QJsonValue &v)
{
    if (v.isObject())
        return withoutVolatile(v.toObject());
    if (v.isArray()) {
        QJsonArray a = v.toArray();
        for (auto it = a.begin(); it != a.end(); ++it)
            *it = stripped(*it);
        return a;
    }
    return v;
}

} // namespace

QJsonObject withoutVolatile(QJsonObject json)
{
    for (auto it = json.begin(); it != json.end();) {
        if (isVolatile(it.key())) {
            it = json.erase(it);
            continue;
        }
        it.value() = stripped(it.value());
        ++it;
    }
    return json;
}

} // namespace opbench::recording

namespace opbench::recording {

namespace {

Cause::EventType eventOf(const QString &name)
{
    for (const Cause::EventType e :
        {Cause::EventType::Added, Cause::EventType::Modified, Cause::EventType::Deleted, Cause::EventType::Sync})
        if (Cause::eventName(e) == name)
            return e;
    return Cause::EventType::None;
}

/// "30s", "1.5s", "500ms" (Cause::describe()'s durations); nullopt for anything else.
std::optional<Clock::Duration> durationOf(const QString &text)
{
    const bool ms = text.endsWith(QLatin1String("ms"));
    if (!ms && !text.endsWith(u's'))
        return std::nullopt;
    bool ok = false;
    const double value = text.chopped(ms ? 2 : 1).toDouble(&ok);
    if (!ok || value < 0)
        return std::nullopt;
    return std::chrono::duration_cast<Clock::Duration>(
        std::chrono::duration<double, std::milli>(ms ? value : value * 1000));
}

/// Fills the object of an event cause from "[GVK ]KEY[ rv RV]"; false when it is not of that form.
bool readSource(Cause &c, QStringList words)
{
    if (words.size() >= 3 && words.at(words.size() - 2) == QLatin1String("rv")) {
        c.resourceVersion = words.last();
        words.resize(words.size() - 2);
    }
    if (words.size() == 2)
        c.sourceGvk = words.takeFirst();
    if (words.size() != 1)
        return false;
    c.sourceKey = words.first();
    return true;
}

std::optional<Cause> eventCause(Cause::Kind kind, QStringList words)
{
    Cause c;
    c.kind = kind;
    if (kind == Cause::Kind::InitialList) {
        c.event = Cause::EventType::Added;
    } else {
        if (words.isEmpty() || eventOf(words.first()) == Cause::EventType::None)
            return std::nullopt;
        c.event = eventOf(words.takeFirst());
    }
    return readSource(c, std::move(words)) ? std::optional(c) : std::nullopt;
}

std::optional<Cause> retryCause(const QString &text)
{
    // "retry #N after D" or "retry #N after D: error"
    static const QLatin1String kPrefix("retry #");
    const qsizetype colon = text.indexOf(QLatin1String(": "));
    const QString head = colon < 0 ? text : text.left(colon);
    const QStringList words = head.mid(kPrefix.size()).split(u' ');
    bool ok = false;
    const int attempt = words.value(0).toInt(&ok);
    const auto delay
        = words.size() == 3 && words.at(1) == QLatin1String("after") ? durationOf(words.at(2)) : std::nullopt;
    if (!ok || !delay)
        return std::nullopt;
    Cause c = Cause::rateLimitedRetry(attempt, colon < 0 ? QString() : text.mid(colon + 2));
    c.delay = *delay;
    return c;
}

std::optional<Cause> knownCause(const QString &text)
{
    static const QLatin1String kWatch("watch "), kList("initial list "), kAfter("requeue after "), kRetry("retry #"),
        kManual("manual: ");
    const auto wordsAfter = [&text](qsizetype n) { return text.mid(n).split(u' ', Qt::SkipEmptyParts); };
    if (text.startsWith(kWatch))
        return eventCause(Cause::Kind::WatchEvent, wordsAfter(kWatch.size()));
    const QString owner = QStringLiteral("owner \u2190 ");
    if (text.startsWith(owner))
        return eventCause(Cause::Kind::OwnerMapping, wordsAfter(owner.size()));
    if (text.startsWith(kList))
        return eventCause(Cause::Kind::InitialList, wordsAfter(kList.size()));
    if (text.startsWith(kAfter)) {
        const auto d = durationOf(text.mid(kAfter.size()));
        return d ? std::optional(Cause::requeueAfter(*d)) : std::nullopt;
    }
    if (text.startsWith(kRetry))
        return retryCause(text);
    if (text == QLatin1String("manual"))
        return Cause::manual();
    if (text.startsWith(kManual))
        return Cause::manual(text.mid(kManual.size()));
    if (text == QLatin1String("unspecified"))
        return Cause();
    return std::nullopt;
}

} // namespace

Cause causeFromText(const QString &text)
{
    std::optional<Cause> c = knownCause(text);
    return c ? *c : Cause::manual(text);
}

} // namespace opbench::recording
