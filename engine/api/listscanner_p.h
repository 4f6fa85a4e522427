// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to engine/api: finds where a list document's parts are ({"kind":…,"metadata":{…},
// "items":[{…},{…}]}) without building a DOM of the whole body, so that each item can be parsed
// on its own. Parsing a 500-item page as one DOM costs about three times the page in transient
// memory (padded copy, tape, strings); item by item it costs one item's worth.
//
// The scan only finds boundaries (strings, nesting): the JSON inside each part (every member's
// value, others included) is validated when that part is parsed. Anything unexpected (not an
// object, duplicate members, a key with escapes or control characters, trailing bytes, an
// unterminated string) gives nullopt, and the caller parses the whole body the ordinary way for
// an exact error.

#include <optional>
#include <string_view>
#include <vector>

namespace opbench::listscanner {

struct Part
{
    std::size_t offset = 0;
    std::size_t size = 0; // 0 = absent
};

struct Layout
{
    Part kind;                // the value of top-level "kind", if present
    Part metadata;            // the value of top-level "metadata", if present
    Part itemsValue;          // the value of "items" when it is not an array (null or wrong)
    bool hasItems = false;    // "items" present as an array
    std::vector<Part> items;  // each element of "items"
    std::vector<Part> others; // the values of every other top-level member (to be validated)
};

std::optional<Layout> scan(std::string_view json);

} // namespace opbench::listscanner
