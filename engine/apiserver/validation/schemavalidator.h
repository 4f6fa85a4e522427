// SPDX-License-Identifier: Apache-2.0
#pragma once
// Structural-schema processing of custom resources (k8s-api-semantics §9): defaulting, pruning
// of unknown fields, and OpenAPI v3 validation with the API server's exact messages.
//
// Order of work in process(): defaults → pruning → validation (as the API server does:
// defaults are applied while decoding, unknown fields are pruned, then the result validates).
// Defaulting first drops a null in a field that is not nullable (the API server's
// PruneNonNullableNullsWithoutDefaults), so `foo: null` from a Helm template is accepted and
// stored without foo (or with foo's default).
//
// Causes are returned in a deterministic order: depth-first over the object; at each object,
// first the `required` properties that are missing (in the schema's `required` order), then the
// properties present, in key order (QJsonObject sorts keys), then additionalProperties values.
// At each value: type (a type error stops further checks of that value), string checks
// (maxLength, minLength, pattern), number checks (maximum, minimum, multipleOf, int32/int64
// range), array checks (maxItems, minItems), object checks (maxProperties, minProperties), then
// enum, then the children.
//
// Messages follow kube-openapi as converted by apiextensions-apiserver, e.g.
//   FieldValueRequired    "Required value"                                       (field spec.image)
//   FieldValueInvalid     "Invalid value: 0: spec.replicas in body should be greater than or equal to 1"
//   FieldValueTypeInvalid "Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\""
//   FieldValueNotSupported "Unsupported value: \"X\": supported values: \"Pending\", \"Running\", \"Failed\""
//   FieldValueTooLong     "Too long: may not be longer than 10"                  (maxLength)
//   FieldValueTooMany     "Too many: 4: must have at most 3 items"               (maxItems, maxProperties)
//   FieldValueInvalid     "Invalid value: \"ab\": spec.name in body should be at least 3 chars long"
//   FieldValueInvalid     "Invalid value: \"A\": spec.name in body should match '^[a-z]+$'"
//   FieldValueInvalid     "Invalid value: 1: spec.list in body should have at least 2 items"
// Values print as Go does: strings quoted, integers plain, other numbers shortest, objects and
// arrays as compact JSON. Array elements are addressed as "spec.items[0]".

#include "engine/api/expected.h"

#include <QJsonObject>
#include <QList>
#include <QStringList>

namespace opbench::apiserver {

class SchemaValidator
{
public:
    /// `openAPIV3Schema` is the CRD version's schema (the root must be `type: object`).
    explicit SchemaValidator(QJsonObject openAPIV3Schema);

    struct Result
    {
        QJsonObject object;        // defaulted and pruned
        QStringList prunedFields;  // unknown fields removed, e.g. "spec.foo" (sorted as visited)
        QList<StatusCause> causes; // empty when the object is valid
    };

    /// Defaults, prunes and validates a whole custom resource. apiVersion, kind and metadata at
    /// the root are neither pruned nor validated here (the server validates metadata itself).
    Result process(const QJsonObject &object) const;

    /// The three steps on their own.
    QJsonObject applyDefaults(const QJsonObject &object) const;
    QJsonObject prune(const QJsonObject &object, QStringList *prunedFields = nullptr) const;
    QList<StatusCause> validate(const QJsonObject &object) const;

    const QJsonObject &schema() const { return m_schema; }

private:
    QJsonObject m_schema;
};

/// 400 `strict decoding error: unknown field "spec.foo"[, unknown field "…"]` for
/// `fieldValidation=Strict`.
Status strictDecodingError(const QStringList &prunedFields);
/// The Warning texts for `fieldValidation=Warn` (the default): `unknown field "spec.foo"` each.
QStringList unknownFieldWarnings(const QStringList &prunedFields);

/// Formats a JSON value as the API server prints a bad value in a cause message (Go style).
QString formatCauseValue(const QJsonValue &v);

/// Checks that a CustomResourceDefinition (apiextensions.k8s.io/v1, as JSON) is well-formed
/// enough to serve: metadata.name = plural.group, group with a dot, names.plural/kind, scope,
/// versions (names unique, exactly one storage version, a schema for each) and each schema
/// structural (a type on every node except where x-kubernetes-int-or-string or
/// x-kubernetes-preserve-unknown-fields allow none; object root). Returns the 422 causes
/// (empty when fine), ready for Status::invalid("apiextensions.k8s.io",
/// "CustomResourceDefinition", name, causes).
QList<StatusCause> validateCrd(const QJsonObject &crd);
/// validateCrd() wrapped into the 422 Status (ok when there are no causes).
Expected<void> checkCrd(const QJsonObject &crd);

} // namespace opbench::apiserver
