// SPDX-License-Identifier: Apache-2.0
// SchemaValidator: defaulting and pruning (validation is in schemavalidator.cpp).
#include "engine/apiserver/validation/schemavalidator.h"

#include <QJsonArray>

namespace opbench::apiserver {

namespace {

const QLatin1String kPreserve("x-kubernetes-preserve-unknown-fields");

QString childPath(const QString &path, const QString &key) { return path.isEmpty() ? key : path + u'.' + key; }

bool isRootMetaKey(const QString &key)
{
    return key == QLatin1String("apiVersion") || key == QLatin1String("kind") || key == QLatin1String("metadata");
}

QJsonValue defaultValue(const QJsonValue &v, const QJsonObject &s);

QJsonObject defaultObject(QJsonObject o, const QJsonObject &s, bool root)
{
    const QJsonObject props = s.value(QLatin1String("properties")).toObject();
    for (auto it = props.constBegin(); it != props.constEnd(); ++it) {
        if (root && isRootMetaKey(it.key()))
            continue;
        const QJsonObject ps = it.value().toObject();
        QJsonValue cur = o.value(it.key());
        // A null in a non-nullable field is dropped (PruneNonNullableNullsWithoutDefaults), then
        // defaulted when the schema has a default.
        if (cur.isNull() && !ps.value(QLatin1String("nullable")).toBool()) {
            o.remove(it.key());
            cur = QJsonValue(QJsonValue::Undefined);
        }
        if (cur.isUndefined() && ps.contains(QLatin1String("default")))
            cur = ps.value(QLatin1String("default"));
        if (!cur.isUndefined())
            o.insert(it.key(), defaultValue(cur, ps));
    }
    const QJsonValue additional = s.value(QLatin1String("additionalProperties"));
    if (additional.isObject()) {
        const bool nullable = additional.toObject().value(QLatin1String("nullable")).toBool();
        const bool hasDefault = additional.toObject().contains(QLatin1String("default"));
        for (auto it = o.begin(); it != o.end();) {
            if (props.contains(it.key())) {
                ++it;
            } else if (it.value().isNull() && !nullable && !hasDefault) {
                it = o.erase(it);
            } else {
                it.value() = defaultValue(it.value(), additional.toObject());
                ++it;
            }
        }
    }
    return o;
}

QJsonValue defaultValue(const QJsonValue &v, const QJsonObject &s)
{
    if (v.isObject())
        return defaultObject(v.toObject(), s, false);
    if (v.isArray()) {
        QJsonArray a = v.toArray();
        const QJsonObject items = s.value(QLatin1String("items")).toObject();
        for (qsizetype i = 0; i < a.size(); ++i)
            a.replace(i, defaultValue(a.at(i), items));
        return a;
    }
    return v;
}

QJsonValue pruneValue(const QJsonValue &v, const QJsonObject &s, const QString &path, QStringList *pruned);

QJsonObject pruneObject(QJsonObject o, const QJsonObject &s, const QString &path, bool root, QStringList *pruned)
{
    const QJsonObject props = s.value(QLatin1String("properties")).toObject();
    const QJsonValue additional = s.value(QLatin1String("additionalProperties"));
    const bool preserve = s.value(kPreserve).toBool();
    const bool embedded = s.value(QLatin1String("x-kubernetes-embedded-resource")).toBool();
    for (auto it = o.begin(); it != o.end();) {
        const QString &key = it.key();
        const QString p = childPath(path, key);
        if ((root || embedded) && isRootMetaKey(key)) {
            ++it;
        } else if (props.contains(key)) {
            it.value() = pruneValue(it.value(), props.value(key).toObject(), p, pruned);
            ++it;
        } else if (additional.isObject()) {
            it.value() = pruneValue(it.value(), additional.toObject(), p, pruned);
            ++it;
        } else if (preserve || additional.toBool()) {
            ++it;
        } else {
            if (pruned)
                pruned->append(p);
            it = o.erase(it);
        }
    }
    return o;
}

QJsonValue pruneValue(const QJsonValue &v, const QJsonObject &s, const QString &path, QStringList *pruned)
{
    if (v.isObject())
        return pruneObject(v.toObject(), s, path, false, pruned);
    if (v.isArray()) {
        QJsonArray a = v.toArray();
        const QJsonObject items = s.value(QLatin1String("items")).toObject();
        for (qsizetype i = 0; i < a.size(); ++i)
            a.replace(i, pruneValue(a.at(i), items, QStringLiteral("%1[%2]").arg(path).arg(i), pruned));
        return a;
    }
    return v;
}

} // namespace

QJsonObject SchemaValidator::applyDefaults(const QJsonObject &object) const
{
    return defaultObject(object, m_schema, true);
}

QJsonObject SchemaValidator::prune(const QJsonObject &object, QStringList *prunedFields) const
{
    return pruneObject(object, m_schema, QString(), true, prunedFields);
}

} // namespace opbench::apiserver
