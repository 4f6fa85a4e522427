// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to server-side apply (fieldmanager.cpp): the comparison of two versions of an
// object that tells what a write added, changed and removed, as field sets.

#include "engine/apiserver/apply/fieldschema_p.h"
#include "engine/apiserver/apply/fieldset.h"

#include <optional>

namespace opbench::apiserver::ssa {

struct Diff
{
    FieldSet changed; // added or modified
    FieldSet removed;
    bool isEmpty() const { return changed.isEmpty() && removed.isEmpty(); }
};

/// What changed from `a` to `b` (the paths `scope` leaves out are never in it).
Diff compareObjects(const QJsonObject &a, const QJsonObject &b, const ResourceType &type, const Scope &scope);

/// The fieldsV1 an Update records for a value that did not exist before (a create): what
/// Comparer would mark as added, built straight as JSON. nullopt: nothing to record.
std::optional<QJsonObject> addedFields(
    const QJsonValue &v, const Cursor &c, bool present, int depth, const Scope &scope);

} // namespace opbench::apiserver::ssa
