// SPDX-License-Identifier: Apache-2.0
#pragma once
// YAML 1.2 core-schema scalars as the YAML codec reads and writes them (yamlcodec.h): integers in
// any base yaml-cpp accepts, floats, and the special floats (.inf, .nan). Internal to engine/api.

#include <QString>

#include <limits>
#include <optional>

namespace opbench::yamlscalars {

/// A plain scalar's integer value (decimal, 0x, 0o, 0b, leading-0 octal; a sign; `_` separators
/// ignored), if it is one and fits in 64 bits.
std::optional<qint64> parseYamlInt(QString s);
/// A plain scalar's finite float value (`1.5`, `.5`, `1e3`), if it is one.
std::optional<double> parseYamlFloat(QString s);
/// `.inf`, `+.inf`, `-.inf`, `.nan` in any case.
bool isSpecialFloat(const QString &s);

} // namespace opbench::yamlscalars
