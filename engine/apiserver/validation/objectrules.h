// SPDX-License-Identifier: Apache-2.0
#pragma once
// The API server's per-object rules, as pure functions the Store applies on every write:
// timestamps, generateName, metadata validation, create-time status defaults, generation
// bumps and the finalizer rules while an object is terminating.

#include "engine/api/status.h"
#include "engine/apiserver/registry/registry.h"

#include <QJsonObject>

#include <functional>

namespace opbench {
class Clock;
}

namespace opbench::apiserver::rules {

/// RFC 3339 with seconds ("2024-05-01T10:00:00Z") from `clock`'s wall time.
QString timestamp(const Clock *clock, qint64 offsetSeconds = 0);
/// `base` cut to 58 characters plus 5 random characters from the API server's alphabet,
/// retried while `exists` says the name is taken.
QString generateName(const QString &base, const std::function<bool(const QString &)> &exists);
/// Metadata validation for `type` (namespace names for namespaces, object names otherwise).
QList<StatusCause> validateMeta(const ResourceType &type, const QJsonObject &metadata);
/// Status on create: dropped where a status subresource exists, except the defaults the real
/// server sets (pods: phase Pending; namespaces: phase Active). Namespaces get spec.finalizers
/// ["kubernetes"].
void applyCreateDefaults(const ResourceType &type, QJsonObject &object);
/// Secrets: `type` defaults to Opaque, `stringData` entries are merged into `data` (base64,
/// overwriting) and `stringData` is removed, as the real API server does on write.
void defaultSecret(QJsonObject &secret);
/// True when anything outside metadata (and outside status when the type has a status
/// subresource) differs: the generation bump rule.
bool specChanged(const ResourceType &type, const QJsonObject &before, const QJsonObject &after);
/// While terminating, finalizers may only be removed: a cause for each finalizer added.
QList<StatusCause> checkFinalizerAdditions(const QJsonObject &oldMeta, const QJsonObject &newMeta);
/// True when a terminating object can go: no metadata finalizers (namespaces: no spec.finalizers).
bool readyToRemove(const QJsonObject &object);

} // namespace opbench::apiserver::rules
