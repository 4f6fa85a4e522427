// SPDX-License-Identifier: Apache-2.0
// objectencoding::pack(QJsonObject) (Object::fromJson): packs a QJsonObject without printing it
// and parsing it back.
#include "engine/api/jsonwriter.h"
#include "engine/api/objectencoding_p.h"

#include <QCborValue>
#include <QJsonArray>
#include <QJsonObject>
#include <QLocale>

namespace opbench::objectencoding {

namespace dom = simdjson::dom;
using detail::metaField;
using detail::writeKey;
using detail::writeString;

namespace {

// From QJsonObject (Object::fromJson), without printing and re-parsing it: the bytes must be
// exactly those of packing QJsonDocument(obj).toJson(Compact), so every step below writes what
// that text would have become.

/// `s` as UTF-8 in `buf` (reused: no allocation once it has grown), ASCII copied directly.
std::string_view utf8Of(const QString &s, std::string &buf)
{
    const qsizetype n = s.size();
    buf.resize(size_t(n));
    const char16_t *p = reinterpret_cast<const char16_t *>(s.constData());
    char *d = buf.data();
    // Narrow every unit without a branch, then check once whether any was not ASCII.
    char16_t any = 0;
    qsizetype i = 0;
    for (; i + 4 <= n; i += 4) {
        any |= char16_t(p[i] | p[i + 1] | p[i + 2] | p[i + 3]);
        d[i] = char(p[i]);
        d[i + 1] = char(p[i + 1]);
        d[i + 2] = char(p[i + 2]);
        d[i + 3] = char(p[i + 3]);
    }
    for (; i < n; ++i) {
        any |= p[i];
        d[i] = char(p[i]);
    }
    if (any >= 0x80) {
        const QByteArray u = s.toUtf8();
        buf.assign(u.constData(), size_t(u.size()));
    }
    return buf;
}

void writeUtf8Key(std::string &out, const QString &key, bool &enumLike)
{
    thread_local std::string buf;
    enumLike = writeKey(out, utf8Of(key, buf));
}

void writeQString(std::string &out, const QString &s, bool enumLike)
{
    thread_local std::string buf;
    writeString(out, utf8Of(s, buf), enumLike);
}

// A number as Qt prints it (integers stored as integers, doubles in their shortest form), read
// back as the packer reads JSON numbers (integers stay integers; anything with a fraction or an
// exponent is a double, printed shortest).
void writeQNumber(std::string &out, const QJsonValue &v)
{
    const QCborValue c = QCborValue::fromJsonValue(v);
    if (c.isInteger()) {
        out.append(std::to_string(c.toInteger()));
        return;
    }
    const double d = v.toDouble();
    if (!qIsFinite(d)) {
        out.append("null");
        return;
    }
    const QByteArray text = QByteArray::number(d, 'g', QLocale::FloatingPointShortest);
    dom::element el;
    thread_local dom::parser numbers;
    if (numbers.parse(text.constData(), size_t(text.size())).get(el) != simdjson::SUCCESS) {
        out.append(text.constData(), size_t(text.size()));
        return;
    }
    jsonwriter::writeScalar(out, el);
}

void writeQValue(std::string &out, const QJsonValue &v, bool enumLike);

void writeQObject(std::string &out, const QJsonObject &o)
{
    out.push_back('{');
    bool first = true;
    for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
        if (!first)
            out.push_back(',');
        first = false;
        bool enumLike = false;
        writeUtf8Key(out, it.key(), enumLike);
        writeQValue(out, it.value(), enumLike);
    }
    out.push_back('}');
}

void writeQValue(std::string &out, const QJsonValue &v, bool enumLike)
{
    switch (v.type()) {
    case QJsonValue::Object:
        writeQObject(out, v.toObject());
        break;
    case QJsonValue::Array: {
        out.push_back('[');
        bool first = true;
        const QJsonArray items = v.toArray();
        for (const auto &e : items) {
            if (!first)
                out.push_back(',');
            first = false;
            writeQValue(out, e, false);
        }
        out.push_back(']');
        break;
    }
    case QJsonValue::String:
        writeQString(out, v.toString(), enumLike);
        break;
    case QJsonValue::Bool:
        out.append(v.toBool() ? "true" : "false");
        break;
    case QJsonValue::Double:
        writeQNumber(out, v);
        break;
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        out.append("null");
        break;
    }
}

} // namespace

PackResult pack(std::string &out, const QJsonObject &obj, JsonFields *fields)
{
    PackResult result;
    const std::size_t base = out.size();
    (void)detail::takeTokenGrowth();
    out.push_back('{');
    bool first = true;
    for (auto it = obj.constBegin(); it != obj.constEnd(); ++it) {
        if (!first)
            out.push_back(',');
        first = false;
        bool enumLike = false;
        const QString key = it.key();
        writeUtf8Key(out, key, enumLike);
        const QJsonValue value = it.value();
        if (fields && key == QLatin1String("apiVersion"))
            fields->apiVersion = value;
        else if (fields && key == QLatin1String("kind"))
            fields->kind = value;
        if (key != QLatin1String("metadata") || !value.isObject()) {
            writeQValue(out, value, enumLike);
            continue;
        }
        // metadata, recording where each known field's value lands (as writeMetadata does).
        const QJsonObject meta = value.toObject();
        out.push_back('{');
        bool firstMeta = true;
        for (auto m = meta.constBegin(); m != meta.constEnd(); ++m) {
            const QString metaKey = m.key();
            if (metaKey == QLatin1String("managedFields"))
                result.hasManagedFields = true;
            if (!firstMeta)
                out.push_back(',');
            firstMeta = false;
            thread_local std::string buf;
            const std::string_view kv = utf8Of(metaKey, buf);
            const bool metaEnumLike = writeKey(out, kv);
            const std::size_t start = out.size();
            writeQValue(out, m.value(), metaEnumLike);
            if (const int field = metaField(kv); field >= 0)
                result.meta[std::size_t(field)] = {std::uint32_t(start - base), std::uint32_t(out.size() - start)};
            else if (fields && kv == "namespace")
                fields->ns = m.value();
            else if (fields && kv == "generation")
                fields->generation = m.value();
        }
        out.push_back('}');
    }
    out.push_back('}');
    result.unpackedSize = out.size() - base + detail::takeTokenGrowth();
    return result;
}

} // namespace opbench::objectencoding
