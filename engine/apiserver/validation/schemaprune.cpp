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

// Both steps change an object only where they must: a value that needs no default and no
// pruning is left shared with the caller's object (no copy of the document per write).

/// The fields an object walk removes and the children it replaced, applied after the walk
/// (an object is not changed while it is iterated).
struct Edits
{
    QStringList drop;
    QList<std::pair<QString, QJsonValue>> replaced;

    /// Applies them to `o`; returns whether there were any.
    bool applyTo(QJsonObject &o) const
    {
        for (const QString &k : drop)
            o.remove(k);
        for (const auto &[k, v] : replaced)
            o.insert(k, v);
        return !drop.isEmpty() || !replaced.isEmpty();
    }
};

/// Runs `edit(item, index)` on each item of the array `v`; writes the array back only when an
/// item changed. Returns whether one did.
template<typename Edit> bool editItems(QJsonValue &v, Edit edit)
{
    QJsonArray a = v.toArray();
    bool changed = false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        QJsonValue e = a.at(i);
        if (edit(e, i)) {
            a.replace(i, e);
            changed = true;
        }
    }
    if (changed)
        v = a;
    return changed;
}

bool defaultValue(QJsonValue &v, const QJsonObject &s);

/// Applies the schema's defaults to `o`; returns whether anything changed.
bool defaultObject(QJsonObject &o, const QJsonObject &s, bool root)
{
    bool changed = false;
    const QJsonObject props = s.value(QLatin1String("properties")).toObject();
    for (auto it = props.constBegin(); it != props.constEnd(); ++it) {
        const QString key = it.key();
        if (root && isRootMetaKey(key))
            continue;
        const QJsonObject ps = it.value().toObject();
        const auto found = o.constFind(key);
        QJsonValue cur = found == o.constEnd() ? QJsonValue(QJsonValue::Undefined) : found.value();
        bool replace = false;
        // A null in a non-nullable field is dropped (PruneNonNullableNullsWithoutDefaults), then
        // defaulted when the schema has a default.
        if (cur.isNull() && !ps.value(QLatin1String("nullable")).toBool()) {
            o.remove(key);
            changed = true;
            cur = QJsonValue(QJsonValue::Undefined);
        }
        if (cur.isUndefined() && ps.contains(QLatin1String("default"))) {
            cur = ps.value(QLatin1String("default"));
            replace = true;
        }
        if (!cur.isUndefined() && (defaultValue(cur, ps) || replace)) {
            o.insert(key, cur);
            changed = true;
        }
    }
    const QJsonValue additional = s.value(QLatin1String("additionalProperties"));
    if (!additional.isObject())
        return changed;
    const QJsonObject as = additional.toObject();
    const bool nullable = as.value(QLatin1String("nullable")).toBool();
    const bool hasDefault = as.contains(QLatin1String("default"));
    Edits edits;
    for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
        if (props.contains(it.key()))
            continue;
        QJsonValue v = it.value();
        if (v.isNull() && !nullable && !hasDefault)
            edits.drop.append(it.key());
        else if (defaultValue(v, as))
            edits.replaced.append({it.key(), v});
    }
    return edits.applyTo(o) || changed;
}

bool defaultValue(QJsonValue &v, const QJsonObject &s)
{
    if (v.isObject()) {
        QJsonObject o = v.toObject();
        if (!defaultObject(o, s, false))
            return false;
        v = o;
        return true;
    }
    if (v.isArray()) {
        const QJsonObject items = s.value(QLatin1String("items")).toObject();
        return editItems(v, [&items](QJsonValue &e, qsizetype) { return defaultValue(e, items); });
    }
    return false;
}

bool pruneValue(QJsonValue &v, const QJsonObject &s, const QString &path, QStringList *pruned);

/// Removes the fields `s` does not know from `o`; returns whether anything changed.
bool pruneObject(QJsonObject &o, const QJsonObject &s, const QString &path, bool root, QStringList *pruned)
{
    const QJsonObject props = s.value(QLatin1String("properties")).toObject();
    const QJsonValue additional = s.value(QLatin1String("additionalProperties"));
    const bool preserve = s.value(kPreserve).toBool();
    const bool embedded = s.value(QLatin1String("x-kubernetes-embedded-resource")).toBool();
    Edits edits;
    for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
        const QString key = it.key();
        if ((root || embedded) && isRootMetaKey(key))
            continue;
        QJsonObject childSchema;
        if (const auto ps = props.constFind(key); ps != props.constEnd())
            childSchema = ps.value().toObject();
        else if (additional.isObject())
            childSchema = additional.toObject();
        else if (preserve || additional.toBool())
            continue;
        else {
            if (pruned)
                pruned->append(childPath(path, key));
            edits.drop.append(key);
            continue;
        }
        QJsonValue v = it.value();
        if ((v.isObject() || v.isArray()) && pruneValue(v, childSchema, childPath(path, key), pruned))
            edits.replaced.append({key, v});
    }
    return edits.applyTo(o);
}

bool pruneValue(QJsonValue &v, const QJsonObject &s, const QString &path, QStringList *pruned)
{
    if (v.isObject()) {
        QJsonObject o = v.toObject();
        if (!pruneObject(o, s, path, false, pruned))
            return false;
        v = o;
        return true;
    }
    if (v.isArray()) {
        const QJsonObject items = s.value(QLatin1String("items")).toObject();
        return editItems(v, [&](QJsonValue &e, qsizetype i) {
            return (e.isObject() || e.isArray())
                && pruneValue(e, items, QStringLiteral("%1[%2]").arg(path).arg(i), pruned);
        });
    }
    return false;
}

} // namespace

QJsonObject SchemaValidator::applyDefaults(const QJsonObject &object) const
{
    QJsonObject out = object;
    defaultObject(out, m_schema, true);
    return out;
}

QJsonObject SchemaValidator::prune(const QJsonObject &object, QStringList *prunedFields) const
{
    QJsonObject out = object;
    pruneObject(out, m_schema, QString(), true, prunedFields);
    return out;
}

} // namespace opbench::apiserver
