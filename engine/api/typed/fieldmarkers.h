// SPDX-License-Identifier: Apache-2.0
#pragma once
// Field markers and decode errors: the non-template half of opbench::Fields<T> (fields.h).
//
// A field's markers are what kubebuilder's `// +kubebuilder:validation:…` comments say in Go:
//
//     f.field("port", &GuestbookSpec::port).minimum(1).maximum(65535).description("Service port");
//
// FieldBuilder is what f.field() returns; each marker lands in the field's OpenAPI v3 schema
// (applyMarkers) and `required` / `defaultValue` also steer the JSON codec: a required field or
// one with a default is always written, even when zero (omitempty applies to the others).
//
// DecodeErrors collects what JSON → C++ decoding could not read ("spec.port: expected an
// integer, got \"80\""), each with the field's path as the API server writes it.

#include "engine/api/status.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <optional>

namespace opbench {

/// The markers of one described field (see FieldBuilder for each one's meaning).
struct FieldMarkers
{
    bool required = false;
    std::optional<double> minimum;
    std::optional<double> maximum;
    bool exclusiveMinimum = false;
    bool exclusiveMaximum = false;
    std::optional<qint64> minLength;
    std::optional<qint64> maxLength;
    std::optional<qint64> minItems;
    std::optional<qint64> maxItems;
    QString pattern;
    QString format;
    QJsonArray enumValues;
    QJsonValue defaultValue = QJsonValue(QJsonValue::Undefined);
    QString description;

    bool hasDefault() const { return !defaultValue.isUndefined(); }
};

/// Adds `markers` to the field's schema node `schema` (minimum, maxLength, enum, default, …).
void applyMarkers(QJsonObject &schema, const FieldMarkers &markers);

/// The fluent marker setter returned by Fields<T>::field(). Every call returns the builder.
class FieldBuilder
{
public:
    explicit FieldBuilder(FieldMarkers &markers)
        : m(markers)
    { }
    /// The field must be present (OpenAPI `required`); it is written even when empty or zero.
    FieldBuilder &required()
    {
        m.required = true;
        return *this;
    }
    FieldBuilder &minimum(double v, bool exclusive = false)
    {
        m.minimum = v;
        m.exclusiveMinimum = exclusive;
        return *this;
    }
    FieldBuilder &maximum(double v, bool exclusive = false)
    {
        m.maximum = v;
        m.exclusiveMaximum = exclusive;
        return *this;
    }
    FieldBuilder &minLength(qint64 n)
    {
        m.minLength = n;
        return *this;
    }
    FieldBuilder &maxLength(qint64 n)
    {
        m.maxLength = n;
        return *this;
    }
    FieldBuilder &minItems(qint64 n)
    {
        m.minItems = n;
        return *this;
    }
    FieldBuilder &maxItems(qint64 n)
    {
        m.maxItems = n;
        return *this;
    }
    /// An ECMA-262 regular expression the string must match (as in the CRD).
    FieldBuilder &pattern(const QString &re)
    {
        m.pattern = re;
        return *this;
    }
    /// OpenAPI `format` ("date-time", "uri", …); int and qint64 fields get int32/int64 already.
    FieldBuilder &format(const QString &f)
    {
        m.format = f;
        return *this;
    }
    FieldBuilder &enumValues(const QJsonArray &values)
    {
        m.enumValues = values;
        return *this;
    }
    /// The server fills this in when the field is absent; the field is then always written, so
    /// an explicit zero is never replaced by the default (Go needs a pointer for that).
    FieldBuilder &defaultValue(const QJsonValue &v)
    {
        m.defaultValue = v;
        return *this;
    }
    FieldBuilder &description(const QString &text)
    {
        m.description = text;
        return *this;
    }

private:
    FieldMarkers &m;
};

/// What decoding JSON into described C++ types could not read, each with its field path.
class DecodeErrors
{
public:
    /// `path` like "spec.items[2].name"; `message` like "expected a string, got 3".
    void add(const QString &path, const QString &message);
    bool isEmpty() const { return m_causes.isEmpty(); }
    const QList<StatusCause> &causes() const { return m_causes; }
    /// A DecodeError Status: "<what>: spec.port: expected an integer, got \"80\"" (several causes
    /// joined with "; "), with the causes in its details.
    Status toStatus(const QString &what) const;

private:
    QList<StatusCause> m_causes;
};

namespace typed {
// JSON → C++ scalar readers used by the field codecs: each reports a mismatch to `errors` under
// `path` and leaves `out` unchanged then.
void decodeValue(const QJsonValue &v, QString &out, const QString &path, DecodeErrors &errors);
void decodeValue(const QJsonValue &v, bool &out, const QString &path, DecodeErrors &errors);
void decodeValue(const QJsonValue &v, int &out, const QString &path, DecodeErrors &errors);
void decodeValue(const QJsonValue &v, qint64 &out, const QString &path, DecodeErrors &errors);
void decodeValue(const QJsonValue &v, double &out, const QString &path, DecodeErrors &errors);
void decodeValue(const QJsonValue &v, QJsonObject &out, const QString &path, DecodeErrors &errors);
/// False (with an error naming `expected`) unless `v` is an array / an object.
bool expectArray(const QJsonValue &v, const QString &path, DecodeErrors &errors);
bool expectObject(const QJsonValue &v, const QString &path, DecodeErrors &errors);
/// "spec" + "port" → "spec.port"; "" + "port" → "port".
QString childPath(const QString &path, const QString &name);
} // namespace typed

} // namespace opbench
