// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to engine/api (simdjson is a private dependency): compact JSON serialization of a
// simdjson DOM element, used by Object to keep each item's bytes.

#include <simdjson.h>

#include <string>
#include <string_view>

namespace opbench::jsonwriter {

/// Appends `s` as a JSON string literal (quotes, backslashes and control characters escaped).
void writeString(std::string &out, std::string_view s);
/// Appends `el` as compact JSON; with `skipManagedFields`, drops metadata.managedFields of the
/// top-level object.
void writeElement(std::string &out, simdjson::dom::element el, bool skipManagedFields);

} // namespace opbench::jsonwriter
