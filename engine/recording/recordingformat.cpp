// SPDX-License-Identifier: Apache-2.0
#include "engine/recording/recordingformat.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <charconv>
#include <cstring>

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
