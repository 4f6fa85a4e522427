// SPDX-License-Identifier: Apache-2.0
#pragma once
// JSON patch (RFC 6902) and JSON merge patch (RFC 7386) on QJsonObject documents, with the
// API server's error contract.

#include "engine/api/expected.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

namespace opbench::apiserver {

/// The API server refuses JSON patches with more operations than this (413).
inline constexpr int kMaxJsonPatchOperations = 10000;

/// Applies an RFC 6902 patch (`patch` must be a JSON array of operations: add, remove, replace,
/// move, copy, test; paths are JSON pointers with `~0`/`~1` escapes and `-` to append).
/// Errors: a patch that is not an array, or an operation that is malformed (unknown op, missing
/// `path`/`value`/`from`, a pointer not starting with '/') → 400 BadRequest; more than
/// kMaxJsonPatchOperations operations → 413; `copy` operations whose copied values add up to
/// more than kMaxDecodedBytes (http/limits.h) → 413 naming the limit; an operation that does not
/// apply (missing path, index out of range, failed `test`) → 422 Invalid naming the operation
/// index, op and path.
/// The document is patched as a whole: on error nothing of it is returned.
Expected<QJsonObject> applyJsonPatch(const QJsonObject &document, const QJsonValue &patch);

/// Applies an RFC 7386 merge patch: `null` deletes a key, objects merge recursively, arrays and
/// scalars replace. A patch that is not a JSON object → 400 (the API server's objects are
/// objects; a non-object patch would replace the whole document).
Expected<QJsonObject> applyMergePatch(const QJsonObject &document, const QJsonValue &patch);

/// The recursive RFC 7386 merge on values (a non-object patch replaces the target).
QJsonValue mergePatchValue(const QJsonValue &target, const QJsonValue &patch);

/// Splits a JSON pointer ("/a/b~1c" → ["a", "b/c"]); "" is the whole document. Returns
/// std::nullopt when the pointer is non-empty and does not start with '/'.
std::optional<QStringList> parseJsonPointer(const QString &pointer);

} // namespace opbench::apiserver
