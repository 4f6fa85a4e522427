// SPDX-License-Identifier: Apache-2.0
// The `fieldValidation` query parameter of create, update and patch (k8s-api-semantics §9):
// what the server does with fields it does not know.
//
//   Strict  → 400 BadRequest `strict decoding error: unknown field "spec.foo", unknown field "…"`
//   Warn    → the write succeeds; one `Warning: 299 - "unknown field \"spec.foo\""` header each
//             (the default when the parameter is absent or empty, as on v1.27+ servers)
//   Ignore  → the write succeeds silently
// Unknown fields are dropped from the stored object in every mode that accepts the write.
//
// Which fields are unknown: for custom resources with a schema, what structural pruning would
// remove (x-kubernetes-preserve-unknown-fields respected); for every type, keys of `metadata`
// that ObjectMeta does not have; for built-in kinds with an OpenAPI table entry
// (openapischema.h), top-level keys the kind does not have. Deeper levels of built-in types are
// not checked (the table does not list every field there).
#pragma once

#include "engine/api/expected.h"
#include "engine/apiserver/http/exchange.h"
#include "engine/apiserver/registry/registry.h"

#include <QJsonObject>
#include <QStringList>

namespace opbench::apiserver {

enum class FieldValidation { Ignore, Warn, Strict };

/// Reads `?fieldValidation=`. Other values → 422 Invalid on `optionsKind` ("CreateOptions",
/// "UpdateOptions", "PatchOptions") with `fieldValidation: Unsupported value: …`.
Expected<FieldValidation> fieldValidationFrom(const Request &request, const QString &optionsKind);

/// The unknown fields of `object` (served form) for `type`, as paths ("metadata.foo",
/// "spec.foo", "spec.items[0].bar"), metadata first, then the schema's pruning order.
QStringList unknownFields(const ResourceType &type, const QJsonObject &object);

/// Applies `mode` to `object`: with Strict and unknown fields, the 400 Status; otherwise ok, the
/// unknown metadata keys removed from `object` and, for Warn, one Warning header per field
/// appended to `headers`.
Expected<void> applyFieldValidation(
    FieldValidation mode, const ResourceType &type, QJsonObject &object, Responder::Headers *headers);

/// The value of a Warning header for `text`: `299 - "…"` with quotes and backslashes escaped.
QByteArray warningHeaderValue(const QString &text);

} // namespace opbench::apiserver
