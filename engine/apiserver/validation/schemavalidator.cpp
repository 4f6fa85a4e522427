// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/validation/schemavalidator.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <cmath>
#include <limits>
#include <utility>

namespace opbench::apiserver {

namespace {

const QLatin1String kType("type");
const QLatin1String kIntOrString("x-kubernetes-int-or-string");
const QLatin1String kEmbedded("x-kubernetes-embedded-resource");

bool isIntegral(double d) { return std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.3e18; }

// The JSON type name of a value as kube-openapi reports it.
QString typeName(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("boolean");
    case QJsonValue::Double:
        return isIntegral(v.toDouble()) ? QStringLiteral("integer") : QStringLiteral("number");
    case QJsonValue::String:
        return QStringLiteral("string");
    case QJsonValue::Array:
        return QStringLiteral("array");
    case QJsonValue::Object:
        return QStringLiteral("object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("undefined");
}

bool typeMatches(const QString &type, const QJsonValue &v)
{
    const QString actual = typeName(v);
    return type == actual || (type == QLatin1String("number") && actual == QLatin1String("integer"));
}

QString formatNumber(double d)
{
    if (isIntegral(d) && std::fabs(d) < 1e21)
        return QString::number(static_cast<qint64>(d));
    return QString::number(d, 'g', QLocale::FloatingPointShortest);
}

QString quoted(const QString &s)
{
    QString out = QJsonDocument(QJsonArray{s}).toJson(QJsonDocument::Compact);
    return out.mid(1, out.size() - 2);
}

/// A field's path, built into text only when a cause names it (most values are valid).
struct Path
{
    const Path *parent = nullptr;
    QString key;          ///< the field's name (empty for an item and the root)
    qsizetype index = -1; ///< the item's index in its array

    QString str() const
    {
        if (!parent)
            return key;
        const QString up = parent->str();
        if (index >= 0)
            return up + u'[' + QString::number(index) + u']';
        return up.isEmpty() ? key : up + u'.' + key;
    }
};

/// The number of code points of `s` (Go's utf8.RuneCountInString; an unpaired surrogate is one).
qsizetype codePoints(const QString &s)
{
    qsizetype n = s.size();
    for (qsizetype i = 0; i + 1 < s.size(); ++i) {
        if (s.at(i).isHighSurrogate() && s.at(i + 1).isLowSurrogate()) {
            --n;
            ++i;
        }
    }
    return n;
}

class Validator
{
public:
    bool atRoot = false; ///< the next object is the root: apiVersion, kind and metadata are the server's
    QList<StatusCause> causes;

    void value(const QJsonValue &v, const QJsonObject &s, const Path &path);

private:
    void add(const char *reason, const QString &message, const Path &path)
    {
        causes.append({QString::fromLatin1(reason), message, path.str()});
    }
    void invalid(const QJsonValue &v, const Path &path, const QString &detail)
    {
        add("FieldValueInvalid",
            QStringLiteral("Invalid value: %1: %2 in body %3").arg(formatCauseValue(v), path.str(), detail), path);
    }
    bool checkType(const QJsonValue &v, const QJsonObject &s, const Path &path);
    void string(const QString &str, const QJsonObject &s, const Path &path);
    void number(double d, const QJsonObject &s, const Path &path);
    void array(const QJsonArray &a, const QJsonObject &s, const Path &path);
    void object(const QJsonObject &o, const QJsonObject &s, const Path &path);
    void enumeration(const QJsonValue &v, const QJsonObject &s, const Path &path);
};

bool Validator::checkType(const QJsonValue &v, const QJsonObject &s, const Path &path)
{
    if (s.value(kIntOrString).toBool()) {
        if (v.isString() || typeName(v) == QLatin1String("integer"))
            return true;
        const QString t = typeName(v);
        add("FieldValueTypeInvalid",
            QStringLiteral("Invalid value: %1: %2 in body must be of type integer,string: %1")
                .arg(quoted(t), path.str()),
            path);
        return false;
    }
    const QString type = s.value(kType).toString();
    if (type.isEmpty() || typeMatches(type, v))
        return true;
    const QString t = typeName(v);
    add("FieldValueTypeInvalid",
        QStringLiteral("Invalid value: %1: %2 in body must be of type %3: %1").arg(quoted(t), path.str(), type), path);
    return false;
}

void Validator::value(const QJsonValue &v, const QJsonObject &s, const Path &path)
{
    if (v.isNull() && s.value(QLatin1String("nullable")).toBool())
        return;
    if (!checkType(v, s, path))
        return;
    if (v.isString())
        string(v.toString(), s, path);
    else if (v.isDouble())
        number(v.toDouble(), s, path);
    else if (v.isArray())
        array(v.toArray(), s, path);
    else if (v.isObject())
        object(v.toObject(), s, path);
    enumeration(v, s, path);
    if (v.isArray()) {
        const QJsonArray a = v.toArray();
        const QJsonObject items = s.value(QLatin1String("items")).toObject();
        for (qsizetype i = 0; i < a.size(); ++i)
            value(a.at(i), items, Path{&path, QString(), i});
    }
}

void Validator::string(const QString &str, const QJsonObject &s, const Path &path)
{
    const QJsonValue maxLength = s.value(QLatin1String("maxLength"));
    const QJsonValue minLength = s.value(QLatin1String("minLength"));
    const qsizetype len = maxLength.isUndefined() && minLength.isUndefined() ? 0 : codePoints(str);
    if (!maxLength.isUndefined() && len > maxLength.toInteger())
        add("FieldValueTooLong", QStringLiteral("Too long: may not be longer than %1").arg(maxLength.toInteger()),
            path);
    if (!minLength.isUndefined() && len < minLength.toInteger())
        invalid(str, path, QStringLiteral("should be at least %1 chars long").arg(minLength.toInteger()));
    const QString pattern = s.value(QLatin1String("pattern")).toString();
    if (!pattern.isEmpty()) {
        // Go's regexp MatchString: an unanchored search. Compiled patterns are cached per thread.
        thread_local QHash<QString, QRegularExpression> cache;
        auto it = cache.constFind(pattern);
        if (it == cache.constEnd()) {
            if (cache.size() > 256)
                cache.clear();
            it = cache.insert(pattern, QRegularExpression(pattern));
        }
        const QRegularExpression &re = *it;
        if (!re.isValid() || !re.match(str).hasMatch())
            invalid(str, path, QStringLiteral("should match '%1'").arg(pattern));
    }
}

void Validator::number(double d, const QJsonObject &s, const Path &path)
{
    if (s.contains(QLatin1String("maximum"))) {
        const double max = s.value(QLatin1String("maximum")).toDouble();
        if (s.value(QLatin1String("exclusiveMaximum")).toBool() ? d >= max : d > max)
            invalid(d, path,
                QStringLiteral("should be less than %1%2")
                    .arg(s.value(QLatin1String("exclusiveMaximum")).toBool() ? QString()
                                                                             : QStringLiteral("or equal to "),
                        formatNumber(max)));
    }
    if (s.contains(QLatin1String("minimum"))) {
        const double min = s.value(QLatin1String("minimum")).toDouble();
        if (s.value(QLatin1String("exclusiveMinimum")).toBool() ? d <= min : d < min)
            invalid(d, path,
                QStringLiteral("should be greater than %1%2")
                    .arg(s.value(QLatin1String("exclusiveMinimum")).toBool() ? QString()
                                                                             : QStringLiteral("or equal to "),
                        formatNumber(min)));
    }
    const double factor = s.value(QLatin1String("multipleOf")).toDouble();
    if (factor > 0 && std::fabs(std::remainder(d, factor)) > 1e-9 * std::max(1.0, std::fabs(d)))
        invalid(d, path, QStringLiteral("should be a multiple of %1").arg(formatNumber(factor)));
    const QString format = s.value(QLatin1String("format")).toString();
    const bool out32 = format == QLatin1String("int32")
        && (d < std::numeric_limits<qint32>::min() || d > std::numeric_limits<qint32>::max());
    const bool out64
        = format == QLatin1String("int64") && (d < -9.223372036854775808e18 || d >= 9.223372036854775808e18);
    if (out32 || out64)
        invalid(d, path, QStringLiteral("must be of type %1: %2").arg(format, quoted(formatNumber(d))));
}

void Validator::array(const QJsonArray &a, const QJsonObject &s, const Path &path)
{
    if (s.contains(QLatin1String("maxItems")) && a.size() > s.value(QLatin1String("maxItems")).toInteger())
        add("FieldValueTooMany",
            QStringLiteral("Too many: %1: must have at most %2 items")
                .arg(a.size())
                .arg(s.value(QLatin1String("maxItems")).toInteger()),
            path);
    if (s.contains(QLatin1String("minItems")) && a.size() < s.value(QLatin1String("minItems")).toInteger())
        invalid(double(a.size()), path,
            QStringLiteral("should have at least %1 items").arg(s.value(QLatin1String("minItems")).toInteger()));
}

void Validator::object(const QJsonObject &o, const QJsonObject &s, const Path &path)
{
    // The root's apiVersion/kind/metadata belong to the server: neither counted, required nor
    // validated here.
    const bool root = std::exchange(atRoot, false);
    const auto isRootMeta = [root](const QString &k) {
        return root
            && (k == QLatin1String("apiVersion") || k == QLatin1String("kind") || k == QLatin1String("metadata"));
    };
    qsizetype size = o.size();
    if (root) {
        for (const char *k : {"apiVersion", "kind", "metadata"})
            size -= o.contains(QLatin1String(k)) ? 1 : 0;
    }
    if (const QJsonValue max = s.value(QLatin1String("maxProperties")); !max.isUndefined() && size > max.toInteger())
        add("FieldValueTooMany",
            QStringLiteral("Too many: %1: must have at most %2 items").arg(size).arg(max.toInteger()), path);
    if (const QJsonValue min = s.value(QLatin1String("minProperties")); !min.isUndefined() && size < min.toInteger())
        invalid(double(size), path, QStringLiteral("should have at least %1 properties").arg(min.toInteger()));
    for (const QJsonValue r : s.value(QLatin1String("required")).toArray()) {
        const QString name = r.toString();
        if (!isRootMeta(name) && !o.contains(name))
            add("FieldValueRequired", QStringLiteral("Required value"), Path{&path, name});
    }
    if (s.value(kEmbedded).toBool()) {
        for (const char *k : {"apiVersion", "kind"}) {
            if (o.value(QLatin1String(k)).toString().isEmpty())
                add("FieldValueRequired", QStringLiteral("Required value: must not be empty"),
                    Path{&path, QLatin1String(k)});
        }
    }
    const QJsonObject props = s.value(QLatin1String("properties")).toObject();
    const QJsonValue additional = s.value(QLatin1String("additionalProperties"));
    for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
        const QString key = it.key();
        if (isRootMeta(key))
            continue;
        if (const auto ps = props.constFind(key); ps != props.constEnd())
            value(it.value(), ps.value().toObject(), Path{&path, key});
        else if (additional.isObject())
            value(it.value(), additional.toObject(), Path{&path, key});
    }
}

void Validator::enumeration(const QJsonValue &v, const QJsonObject &s, const Path &path)
{
    if (!s.value(QLatin1String("enum")).isArray())
        return;
    const QJsonArray allowed = s.value(QLatin1String("enum")).toArray();
    if (allowed.contains(v))
        return;
    QStringList names;
    for (const QJsonValue a : allowed)
        names << quoted(a.isString()
                ? a.toString()
                : QString::fromUtf8(QJsonDocument(QJsonArray{a}).toJson(QJsonDocument::Compact)).mid(1).chopped(1));
    add("FieldValueNotSupported",
        QStringLiteral("Unsupported value: %1: supported values: %2")
            .arg(formatCauseValue(v), names.join(QLatin1String(", "))),
        path);
}

} // namespace

QString formatCauseValue(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double:
        return formatNumber(v.toDouble());
    case QJsonValue::String:
        return quoted(v.toString());
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    }
    return {};
}

SchemaValidator::SchemaValidator(QJsonObject openAPIV3Schema)
    : m_schema(std::move(openAPIV3Schema))
{ }

QList<StatusCause> SchemaValidator::validate(const QJsonObject &object) const
{
    Validator v;
    v.atRoot = true;
    v.value(object, m_schema, Path());
    return v.causes;
}

SchemaValidator::Result SchemaValidator::process(const QJsonObject &object) const
{
    Result r;
    r.object = prune(applyDefaults(object), &r.prunedFields);
    r.causes = validate(r.object);
    return r;
}

Status strictDecodingError(const QStringList &prunedFields)
{
    QStringList parts;
    for (const QString &f : prunedFields)
        parts << QStringLiteral("unknown field \"%1\"").arg(f);
    return Status::badRequest(QStringLiteral("strict decoding error: ") + parts.join(QLatin1String(", ")));
}

QStringList unknownFieldWarnings(const QStringList &prunedFields)
{
    QStringList out;
    for (const QString &f : prunedFields)
        out << QStringLiteral("unknown field \"%1\"").arg(f);
    return out;
}

} // namespace opbench::apiserver
