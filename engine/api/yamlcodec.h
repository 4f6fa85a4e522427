// SPDX-License-Identifier: Apache-2.0
#pragma once
// YAML ⇄ JSON for manifests, the way kubectl reads and writes them.
//
// Reading applies YAML 1.1 scalar rules to plain (unquoted) scalars, as Kubernetes' go-yaml does:
// true/false/yes/no/on/off/y/n (any of the usual casings) are bools; 42, -7, 1_000, 0x1F, 0755
// (octal), 0b101 are integers; 1.5, 1e3, .5 are floats; null, Null, NULL, ~ and empty values are
// null; everything else, and every quoted or block scalar, is a string; `!!str`, `!!int`,
// `!!float`, `!!bool` and `!!null` tags are honoured; `<<` merge keys are applied.
// Writing quotes every string that would read back as something else.

#include "engine/api/expected.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>

namespace opbench {

/// Parses a (multi-document) YAML file into one JSON object per non-empty document.
/// Errors are BadRequest Statuses naming the 1-based line and column and the 1-based document
/// number, e.g. `error converting YAML to JSON: yaml: line 3, column 5 (document 2): illegal map value`;
/// a document that is not a mapping is an error too.
Expected<QList<QJsonObject>> yamlToJson(const QByteArray &yaml);

/// Emits one document, block style, keys in kubectl's order at the top (apiVersion, kind,
/// metadata, spec, status, then the rest alphabetically) and name/generateName/namespace first
/// in metadata. Strings that would read back as another type are double-quoted.
QByteArray jsonToYaml(const QJsonObject &object);

/// Several documents separated by `---` lines.
QByteArray jsonToYaml(const QList<QJsonObject> &objects);

/// How a plain YAML scalar reads under the rules above (a string when nothing else fits).
QJsonValue resolvePlainYamlScalar(const QString &text);

} // namespace opbench
