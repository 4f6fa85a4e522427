// SPDX-License-Identifier: Apache-2.0
#include "engine/api/condition.h"

#include "engine/api/timeformat.h"
#include "engine/base/clock.h"

namespace opbench {

QJsonObject Condition::toJson() const
{
    QJsonObject o;
    auto put = [&o](const char *k, const QString &v) {
        if (!v.isEmpty())
            o.insert(QLatin1String(k), v);
    };
    put("type", type);
    put("status", status);
    put("reason", reason);
    put("message", message);
    put("lastUpdateTime", lastUpdateTime);
    put("lastTransitionTime", lastTransitionTime);
    if (observedGeneration != 0)
        o.insert(QLatin1String("observedGeneration"), observedGeneration);
    return o;
}

Condition Condition::fromJson(const QJsonObject &o)
{
    auto s = [&o](const char *k) { return o.value(QLatin1String(k)).toString(); };
    return {s("type"), s("status"), s("reason"), s("message"), s("lastUpdateTime"), s("lastTransitionTime"),
        o.value(QLatin1String("observedGeneration")).toInteger()};
}

std::optional<Condition> findCondition(const QJsonArray &conditions, const QString &type)
{
    for (const QJsonValue &v : conditions) {
        const QJsonObject o = v.toObject();
        if (o.value(QLatin1String("type")).toString() == type)
            return Condition::fromJson(o);
    }
    return std::nullopt;
}

bool setCondition(QJsonArray &conditions, Condition c, const QDateTime &now)
{
    for (qsizetype i = 0; i < conditions.size(); ++i) {
        QJsonObject o = conditions.at(i).toObject();
        if (o.value(QLatin1String("type")).toString() != c.type)
            continue;
        const Condition old = Condition::fromJson(o);
        c.lastTransitionTime = old.status == c.status && !old.lastTransitionTime.isEmpty() ? old.lastTransitionTime
                                                                                           : formatTimestamp(now);
        if (old == c)
            return false;
        for (const char *k : {"reason", "message", "lastUpdateTime", "observedGeneration"})
            o.remove(QLatin1String(k));
        const QJsonObject fresh = c.toJson();
        for (auto it = fresh.begin(); it != fresh.end(); ++it)
            o.insert(it.key(), it.value());
        conditions.replace(i, o);
        return true;
    }
    if (c.lastTransitionTime.isEmpty())
        c.lastTransitionTime = formatTimestamp(now);
    conditions.append(c.toJson());
    return true;
}

bool setStatusCondition(QJsonArray &conditions, const Condition &c, const QDateTime &now)
{
    for (qsizetype i = 0; i < conditions.size(); ++i) {
        QJsonObject o = conditions.at(i).toObject();
        if (o.value(QLatin1String("type")).toString() != c.type)
            continue;
        const Condition old = Condition::fromJson(o);
        bool changed = false;
        auto put = [&](const char *key, const QJsonValue &value, bool differs) {
            if (!differs)
                return;
            if ((value.isString() && value.toString().isEmpty()) || (value.isDouble() && value.toInteger() == 0))
                o.remove(QLatin1String(key));
            else
                o.insert(QLatin1String(key), value);
            changed = true;
        };
        if (old.status != c.status) {
            put("status", c.status, true);
            put("lastTransitionTime", c.lastTransitionTime.isEmpty() ? formatTimestamp(now) : c.lastTransitionTime,
                true);
        }
        put("reason", c.reason, old.reason != c.reason);
        put("message", c.message, old.message != c.message);
        put("observedGeneration", c.observedGeneration, old.observedGeneration != c.observedGeneration);
        if (changed)
            conditions.replace(i, o);
        return changed;
    }
    Condition fresh = c;
    if (fresh.lastTransitionTime.isEmpty())
        fresh.lastTransitionTime = formatTimestamp(now);
    conditions.append(fresh.toJson());
    return true;
}

bool setStatusCondition(QList<Condition> &conditions, const Condition &c, const Clock *clock)
{
    return setStatusCondition(conditions, c, (clock ? clock : Clock::system())->wallNow());
}

bool setStatusCondition(QList<Condition> &conditions, const Condition &c, const QDateTime &now)
{
    QJsonArray array;
    for (const Condition &existing : std::as_const(conditions))
        array.append(existing.toJson());
    if (!setStatusCondition(array, c, now))
        return false;
    QList<Condition> out;
    for (const auto &v : std::as_const(array))
        out.append(Condition::fromJson(v.toObject()));
    conditions = out;
    return true;
}

std::optional<Condition> findStatusCondition(const QList<Condition> &conditions, const QString &type)
{
    for (const Condition &c : conditions)
        if (c.type == type)
            return c;
    return std::nullopt;
}

bool isStatusConditionTrue(const QList<Condition> &conditions, const QString &type)
{
    const std::optional<Condition> c = findStatusCondition(conditions, type);
    return c && c->isTrue();
}

} // namespace opbench
