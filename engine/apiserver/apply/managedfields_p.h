// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to server-side apply (fieldmanager.cpp): metadata.managedFields as a list of
// entries (decoded on demand), stored back sorted as kube-apiserver sorts them, capped at 10
// Update entries, and the 409 Status of an Apply's conflicts.

#include "engine/api/status.h"
#include "engine/apiserver/apply/fieldmanager.h"
#include "engine/apiserver/apply/fieldset.h"

#include <QJsonObject>
#include <QList>
#include <QStringList>

#include <utility>

namespace opbench::apiserver::ssa {

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

QList<Entry> entriesOf(const QJsonObject &object);
/// Writes the entries back (sorted as kube-apiserver sorts them), removing empty ones.
void storeEntries(QJsonObject &object, QList<Entry> &entries);
/// kube-apiserver keeps at most 10 Update entries (DefaultMaxUpdateManagers). Past that, the
/// oldest are folded, per apiVersion, into an "ancient-changes" Update entry, as its capping
/// manager does: the Update entries sorted oldest first (time, then identity); the first entry
/// of a version stays until a second one of that version comes; then the two (or the second and
/// an existing bucket) merge into the bucket, which takes the newer time; until 10 are left.
/// Apply entries are never folded.
void capUpdateManagers(QList<Entry> &entries);
/// A new entry of `w` with `operation` ("Update" or "Apply") and an empty set.
Entry newEntry(const FieldManagerWrite &w, const QString &operation);
/// The 409 Conflict of an Apply: each conflicting entry with the paths it owns.
Status conflictStatus(QList<std::pair<Entry *, QStringList>> conflicts);

/// The manager `kubectl apply --server-side` uses, and the annotation client-side apply keeps.
extern const QString kKubectlManager;
extern const QString kLastApplied;
/// The last-applied-configuration annotation of `object` ("" when absent).
QString lastAppliedOf(const QJsonObject &object);

} // namespace opbench::apiserver::ssa
