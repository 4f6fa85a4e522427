// SPDX-License-Identifier: Apache-2.0
#pragma once
// Conversion between what a client sees at a served version and what the store keeps:
// custom resources served at several versions share one storage bucket; objects are written at
// the storage version and keep it until rewritten (apiVersion rewritten on read; no schema
// conversion, as with `conversion: None`), and events.k8s.io/v1 Events share
// core/v1 storage (field renames: regarding ↔ involvedObject, note ↔ message, ...).
// A CRD with `conversion: {strategy: Webhook}` converts through its webhook instead
// (admission/conversionwebhook.h): an asynchronous AsyncConverter the server hands to the
// handlers and the watch hub; the synchronous functions here stay the `None` path.

#include "engine/api/expected.h"
#include "engine/api/object.h"
#include "engine/apiserver/registry/registry.h"

#include <QJsonObject>

#include <functional>

namespace opbench::apiserver {

/// True when `type` is served in a different form than stored.
bool needsConversion(const ResourceType &type);
/// Stored → served form of `type`.
QJsonObject toServed(const ResourceType &type, const QJsonObject &stored);
Object toServed(const ResourceType &type, const Object &stored);
/// Served (request body) → storage form.
QJsonObject toStorage(const ResourceType &type, const QJsonObject &served);

/// True when `type` (a custom resource) converts through a conversion webhook.
inline bool usesConversionWebhook(const ResourceType &type) { return !type.conversionWebhook.isEmpty(); }

/// The converted objects, in the order given, or the error to answer with.
using ConvertDone = std::function<void(Expected<QList<QJsonObject>> converted)>;
/// Converts `objects` (of `type`'s CRD) to `desiredApiVersion`; objects already at it are not
/// sent; `done` runs once, later or at once (nothing to send), on the caller's thread.
using AsyncConverter = std::function<void(
    const ResourceType &type, QList<QJsonObject> objects, QString desiredApiVersion, ConvertDone done)>;

} // namespace opbench::apiserver
