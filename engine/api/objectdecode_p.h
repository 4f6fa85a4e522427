// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to engine/api (simdjson is a private dependency): reading Object's metadata from the
// simdjson DOM while an object is built, and from its packed text (objectencoding_p.h) afterwards.

#include "engine/api/object.h"

#include <simdjson.h>

#include <string_view>

namespace opbench::objectdecode {

QString qstr(std::string_view sv);
/// The shared copy of a short string that many objects carry (apiVersion, kind, namespace, label
/// keys…). The table is bounded: once full, new strings are returned as they are.
QString intern(const QString &s);
/// The last member named `key` (JSON allows duplicate names; Go, Qt and the packer keep the last,
/// while simdjson's obj[key] finds the first).
simdjson::simdjson_result<simdjson::dom::element> lastMember(simdjson::dom::object obj, std::string_view key);
/// The last `key` member as a string (interned / not); "" when absent or not a string.
QString internedField(simdjson::dom::object obj, const char *key);
QString stringField(simdjson::dom::object obj, const char *key);

/// The parser of whole documents and lists (its DOM stays valid while objects are built from it).
simdjson::dom::parser &threadParser();
/// A second per-thread parser for single values read on demand, so that an accessor called while
/// a list is being decoded cannot invalidate that list's DOM.
simdjson::dom::parser &valueParser();

// Decoders of one packed metadata value (its text as recorded while packing). A value of the
// wrong JSON type decodes as empty, like an absent one.
/// A JSON string (quotes included) as a QString.
QString decodeString(std::string_view text);
/// A {string: string} object; entries whose value is not a string are skipped.
Labels decodeStringMap(std::string_view text, bool internStrings);
QList<OwnerReference> decodeOwnerReferences(std::string_view text);
/// An array of strings (non-strings skipped), interned.
QStringList decodeStringArray(std::string_view text);

} // namespace opbench::objectdecode
