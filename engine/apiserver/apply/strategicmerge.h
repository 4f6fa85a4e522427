// SPDX-License-Identifier: Apache-2.0
#pragma once
// Strategic merge patch for built-in kinds (application/strategic-merge-patch+json).
//
// Like a JSON merge patch (null deletes a key, maps merge recursively), except that some lists
// merge element by element instead of being replaced. Which lists, and by which key, is one
// table (strategicMergeRules()), looked up by the list's field path with array indices dropped
// ("spec.template.spec.containers.env"); the rule with the longest matching path suffix wins:
//
//   containers, initContainers, ephemeralContainers, env, volumes,
//   imagePullSecrets, resourceClaims          → by "name"
//   volumeMounts → "mountPath"   volumeDevices → "devicePath"
//   containers.ports, initContainers.ports    → "containerPort"   (Service) spec.ports → "port"
//   ownerReferences → "uid"      conditions → "type"    hostAliases → "ip"
//   topologySpreadConstraints → "topologyKey"
//   finalizers → merged as a set of strings (primitive merge list)
//
// Every other list (tolerations, args, command, envFrom, …) is replaced atomically.
//
// Directives honoured:
//   {"$patch":"delete"} in a map deletes that map; in a merge-list element, the element with
//     that key; {"$patch":"replace"} in a map replaces it wholesale; as a list element, the
//     whole list is replaced by the other elements.
//   "$retainKeys":[…] in a map drops original keys not listed (then merges).
//   "$deleteFromPrimitiveList/<field>":[…] removes those values from a primitive list.
//   "$setElementOrder/<field>":[…] orders the merged list: listed elements first, in that
//     order (matched by merge key, or by value for primitives), then the others as they were.
// No directive ever survives into the result.

#include "engine/api/expected.h"

#include <QJsonObject>
#include <QJsonValue>

#include <optional>

namespace opbench::apiserver {

struct StrategicMergeRule
{
    QString pathSuffix; // dotted field path suffix, e.g. "containers.ports"
    QString mergeKey;   // empty: a primitive list merged as a set
};

/// The merge-key table described above.
const QList<StrategicMergeRule> &strategicMergeRules();

/// The merge key for the list at `fieldPath` (dotted, no indices): nullopt when the list is
/// replaced atomically, an empty string for a primitive list merged as a set.
std::optional<QString> strategicMergeKey(const QString &fieldPath);

/// Applies a strategic merge patch to a built-in object. A patch that is not a JSON object, a
/// merge-list element without its merge key, or an unknown `$patch` value → 400 BadRequest.
Expected<QJsonObject> applyStrategicMergePatch(const QJsonObject &document, const QJsonValue &patch);

} // namespace opbench::apiserver
