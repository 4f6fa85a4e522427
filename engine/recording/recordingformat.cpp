// SPDX-License-Identifier: Apache-2.0
#include "engine/recording/recordingformat.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace opbench::recording {

namespace {

// Escapes `s` into `out` (no quotes): UTF-8, with JSON's escapes.
void appendEscaped(QByteArray &out, QStringView s)
{
    const QByteArray utf8 = s.toUtf8();
    for (const char c : utf8) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20)
                out += QByteArray("\\u00")
                    + QByteArray::number(static_cast<unsigned char>(c), 16).rightJustified(2, '0');
            else
                out += c;
        }
    }
}

} // namespace

void appendString(QByteArray &out, QStringView s)
{
    // Most strings are printable ASCII without quotes or backslashes: copied in one pass into
    // room made once (no UTF-8 copy, no append per byte); the rest from the first other character.
    const qsizetype at = out.size();
    out.resize(at + s.size() + 2);
    char *p = out.data() + at;
    *p++ = '"';
    const char16_t *u = s.utf16();
    qsizetype i = 0;
    for (; i < s.size(); ++i) {
        const char16_t c = u[i];
        if (c >= 0x80 || c < 0x20 || c == u'"' || c == u'\\')
            break;
        *p++ = char(c);
    }
    if (i < s.size()) {
        out.truncate(at + 1 + i);
        appendEscaped(out, s.sliced(i));
        out += '"';
        return;
    }
    *p = '"';
}

void appendField(QByteArray &out, const char *key, QStringView value)
{
    out += ",\"";
    out += key;
    out += "\":";
    appendString(out, value);
}

void appendField(QByteArray &out, const char *key, qint64 value)
{
    out += ",\"";
    out += key;
    out += "\":";
    out += QByteArray::number(value);
}

void appendBool(QByteArray &out, const char *key, bool value)
{
    out += ",\"";
    out += key;
    out += value ? "\":true" : "\":false";
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
