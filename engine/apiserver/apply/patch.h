// SPDX-License-Identifier: Apache-2.0
#pragma once
// PATCH: the media types, the dispatch to JSON patch / merge patch / strategic merge / apply,
// and the API server's errors for them (k8s-api-semantics §4).

#include "engine/api/expected.h"

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>

#include <optional>

namespace opbench::apiserver {

enum class PatchKind {
    Unknown,
    JsonPatch,      // application/json-patch+json (RFC 6902)
    MergePatch,     // application/merge-patch+json (RFC 7386)
    StrategicMerge, // application/strategic-merge-patch+json (built-ins only)
    Apply,          // application/apply-patch+yaml (server-side apply)
};

/// The patch kind of a Content-Type header value; parameters (";charset=utf-8") and case are
/// ignored. Unknown for anything else.
PatchKind mediaTypePatchKind(const QByteArray &contentType);
/// The media type of a kind ("" for Unknown).
QByteArray patchMediaType(PatchKind kind);

/// The 415 the API server answers for a strategic merge patch on a custom resource (and for an
/// unknown patch content type on one): "the body of the request was in an unknown format -
/// accepted media types include: application/json-patch+json, application/merge-patch+json,
/// application/apply-patch+yaml".
Status customResourcePatchUnsupported();
/// The 415 for an unknown patch content type on a built-in (the list includes strategic merge).
Status builtinPatchUnsupported();

/// Validates PatchOptions as the API server does before touching the object: apply needs a
/// fieldManager (422 `PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is
/// required for apply patch`); `force` is only allowed for apply (422 `force: Forbidden: may not
/// be specified for non-apply patch`).
Expected<void> validatePatchOptions(PatchKind kind, const QString &fieldManager, bool forceGiven);

/// Applies a patch body of the given kind to `live`. `body` is the raw request body (JSON; for
/// Apply the caller converts YAML to JSON first, or passes JSON, which is valid YAML).
/// `customResource` refuses strategic merge with the 415 above. Malformed JSON → 400 naming the
/// offset; the patch functions' own errors otherwise (see jsonpatch.h, strategicmerge.h).
/// Apply: see applyServerSide().
Expected<QJsonObject> applyPatch(PatchKind kind, const QJsonObject &live, const QByteArray &body, bool customResource);

/// Server-side apply without field ownership: `applied` is merged into `live` (strategic-merge
/// rules for built-ins, merge-patch rules for custom resources), or becomes the object when
/// `live` is absent. The API server itself uses serverSideApply() (fieldmanager.h), which keeps
/// managedFields, answers conflicts and removes fields a manager stopped applying. The applied
/// config must carry apiVersion and kind (400 otherwise); a `metadata.name` different from
/// `live`'s → 400.
Expected<QJsonObject> applyServerSide(
    const std::optional<QJsonObject> &live, const QJsonObject &applied, bool customResource);

/// Parses a JSON body into a value (object or array); malformed → 400 naming the offset.
Expected<QJsonValue> parsePatchBody(const QByteArray &body);

} // namespace opbench::apiserver
