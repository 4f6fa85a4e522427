// SPDX-License-Identifier: Apache-2.0
#pragma once
// Conversion between what a client sees at a served version and what the store keeps:
// custom resources served at several versions share one storage bucket; objects are written at
// the storage version and keep it until rewritten (apiVersion rewritten on read; no schema
// conversion, as with `conversion: None`), and events.k8s.io/v1 Events share
// core/v1 storage (field renames: regarding ↔ involvedObject, note ↔ message, ...).

#include "engine/api/object.h"
#include "engine/apiserver/registry/registry.h"

#include <QJsonObject>

namespace opbench::apiserver {

/// True when `type` is served in a different form than stored.
bool needsConversion(const ResourceType &type);
/// Stored → served form of `type`.
QJsonObject toServed(const ResourceType &type, const QJsonObject &stored);
Object toServed(const ResourceType &type, const Object &stored);
/// Served (request body) → storage form.
QJsonObject toStorage(const ResourceType &type, const QJsonObject &served);

} // namespace opbench::apiserver
