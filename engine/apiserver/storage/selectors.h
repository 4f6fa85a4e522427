// SPDX-License-Identifier: Apache-2.0
#pragma once
// Selector filters for list and watch: labelSelector and fieldSelector query parameters turned
// into one predicate on stored objects. Field selectors accept metadata.name, metadata.namespace
// (namespaced types) and the documented extra fields of pods, events, secrets, namespaces and
// replicasets; anything else is 400 "field label not supported: <field>".

#include "engine/api/expected.h"
#include "engine/api/object.h"
#include "engine/apiserver/registry/registry.h"

#include <functional>

namespace opbench::apiserver {

using ObjectFilter = std::function<bool(const Object &)>;

/// Builds the predicate (empty function when both selectors are empty). BadRequest on a
/// malformed selector or an unsupported field.
Expected<ObjectFilter> makeFilter(const ResourceType &type, const QString &labelSelector, const QString &fieldSelector);

/// The extra selectable fields of `type` (besides metadata.name / metadata.namespace).
QStringList selectableFields(const ResourceType &type);

} // namespace opbench::apiserver
