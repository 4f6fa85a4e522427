// SPDX-License-Identifier: Apache-2.0
#include "engine/api/builtin/overlay.h"

#include <QJsonArray>

#include <algorithm>

namespace opbench {

namespace {

bool allObjects(const QJsonArray &a)
{
    for (const auto &v : a)
        if (!v.isObject())
            return false;
    return true;
}

/// The one-of groups: setting one member drops the others.
const QList<QStringList> &unions()
{
    static const QList<QStringList> groups{
        {QStringLiteral("httpGet"), QStringLiteral("tcpSocket"), QStringLiteral("exec"), QStringLiteral("grpc")},
        {QStringLiteral("value"), QStringLiteral("valueFrom")},
        {QStringLiteral("secretKeyRef"), QStringLiteral("configMapKeyRef"), QStringLiteral("fieldRef"),
            QStringLiteral("resourceFieldRef")},
        {QStringLiteral("configMap"), QStringLiteral("secret"), QStringLiteral("emptyDir"),
            QStringLiteral("persistentVolumeClaim"), QStringLiteral("hostPath"), QStringLiteral("projected"),
            QStringLiteral("downwardAPI"), QStringLiteral("csi"), QStringLiteral("nfs"), QStringLiteral("ephemeral")}};
    return groups;
}

/// Removes from `out` the union members that `desired` does not set, for each union it sets.
void dropOtherUnionMembers(QJsonObject &out, const QJsonObject &desired)
{
    for (const QStringList &group : unions()) {
        const bool sets = std::any_of(group.begin(), group.end(),
            [&desired](const QString &k) { return desired.contains(k) && !desired.value(k).isNull(); });
        if (!sets)
            continue;
        for (const QString &k : group)
            if (!desired.contains(k))
                out.remove(k);
    }
}

QJsonArray overlayArray(const QJsonArray &existing, const QJsonArray &desired)
{
    if (existing.size() != desired.size() || !allObjects(existing) || !allObjects(desired))
        return desired;
    const QLatin1String name("name");
    QJsonArray out;
    for (qsizetype i = 0; i < desired.size(); ++i) {
        const QJsonObject e = existing.at(i).toObject();
        const QJsonObject d = desired.at(i).toObject();
        const bool renamed = d.contains(name) && e.contains(name) && d.value(name) != e.value(name);
        out.append(renamed ? d : overlayObject(e, d));
    }
    return out;
}

void overlayAtPath(QJsonObject &object, const char *const *first, const char *const *last, const QJsonValue &desired)
{
    const QLatin1String key(*first);
    if (first + 1 == last) {
        object.insert(key, overlay(object.value(key), desired));
        return;
    }
    QJsonObject child = object.value(key).toObject();
    overlayAtPath(child, first + 1, last, desired);
    object.insert(key, child);
}

} // namespace

void overlayAt(QJsonObject &document, std::initializer_list<const char *> path, const QJsonValue &desired)
{
    if (path.size() > 0)
        overlayAtPath(document, path.begin(), path.end(), desired);
}

bool isReplacedWhole(const QString &key)
{
    static const QStringList keys{QStringLiteral("labels"), QStringLiteral("annotations"), QStringLiteral("selector"),
        QStringLiteral("matchLabels"), QStringLiteral("nodeSelector"), QStringLiteral("requests"),
        QStringLiteral("limits"), QStringLiteral("data"), QStringLiteral("stringData"), QStringLiteral("binaryData")};
    return keys.contains(key);
}

QJsonObject overlayObject(const QJsonObject &existing, const QJsonObject &desired)
{
    QJsonObject out = existing;
    dropOtherUnionMembers(out, desired);
    for (auto it = desired.begin(); it != desired.end(); ++it) {
        if (it.value().isNull())
            out.remove(it.key());
        else if (isReplacedWhole(it.key()))
            out.insert(it.key(), it.value());
        else
            out.insert(it.key(), overlay(existing.value(it.key()), it.value()));
    }
    return out;
}

QJsonValue overlay(const QJsonValue &existing, const QJsonValue &desired)
{
    if (existing.isObject() && desired.isObject())
        return overlayObject(existing.toObject(), desired.toObject());
    if (existing.isArray() && desired.isArray())
        return overlayArray(existing.toArray(), desired.toArray());
    return desired;
}

} // namespace opbench
