// SPDX-License-Identifier: Apache-2.0
#pragma once
// Name, label and metadata validation with the API server's rules and its exact wording.
//
// The string checks return a list of problems (empty when valid), each worded as Kubernetes
// apimachinery words it (e.g. "must be no more than 63 characters"), so the embedded API server's
// 422 messages read like a real cluster's. validateObjectMeta() returns StatusCauses ready for
// Status::invalid(): field "metadata.name", message "Invalid value: \"X\": <problem>".

#include "engine/api/status.h"

#include <QJsonObject>
#include <QStringList>

#include <functional>

namespace opbench {

/// DNS-1123 subdomain: ≤253 characters, lower-case alphanumerics, '-' and '.'.
QStringList isDns1123Subdomain(const QString &value);
/// DNS-1123 label: ≤63 characters, lower-case alphanumerics and '-'.
QStringList isDns1123Label(const QString &value);
/// DNS-1035 label: like a DNS-1123 label but starting with a letter.
QStringList isDns1035Label(const QString &value);
/// A qualified name ([prefix/]name), the rule for label keys, annotation keys and finalizers.
QStringList validateQualifiedName(const QString &value);
/// A label value: empty, or ≤63 characters of [A-Za-z0-9_.-] starting and ending alphanumeric.
QStringList validateLabelValue(const QString &value);

/// Validates every label key and value; causes carry `fieldPath` (e.g. "metadata.labels").
QList<StatusCause> validateLabels(
    const QJsonObject &labels, const QString &fieldPath = QStringLiteral("metadata.labels"));
/// Validates annotation keys (case-insensitively, as the server does) and the total size of
/// keys plus values (at most kTotalAnnotationSizeLimit bytes, UTF-8).
QList<StatusCause> validateAnnotations(
    const QJsonObject &annotations, const QString &fieldPath = QStringLiteral("metadata.annotations"));
inline constexpr qsizetype kTotalAnnotationSizeLimit = 262144;

/// A name validator: (name, isPrefix) → problems. With isPrefix (generateName), a trailing '-'
/// is allowed.
using NameValidator = std::function<QStringList(const QString &name, bool isPrefix)>;
/// The default validator for object names (DNS-1123 subdomain), used by most kinds and all CRs.
QStringList validateObjectName(const QString &name, bool isPrefix = false);
/// Namespace names (DNS-1123 label).
QStringList validateNamespaceName(const QString &name, bool isPrefix = false);
/// Service names (DNS-1035 label).
QStringList validateServiceName(const QString &name, bool isPrefix = false);

/// Validates an object's metadata on create the way the API server does: name or generateName,
/// namespace required (namespaced) or forbidden (cluster-scoped), generation ≥ 0, labels,
/// annotations, ownerReferences (required fields, at most one controller) and finalizers.
/// An empty `nameValidator` means validateObjectName.
QList<StatusCause> validateObjectMeta(const QJsonObject &metadata, bool namespaced, NameValidator nameValidator = {});

/// Builders for causes worded like apimachinery's field errors.
namespace fielderror {
/// "Invalid value: \"<value>\": <detail>", reason FieldValueInvalid.
StatusCause invalid(const QString &field, const QString &value, const QString &detail);
/// Same, for a non-string value printed bare (numbers, bools) or as given.
StatusCause invalidRaw(const QString &field, const QString &printedValue, const QString &detail);
/// "Required value[: detail]", reason FieldValueRequired.
StatusCause required(const QString &field, const QString &detail = {});
/// "Forbidden: <detail>", reason FieldValueForbidden.
StatusCause forbidden(const QString &field, const QString &detail);
/// "Too long: must have at most <n> bytes", reason FieldValueTooLong.
StatusCause tooLong(const QString &field, qsizetype maxBytes);
/// "Unsupported value: \"<value>\": supported values: \"a\", \"b\"", reason FieldValueNotSupported.
StatusCause notSupported(const QString &field, const QString &value, const QStringList &supported);
/// A Go %q-style quoted string (", \ and control characters escaped).
QString quote(const QString &s);
} // namespace fielderror

} // namespace opbench
