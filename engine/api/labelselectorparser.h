// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to LabelSelector: the string-form parser (a port of apimachinery's lexer and
// recursive-descent grammar, with its error wording) and requirement validation.

#include "engine/api/labelselector.h"

#include <optional>

namespace opbench::labelselectorparser {

/// Parses the string form into requirements (unsorted); on failure returns nullopt and sets `error`.
std::optional<QList<LabelRequirement>> parse(const QString &selector, QString *error);
/// Validates a requirement as NewRequirement does; returns the field-error text, or empty.
QString requirementError(const LabelRequirement &r);
/// Sorted, de-duplicated values.
QStringList sortedSet(QStringList values);

} // namespace opbench::labelselectorparser
