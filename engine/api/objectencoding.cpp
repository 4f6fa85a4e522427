// SPDX-License-Identifier: Apache-2.0
#include "engine/api/objectencoding.h"

#include "engine/api/jsonwriter.h"

#include <QMutex>

#include <atomic>
#include <cstring>
#include <unordered_map>

namespace opbench::objectencoding {

namespace dom = simdjson::dom;

namespace {

constexpr int kTokenLeadMin = 0x01;
constexpr int kTokenLeadMax = 0x1F;
constexpr int kCapacity = (kTokenLeadMax - kTokenLeadMin + 1) * 256; // 7,936 keys
constexpr std::size_t kMaxKeySize = 64;
constexpr std::size_t kLocalCacheLimit = 16384;

struct StringHash
{
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

// Process-wide, append-only key table. Ids are never reused or changed, so readers need no lock:
// an entry is published (release) before any packed buffer that refers to it can exist.
class KeyDictionary
{
public:
    static KeyDictionary &instance()
    {
        static KeyDictionary *d = new KeyDictionary(); // never destroyed: objects may outlive statics
        return *d;
    }

    // The key's id, inserting it while there is room; -1 when it is not tokenized.
    int idOf(std::string_view key)
    {
        const QMutexLocker lock(&m_mutex);
        if (auto it = m_ids.find(key); it != m_ids.end())
            return it->second;
        if (m_count == kCapacity)
            return -1;
        const int id = m_count++;
        auto *text = new std::string(key); // owned by the table for the life of the process
        m_ids.emplace(*text, id);
        m_entries[std::size_t(id)].store(text, std::memory_order_release);
        return id;
    }

    std::string_view text(int id) const { return *m_entries[std::size_t(id)].load(std::memory_order_acquire); }

private:
    KeyDictionary() = default;
    std::array<std::atomic<const std::string *>, kCapacity> m_entries{};
    QBasicMutex m_mutex;
    std::unordered_map<std::string, int, StringHash, std::equal_to<>> m_ids;
    int m_count = 0;
};

// A key is tokenized when its JSON text needs no escaping (and it is not huge).
bool tokenizable(std::string_view key)
{
    if (key.empty() || key.size() > kMaxKeySize)
        return false;
    for (char ch : key) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c == '"' || c == '\\')
            return false;
    }
    return true;
}

// Key → id with a per-thread cache in front of the shared table (no lock on the hot path).
int keyId(std::string_view key)
{
    thread_local std::unordered_map<std::string, int, StringHash, std::equal_to<>> cache;
    if (auto it = cache.find(key); it != cache.end())
        return it->second;
    const int id = tokenizable(key) ? KeyDictionary::instance().idOf(key) : -1;
    if (cache.size() < kLocalCacheLimit)
        cache.emplace(std::string(key), id);
    return id;
}

void writeKey(std::string &out, std::string_view key)
{
    const int id = keyId(key);
    if (id < 0) {
        jsonwriter::writeString(out, key);
        out.push_back(':');
        return;
    }
    out.push_back(char(kTokenLeadMin + id / 256));
    out.push_back(char(id % 256));
}

void writeValue(std::string &out, dom::element el);

void writeObject(std::string &out, dom::object obj)
{
    out.push_back('{');
    bool first = true;
    for (dom::key_value_pair kv : obj) {
        if (!first)
            out.push_back(',');
        first = false;
        writeKey(out, kv.key);
        writeValue(out, kv.value);
    }
    out.push_back('}');
}

void writeValue(std::string &out, dom::element el)
{
    switch (el.type()) {
    case dom::element_type::OBJECT: writeObject(out, dom::object(el)); break;
    case dom::element_type::ARRAY: {
        out.push_back('[');
        bool first = true;
        for (dom::element child : dom::array(el)) {
            if (!first)
                out.push_back(',');
            first = false;
            writeValue(out, child);
        }
        out.push_back(']');
        break;
    }
    default: jsonwriter::writeScalar(out, el); break;
    }
}

int metaField(std::string_view key)
{
    static constexpr std::array<std::string_view, MetaFieldCount> names{
        "name", "generateName", "uid", "resourceVersion", "creationTimestamp", "deletionTimestamp",
        "labels", "annotations", "ownerReferences", "finalizers"};
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == key)
            return int(i);
    return -1;
}

// metadata, recording where each known field's value lands.
void writeMetadata(std::string &out, std::size_t base, dom::object meta, const PackOptions &options, PackResult &result)
{
    out.push_back('{');
    bool first = true;
    for (dom::key_value_pair kv : meta) {
        if (kv.key == "managedFields") {
            if (options.stripManagedFields)
                continue;
            result.hasManagedFields = true;
        }
        if (!first)
            out.push_back(',');
        first = false;
        writeKey(out, kv.key);
        const std::size_t start = out.size();
        writeValue(out, kv.value);
        if (const int field = metaField(kv.key); field >= 0)
            result.meta[std::size_t(field)] = {std::uint32_t(start - base), std::uint32_t(out.size() - start)};
    }
    out.push_back('}');
}

void writeDefault(std::string &out, bool &first, dom::object obj, std::string_view key, std::string_view value)
{
    if (value.empty() || obj[key].error() != simdjson::NO_SUCH_FIELD)
        return;
    if (!first)
        out.push_back(',');
    first = false;
    writeKey(out, key);
    jsonwriter::writeString(out, value);
}

} // namespace

PackResult pack(std::string &out, dom::object obj, const PackOptions &options)
{
    PackResult result;
    const std::size_t base = out.size();
    out.push_back('{');
    bool first = true;
    // Built-in list items often omit apiVersion/kind: put them back so every object is
    // self-describing.
    writeDefault(out, first, obj, "apiVersion", options.defaultApiVersion);
    writeDefault(out, first, obj, "kind", options.defaultKind);
    for (dom::key_value_pair kv : obj) {
        if (!first)
            out.push_back(',');
        first = false;
        writeKey(out, kv.key);
        dom::object meta;
        if (kv.key == "metadata" && kv.value.get_object().get(meta) == simdjson::SUCCESS)
            writeMetadata(out, base, meta, options, result);
        else
            writeValue(out, kv.value);
    }
    out.push_back('}');
    return result;
}

namespace {

// The index of the next token at or after `i` (a byte below 0x20), or packed.size(). Scans eight
// bytes at a time: (x - 0x20…20) & ~x & 0x80…80 is non-zero exactly when some byte of x is below
// 0x20 (bytes of 0x80 and above, UTF-8, never set it).
std::size_t nextToken(std::string_view packed, std::size_t i)
{
    constexpr std::uint64_t ones = 0x0101010101010101ULL;
    const char *p = packed.data();
    const std::size_t n = packed.size();
    while (i + 8 <= n) {
        std::uint64_t x;
        std::memcpy(&x, p + i, 8);
        if (((x - ones * 0x20) & ~x & (ones * 0x80)) != 0)
            break;
        i += 8;
    }
    while (i < n && static_cast<unsigned char>(p[i]) >= 0x20)
        ++i;
    return i;
}

int tokenId(std::string_view packed, std::size_t i)
{
    return (static_cast<unsigned char>(packed[i]) - kTokenLeadMin) * 256 + static_cast<unsigned char>(packed[i + 1]);
}

} // namespace

std::size_t unpackedSize(std::string_view packed)
{
    std::size_t size = packed.size();
    const KeyDictionary &dict = KeyDictionary::instance();
    for (std::size_t i = nextToken(packed, 0); i + 1 < packed.size(); i = nextToken(packed, i + 2))
        size += dict.text(tokenId(packed, i)).size() + 3 - 2; // "key": replaces the 2-byte token
    return size;
}

void unpackInto(std::string_view packed, char *dest)
{
    const KeyDictionary &dict = KeyDictionary::instance();
    std::size_t run = 0; // start of the pending run of plain bytes
    for (std::size_t i = nextToken(packed, 0); i + 1 < packed.size(); i = nextToken(packed, run)) {
        std::memcpy(dest, packed.data() + run, i - run);
        dest += i - run;
        const std::string_view key = dict.text(tokenId(packed, i));
        *dest++ = '"';
        std::memcpy(dest, key.data(), key.size());
        dest += key.size();
        *dest++ = '"';
        *dest++ = ':';
        run = i + 2;
    }
    std::memcpy(dest, packed.data() + run, packed.size() - run);
}

std::string unpack(std::string_view packed)
{
    std::string out(unpackedSize(packed), '\0');
    unpackInto(packed, out.data());
    return out;
}

} // namespace opbench::objectencoding
