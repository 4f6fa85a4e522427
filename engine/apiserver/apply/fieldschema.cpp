// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/apply/fieldschema_p.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace opbench::apiserver::ssa {

namespace {

struct BuiltinList
{
    const char *suffix; // dotted field path suffix
    ListType type;
    std::initializer_list<const char *> keys;
};

// Built-in associative lists (the +listType=map / +listMapKey and +listType=set markers of the
// Go types), longest matching suffix wins. Every other built-in list is atomic.
const BuiltinList kBuiltinLists[] = {
    {"containers", ListType::Map, {"name"}},
    {"initContainers", ListType::Map, {"name"}},
    {"ephemeralContainers", ListType::Map, {"name"}},
    {"env", ListType::Map, {"name"}},
    {"volumes", ListType::Map, {"name"}},
    {"imagePullSecrets", ListType::Map, {"name"}},
    {"resourceClaims", ListType::Map, {"name"}},
    {"schedulingGates", ListType::Map, {"name"}},
    {"volumeMounts", ListType::Map, {"mountPath"}},
    {"volumeDevices", ListType::Map, {"devicePath"}},
    {"containers.ports", ListType::Map, {"containerPort", "protocol"}},
    {"initContainers.ports", ListType::Map, {"containerPort", "protocol"}},
    {"ephemeralContainers.ports", ListType::Map, {"containerPort", "protocol"}},
    {"hostAliases", ListType::Map, {"ip"}},
    {"topologySpreadConstraints", ListType::Map, {"topologyKey", "whenUnsatisfiable"}},
    {"ownerReferences", ListType::Map, {"uid"}},
    {"conditions", ListType::Map, {"type"}},
    {"finalizers", ListType::Set, {}},
};

// Free-form maps of built-in kinds (map[string]…): their keys are map entries, not struct fields.
const QStringList &builtinFreeMaps()
{
    static const QStringList names{QStringLiteral("labels"), QStringLiteral("annotations"),
        QStringLiteral("nodeSelector"), QStringLiteral("data"), QStringLiteral("binaryData"),
        QStringLiteral("stringData"), QStringLiteral("limits"), QStringLiteral("requests"),
        QStringLiteral("matchLabels"), QStringLiteral("capacity"), QStringLiteral("allocatable"),
        QStringLiteral("overhead")};
    return names;
}

QString compactJson(const QJsonValue &v)
{
    const QByteArray wrapped = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2));
}

} // namespace

bool zeroPresentStruct(const QString &name)
{
    return name == QLatin1String("metadata") || name == QLatin1String("spec") || name == QLatin1String("status")
        || name == QLatin1String("template") || name == QLatin1String("strategy");
}

Cursor rootCursor(const ResourceType &type)
{
    Cursor c;
    c.custom = type.custom;
    c.node = type.schema;
    c.root = true;
    c.service = !type.custom && type.gvr().group.isEmpty() && type.gvr().resource == QLatin1String("services");
    return c;
}

Cursor fieldCursor(const Cursor &parent, const QString &name)
{
    Cursor c;
    c.service = parent.service;
    if (parent.custom && parent.root && name == kMetadata) {
        c.path = QStringLiteral("metadata"); // ObjectMeta of a custom resource: the built-in rules
        return c;
    }
    if (parent.custom) {
        c.custom = true;
        const QJsonObject props = parent.node.value(QLatin1String("properties")).toObject();
        if (props.contains(name))
            c.node = props.value(name).toObject();
        else if (parent.node.value(QLatin1String("additionalProperties")).isObject())
            c.node = parent.node.value(QLatin1String("additionalProperties")).toObject();
        c.freeMap = !c.node.contains(QLatin1String("properties"));
        c.atomic = c.node.value(QLatin1String("x-kubernetes-map-type")).toString() == QLatin1String("atomic");
        return c;
    }
    c.path = parent.path.isEmpty() ? name : parent.path + u'.' + name;
    c.freeMap = builtinFreeMaps().contains(name) || (name == QLatin1String("selector") && parent.service);
    // LabelSelector is an atomic struct (Deployment/ReplicaSet/Job spec.selector, ...)
    c.atomic = name == QLatin1String("selector") && !parent.service;
    return c;
}

/// Whether `name` is a declared struct field of the map at `parent` (rather than a free-form entry).
bool declaredField(const Cursor &parent, const QString &name)
{
    if (parent.custom)
        return parent.node.value(QLatin1String("properties")).toObject().contains(name);
    return !parent.freeMap;
}

ListInfo listInfo(const Cursor &c)
{
    ListInfo li;
    if (c.custom) {
        const QString t = c.node.value(QLatin1String("x-kubernetes-list-type")).toString();
        if (t == QLatin1String("set")) {
            li.type = ListType::Set;
        } else if (t == QLatin1String("map")) {
            li.type = ListType::Map;
            for (const QJsonValue k : c.node.value(QLatin1String("x-kubernetes-list-map-keys")).toArray())
                li.keys.append(k.toString());
        }
        return li;
    }
    const BuiltinList *best = nullptr;
    qsizetype bestLen = -1;
    for (const BuiltinList &b : kBuiltinLists) {
        const QLatin1String suffix(b.suffix);
        const bool match
            = c.path == suffix || (c.path.endsWith(suffix) && c.path.at(c.path.size() - suffix.size() - 1) == u'.');
        if (match && suffix.size() > bestLen) {
            best = &b;
            bestLen = suffix.size();
        }
    }
    // core/v1 Service ports: by port and protocol
    if (c.service && c.path == QLatin1String("spec.ports"))
        return ListInfo{ListType::Map, {QStringLiteral("port"), QStringLiteral("protocol")}};
    if (!best)
        return li;
    li.type = best->type;
    for (const char *k : best->keys)
        li.keys.append(QString::fromLatin1(k));
    return li;
}

Cursor itemCursor(const Cursor &list)
{
    Cursor c;
    c.service = list.service;
    c.custom = list.custom;
    c.path = list.path;
    if (list.custom) {
        c.node = list.node.value(QLatin1String("items")).toObject();
        c.freeMap = !c.node.contains(QLatin1String("properties"));
        c.atomic = c.node.value(QLatin1String("x-kubernetes-map-type")).toString() == QLatin1String("atomic");
    }
    return c;
}

QString itemElement(const QJsonValue &item, const ListInfo &li, qsizetype index)
{
    if (li.type == ListType::Set)
        return QStringLiteral("v:") + compactJson(item);
    if (li.type == ListType::Map && item.isObject()) {
        const QJsonObject o = item.toObject();
        QJsonObject key;
        for (const QString &k : li.keys) {
            QJsonValue v = o.value(k);
            if (v.isUndefined() && k == QLatin1String("protocol"))
                v = QStringLiteral("TCP"); // the schema default kube-apiserver keys by
            if (!v.isUndefined())
                key.insert(k, v);
        }
        if (!key.isEmpty())
            return QStringLiteral("k:") + QString::fromUtf8(QJsonDocument(key).toJson(QJsonDocument::Compact));
    }
    return QStringLiteral("i:") + QString::number(index);
}

Scope scopeFor(const ResourceType &type, const QString &subresource)
{
    Scope s;
    s.statusOnly = subresource == kStatus;
    s.skipStatus = subresource.isEmpty() && type.statusSubresource;
    return s;
}

} // namespace opbench::apiserver::ssa
