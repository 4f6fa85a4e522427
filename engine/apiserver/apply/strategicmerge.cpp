// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/apply/strategicmerge.h"

#include <QJsonArray>

namespace opbench::apiserver {

namespace {

const QString kPatch = QStringLiteral("$patch");
const QString kRetainKeys = QStringLiteral("$retainKeys");
const QString kSetOrder = QStringLiteral("$setElementOrder/");
const QString kDeleteFrom = QStringLiteral("$deleteFromPrimitiveList/");

QString childPath(const QString &path, const QString &key) { return path.isEmpty() ? key : path + u'.' + key; }

// Applies $retainKeys and $deleteFromPrimitiveList/ to `orig`, removes every directive key from
// `patch`, and returns the $setElementOrder/ lists (applied after the merge).
QList<std::pair<QString, QJsonArray>> applyListDirectives(QJsonObject &orig, QJsonObject &patch)
{
    if (patch.contains(kRetainKeys)) {
        QStringList keep;
        for (const QJsonValue &k : patch.take(kRetainKeys).toArray())
            keep << k.toString();
        for (const QString &k : orig.keys()) {
            if (!keep.contains(k))
                orig.remove(k);
        }
    }
    QList<std::pair<QString, QJsonArray>> orders;
    for (const QString &k : patch.keys()) {
        if (k.startsWith(kSetOrder)) {
            orders.append({k.mid(kSetOrder.size()), patch.take(k).toArray()});
        } else if (k.startsWith(kDeleteFrom)) {
            const QString field = k.mid(kDeleteFrom.size());
            const QJsonArray drop = patch.take(k).toArray();
            if (!orig.contains(field))
                continue;
            QJsonArray kept;
            for (const QJsonValue &v : orig.value(field).toArray()) {
                if (!drop.contains(v))
                    kept.append(v);
            }
            orig.insert(field, kept);
        }
    }
    return orders;
}

class Merger
{
public:
    QString error; // first error; the result is discarded when set

    // Returns nullopt when the map is deleted ($patch: delete).
    std::optional<QJsonObject> mergeMap(QJsonObject orig, QJsonObject patch, const QString &path);
    QJsonArray mergeList(const QJsonArray &orig, const QJsonArray &patch, const QString &path);

private:
    void fail(const QString &why)
    {
        if (error.isEmpty())
            error = why;
    }
    void applyField(QJsonObject &orig, const QString &key, const QJsonValue &value, const QString &path);
    QJsonArray mergeByKey(QJsonArray orig, const QJsonArray &patch, const QString &key, const QString &path);
    QJsonArray reorder(const QJsonArray &list, const QJsonArray &order, const QString &path);
};

std::optional<QJsonObject> Merger::mergeMap(QJsonObject orig, QJsonObject patch, const QString &path)
{
    const QString directive = patch.take(kPatch).toString();
    if (directive == QLatin1String("delete"))
        return std::nullopt;
    if (directive == QLatin1String("replace"))
        return mergeMap(QJsonObject(), patch, path);
    if (!directive.isEmpty())
        fail(QStringLiteral("unknown patch type: \"%1\" in %2")
                 .arg(directive, path.isEmpty() ? QStringLiteral("the object") : path));
    const QList<std::pair<QString, QJsonArray>> orders = applyListDirectives(orig, patch);
    for (auto it = patch.constBegin(); it != patch.constEnd(); ++it)
        applyField(orig, it.key(), it.value(), childPath(path, it.key()));
    for (const auto &[field, order] : orders) {
        if (orig.value(field).isArray())
            orig.insert(field, reorder(orig.value(field).toArray(), order, childPath(path, field)));
    }
    return orig;
}

void Merger::applyField(QJsonObject &orig, const QString &key, const QJsonValue &value, const QString &path)
{
    if (value.isNull()) {
        orig.remove(key);
    } else if (value.isObject()) {
        const QJsonValue cur = orig.value(key);
        auto merged = mergeMap(cur.isObject() ? cur.toObject() : QJsonObject(), value.toObject(), path);
        if (merged)
            orig.insert(key, *merged);
        else
            orig.remove(key);
    } else if (value.isArray()) {
        orig.insert(key, mergeList(orig.value(key).toArray(), value.toArray(), path));
    } else {
        orig.insert(key, value);
    }
}

QJsonArray Merger::mergeList(const QJsonArray &orig, const QJsonArray &patch, const QString &path)
{
    // A {"$patch":"replace"} element turns the list into a replacement.
    bool replace = false;
    QJsonArray items;
    for (const QJsonValue &v : patch) {
        if (v.isObject() && v.toObject().value(kPatch).toString() == QLatin1String("replace")
            && v.toObject().size() == 1)
            replace = true;
        else
            items.append(v);
    }
    const std::optional<QString> key = strategicMergeKey(path);
    if (replace || !key) {
        QJsonArray out;
        for (const QJsonValue &v : items) {
            if (v.isObject()) {
                if (auto m = mergeMap(QJsonObject(), v.toObject(), path))
                    out.append(*m);
            } else {
                out.append(v);
            }
        }
        return out;
    }
    if (key->isEmpty()) {
        QJsonArray out = orig;
        for (const QJsonValue &v : items) {
            if (!out.contains(v))
                out.append(v);
        }
        return out;
    }
    return mergeByKey(orig, items, *key, path);
}

QJsonArray Merger::mergeByKey(QJsonArray orig, const QJsonArray &patch, const QString &key, const QString &path)
{
    for (const QJsonValue &v : patch) {
        const QJsonObject elem = v.toObject();
        if (!v.isObject() || !elem.contains(key)) {
            fail(QStringLiteral("an element of %1 does not contain the declared merge key: %2").arg(path, key));
            continue;
        }
        qsizetype found = -1;
        for (qsizetype i = 0; i < orig.size() && found < 0; ++i) {
            if (orig.at(i).toObject().value(key) == elem.value(key))
                found = i;
        }
        if (elem.value(kPatch).toString() == QLatin1String("delete")) {
            if (found >= 0)
                orig.removeAt(found);
            continue;
        }
        auto merged = mergeMap(found >= 0 ? orig.at(found).toObject() : QJsonObject(), elem, path);
        if (!merged)
            continue;
        if (found >= 0)
            orig.replace(found, *merged);
        else
            orig.append(*merged);
    }
    return orig;
}

QJsonArray Merger::reorder(const QJsonArray &list, const QJsonArray &order, const QString &path)
{
    const QString key = strategicMergeKey(path).value_or(QString());
    const auto matches = [&key](const QJsonValue &item, const QJsonValue &o) {
        return key.isEmpty() ? item == o : item.toObject().value(key) == o.toObject().value(key);
    };
    QJsonArray out;
    QList<bool> used(list.size(), false);
    for (const QJsonValue &o : order) {
        for (qsizetype i = 0; i < list.size(); ++i) {
            if (!used.at(i) && matches(list.at(i), o)) {
                used[i] = true;
                out.append(list.at(i));
                break;
            }
        }
    }
    for (qsizetype i = 0; i < list.size(); ++i) {
        if (!used.at(i))
            out.append(list.at(i));
    }
    return out;
}

} // namespace

const QList<StrategicMergeRule> &strategicMergeRules()
{
    static const QList<StrategicMergeRule> rules{
        {QStringLiteral("containers"), QStringLiteral("name")},
        {QStringLiteral("initContainers"), QStringLiteral("name")},
        {QStringLiteral("ephemeralContainers"), QStringLiteral("name")},
        {QStringLiteral("env"), QStringLiteral("name")},
        {QStringLiteral("volumes"), QStringLiteral("name")},
        {QStringLiteral("imagePullSecrets"), QStringLiteral("name")},
        {QStringLiteral("resourceClaims"), QStringLiteral("name")},
        {QStringLiteral("volumeMounts"), QStringLiteral("mountPath")},
        {QStringLiteral("volumeDevices"), QStringLiteral("devicePath")},
        {QStringLiteral("containers.ports"), QStringLiteral("containerPort")},
        {QStringLiteral("initContainers.ports"), QStringLiteral("containerPort")},
        {QStringLiteral("spec.ports"), QStringLiteral("port")},
        {QStringLiteral("ownerReferences"), QStringLiteral("uid")},
        {QStringLiteral("conditions"), QStringLiteral("type")},
        {QStringLiteral("hostAliases"), QStringLiteral("ip")},
        {QStringLiteral("topologySpreadConstraints"), QStringLiteral("topologyKey")},
        {QStringLiteral("finalizers"), QString()},
    };
    return rules;
}

std::optional<QString> strategicMergeKey(const QString &fieldPath)
{
    const StrategicMergeRule *best = nullptr;
    for (const StrategicMergeRule &r : strategicMergeRules()) {
        const bool match = fieldPath == r.pathSuffix
            || (fieldPath.endsWith(r.pathSuffix) && fieldPath.at(fieldPath.size() - r.pathSuffix.size() - 1) == u'.');
        if (match && (!best || r.pathSuffix.size() > best->pathSuffix.size()))
            best = &r;
    }
    if (!best)
        return std::nullopt;
    return best->mergeKey;
}

Expected<QJsonObject> applyStrategicMergePatch(const QJsonObject &document, const QJsonValue &patch)
{
    if (!patch.isObject())
        return Status::badRequest(QStringLiteral("a strategic merge patch must be a JSON object"));
    Merger m;
    std::optional<QJsonObject> out = m.mergeMap(document, patch.toObject(), QString());
    if (!m.error.isEmpty())
        return Status::badRequest(m.error);
    if (!out)
        return Status::badRequest(QStringLiteral("a strategic merge patch cannot delete the whole object"));
    return *out;
}

} // namespace opbench::apiserver
