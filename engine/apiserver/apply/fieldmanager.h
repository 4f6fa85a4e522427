// SPDX-License-Identifier: Apache-2.0
#pragma once
// Field ownership (server-side apply), as kube-apiserver keeps it in metadata.managedFields.
//
// Each entry names a manager, an operation (Update or Apply), the apiVersion it wrote at, an
// optional subresource ("status"), a time and a FieldSet (fieldset.h) in fieldsV1 form.
// - Update (create, PUT, merge/JSON/strategic patch): the writing manager takes the fields the
//   write added or changed and loses those it removed; every other manager loses the fields the
//   write changed or removed (an Update never conflicts).
// - Apply: the applied configuration is merged into the live object (maps by key, list-maps by
//   their key fields, sets by value, everything else replaced); the applier's set becomes the
//   configuration's fields; fields it applied last time and no longer applies are removed
//   unless another manager owns them; fields another manager owns that the apply would change
//   are conflicts (409, causes of type FieldManagerConflict) unless `force`, which takes them.
// - kubectl moving an object from client-side to server-side apply (manager "kubectl"): a
//   conflict on a field the last-applied-configuration annotation holds with its live value is
//   taken without force, and the annotation is rewritten to the applied configuration, as
//   kube-apiserver's last-applied manager and updater do.
// - At most 10 Update entries are kept: the oldest are folded per apiVersion into an
//   "ancient-changes" entry.
// Lists are maps or sets according to the CRD schema (x-kubernetes-list-type: map|set and
// x-kubernetes-list-map-keys) or, for built-in kinds, the table in fieldschema.cpp
// (containers by name, ports by containerPort+protocol, env by name, conditions by type, ...);
// other lists are atomic. apiVersion, kind and server-owned metadata (name, namespace, uid,
// resourceVersion, generation, creationTimestamp, managedFields, ...) are never owned.
//
// The cost of an Update is a walk of the parts of the object that changed (unchanged subtrees
// are skipped by one equality check) plus the entries the change touches; nothing at all when
// the object did not change.

#include "engine/api/expected.h"
#include "engine/apiserver/apply/fieldset.h"
#include "engine/apiserver/registry/registry.h"

#include <QJsonObject>

#include <optional>

namespace opbench::apiserver {

/// Who writes: one entry of managedFields is kept per distinct writer.
struct FieldManagerWrite
{
    QString manager;     // ?fieldManager=, or the User-Agent's first segment
    QString apiVersion;  // the version the request was served at ("apps/v1")
    QString subresource; // "" or "status"
    QString time;        // RFC 3339, seconds
};

/// The manager kube-apiserver records for a request: `fieldManager` when given, else the
/// User-Agent up to its first '/', at most 128 characters.
QString fieldManagerFor(const QString &fieldManager, const QByteArray &userAgent);

/// Update bookkeeping: `next` is the object about to be stored, `old` the stored one (empty
/// on create). next's metadata.managedFields, when present and non-empty, is the starting
/// point (a client may send them back); otherwise old's. Leaves next's managedFields updated.
void recordUpdate(const ResourceType &type, const QJsonObject &old, QJsonObject &next, const FieldManagerWrite &write);

/// Server-side apply of `config` by `write.manager` onto `live` (absent: create). Returns the
/// object to store, managedFields included; 409 on conflicts (unless `force`); 400 for a
/// configuration without apiVersion/kind or naming another object.
Expected<QJsonObject> serverSideApply(const ResourceType &type, const std::optional<QJsonObject> &live,
    const QJsonObject &config, const FieldManagerWrite &write, bool force);

/// The field set of one value under the type's schema, as Apply records it (for tests).
FieldSet appliedFieldSet(const ResourceType &type, const QJsonObject &config, const QString &subresource = {});

} // namespace opbench::apiserver
