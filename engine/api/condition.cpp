// SPDX-License-Identifier: Apache-2.0
#include "engine/api/condition.h"

#include "engine/api/timeformat.h"

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

} // namespace opbench
