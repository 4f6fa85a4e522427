// SPDX-License-Identifier: Apache-2.0
#pragma once
// FieldCodec<M>: how one member type of a described struct maps to JSON and to OpenAPI v3 (the
// per-type half of opbench::Fields<T>, fields.h). Supported member types and their schema:
//
//     QString                      string                 omitted when empty
//     bool                         boolean                omitted when false
//     int / qint64                 integer (int32/int64)  omitted when 0
//     double                       number                 omitted when 0
//     QList<X> (QStringList too)   array of X             omitted when empty
//     QMap<QString, X>             object, additionalProperties X   omitted when empty
//     std::optional<X>             X                      omitted when nullopt (written when set,
//                                                         even to zero: Go's pointer fields)
//     a struct with describe()     object                 always written (as Go writes structs)
//     QList<opbench::Condition>    metav1.Condition list, x-kubernetes-list-type map keyed by type
//     QJsonObject                  object, x-kubernetes-preserve-unknown-fields
//
// "Omitted when empty" is Go's omitempty; a field marked required() or given a defaultValue()
// is always written. Another member type stops the build with a static_assert naming the rule.

#include "engine/api/condition.h"
#include "engine/api/typed/fieldmarkers.h"

#include <QList>
#include <QMap>

#include <optional>

namespace opbench {

template<class T> class Fields;

/// A struct that lists its fields: `static void describe(opbench::Fields<T> &f)`.
template<class T>
concept Described = requires(Fields<T> &f)
{
    T::describe(f);
};

/// The (cached) description of a described struct.
template<Described T> const Fields<T> &describedFields();

namespace typed {
/// {"type": type} (plus "format" when given).
QJsonObject typeSchema(const char *type, const char *format = nullptr);
/// metav1.Condition as controller-gen writes it: required type, status, lastTransitionTime,
/// reason, message; status one of True/False/Unknown; a list keyed by type.
QJsonObject conditionsSchema();
/// Conditions as metav1.Condition: type, status, reason, message always; lastTransitionTime
/// and observedGeneration when set (lastUpdateTime is a Deployment field and is not written).
QJsonArray encodeConditions(const QList<Condition> &conditions);
void decodeConditions(const QJsonValue &v, QList<Condition> &out, const QString &path, DecodeErrors &errors);
inline QJsonValue undefinedValue() { return QJsonValue(QJsonValue::Undefined); }
} // namespace typed

namespace typed {
template<class> inline constexpr bool kUnsupported = false;
} // namespace typed

template<class M> struct FieldCodec
{
    static_assert(typed::kUnsupported<M>,
        "opbench::Fields: this member type cannot be described. Use QString, bool, int, qint64, double, "
        "QList<X>, QMap<QString, X>, std::optional<X>, QList<opbench::Condition>, QJsonObject, or a struct "
        "with `static void describe(opbench::Fields<T> &)`.");
};

namespace typed {
template<class M> struct ScalarCodec
{
    static bool omit(const M &v, bool keepZero) { return !keepZero && v == M{}; }
    static QJsonValue encode(const M &v, const QJsonValue & /*base*/) { return QJsonValue(v); }
    static void decode(const QJsonValue &j, M &out, const QString &path, DecodeErrors &errors)
    {
        decodeValue(j, out, path, errors);
    }
};
} // namespace typed

template<> struct FieldCodec<QString> : typed::ScalarCodec<QString>
{
    static QJsonObject schema() { return typed::typeSchema("string"); }
};
template<> struct FieldCodec<bool> : typed::ScalarCodec<bool>
{
    static QJsonObject schema() { return typed::typeSchema("boolean"); }
};
template<> struct FieldCodec<int> : typed::ScalarCodec<int>
{
    static QJsonObject schema() { return typed::typeSchema("integer", "int32"); }
};
template<> struct FieldCodec<qint64> : typed::ScalarCodec<qint64>
{
    static QJsonObject schema() { return typed::typeSchema("integer", "int64"); }
};
template<> struct FieldCodec<double> : typed::ScalarCodec<double>
{
    static QJsonObject schema() { return typed::typeSchema("number"); }
};
template<> struct FieldCodec<QJsonObject> : typed::ScalarCodec<QJsonObject>
{
    static QJsonObject schema()
    {
        QJsonObject s = typed::typeSchema("object");
        s.insert(QLatin1String("x-kubernetes-preserve-unknown-fields"), true);
        return s;
    }
    static bool omit(const QJsonObject &v, bool keepZero) { return !keepZero && v.isEmpty(); }
};

template<> struct FieldCodec<QList<Condition>>
{
    static QJsonObject schema() { return typed::conditionsSchema(); }
    static bool omit(const QList<Condition> &v, bool keepZero) { return !keepZero && v.isEmpty(); }
    static QJsonValue encode(const QList<Condition> &v, const QJsonValue & /*base*/)
    {
        return typed::encodeConditions(v);
    }
    static void decode(const QJsonValue &j, QList<Condition> &out, const QString &path, DecodeErrors &errors)
    {
        typed::decodeConditions(j, out, path, errors);
    }
};

template<class X> struct FieldCodec<QList<X>>
{
    static QJsonObject schema()
    {
        QJsonObject s = typed::typeSchema("array");
        s.insert(QLatin1String("items"), FieldCodec<X>::schema());
        return s;
    }
    static bool omit(const QList<X> &v, bool keepZero) { return !keepZero && v.isEmpty(); }
    /// Lists are written whole (an element's undescribed fields are not kept: elements have no
    /// identity to match old and new by).
    static QJsonValue encode(const QList<X> &v, const QJsonValue & /*base*/)
    {
        QJsonArray a;
        for (const X &x : v)
            a.append(FieldCodec<X>::encode(x, typed::undefinedValue()));
        return a;
    }
    static void decode(const QJsonValue &j, QList<X> &out, const QString &path, DecodeErrors &errors)
    {
        if (!typed::expectArray(j, path, errors))
            return;
        const QJsonArray a = j.toArray();
        QList<X> items;
        items.reserve(a.size());
        for (qsizetype i = 0; i < a.size(); ++i) {
            X item{};
            FieldCodec<X>::decode(a.at(i), item, path + QStringLiteral("[%1]").arg(i), errors);
            items.append(std::move(item));
        }
        out = std::move(items);
    }
};

template<class X> struct FieldCodec<QMap<QString, X>>
{
    static QJsonObject schema()
    {
        QJsonObject s = typed::typeSchema("object");
        s.insert(QLatin1String("additionalProperties"), FieldCodec<X>::schema());
        return s;
    }
    static bool omit(const QMap<QString, X> &v, bool keepZero) { return !keepZero && v.isEmpty(); }
    static QJsonValue encode(const QMap<QString, X> &v, const QJsonValue &base)
    {
        const QJsonObject old = base.toObject();
        QJsonObject o;
        for (auto it = v.cbegin(); it != v.cend(); ++it)
            o.insert(it.key(), FieldCodec<X>::encode(it.value(), old.value(it.key())));
        return o;
    }
    static void decode(const QJsonValue &j, QMap<QString, X> &out, const QString &path, DecodeErrors &errors)
    {
        if (!typed::expectObject(j, path, errors))
            return;
        const QJsonObject o = j.toObject();
        QMap<QString, X> entries;
        for (auto it = o.begin(); it != o.end(); ++it) {
            X item{};
            FieldCodec<X>::decode(it.value(), item, path + u'[' + it.key() + u']', errors);
            entries.insert(it.key(), std::move(item));
        }
        out = std::move(entries);
    }
};

template<class X> struct FieldCodec<std::optional<X>>
{
    static QJsonObject schema() { return FieldCodec<X>::schema(); }
    static bool omit(const std::optional<X> &v, bool /*keepZero*/) { return !v.has_value(); }
    static QJsonValue encode(const std::optional<X> &v, const QJsonValue &base)
    {
        return FieldCodec<X>::encode(*v, base);
    }
    static void decode(const QJsonValue &j, std::optional<X> &out, const QString &path, DecodeErrors &errors)
    {
        X item{};
        FieldCodec<X>::decode(j, item, path, errors);
        out = std::move(item);
    }
};

// Uses Fields<S> (fields.h, which every described struct includes) when instantiated.
template<Described S> struct FieldCodec<S>
{
    static QJsonObject schema() { return describedFields<S>().schema(); }
    static bool omit(const S & /*v*/, bool /*keepZero*/) { return false; }
    /// Written over `base`: fields the description does not list are kept.
    static QJsonValue encode(const S &v, const QJsonValue &base)
    {
        return describedFields<S>().encode(v, base.toObject());
    }
    static void decode(const QJsonValue &j, S &out, const QString &path, DecodeErrors &errors)
    {
        if (typed::expectObject(j, path, errors))
            describedFields<S>().decode(j.toObject(), out, path, errors);
    }
};

} // namespace opbench
