// SPDX-License-Identifier: Apache-2.0
#pragma once
// createJsonPatch: the RFC 6902 JSON patch that turns one document into another, as a mutating
// webhook answers (controller-runtime's PatchResponseFromRaw, gomodules' jsonpatch.CreatePatch):
// objects are compared key by key ("add" for a new key, "remove" for a gone one, recursion into
// objects present on both sides), arrays of equal length element by element, anything else that
// differs is one "replace". Paths are JSON pointers ("~" → "~0", "/" → "~1").

#include <QJsonArray>
#include <QJsonValue>
#include <QString>

namespace opbench {

/// The operations turning `before` into `after` (empty when equal).
QJsonArray createJsonPatch(const QJsonValue &before, const QJsonValue &after);
/// A JSON pointer's reference token: "~" → "~0", "/" → "~1".
QString escapeJsonPointer(const QString &token);

} // namespace opbench
