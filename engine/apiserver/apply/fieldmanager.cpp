// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/apply/fieldmanager.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>

namespace opbench::apiserver {

namespace {

const QLatin1String kMetadata("metadata");
const QLatin1String kManagedFields("managedFields");
const QLatin1String kStatus("status");

// ---- schema: which maps are structs, which lists are maps or sets ----------------------------

enum class ListType { Atomic, Set, Map };

struct ListInfo
{
    ListType type = ListType::Atomic;
    QStringList keys;
};

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

// Go struct fields that are present (as `{}`) in a zero object, so an Update that fills them
// does not make the struct itself a member (only what it sets inside).
bool zeroPresentStruct(const QString &name)
{
    return name == QLatin1String("metadata") || name == QLatin1String("spec") || name == QLatin1String("status")
        || name == QLatin1String("template") || name == QLatin1String("strategy");
}

struct Cursor
{
    bool custom = false;  // walking a CRD schema (node) rather than the built-in tables (path)
    QJsonObject node;     // CRD schema node ({}: unknown, everything free-form)
    QString path;         // built-in: dotted field path without list indices
    bool freeMap = false; // children are free-form map entries
    bool atomic = false;  // a map that is one leaf
    bool service = false; // core/v1 Service (spec.selector is a free-form map there)
    bool root = false;
};

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
            for (const QJsonValue &k : c.node.value(QLatin1String("x-kubernetes-list-map-keys")).toArray())
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

QString compactJson(const QJsonValue &v)
{
    const QByteArray wrapped = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2));
}

/// The path element of a list item ("k:{…}", "v:…", or "i:<n>").
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

// ---- which paths are never owned --------------------------------------------------------------

/// Filters what field sets may hold: apiVersion, kind, server-owned metadata, and the part of the
/// object a subresource does not write.
struct Scope
{
    bool statusOnly = false; // /status writes own only status
    bool skipStatus = false; // main-endpoint writes of a type with a status subresource

    bool skipRootKey(const QString &key) const
    {
        if (key == QLatin1String("apiVersion") || key == QLatin1String("kind"))
            return true;
        if (statusOnly)
            return key != kStatus;
        return skipStatus && key == kStatus;
    }
    static bool skipMetadataKey(const QString &key)
    {
        static const QStringList keys{QStringLiteral("name"), QStringLiteral("namespace"),
            QStringLiteral("creationTimestamp"), QStringLiteral("selfLink"), QStringLiteral("uid"),
            QStringLiteral("clusterName"), QStringLiteral("generation"), QStringLiteral("managedFields"),
            QStringLiteral("resourceVersion"), QStringLiteral("deletionTimestamp"),
            QStringLiteral("deletionGracePeriodSeconds"), QStringLiteral("generateName")};
        return keys.contains(key);
    }
};

Scope scopeFor(const ResourceType &type, const QString &subresource)
{
    Scope s;
    s.statusOnly = subresource == kStatus;
    s.skipStatus = subresource.isEmpty() && type.statusSubresource;
    return s;
}

// ---- compare: what a write added, changed and removed ---------------------------------------

struct Diff
{
    FieldSet changed; // added or modified
    FieldSet removed;
    bool isEmpty() const { return changed.isEmpty() && removed.isEmpty(); }
};

class Comparer
{
public:
    Comparer(const Scope &scope, Diff &diff)
        : m_scope(scope)
        , m_diff(diff)
    { }

    void compareRoot(const QJsonObject &a, const QJsonObject &b, const Cursor &root)
    {
        compareMapChildren(a, b, root, true, 0);
    }

private:
    void compareMapChildren(const QJsonObject &a, const QJsonObject &b, const Cursor &c, bool aPresent, int depth)
    {
        auto visit = [&](const QString &key) {
            if (depth == 0 && m_scope.skipRootKey(key))
                return;
            if (depth == 1 && m_metaLevel && Scope::skipMetadataKey(key))
                return;
            const QJsonValue av = a.value(key);
            const QJsonValue bv = b.value(key);
            if (!av.isUndefined() && av == bv)
                return;
            const bool meta = depth == 0 && key == kMetadata;
            const bool savedMeta = m_metaLevel;
            m_metaLevel = meta;
            push(QStringLiteral("f:") + key);
            const bool zero = meta || (!c.custom && aPresent && !c.freeMap && zeroPresentStruct(key));
            compare(av, bv, fieldCursor(c, key), zero, depth + 1);
            pop();
            m_metaLevel = savedMeta;
        };
        for (auto it = a.begin(); it != a.end(); ++it)
            visit(it.key());
        for (auto it = b.begin(); it != b.end(); ++it) {
            if (!a.contains(it.key()))
                visit(it.key());
        }
    }

    void leaf(const QJsonValue &a, const QJsonValue &b)
    {
        if (a.isUndefined())
            mark(m_changed, m_diff.changed);
        else if (b.isUndefined())
            mark(m_removed, m_diff.removed);
        else if (a != b)
            mark(m_changed, m_diff.changed);
    }

    void compare(const QJsonValue &a, const QJsonValue &b, const Cursor &c, bool noMember, int depth)
    {
        const bool aU = a.isUndefined(), bU = b.isUndefined();
        const QJsonValue &probe = bU ? a : b;
        if (probe.isObject() && !c.atomic && (aU || a.isObject()) && (bU || b.isObject())) {
            const QJsonObject ao = a.toObject(), bo = b.toObject();
            if (ao.isEmpty() && bo.isEmpty())
                return leaf(a, b);
            compareMapChildren(ao, bo, c, !aU || noMember, depth); // noMember: exists in a zero object
        } else if (probe.isArray() && (aU || a.isArray()) && (bU || b.isArray())) {
            const ListInfo li = listInfo(c);
            const QJsonArray aa = a.toArray(), ba = b.toArray();
            if (li.type == ListType::Atomic || (aa.isEmpty() && ba.isEmpty()))
                return leaf(a, b);
            QHash<QString, QJsonValue> before;
            for (qsizetype i = 0; i < aa.size(); ++i)
                before.insert(itemElement(aa.at(i), li, i), aa.at(i));
            const Cursor ic = itemCursor(c);
            QSet<QString> seen;
            for (qsizetype i = 0; i < ba.size(); ++i) {
                const QString pe = itemElement(ba.at(i), li, i);
                seen.insert(pe);
                const QJsonValue old = before.value(pe, QJsonValue(QJsonValue::Undefined));
                if (!old.isUndefined() && old == ba.at(i))
                    continue;
                push(pe);
                compare(old, ba.at(i), ic, false, depth + 1);
                pop();
            }
            for (auto it = before.cbegin(); it != before.cend(); ++it) {
                if (seen.contains(it.key()))
                    continue;
                push(it.key());
                compare(it.value(), QJsonValue(QJsonValue::Undefined), ic, false, depth + 1);
                pop();
            }
        } else {
            return leaf(a, b);
        }
        if (aU && !noMember)
            mark(m_changed, m_diff.changed);
        else if (bU && !noMember)
            mark(m_removed, m_diff.removed);
    }

    void push(const QString &pe)
    {
        m_path.push_back(pe);
        m_changed.push_back(nullptr);
        m_removed.push_back(nullptr);
    }
    void pop()
    {
        m_path.pop_back();
        m_changed.pop_back();
        m_removed.pop_back();
    }
    /// Makes the current path a member of `root`, creating only the nodes still missing
    /// (`nodes` caches the nodes of the current path; index 0 is the root).
    void mark(std::vector<FieldSet *> &nodes, FieldSet &root)
    {
        if (nodes.empty())
            return;
        nodes[0] = &root;
        std::size_t i = nodes.size() - 1;
        while (!nodes[i])
            --i;
        for (; i + 1 < nodes.size(); ++i)
            nodes[i + 1] = &nodes[i]->children[m_path[i]];
        if (nodes.size() > 1)
            nodes.back()->member = true;
    }

    const Scope &m_scope;
    Diff &m_diff;
    std::vector<QString> m_path;
    std::vector<FieldSet *> m_changed{nullptr}; // one more than m_path: the root first
    std::vector<FieldSet *> m_removed{nullptr};
    bool m_metaLevel = false;
};

/// The fieldsV1 an Update records for a value that did not exist before (a create): what
/// Comparer would mark as added, built straight as JSON. nullopt: nothing to record.
std::optional<QJsonObject> addedFields(
    const QJsonValue &v, const Cursor &c, bool present, int depth, const Scope &scope)
{
    static const QString kDotKey = QStringLiteral(".");
    QJsonObject node;
    if (v.isObject() && !c.atomic && !v.toObject().isEmpty()) {
        const QJsonObject o = v.toObject();
        const bool metaLevel = depth == 1 && c.path == kMetadata;
        for (auto it = o.begin(); it != o.end(); ++it) {
            const QString key = it.key();
            if (depth == 0 && scope.skipRootKey(key))
                continue;
            if (metaLevel && Scope::skipMetadataKey(key))
                continue;
            const bool meta = depth == 0 && key == kMetadata;
            const bool zero = meta || (!c.custom && present && !c.freeMap && zeroPresentStruct(key));
            if (auto child = addedFields(it.value(), fieldCursor(c, key), zero, depth + 1, scope))
                node.insert(QStringLiteral("f:") + key, *child);
        }
    } else if (v.isArray() && !v.toArray().isEmpty() && listInfo(c).type != ListType::Atomic) {
        const QJsonArray a = v.toArray();
        const ListInfo li = listInfo(c);
        const Cursor ic = itemCursor(c);
        for (qsizetype i = 0; i < a.size(); ++i) {
            if (auto child = addedFields(a.at(i), ic, false, depth + 1, scope))
                node.insert(itemElement(a.at(i), li, i), *child);
        }
    } else {
        return node; // a leaf: a member without children
    }
    if (depth == 0 || present)
        return node.isEmpty() ? std::nullopt : std::optional<QJsonObject>(node);
    if (!node.isEmpty())
        node.insert(kDotKey, QJsonObject());
    return node;
}

Diff compareObjects(const QJsonObject &a, const QJsonObject &b, const ResourceType &type, const Scope &scope)
{
    Diff d;
    Comparer(scope, d).compareRoot(a, b, rootCursor(type));
    return d;
}

// ---- apply: field set of a configuration, merge, prune ----------------------------------------

void toFieldSet(const QJsonValue &v, const Cursor &c, FieldSet &node, const Scope &scope, int depth)
{
    if (v.isObject() && !c.atomic) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            const QString key = it.key();
            if (depth == 0 && scope.skipRootKey(key))
                continue;
            if (depth == 1 && c.path == kMetadata && Scope::skipMetadataKey(key))
                continue;
            FieldSet &child = node.children[QStringLiteral("f:") + key];
            const QJsonValue cv = it.value();
            toFieldSet(cv, fieldCursor(c, key), child, scope, depth + 1);
            if (depth == 0 && key == kMetadata)
                continue;
            if (cv.isNull() || (cv.isObject() && cv.toObject().isEmpty()) || !declaredField(c, key))
                child.member = true;
        }
        return;
    }
    if (v.isArray()) {
        const ListInfo li = listInfo(c);
        if (li.type == ListType::Atomic) {
            node.member = true;
            return;
        }
        const QJsonArray a = v.toArray();
        const Cursor ic = itemCursor(c);
        for (qsizetype i = 0; i < a.size(); ++i) {
            FieldSet &child = node.children[itemElement(a.at(i), li, i)];
            toFieldSet(a.at(i), ic, child, scope, depth + 1);
            child.member = true;
        }
        return;
    }
    node.member = true;
}

QJsonValue mergeValue(const QJsonValue &live, const QJsonValue &config, const Cursor &c)
{
    if (config.isObject() && live.isObject() && !c.atomic) {
        QJsonObject out = live.toObject();
        const QJsonObject cfg = config.toObject();
        for (auto it = cfg.begin(); it != cfg.end(); ++it) {
            if (it.value().isNull()) {
                out.remove(it.key());
                continue;
            }
            out.insert(it.key(), mergeValue(out.value(it.key()), it.value(), fieldCursor(c, it.key())));
        }
        return out;
    }
    if (config.isArray() && live.isArray()) {
        const ListInfo li = listInfo(c);
        if (li.type == ListType::Atomic)
            return config;
        QJsonArray out = live.toArray();
        QHash<QString, qsizetype> index;
        for (qsizetype i = 0; i < out.size(); ++i)
            index.insert(itemElement(out.at(i), li, i), i);
        const Cursor ic = itemCursor(c);
        const QJsonArray cfg = config.toArray();
        for (qsizetype j = 0; j < cfg.size(); ++j) {
            const QString pe = itemElement(cfg.at(j), li, j);
            const auto it = index.constFind(pe);
            if (it != index.cend()) {
                out.replace(*it, mergeValue(out.at(*it), cfg.at(j), ic));
            } else {
                index.insert(pe, out.size());
                out.append(cfg.at(j));
            }
        }
        return out;
    }
    return config;
}

/// Removes from `v` the member paths of `remove` (whole subtrees); never metadata itself.
QJsonValue removeItems(const QJsonValue &v, const FieldSet &remove, const Cursor &c, int depth)
{
    if (v.isObject()) {
        QJsonObject o = v.toObject();
        for (const auto &[pe, child] : remove.children) {
            if (!pe.startsWith(QLatin1String("f:")))
                continue;
            const QString key = pe.mid(2);
            if (!o.contains(key))
                continue;
            if (child.member && !(depth == 0 && key == kMetadata))
                o.remove(key);
            else
                o.insert(key, removeItems(o.value(key), child, fieldCursor(c, key), depth + 1));
        }
        return o;
    }
    if (v.isArray()) {
        const ListInfo li = listInfo(c);
        const Cursor ic = itemCursor(c);
        const QJsonArray a = v.toArray();
        QJsonArray out;
        for (qsizetype i = 0; i < a.size(); ++i) {
            const auto it = remove.children.find(itemElement(a.at(i), li, i));
            if (it == remove.children.end()) {
                out.append(a.at(i));
            } else if (!it->second.member) {
                out.append(removeItems(a.at(i), it->second, ic, depth + 1));
            }
        }
        return out;
    }
    return v;
}

// ---- managedFields entries --------------------------------------------------------------------

struct Entry
{
    QJsonObject json; // the entry as stored (fieldsV1 included)
    FieldSet set;     // decoded on demand
    bool decoded = false;
    bool touched = false; // set changed: re-encode

    QString manager() const { return json.value(QLatin1String("manager")).toString(); }
    QString operation() const { return json.value(QLatin1String("operation")).toString(); }
    QString apiVersion() const { return json.value(QLatin1String("apiVersion")).toString(); }
    QString subresource() const { return json.value(QLatin1String("subresource")).toString(); }

    FieldSet &fields()
    {
        if (!decoded) {
            set = FieldSet::fromFieldsV1(json.value(QLatin1String("fieldsV1")).toObject());
            decoded = true;
        }
        return set;
    }
    bool sameWriter(const QString &mgr, const QString &op, const QString &version, const QString &sub) const
    {
        return manager() == mgr && operation() == op && subresource() == sub
            && (op == QLatin1String("Apply") || apiVersion() == version);
    }
    QJsonObject encoded()
    {
        if (touched)
            json.insert(QLatin1String("fieldsV1"), set.toFieldsV1());
        return json;
    }
};

QList<Entry> entriesOf(const QJsonObject &object)
{
    QList<Entry> out;
    for (const QJsonValue &v : object.value(kMetadata).toObject().value(kManagedFields).toArray()) {
        Entry e;
        e.json = v.toObject();
        out.append(e);
    }
    return out;
}

/// Writes the entries back (sorted as kube-apiserver sorts them), removing empty ones.
void storeEntries(QJsonObject &object, QList<Entry> &entries)
{
    QJsonArray arr;
    QList<QJsonObject> encoded;
    for (Entry &e : entries) {
        if (e.decoded && e.fields().isEmpty())
            continue;
        encoded.append(e.encoded());
    }
    std::stable_sort(encoded.begin(), encoded.end(), [](const QJsonObject &p, const QJsonObject &q) {
        for (const char *k : {"operation", "time", "manager", "apiVersion", "subresource"}) {
            const QString a = p.value(QLatin1String(k)).toString(), b = q.value(QLatin1String(k)).toString();
            if (a != b)
                return a < b;
        }
        return false;
    });
    for (const QJsonObject &e : std::as_const(encoded))
        arr.append(e);
    QJsonObject meta = object.value(kMetadata).toObject();
    if (arr.isEmpty())
        meta.remove(kManagedFields);
    else
        meta.insert(kManagedFields, arr);
    object.insert(kMetadata, meta);
}

/// kube-apiserver keeps at most 10 Update entries (DefaultMaxUpdateManagers). Past that, the
/// oldest are folded, per apiVersion, into an "ancient-changes" Update entry, as its capping
/// manager does: the Update entries sorted oldest first (time, then identity); the first entry
/// of a version stays until a second one of that version comes; then the two (or the second and
/// an existing bucket) merge into the bucket, which takes the newer time; until 10 are left.
/// Apply entries are never folded.
void capUpdateManagers(QList<Entry> &entries)
{
    constexpr qsizetype kMaxUpdateManagers = 10;
    const QString update = QStringLiteral("Update");
    const QString ancient = QStringLiteral("ancient-changes");
    QList<qsizetype> updaters;
    for (qsizetype i = 0; i < entries.size(); ++i)
        if (entries[i].operation() == update && !(entries[i].decoded && entries[i].fields().isEmpty()))
            updaters.append(i);
    if (updaters.size() <= kMaxUpdateManagers)
        return;
    const auto key = [&entries](qsizetype i) {
        const Entry &e = entries[i];
        return e.json.value(QLatin1String("time")).toString() + u'\x01' + e.manager() + u'\x01' + e.apiVersion()
            + u'\x01' + e.subresource();
    };
    std::stable_sort(updaters.begin(), updaters.end(), [&key](qsizetype a, qsizetype b) { return key(a) < key(b); });
    QHash<QString, qsizetype> firstOfVersion;
    QSet<qsizetype> folded;
    qsizetype length = updaters.size();
    for (qsizetype k = 0; k < updaters.size() && length > kMaxUpdateManagers; ++k) {
        const qsizetype i = updaters[k];
        const QString version = entries[i].apiVersion();
        if (!firstOfVersion.contains(version)) {
            firstOfVersion.insert(version, i);
            continue;
        }
        qsizetype bucket = -1;
        for (qsizetype j = 0; j < entries.size() && bucket < 0; ++j)
            if (!folded.contains(j) && entries[j].manager() == ancient && entries[j].operation() == update
                && entries[j].apiVersion() == version && entries[j].subresource().isEmpty())
                bucket = j;
        if (bucket == i)
            continue;
        if (bucket < 0) { // the version's first entry becomes the bucket
            bucket = firstOfVersion.value(version);
            entries[bucket].fields();
            entries[bucket].json.insert(QStringLiteral("manager"), ancient);
            entries[bucket].json.remove(QStringLiteral("subresource"));
        }
        Entry &b = entries[bucket];
        b.fields().unite(entries[i].fields());
        b.touched = true;
        b.json.insert(QStringLiteral("time"), entries[i].json.value(QLatin1String("time")));
        folded.insert(i);
        --length;
    }
    QList<Entry> kept;
    for (qsizetype i = 0; i < entries.size(); ++i)
        if (!folded.contains(i))
            kept.append(std::move(entries[i]));
    entries = std::move(kept);
}

Entry newEntry(const FieldManagerWrite &w, const QString &operation)
{
    Entry e;
    e.json.insert(QStringLiteral("manager"), w.manager);
    e.json.insert(QStringLiteral("operation"), operation);
    e.json.insert(QStringLiteral("apiVersion"), w.apiVersion);
    e.json.insert(QStringLiteral("time"), w.time);
    e.json.insert(QStringLiteral("fieldsType"), QStringLiteral("FieldsV1"));
    if (!w.subresource.isEmpty())
        e.json.insert(QStringLiteral("subresource"), w.subresource);
    e.decoded = true;
    e.touched = true;
    return e;
}

/// `"name"`, `"name" with subresource "status"`, then ` using apps/v1` for Update managers.
QString printManager(const Entry &e)
{
    QString s = u'"' + e.manager() + u'"';
    if (!e.subresource().isEmpty())
        s += QStringLiteral(" with subresource \"%1\"").arg(e.subresource());
    if (e.operation() == QLatin1String("Update"))
        s += QStringLiteral(" using ") + e.apiVersion();
    return s;
}

QString managerSortKey(const Entry &e)
{
    // kube-apiserver sorts conflicting managers by their JSON identifier
    // {"manager":…,"operation":…,"apiVersion":…,"subresource":…}
    return e.manager() + u'\x01' + e.operation() + u'\x01' + e.apiVersion() + u'\x01' + e.subresource();
}

Status conflictStatus(QList<std::pair<Entry *, QStringList>> conflicts)
{
    std::stable_sort(conflicts.begin(), conflicts.end(),
        [](const auto &a, const auto &b) { return managerSortKey(*a.first) < managerSortKey(*b.first); });
    QList<StatusCause> causes;
    QStringList lines;
    qsizetype total = 0;
    for (const auto &[entry, paths] : conflicts) {
        lines.append(QStringLiteral("conflicts with %1:").arg(printManager(*entry)));
        for (const QString &p : paths) {
            causes.append({QStringLiteral("FieldManagerConflict"),
                QStringLiteral("conflict with %1").arg(printManager(*entry)), p});
            lines.append(QStringLiteral("- ") + p);
            ++total;
        }
    }
    QString message;
    if (total == 1)
        message = QStringLiteral("Apply failed with 1 conflict: conflict with %1: %2")
                      .arg(printManager(*conflicts.first().first), causes.first().field);
    else
        message = QStringLiteral("Apply failed with %1 conflicts: %2").arg(total).arg(lines.join(u'\n'));
    StatusDetails details;
    details.causes = causes;
    return Status(409, QString::fromLatin1(StatusReason::Conflict), message, details);
}

const QString kKubectlManager = QStringLiteral("kubectl");
const QString kLastApplied = QStringLiteral("kubectl.kubernetes.io/last-applied-configuration");

QString lastAppliedOf(const QJsonObject &object)
{
    return object.value(kMetadata)
        .toObject()
        .value(QLatin1String("annotations"))
        .toObject()
        .value(kLastApplied)
        .toString();
}

/// The fields of `live`'s last-applied configuration whose live values are still the applied
/// ones (nullopt without an annotation that parses as an object).
std::optional<FieldSet> lastAppliedFields(const ResourceType &type, const QJsonObject &live, const Scope &scope)
{
    const QString text = lastAppliedOf(live);
    if (text.isEmpty())
        return std::nullopt;
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8());
    if (!doc.isObject())
        return std::nullopt;
    FieldSet set;
    toFieldSet(doc.object(), rootCursor(type), set, scope, 0);
    set.member = false;
    const Diff changedSince = compareObjects(doc.object(), live, type, scope);
    set.subtract(changedSince.changed);
    set.subtract(changedSince.removed);
    set.dropEmptyNodes();
    return set;
}

} // namespace

QString fieldManagerFor(const QString &fieldManager, const QByteArray &userAgent)
{
    if (!fieldManager.isEmpty())
        return fieldManager;
    QString ua = QString::fromUtf8(userAgent);
    const qsizetype slash = ua.indexOf(u'/');
    if (slash >= 0)
        ua.truncate(slash);
    return ua.left(128);
}

void recordUpdate(const ResourceType &type, const QJsonObject &old, QJsonObject &next, const FieldManagerWrite &write)
{
    if (write.manager.isEmpty())
        return;
    const QJsonArray sent = next.value(kMetadata).toObject().value(kManagedFields).toArray();
    if (old.isEmpty() && sent.isEmpty()) {
        // a create: one entry holding everything the object sets, built in one walk
        const std::optional<QJsonObject> fields
            = addedFields(next, rootCursor(type), true, 0, scopeFor(type, write.subresource));
        if (!fields)
            return;
        Entry e = newEntry(write, QStringLiteral("Update"));
        e.json.insert(QStringLiteral("fieldsV1"), *fields);
        QJsonObject meta = next.value(kMetadata).toObject();
        meta.insert(kManagedFields, QJsonArray{e.json});
        next.insert(kMetadata, meta);
        return;
    }
    QList<Entry> entries = entriesOf(sent.isEmpty() ? old : next);
    Diff diff = compareObjects(old, next, type, scopeFor(type, write.subresource));
    if (diff.isEmpty()) {
        // nothing changed: the entries stay exactly as they were
        capUpdateManagers(entries);
        storeEntries(next, entries);
        return;
    }
    Entry *mine = nullptr;
    for (Entry &e : entries) {
        if (e.sameWriter(write.manager, QStringLiteral("Update"), write.apiVersion, write.subresource)) {
            mine = &e;
            continue;
        }
        const QJsonObject fields = e.json.value(QLatin1String("fieldsV1")).toObject();
        if (fields.isEmpty()
            || (!fieldsV1Intersects(fields, diff.changed) && !fieldsV1Intersects(fields, diff.removed)))
            continue; // untouched: kept as it is, never decoded
        FieldSet &s = e.fields();
        s.subtract(diff.changed);
        s.subtract(diff.removed);
        e.touched = true;
    }
    if (mine) {
        const QJsonObject fields = mine->json.value(QLatin1String("fieldsV1")).toObject();
        if (fieldsV1ContainsAll(fields, diff.changed) && !fieldsV1Intersects(fields, diff.removed)) {
            // the common controller write: fields it already owns changed; only the time moves
            mine->json.insert(QStringLiteral("time"), write.time);
            capUpdateManagers(entries);
            storeEntries(next, entries);
            return;
        }
    } else {
        entries.append(newEntry(write, QStringLiteral("Update")));
        mine = &entries.last();
    }
    FieldSet &s = mine->fields();
    s.subtract(diff.removed);
    if (s.isEmpty())
        s = std::move(diff.changed); // a create: the whole set, no copy
    else
        s.unite(diff.changed);
    s.dropEmptyNodes();
    mine->touched = true;
    mine->json.insert(QStringLiteral("time"), write.time);
    capUpdateManagers(entries);
    storeEntries(next, entries);
}

FieldSet appliedFieldSet(const ResourceType &type, const QJsonObject &config, const QString &subresource)
{
    FieldSet s;
    toFieldSet(config, rootCursor(type), s, scopeFor(type, subresource), 0);
    s.member = false;
    s.dropEmptyNodes();
    return s;
}

Expected<QJsonObject> serverSideApply(const ResourceType &type, const std::optional<QJsonObject> &live,
    const QJsonObject &config, const FieldManagerWrite &write, bool force)
{
    if (config.value(QLatin1String("apiVersion")).toString().isEmpty()
        || config.value(QLatin1String("kind")).toString().isEmpty())
        return Status::badRequest(
            QStringLiteral("invalid object type: an apply configuration must set apiVersion and kind"));
    const QJsonObject liveObj = live.value_or(QJsonObject());
    if (live) {
        const QString liveName = liveObj.value(kMetadata).toObject().value(QLatin1String("name")).toString();
        const QString name = config.value(kMetadata).toObject().value(QLatin1String("name")).toString();
        if (!name.isEmpty() && name != liveName)
            return Status::badRequest(
                QStringLiteral("the name of the object (%1) does not match the name on the URL (%2)")
                    .arg(name, liveName));
    }
    const Scope scope = scopeFor(type, write.subresource);
    const Cursor root = rootCursor(type);

    QList<Entry> entries = entriesOf(liveObj);
    qsizetype mineIndex = -1;
    for (qsizetype i = 0; i < entries.size(); ++i) {
        if (entries[i].sameWriter(write.manager, QStringLiteral("Apply"), write.apiVersion, write.subresource))
            mineIndex = i;
    }
    const FieldSet applied = appliedFieldSet(type, config, write.subresource);

    QJsonObject merged = mergeValue(liveObj, config, root).toObject();
    if (mineIndex >= 0) {
        // prune: what this manager applied last time, no longer applies, and nobody else owns
        FieldSet removable = entries[mineIndex].fields().withAncestors();
        removable.subtract(applied.withAncestors());
        for (qsizetype i = 0; i < entries.size(); ++i) {
            if (i != mineIndex)
                removable.subtract(entries[i].fields().withAncestors());
        }
        removable.dropEmptyNodes();
        if (!removable.isEmpty())
            merged = removeItems(merged, removable, root, 0).toObject();
    }

    const Diff diff = compareObjects(liveObj, merged, type, scope);
    QList<std::pair<Entry *, QStringList>> conflicts;
    for (qsizetype i = 0; i < entries.size(); ++i) {
        if (i == mineIndex)
            continue;
        const FieldSet c = entries[i].fields().intersected(diff.changed);
        if (!c.isEmpty())
            conflicts.append({&entries[i], c.paths()});
    }
    if (!conflicts.isEmpty() && !force) {
        // kubectl moving from client-side to server-side apply: conflicts on fields the
        // last-applied annotation holds with their live values are expected (the Update entry
        // of kubectl-client-side-apply owns them) and are taken, as kube-apiserver's
        // last-applied manager does; only for the manager `kubectl --server-side` uses
        if (const std::optional<FieldSet> allowed
            = write.manager == kKubectlManager ? lastAppliedFields(type, liveObj, scope) : std::nullopt) {
            QList<std::pair<Entry *, QStringList>> remaining;
            for (qsizetype i = 0; i < entries.size(); ++i) {
                if (i == mineIndex)
                    continue;
                FieldSet c = entries[i].fields().intersected(diff.changed);
                c.subtract(*allowed);
                c.dropEmptyNodes();
                if (!c.isEmpty())
                    remaining.append({&entries[i], c.paths()});
            }
            if (!remaining.isEmpty())
                return conflictStatus(remaining);
            force = true;
        } else {
            return conflictStatus(conflicts);
        }
    }

    for (qsizetype i = 0; i < entries.size(); ++i) {
        if (i == mineIndex)
            continue;
        FieldSet &s = entries[i].fields();
        if (force && s.intersects(diff.changed)) {
            s.subtract(diff.changed);
            entries[i].touched = true;
        }
        if (s.intersects(diff.removed)) {
            s.subtract(diff.removed);
            entries[i].touched = true;
        }
    }
    if (mineIndex < 0) {
        entries.append(newEntry(write, QStringLiteral("Apply")));
        mineIndex = entries.size() - 1;
    }
    Entry &mine = entries[mineIndex];
    const bool setChanged = !(mine.fields() == applied);
    mine.set = applied;
    mine.touched = true;
    if (setChanged || !diff.isEmpty()) {
        mine.json.insert(QStringLiteral("time"), write.time);
        mine.json.insert(QStringLiteral("apiVersion"), write.apiVersion);
    }
    if (applied.isEmpty())
        mine.set = FieldSet(); // an empty apply drops the entry
    storeEntries(merged, entries);
    if (write.manager == kKubectlManager && !lastAppliedOf(merged).isEmpty()) {
        // keep the annotation in step with what kubectl applied, so a later client-side apply
        // computes its patch from this configuration (kube-apiserver's last-applied updater)
        QJsonObject lastApplied = config;
        QJsonObject meta = lastApplied.value(kMetadata).toObject();
        QJsonObject annotations = meta.value(QLatin1String("annotations")).toObject();
        annotations.remove(kLastApplied);
        meta.insert(QStringLiteral("annotations"), annotations);
        lastApplied.insert(kMetadata, meta);
        QJsonObject mergedMeta = merged.value(kMetadata).toObject();
        QJsonObject mergedAnnotations = mergedMeta.value(QLatin1String("annotations")).toObject();
        mergedAnnotations.insert(
            kLastApplied, QString::fromUtf8(QJsonDocument(lastApplied).toJson(QJsonDocument::Compact)));
        mergedMeta.insert(QStringLiteral("annotations"), mergedAnnotations);
        merged.insert(kMetadata, mergedMeta);
    }
    return merged;
}

} // namespace opbench::apiserver
