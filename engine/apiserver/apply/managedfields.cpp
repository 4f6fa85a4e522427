// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/apply/managedfields_p.h"

#include "engine/apiserver/apply/fieldschema_p.h"
#include "engine/base/recentlybuilt.h"

#include <QJsonArray>
#include <QSet>

#include <algorithm>
#include <tuple>

namespace opbench::apiserver::ssa {

namespace {

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

} // namespace

const QString kKubectlManager = QStringLiteral("kubectl");
const QString kLastApplied = QStringLiteral("kubectl.kubernetes.io/last-applied-configuration");

QList<Entry> entriesOf(const QJsonObject &object)
{
    QList<Entry> out;
    for (const QJsonValue v : object.value(kMetadata).toObject().value(kManagedFields).toArray()) {
        Entry e;
        e.json = v.toObject();
        out.append(e);
    }
    return out;
}

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

namespace {

/// The JSON of a new entry without fields. Writes repeat the same few (a handful of managers, one
/// time per second), and six inserts cost more than the rest of a small write's bookkeeping: the
/// last ones built are kept (per thread) and shared.
QJsonObject entryJson(const FieldManagerWrite &w, const QString &operation)
{
    thread_local RecentlyBuilt<std::tuple<QString, QString, QString, QString, QString>, QJsonObject> recent;
    return recent.get(std::tuple(w.time, w.manager, operation, w.apiVersion, w.subresource), [&] {
        QJsonObject json;
        json.insert(QStringLiteral("manager"), w.manager);
        json.insert(QStringLiteral("operation"), operation);
        json.insert(QStringLiteral("apiVersion"), w.apiVersion);
        json.insert(QStringLiteral("time"), w.time);
        json.insert(QStringLiteral("fieldsType"), QStringLiteral("FieldsV1"));
        if (!w.subresource.isEmpty())
            json.insert(QStringLiteral("subresource"), w.subresource);
        return json;
    });
}

} // namespace

Entry newEntry(const FieldManagerWrite &w, const QString &operation)
{
    Entry e;
    e.json = entryJson(w, operation);
    e.decoded = true;
    e.touched = true;
    return e;
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

QString lastAppliedOf(const QJsonObject &object)
{
    return object.value(kMetadata)
        .toObject()
        .value(QLatin1String("annotations"))
        .toObject()
        .value(kLastApplied)
        .toString();
}

} // namespace opbench::apiserver::ssa
