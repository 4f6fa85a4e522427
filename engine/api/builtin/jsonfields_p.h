// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal: writing and reading the optional fields of the built-in value types. put() omits an
// unset field (empty string, list or map; disengaged optional), so toJson() emits only what the
// author set; get() reads a field back (absent → unset).

#include "engine/api/object.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

#include <optional>

namespace opbench::builtin_json {

inline QLatin1String key(const char *k) { return QLatin1String(k); }

inline void put(QJsonObject &o, const char *k, const QString &v)
{
    if (!v.isEmpty())
        o.insert(key(k), v);
}
inline void put(QJsonObject &o, const char *k, const QStringList &v)
{
    if (!v.isEmpty())
        o.insert(key(k), QJsonArray::fromStringList(v));
}
inline void put(QJsonObject &o, const char *k, const Labels &v)
{
    if (v.isEmpty())
        return;
    QJsonObject m;
    for (auto it = v.begin(); it != v.end(); ++it)
        m.insert(it.key(), it.value());
    o.insert(key(k), m);
}
inline void put(QJsonObject &o, const char *k, const QJsonObject &v)
{
    if (!v.isEmpty())
        o.insert(key(k), v);
}
inline void put(QJsonObject &o, const char *k, const std::optional<bool> &v)
{
    if (v)
        o.insert(key(k), *v);
}
inline void put(QJsonObject &o, const char *k, const std::optional<int> &v)
{
    if (v)
        o.insert(key(k), *v);
}
inline void put(QJsonObject &o, const char *k, const std::optional<qint64> &v)
{
    if (v)
        o.insert(key(k), *v);
}
/// Optional nested value types (T::toJson()); an engaged optional is written even when empty.
template<class T> void putValue(QJsonObject &o, const char *k, const std::optional<T> &v)
{
    if (v)
        o.insert(key(k), v->toJson());
}
/// Lists of value types (T::toJson()).
template<class T> void putList(QJsonObject &o, const char *k, const QList<T> &v)
{
    if (v.isEmpty())
        return;
    QJsonArray a;
    for (const T &e : v)
        a.append(e.toJson());
    o.insert(key(k), a);
}

inline QString str(const QJsonObject &o, const char *k) { return o.value(key(k)).toString(); }
inline QStringList strList(const QJsonObject &o, const char *k)
{
    QStringList out;
    for (const auto &v : o.value(key(k)).toArray())
        out << v.toString();
    return out;
}
inline Labels strMap(const QJsonObject &o, const char *k)
{
    Labels out;
    const QJsonObject m = o.value(key(k)).toObject();
    for (auto it = m.begin(); it != m.end(); ++it)
        out.insert(it.key(), it.value().toString());
    return out;
}
inline std::optional<bool> optBool(const QJsonObject &o, const char *k)
{
    const QJsonValue v = o.value(key(k));
    return v.isBool() ? std::optional<bool>(v.toBool()) : std::nullopt;
}
inline std::optional<int> optInt(const QJsonObject &o, const char *k)
{
    const QJsonValue v = o.value(key(k));
    return v.isDouble() ? std::optional<int>(v.toInt()) : std::nullopt;
}
inline std::optional<qint64> optInt64(const QJsonObject &o, const char *k)
{
    const QJsonValue v = o.value(key(k));
    return v.isDouble() ? std::optional<qint64>(v.toInteger()) : std::nullopt;
}
template<class T> std::optional<T> optValue(const QJsonObject &o, const char *k)
{
    const QJsonValue v = o.value(key(k));
    return v.isObject() ? std::optional<T>(T::fromJson(v.toObject())) : std::nullopt;
}
template<class T> QList<T> list(const QJsonObject &o, const char *k)
{
    QList<T> out;
    for (const auto &v : o.value(key(k)).toArray())
        out << T::fromJson(v.toObject());
    return out;
}

} // namespace opbench::builtin_json
