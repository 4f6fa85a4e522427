// SPDX-License-Identifier: Apache-2.0
#include "engine/api/typed/fieldmarkers.h"

#include <QJsonDocument>

#include <cmath>
#include <limits>

namespace opbench {

namespace {

void putNumber(QJsonObject &schema, const char *key, const std::optional<double> &v)
{
    if (!v)
        return;
    // Whole numbers are written as integers (1, not 1.0) so the CRD reads as written by hand.
    const double d = *v;
    if (std::trunc(d) == d && std::abs(d) < 9.0e15)
        schema.insert(QLatin1String(key), qint64(d));
    else
        schema.insert(QLatin1String(key), d);
}

void putCount(QJsonObject &schema, const char *key, const std::optional<qint64> &v)
{
    if (v)
        schema.insert(QLatin1String(key), *v);
}

QString describeValue(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::String:
        return u'"' + v.toString() + u'"';
    case QJsonValue::Bool:
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double:
        return QString::number(v.toDouble(), 'g', 17);
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    default:
        return QStringLiteral("null");
    }
}

void mismatch(const QJsonValue &v, const char *expected, const QString &path, DecodeErrors &errors)
{
    errors.add(path, QStringLiteral("expected %1, got %2").arg(QLatin1String(expected), describeValue(v)));
}

// An integral JSON number within [lo, hi], or nullopt (with the error reported).
std::optional<qint64> integerIn(const QJsonValue &v, qint64 lo, qint64 hi, const QString &path, DecodeErrors &errors)
{
    if (!v.isDouble()) {
        mismatch(v, "an integer", path, errors);
        return std::nullopt;
    }
    const double d = v.toDouble();
    if (std::trunc(d) != d) {
        mismatch(v, "an integer", path, errors);
        return std::nullopt;
    }
    constexpr qint64 kFloor = std::numeric_limits<qint64>::min();
    const qint64 i = v.toInteger(kFloor); // kFloor also when d is beyond qint64
    const bool beyond = i == kFloor && d != double(kFloor);
    if (beyond || i < lo || i > hi) {
        errors.add(path, QStringLiteral("%1 is out of range [%2, %3]").arg(describeValue(v)).arg(lo).arg(hi));
        return std::nullopt;
    }
    return i;
}

} // namespace

void applyMarkers(QJsonObject &schema, const FieldMarkers &m)
{
    putNumber(schema, "minimum", m.minimum);
    if (m.minimum && m.exclusiveMinimum)
        schema.insert(QLatin1String("exclusiveMinimum"), true);
    putNumber(schema, "maximum", m.maximum);
    if (m.maximum && m.exclusiveMaximum)
        schema.insert(QLatin1String("exclusiveMaximum"), true);
    putCount(schema, "minLength", m.minLength);
    putCount(schema, "maxLength", m.maxLength);
    putCount(schema, "minItems", m.minItems);
    putCount(schema, "maxItems", m.maxItems);
    if (!m.pattern.isEmpty())
        schema.insert(QLatin1String("pattern"), m.pattern);
    if (!m.format.isEmpty())
        schema.insert(QLatin1String("format"), m.format);
    if (!m.enumValues.isEmpty())
        schema.insert(QLatin1String("enum"), m.enumValues);
    if (m.hasDefault())
        schema.insert(QLatin1String("default"), m.defaultValue);
    if (!m.description.isEmpty())
        schema.insert(QLatin1String("description"), m.description);
}

void DecodeErrors::add(const QString &path, const QString &message)
{
    m_causes.append({QStringLiteral("FieldValueTypeInvalid"), message, path});
}

Status DecodeErrors::toStatus(const QString &what) const
{
    QStringList parts;
    for (const StatusCause &c : m_causes)
        parts << c.field + QLatin1String(": ") + c.message;
    StatusDetails details;
    details.causes = m_causes;
    return Status(0, QString::fromLatin1(StatusReason::DecodeError),
        what + QLatin1String(": ") + parts.join(QLatin1String("; ")), details);
}

namespace typed {

QString childPath(const QString &path, const QString &name) { return path.isEmpty() ? name : path + u'.' + name; }

void decodeValue(const QJsonValue &v, QString &out, const QString &path, DecodeErrors &errors)
{
    if (v.isString())
        out = v.toString();
    else
        mismatch(v, "a string", path, errors);
}

void decodeValue(const QJsonValue &v, bool &out, const QString &path, DecodeErrors &errors)
{
    if (v.isBool())
        out = v.toBool();
    else
        mismatch(v, "a boolean", path, errors);
}

void decodeValue(const QJsonValue &v, int &out, const QString &path, DecodeErrors &errors)
{
    if (const auto i = integerIn(v, std::numeric_limits<int>::min(), std::numeric_limits<int>::max(), path, errors))
        out = int(*i);
}

void decodeValue(const QJsonValue &v, qint64 &out, const QString &path, DecodeErrors &errors)
{
    if (const auto i
        = integerIn(v, std::numeric_limits<qint64>::min(), std::numeric_limits<qint64>::max(), path, errors))
        out = *i;
}

void decodeValue(const QJsonValue &v, double &out, const QString &path, DecodeErrors &errors)
{
    if (v.isDouble())
        out = v.toDouble();
    else
        mismatch(v, "a number", path, errors);
}

void decodeValue(const QJsonValue &v, QJsonObject &out, const QString &path, DecodeErrors &errors)
{
    if (expectObject(v, path, errors))
        out = v.toObject();
}

bool expectArray(const QJsonValue &v, const QString &path, DecodeErrors &errors)
{
    if (v.isArray())
        return true;
    mismatch(v, "an array", path, errors);
    return false;
}

bool expectObject(const QJsonValue &v, const QString &path, DecodeErrors &errors)
{
    if (v.isObject())
        return true;
    mismatch(v, "an object", path, errors);
    return false;
}

} // namespace typed

} // namespace opbench
