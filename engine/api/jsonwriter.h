// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to engine/api (simdjson is a private dependency): compact JSON of strings and scalar
// simdjson DOM elements, used by Object's packer (objectencoding_p.h).

#include <simdjson.h>

#include <string>
#include <string_view>

namespace opbench::jsonwriter {

/// Appends `s` as a JSON string literal (quotes, backslashes and control characters escaped).
void writeString(std::string &out, std::string_view s);
/// Appends a string, number, boolean or null element as compact JSON (objects and arrays: nothing).
void writeScalar(std::string &out, simdjson::dom::element el);

} // namespace opbench::jsonwriter
