// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to engine/api (simdjson is a private dependency): the packed form in which Object
// keeps its document.
//
// Packed form = the document's compact JSON in which every object key `"key":` that the
// process-wide key dictionary knows is replaced by a 2-byte token (first byte 0x01–0x1F, second
// byte any). Compact JSON never contains a raw byte below 0x20 (strings escape them), so tokens
// are unambiguous and unpacking gives back the compact JSON byte for byte. Keys are about half
// of a Kubernetes object's bytes ("imagePullPolicy", "terminationMessagePath", …), so the packed
// form is about 40 % smaller than the wire form.
//
// The dictionary only grows (up to 7,936 keys, then it is frozen), so each key is either always
// or never tokenized: equal documents have equal packed bytes.
//
// While packing, the positions of the top-level metadata fields are recorded so that Object can
// read them without decoding the document.

#include <simdjson.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace opbench::objectencoding {

/// metadata fields whose packed position is recorded.
enum MetaField : std::uint8_t {
    Name,
    GenerateName,
    Uid,
    ResourceVersion,
    CreationTimestamp,
    DeletionTimestamp,
    Labels,
    Annotations,
    OwnerReferences,
    Finalizers,
    MetaFieldCount
};

/// A value's packed JSON text: [offset, offset + size) of the packed buffer; size 0 = absent.
struct Span
{
    std::uint32_t offset = 0;
    std::uint32_t size = 0;
};

struct PackOptions
{
    bool stripManagedFields = false;
    /// Written first when the top-level object has no "apiVersion" / "kind" (empty = never).
    std::string_view defaultApiVersion;
    std::string_view defaultKind;
};

struct PackResult
{
    std::array<Span, MetaFieldCount> meta{};
    /// metadata.managedFields is present in the packed output.
    bool hasManagedFields = false;
};

/// Appends the packed form of `obj` to `out` (spans are relative to `out`'s size on entry).
PackResult pack(std::string &out, simdjson::dom::object obj, const PackOptions &options);

/// The compact JSON size of `packed`.
std::size_t unpackedSize(std::string_view packed);
/// Writes the compact JSON of `packed` to `dest` (exactly unpackedSize(packed) bytes).
void unpackInto(std::string_view packed, char *dest);
/// The compact JSON of `packed`.
std::string unpack(std::string_view packed);

} // namespace opbench::objectencoding
