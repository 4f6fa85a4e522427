// SPDX-License-Identifier: Apache-2.0
#pragma once
// The YAML codec's guards against hostile input (yamlcodec.h), checked before any node is
// built: the alias budget (a dry run over yaml-cpp's events that adds up the decoded size) and
// the count of open flow collections. Internal to engine/api.

#include "engine/api/yamlcodec.h"

#include <QByteArray>

#include <yaml-cpp/mark.h>

#include <string>

namespace opbench::yamlbudget {

// A dry run through yaml-cpp's event API, before any node is built, serves two purposes.
//
// yaml-cpp 0.7's parser never ends for some inputs (a document whose first token is ',':
// ",", "--- ,", "# c\n,"): its parser reports the same empty document forever without consuming
// anything, and the document list grows until memory runs out. The dry run is bounded by the input
// size (every real document takes at least one byte).
//
// Converting to JSON expands every alias into a copy of its anchored value wherever it is
// serialized, validated or stored: nine aliases of nine aliases of ... ("billion laughs",
// CVE-2019-11253) turn a few hundred bytes into gigabytes. The dry run adds up the decoded size
// the document stands for: a scalar weighs 1 + its length in bytes, a null, a sequence or a
// mapping 1 plus its content, an alias what its anchored node weighs (so about the size of the
// compact JSON). An alias to a node that is still open (`a: &a [*a]`) would be a cycle (with
// yaml-cpp's nodes the conversion recursed until the stack overflowed). Either stops the parse
// as soon as it is seen.
struct ExcessiveAliasing
{
    YAML::Mark mark;
    bool selfReference = false;
};

// yaml-cpp keeps every token of a line whose flow collections are still open (about 250 bytes
// for each `[`): 3 MiB of `[[[[...` took 750 MB before its parser refused the depth (500).
// Counting unclosed `[` and `{` in the raw text first (brackets in strings and comments count
// too, so the limit is well above yaml-cpp's own) refuses that cheaply. Returns the offset
// where the count passed the limit, or -1.
constexpr int kMaxUnclosedFlow = 2000;
qsizetype excessiveFlowNesting(const QByteArray &text);

enum class DryRun { Ends, Endless };

/// Runs the alias budget over every document of `text`; Endless for input yaml-cpp 0.7 would
/// parse forever.
// Throws ExcessiveAliasing, or yaml-cpp's exceptions for malformed input.
DryRun dryRun(const std::string &text, YamlExpansionBudget *budget);

} // namespace opbench::yamlbudget
