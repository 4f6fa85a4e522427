// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/apply/fieldmanager.h"

#include "engine/apiserver/apply/fielddiff_p.h"
#include "engine/apiserver/apply/fieldschema_p.h"
#include "engine/apiserver/apply/managedfields_p.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace opbench::apiserver {

using namespace ssa;

namespace {

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

namespace {

/// 400 for a configuration without apiVersion/kind or naming another object than `live`.
std::optional<Status> invalidApply(const std::optional<QJsonObject> &live, const QJsonObject &config)
{
    if (config.value(QLatin1String("apiVersion")).toString().isEmpty()
        || config.value(QLatin1String("kind")).toString().isEmpty())
        return Status::badRequest(
            QStringLiteral("invalid object type: an apply configuration must set apiVersion and kind"));
    if (live) {
        const QString liveName = live->value(kMetadata).toObject().value(QLatin1String("name")).toString();
        const QString name = config.value(kMetadata).toObject().value(QLatin1String("name")).toString();
        if (!name.isEmpty() && name != liveName)
            return Status::badRequest(
                QStringLiteral("the name of the object (%1) does not match the name on the URL (%2)")
                    .arg(name, liveName));
    }
    return std::nullopt;
}

/// Removes from `merged` what the applier (entry `mineIndex`) applied last time, no longer
/// applies, and nobody else owns.
void pruneUnapplied(
    QJsonObject &merged, QList<Entry> &entries, qsizetype mineIndex, const FieldSet &applied, const Cursor &root)
{
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

/// The 409 of an apply whose `diff` changes fields other managers own (nullopt: none, or
/// kubectl taking what its last-applied annotation holds, which sets `force`).
std::optional<Status> applyConflicts(const ResourceType &type, const QJsonObject &liveObj, const Scope &scope,
    const FieldManagerWrite &write, QList<Entry> &entries, qsizetype mineIndex, const Diff &diff, bool &force)
{
    QList<std::pair<Entry *, QStringList>> conflicts;
    for (qsizetype i = 0; i < entries.size(); ++i) {
        if (i == mineIndex)
            continue;
        const FieldSet c = entries[i].fields().intersected(diff.changed);
        if (!c.isEmpty())
            conflicts.append({&entries[i], c.paths()});
    }
    if (conflicts.isEmpty() || force)
        return std::nullopt;
    // kubectl moving from client-side to server-side apply: conflicts on fields the
    // last-applied annotation holds with their live values are expected (the Update entry
    // of kubectl-client-side-apply owns them) and are taken, as kube-apiserver's
    // last-applied manager does; only for the manager `kubectl --server-side` uses
    const std::optional<FieldSet> allowed
        = write.manager == kKubectlManager ? lastAppliedFields(type, liveObj, scope) : std::nullopt;
    if (!allowed)
        return conflictStatus(conflicts);
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
    return std::nullopt;
}

/// Other managers lose what the apply removed (and, with `force`, what it changed); the
/// applier's entry (created if new) becomes `applied`.
void recordApply(QList<Entry> &entries, qsizetype mineIndex, const FieldSet &applied, const Diff &diff, bool force,
    const FieldManagerWrite &write)
{
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
}

/// Sets `merged`'s last-applied annotation to `config` (without that annotation).
void updateLastApplied(QJsonObject &merged, const QJsonObject &config)
{
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

} // namespace

Expected<QJsonObject> serverSideApply(const ResourceType &type, const std::optional<QJsonObject> &live,
    const QJsonObject &config, const FieldManagerWrite &write, bool force)
{
    if (std::optional<Status> invalid = invalidApply(live, config))
        return *invalid;
    const QJsonObject liveObj = live.value_or(QJsonObject());
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
    // prune: what this manager applied last time, no longer applies, and nobody else owns
    if (mineIndex >= 0)
        pruneUnapplied(merged, entries, mineIndex, applied, root);

    const Diff diff = compareObjects(liveObj, merged, type, scope);
    if (std::optional<Status> conflict = applyConflicts(type, liveObj, scope, write, entries, mineIndex, diff, force))
        return *conflict;
    recordApply(entries, mineIndex, applied, diff, force, write);
    storeEntries(merged, entries);
    // keep the annotation in step with what kubectl applied, so a later client-side apply
    // computes its patch from this configuration (kube-apiserver's last-applied updater)
    if (write.manager == kKubectlManager && !lastAppliedOf(merged).isEmpty())
        updateLastApplied(merged, config);
    return merged;
}

} // namespace opbench::apiserver
