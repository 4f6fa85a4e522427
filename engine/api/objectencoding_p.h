// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to engine/api (simdjson is a private dependency): the packed form in which Object
// keeps its document.
//
// Packed form = the document's compact JSON with three kinds of tokens, each starting with a
// byte below 0x20 (compact JSON never contains one raw: strings escape them), so tokens are
// unambiguous and unpacking gives back the compact JSON byte for byte:
//  - an object key `"key":` that the process-wide key dictionary knows → 2 bytes (lead
//    0x01–0x17, then any byte). Keys are about half of a Kubernetes object's bytes.
//  - a string value of an enum-like key (apiVersion, kind, type, status, reason,
//    imagePullPolicy, protocol, cpu, memory, …: values from a small set) that the value
//    dictionary knows → 2 bytes (lead 0x18–0x1E).
//  - a timestamp "YYYY-MM-DDTHH:MM:SSZ" (any string value) → 6 bytes (0x1F + its fields in 40
//    bits): 22 bytes become 6; a Deployment carries five.
// A Deployment's packed form is about half its wire form.
//
// The dictionaries only grow (up to 5,888 keys and 1,792 values, then they are frozen), so each
// string is either always or never tokenized: equal documents have equal packed bytes.
//
// While packing, the positions of the top-level metadata fields are recorded so that Object can
// read them without decoding the document.

#include <simdjson.h>

#include <QJsonValue>

class QJsonObject;

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
    /// The compact JSON size of the packed output (what unpackedSize() would count).
    std::size_t unpackedSize = 0;
};

/// Appends the packed form of `obj` to `out` (spans are relative to `out`'s size on entry).
PackResult pack(std::string &out, simdjson::dom::object obj, const PackOptions &options);

/// Members of a QJsonObject that Object::fromJson reads besides the packed bytes, picked up by
/// pack() on its way (null when absent; namespace and generation only from an object metadata).
struct JsonFields
{
    QJsonValue apiVersion;
    QJsonValue kind;
    QJsonValue ns;
    QJsonValue generation;
};

/// The same for a QJsonObject, without printing it: exactly the bytes of packing
/// QJsonDocument(obj).toJson(Compact) (no options: nothing stripped, no defaults).
PackResult pack(std::string &out, const QJsonObject &obj, JsonFields *fields = nullptr);

namespace detail {
// The packer's steps, shared by its two inputs (objectencoding.cpp, objectpackjson.cpp).
bool writeKey(std::string &out, std::string_view key); ///< true when the key's values are enum-like
void writeString(std::string &out, std::string_view value, bool enumLike);
int metaField(std::string_view key); ///< the metadata field's slot in PackResult::meta, or -1
/// Bytes the tokens written on this thread since the last call add when unpacked (resets it).
std::size_t takeTokenGrowth();
} // namespace detail

/// The compact JSON size of `packed`.
std::size_t unpackedSize(std::string_view packed);
/// Writes the compact JSON of `packed` to `dest` (exactly unpackedSize(packed) bytes).
void unpackInto(std::string_view packed, char *dest);
/// The compact JSON of `packed`.
std::string unpack(std::string_view packed);
/// True when a packed value's text starts with a token (a tokenized string value or timestamp):
/// unpack it before reading it as JSON.
bool isToken(std::string_view text);

} // namespace opbench::objectencoding
