// SPDX-License-Identifier: Apache-2.0
#pragma once
// The API server's size limits on a request: its body (413 before anything reads it) and what
// the body may decode into. JSON decodes to about its own size, but YAML aliases, protobuf's
// numbered fields and JSON patch `copy` operations can multiply it; whatever the encoding, no
// body may become an object (created, updated, or the result of a patch) larger than
// kMaxDecodedBytes, a fixed multiple of the body limit. YAML's own alias budget
// (yamlcodec.h: 4 times the input) keeps a body within the limit before it is built; the other
// paths measure what they produce with decodedSize().

#include "engine/api/expected.h"

#include <QJsonObject>
#include <QJsonValue>

namespace opbench::apiserver {

/// Request bodies above this size are refused with 413.
inline constexpr qsizetype kMaxRequestBodyBytes = qint64(3) * 1024 * 1024;
/// How many times its size a body may grow when decoded (or patched).
inline constexpr qint64 kDecodedSizeFactor = 4;
/// The largest decoded object a request may produce: 12 MiB.
inline constexpr qint64 kMaxDecodedBytes = kDecodedSizeFactor * kMaxRequestBodyBytes;

/// The size of `value` as compact JSON (strings and keys counted in UTF-16 units, without
/// escapes), counted without writing it. Stops as soon as the count passes `stopAbove` and
/// returns a number above it then, so a value that shares its parts many times (a JSON patch
/// that copies a subtree into itself) costs at most about `stopAbove` steps.
qint64 decodedSize(const QJsonValue &value, qint64 stopAbove);

/// 413 RequestEntityTooLarge naming the limit when `object` is larger than kMaxDecodedBytes:
/// `<what> decodes to more than 12582912 bytes (4 times the request body limit of 3145728 bytes)`.
Expected<void> checkDecodedSize(const QJsonObject &object, const QString &what);

/// The same 413 for a size already known to be over the limit: `<subjectAndVerb> more than
/// 12582912 bytes (...)`, e.g. "the values copied by JSON patch operations 0 to 9 add up to".
Status decodedTooLarge(const QString &subjectAndVerb);

} // namespace opbench::apiserver
