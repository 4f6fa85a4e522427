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
//
// The JSON is built from yaml-cpp's parser events, never from its node graph (which takes about
// 80 bytes of memory per byte of dense YAML); an alias shares its anchored value. Nesting deeper
// than yaml-cpp's limit (500 levels) is a 400 saying so.
//
// Aliases are expanded under a budget ("billion laughs", CVE-2019-11253): before any node is
// built, a dry run of the parser adds up the decoded size the input expands to (a scalar weighs
// 1 + its length in bytes, a null, sequence or mapping 1 plus its content, an alias what its
// anchored node weighs: about the size of the compact JSON) and refuses input that would decode
// into more than YamlExpansionBudget::forInput() allows (4 times its size, at least 256 KiB),
// with kube-apiserver's 400 `error converting YAML to JSON: yaml: document contains excessive
// aliasing`. go-yaml (kube-apiserver's parser) instead bounds the share of decoded nodes that
// come from aliases (99% up to 400,000 nodes, 10% from 4,000,000); a bound on size relative to the
// input keeps a request's decoded size within a fixed multiple of the request size limit.

#include "engine/api/expected.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>

#include <QtGlobal>

namespace opbench {

/// How much decoded size (in the weight units above, about bytes of compact JSON) a YAML input
/// may expand to, and how much of it has been used.
struct YamlExpansionBudget
{
    /// Any input may decode to this much, however small.
    static constexpr qint64 kMinimum = qint64(256) * 1024;
    /// ... and to this many times its own size.
    static constexpr qint64 kRatio = 4;

    qint64 limit = kMinimum;
    qint64 used = 0;

    static YamlExpansionBudget forInput(qint64 inputBytes) { return {qMax(kMinimum, kRatio * inputBytes), 0}; }
};

/// The dry run of yamlToJson() on its own, for code that builds yaml-cpp nodes itself (the
/// kubeconfig reader): a 400 `yaml: document contains excessive aliasing` when `yaml` expands past
/// YamlExpansionBudget::forInput(yaml.size()) or an alias refers to the node it is in; success
/// otherwise, malformed YAML included (the caller's own parse reports that).
Expected<void> checkYamlAliasing(const QByteArray &yaml);

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
