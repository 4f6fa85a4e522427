// SPDX-License-Identifier: Apache-2.0
#include "engine/api/typed/fieldcodec.h"

namespace opbench::typed {

namespace {

QJsonObject stringSchema(std::optional<qint64> minLength, qint64 maxLength, const char *pattern = nullptr)
{
    QJsonObject s = typeSchema("string");
    if (minLength)
        s.insert(QLatin1String("minLength"), *minLength);
    s.insert(QLatin1String("maxLength"), maxLength);
    if (pattern)
        s.insert(QLatin1String("pattern"), QLatin1String(pattern));
    return s;
}

// One metav1.Condition, with the limits and patterns of k8s.io/apimachinery's condition type.
QJsonObject conditionSchema()
{
    QJsonObject status = typeSchema("string");
    status.insert(
        QLatin1String("enum"), QJsonArray{QStringLiteral("True"), QStringLiteral("False"), QStringLiteral("Unknown")});
    QJsonObject generation = typeSchema("integer", "int64");
    generation.insert(QLatin1String("minimum"), 0);
    const QJsonObject properties{
        {QStringLiteral("lastTransitionTime"), typeSchema("string", "date-time")},
        {QStringLiteral("message"), stringSchema(std::nullopt, 32768)},
        {QStringLiteral("observedGeneration"), generation},
        {QStringLiteral("reason"), stringSchema(1, 1024, "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$")},
        {QStringLiteral("status"), status},
        {QStringLiteral("type"),
            stringSchema(std::nullopt, 316,
                "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
                "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$")},
    };
    QJsonObject item = typeSchema("object");
    item.insert(QLatin1String("description"),
        QStringLiteral("Condition contains details for one aspect of the current state of this API Resource."));
    item.insert(QLatin1String("properties"), properties);
    item.insert(QLatin1String("required"),
        QJsonArray{QStringLiteral("lastTransitionTime"), QStringLiteral("message"), QStringLiteral("reason"),
            QStringLiteral("status"), QStringLiteral("type")});
    return item;
}

void readString(const QJsonObject &o, const char *key, QString &out, const QString &path, DecodeErrors &errors)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (!v.isUndefined() && !v.isNull())
        decodeValue(v, out, childPath(path, QLatin1String(key)), errors);
}

} // namespace

QJsonObject typeSchema(const char *type, const char *format)
{
    QJsonObject s{{QStringLiteral("type"), QLatin1String(type)}};
    if (format)
        s.insert(QLatin1String("format"), QLatin1String(format));
    return s;
}

QJsonObject conditionsSchema()
{
    QJsonObject s = typeSchema("array");
    s.insert(QLatin1String("items"), conditionSchema());
    s.insert(QLatin1String("x-kubernetes-list-type"), QStringLiteral("map"));
    s.insert(QLatin1String("x-kubernetes-list-map-keys"), QJsonArray{QStringLiteral("type")});
    return s;
}

QJsonArray encodeConditions(const QList<Condition> &conditions)
{
    QJsonArray out;
    for (const Condition &c : conditions) {
        QJsonObject o{{QStringLiteral("type"), c.type}, {QStringLiteral("status"), c.status},
            {QStringLiteral("reason"), c.reason}, {QStringLiteral("message"), c.message}};
        if (!c.lastTransitionTime.isEmpty())
            o.insert(QLatin1String("lastTransitionTime"), c.lastTransitionTime);
        if (c.observedGeneration != 0)
            o.insert(QLatin1String("observedGeneration"), c.observedGeneration);
        out.append(o);
    }
    return out;
}

void decodeConditions(const QJsonValue &v, QList<Condition> &out, const QString &path, DecodeErrors &errors)
{
    if (!expectArray(v, path, errors))
        return;
    const QJsonArray a = v.toArray();
    QList<Condition> conditions;
    for (qsizetype i = 0; i < a.size(); ++i) {
        const QString at = path + QStringLiteral("[%1]").arg(i);
        if (!expectObject(a.at(i), at, errors))
            continue;
        const QJsonObject o = a.at(i).toObject();
        Condition c;
        readString(o, "type", c.type, at, errors);
        readString(o, "status", c.status, at, errors);
        readString(o, "reason", c.reason, at, errors);
        readString(o, "message", c.message, at, errors);
        readString(o, "lastTransitionTime", c.lastTransitionTime, at, errors);
        const QJsonValue generation = o.value(QLatin1String("observedGeneration"));
        if (!generation.isUndefined() && !generation.isNull())
            decodeValue(generation, c.observedGeneration, childPath(at, QStringLiteral("observedGeneration")), errors);
        conditions.append(c);
    }
    out = std::move(conditions);
}

} // namespace opbench::typed
