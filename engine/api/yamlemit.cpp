// SPDX-License-Identifier: Apache-2.0
// The writing half of the YAML codec (yamlcodec.h): JSON objects to YAML documents, quoting
// whatever would read back as another type, in the key order kubectl prints.
#include "engine/api/yamlcodec.h"

#include "engine/api/yamlscalars_p.h"

#include <QJsonArray>
#include <QSet>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>

namespace opbench {

using namespace yamlscalars;

namespace {

bool readsAsOtherType(const QString &s) { return !resolvePlainYamlScalar(s).isString() || isSpecialFloat(s); }

constexpr qsizetype kLongKey = 128;

bool needsDoubleQuotes(const QString &s)
{
    if (s.isEmpty() || readsAsOtherType(s))
        return true;
    if (s.front().isSpace() || s.back().isSpace())
        return true;
    static const QString indicators = QStringLiteral("-?:,[]{}#&*!|>'\"%@`");
    if (indicators.contains(s.front()))
        return true;
    if (s.contains(QLatin1String(": ")) || s.contains(QLatin1String(" #")) || s.endsWith(u':') || s.contains(u'\t'))
        return true;
    for (QChar c : s)
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            return true;
    return false;
}

// A literal block (`|`) round-trips only for text ending in exactly one newline with no
// leading blank on its first line.
bool fitsLiteralBlock(const QString &s)
{
    if (!s.contains(u'\n') || !s.endsWith(u'\n') || s.endsWith(QLatin1String("\n\n")))
        return false;
    if (s.front().isSpace())
        return false;
    for (QChar c : s)
        if ((c.unicode() < 0x20 && c != u'\n') || c.unicode() == 0x7f)
            return false;
    for (const QString &line : s.split(u'\n'))
        if (!line.isEmpty() && line.back().isSpace())
            return false;
    return true;
}

void emitString(YAML::Emitter &e, const QString &s)
{
    if (fitsLiteralBlock(s))
        e << YAML::Literal;
    else if (s.contains(u'\n') || needsDoubleQuotes(s))
        e << YAML::DoubleQuoted;
    e << s.toStdString();
}

void emitNumber(YAML::Emitter &e, const QJsonValue &v)
{
    const double d = v.toDouble();
    // Qt keeps an integer literal beyond 2^53 as a double: written as an integer it would read
    // back as an int64 (another type), so such a double keeps its exponent form.
    const bool wideDouble = std::fabs(d) > 9007199254740992.0 && v.toVariant().typeId() == QMetaType::Double;
    if (wideDouble && std::trunc(d) == d) {
        char buf[40];
        auto r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
        e << std::string(buf, r.ptr);
        return;
    }
    if (std::trunc(d) == d && std::fabs(d) <= 9.3e18) {
        e << static_cast<long long>(v.toInteger(static_cast<qint64>(d)));
        return;
    }
    char buf[40];
    auto r = std::to_chars(buf, buf + sizeof buf, d);
    std::string text(buf, r.ptr);
    if (!parseYamlFloat(QString::fromStdString(text))) // e.g. "1e+300" lacks nothing, but "inf" would
        text = "\"" + text + "\"";
    e << text;
}

void emitValue(YAML::Emitter &e, const QJsonValue &v, int depth, bool inMetadata);

QStringList orderedKeys(const QJsonObject &o, int depth, bool inMetadata)
{
    static const QStringList top{QStringLiteral("apiVersion"), QStringLiteral("kind"), QStringLiteral("metadata"),
        QStringLiteral("spec"), QStringLiteral("status")};
    static const QStringList meta{QStringLiteral("name"), QStringLiteral("generateName"), QStringLiteral("namespace")};
    const QStringList *first = depth == 0 ? &top : (inMetadata ? &meta : nullptr);
    QStringList keys;
    if (first)
        for (const QString &k : *first)
            if (o.contains(k))
                keys << k;
    for (const QString &k : o.keys())
        if (!first || !first->contains(k))
            keys << k;
    return keys;
}

void emitObject(YAML::Emitter &e, const QJsonObject &o, int depth, bool inMetadata)
{
    if (o.isEmpty()) {
        e << YAML::Flow << YAML::BeginMap << YAML::EndMap;
        return;
    }
    e << YAML::BeginMap;
    for (const QString &k : orderedKeys(o, depth, inMetadata)) {
        // An implicit key is at most 1024 characters in YAML (an escaped one grows: "\v" is
        // written "\x0b"), so a long key is written explicitly ("? key" then ": value").
        e << (k.size() > kLongKey ? YAML::LongKey : YAML::Key);
        // "<<" unquoted is a merge key when read back: quoted it is a plain key, as it was.
        if (needsDoubleQuotes(k) || k == QLatin1String("<<"))
            e << YAML::DoubleQuoted;
        e << k.toStdString() << YAML::Value;
        emitValue(e, o.value(k), depth + 1, depth == 0 && k == QLatin1String("metadata"));
    }
    e << YAML::EndMap;
}

void emitValue(YAML::Emitter &e, const QJsonValue &v, int depth, bool inMetadata)
{
    switch (v.type()) {
    case QJsonValue::Object:
        emitObject(e, v.toObject(), depth, inMetadata);
        break;
    case QJsonValue::Array: {
        const QJsonArray arr = v.toArray();
        if (arr.isEmpty()) {
            e << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
            break;
        }
        e << YAML::BeginSeq;
        for (const QJsonValue x : arr)
            emitValue(e, x, depth + 1, false);
        e << YAML::EndSeq;
        break;
    }
    case QJsonValue::String:
        emitString(e, v.toString());
        break;
    case QJsonValue::Double:
        emitNumber(e, v);
        break;
    case QJsonValue::Bool:
        e << (v.toBool() ? "true" : "false");
        break;
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        e << YAML::Null;
        break;
    }
}

} // namespace

QByteArray jsonToYaml(const QJsonObject &object)
{
    YAML::Emitter e;
    e.SetIndent(2);
    e.SetSeqFormat(YAML::Block);
    e.SetMapFormat(YAML::Block);
    emitObject(e, object, 0, false);
    QByteArray out(e.c_str(), qsizetype(e.size()));
    if (!out.endsWith('\n'))
        out.append('\n');
    return out;
}

QByteArray jsonToYaml(const QList<QJsonObject> &objects)
{
    QByteArray out;
    for (qsizetype i = 0; i < objects.size(); ++i) {
        if (i > 0)
            out.append("---\n");
        out.append(jsonToYaml(objects[i]));
    }
    return out;
}

} // namespace opbench
