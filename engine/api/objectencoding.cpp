// SPDX-License-Identifier: Apache-2.0
#include "engine/api/objectencoding_p.h"

#include "engine/api/jsonwriter.h"

#include <QJsonObject>
#include <QMutex>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <unordered_map>
#include <utility>

namespace opbench::objectencoding {

namespace dom = simdjson::dom;

namespace {

// Token lead bytes: all below 0x20, which compact JSON never contains raw.
constexpr int kKeyLeadMin = 0x01;                                 // 0x01–0x17: a key, `"key":`
constexpr int kValueLeadMin = 0x18;                               // 0x18–0x1E: a string value, `"value"`
constexpr int kTimeLead = 0x1F;                                   // 0x1F + 5 bytes: `"YYYY-MM-DDTHH:MM:SSZ"`
constexpr int kKeyCapacity = (kValueLeadMin - kKeyLeadMin) * 256; // 5,888 keys
constexpr int kValueCapacity = (kTimeLead - kValueLeadMin) * 256; // 1,792 values
constexpr std::size_t kTimeTokenSize = 6;
constexpr std::size_t kTimeTextSize = 22; // with its quotes
constexpr std::size_t kMaxEntrySize = 64;
constexpr std::size_t kLocalCacheLimit = 16384;

struct StringHash
{
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

// A process-wide, append-only string table. Ids are never reused or changed, so readers need no
// lock: an entry is published (release) before any packed buffer that refers to it can exist.
template<int Capacity> class Dictionary
{
public:
    // The string's id, inserting it while there is room; -1 when it is not tokenized.
    int idOf(std::string_view key)
    {
        const QMutexLocker lock(&m_mutex);
        if (auto it = m_ids.find(key); it != m_ids.end())
            return it->second;
        if (m_count == Capacity)
            return -1;
        const int id = m_count++;
        auto *text = new std::string(key); // owned by the table for the life of the process
        m_ids.emplace(*text, id);
        m_entries[std::size_t(id)].store(text, std::memory_order_release);
        return id;
    }

    std::string_view text(int id) const { return *m_entries[std::size_t(id)].load(std::memory_order_acquire); }

private:
    std::array<std::atomic<const std::string *>, Capacity> m_entries{};
    QBasicMutex m_mutex;
    std::unordered_map<std::string, int, StringHash, std::equal_to<>> m_ids;
    int m_count = 0;
};

using KeyDictionary = Dictionary<kKeyCapacity>;
using ValueDictionary = Dictionary<kValueCapacity>;

KeyDictionary &keyDictionary()
{
    static auto *d = new KeyDictionary(); // never destroyed: objects may outlive statics
    return *d;
}

ValueDictionary &valueDictionary()
{
    static auto *d = new ValueDictionary();
    return *d;
}

// A string is tokenized when its JSON text needs no escaping (and it is not huge).
bool tokenizable(std::string_view text)
{
    if (text.empty() || text.size() > kMaxEntrySize)
        return false;
    for (char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c == '"' || c == '\\')
            return false;
    }
    return true;
}

// A string value's id (-1: not tokenized), with a per-thread cache in front of the shared table
// (no lock on the hot path).
int valueId(std::string_view value)
{
    thread_local std::unordered_map<std::string, int, StringHash, std::equal_to<>> cache;
    if (auto it = cache.find(value); it != cache.end())
        return it->second;
    const int id = tokenizable(value) ? valueDictionary().idOf(value) : -1;
    if (cache.size() < kLocalCacheLimit)
        cache.emplace(std::string(value), id);
    return id;
}

// What the tokens written on this thread add when unpacked (PackResult::unpackedSize without a
// second pass over the packed bytes).
thread_local std::size_t t_tokenGrowth = 0;

// A key or value token for dictionary entry `id`, whose text is `text`.
void writeToken(std::string &out, int lead, int id, std::string_view text)
{
    out.push_back(char(lead + id / 256));
    out.push_back(char(id % 256));
    t_tokenGrowth += text.size() + (lead == kKeyLeadMin ? 1 : 0); // `"text":` or `"text"` for 2 bytes
}

// Keys whose string values come from a small set (enums, versions, quantities): their values
// share the value dictionary. Names, uids and messages are not here: they are unique and would
// only fill it.
bool enumLikeKey(std::string_view key)
{
    static const std::array<std::string_view, 30> keys{"apiVersion", "kind", "type", "status", "reason", "phase",
        "imagePullPolicy", "protocol", "restartPolicy", "dnsPolicy", "schedulerName", "terminationMessagePath",
        "terminationMessagePolicy", "maxSurge", "maxUnavailable", "cpu", "memory", "ephemeral-storage", "storage",
        "operator", "effect", "fieldPath", "podManagementPolicy", "sessionAffinity", "ipFamilyPolicy",
        "internalTrafficPolicy", "externalTrafficPolicy", "concurrencyPolicy", "completionMode", "qosClass"};
    return std::find(keys.begin(), keys.end(), key) != keys.end();
}

// Writes a key (its token when the dictionary has it) and says whether its string value is
// enum-like; both come from a per-thread cache, so the hot path is one hash lookup.
bool writeKey(std::string &out, std::string_view key)
{
    struct KeyInfo
    {
        int id;
        bool enumLike;
    };
    thread_local std::unordered_map<std::string, KeyInfo, StringHash, std::equal_to<>> cache;
    KeyInfo info{};
    if (auto it = cache.find(key); it != cache.end()) {
        info = it->second;
    } else {
        info = {tokenizable(key) ? keyDictionary().idOf(key) : -1, enumLikeKey(key)};
        if (cache.size() < kLocalCacheLimit)
            cache.emplace(std::string(key), info);
    }
    if (info.id < 0) {
        jsonwriter::writeString(out, key);
        out.push_back(':');
    } else {
        writeToken(out, kKeyLeadMin, info.id, key);
    }
    return info.enumLike;
}

// "YYYY-MM-DDTHH:MM:SSZ" (the API server's metav1.Time) as its five numbers, packed into 40 bits
// as year(14) month(4) day(5) hour(5) minute(6) second(6). Only text that formats back to itself
// byte for byte is accepted, so packing stays canonical.
bool timeFields(std::string_view s, std::uint64_t &bits)
{
    if (s.size() != 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[19] != 'Z')
        return false;
    const auto number = [s](std::size_t pos, std::size_t digits, int &v) {
        v = 0;
        for (std::size_t k = pos; k < pos + digits; ++k) {
            if (s[k] < '0' || s[k] > '9')
                return false;
            v = v * 10 + (s[k] - '0');
        }
        return true;
    };
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (!number(0, 4, year) || !number(5, 2, month) || !number(8, 2, day) || !number(11, 2, hour)
        || !number(14, 2, minute) || !number(17, 2, second))
        return false;
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
        return false;
    bits = (std::uint64_t(year) << 26) | (std::uint64_t(month) << 22) | (std::uint64_t(day) << 17)
        | (std::uint64_t(hour) << 12) | (std::uint64_t(minute) << 6) | std::uint64_t(second);
    return true;
}

void writeTimeText(char *dest, const char *payload)
{
    std::uint64_t bits = 0;
    for (int k = 0; k < 5; ++k)
        bits = (bits << 8) | static_cast<unsigned char>(payload[k]);
    const auto put = [&dest](unsigned v, int digits) {
        for (int k = digits - 1; k >= 0; --k, v /= 10)
            dest[k] = char('0' + v % 10);
        dest += digits;
    };
    *dest++ = '"';
    put(unsigned(bits >> 26) & 0x3FFF, 4);
    *dest++ = '-';
    put(unsigned(bits >> 22) & 0xF, 2);
    *dest++ = '-';
    put(unsigned(bits >> 17) & 0x1F, 2);
    *dest++ = 'T';
    put(unsigned(bits >> 12) & 0x1F, 2);
    *dest++ = ':';
    put(unsigned(bits >> 6) & 0x3F, 2);
    *dest++ = ':';
    put(unsigned(bits) & 0x3F, 2);
    *dest++ = 'Z';
    *dest = '"';
}

// A string value: a timestamp token, a value token (for enum-like keys), or the JSON string.
void writeString(std::string &out, std::string_view value, bool enumLike)
{
    if (std::uint64_t bits = 0; timeFields(value, bits)) {
        out.push_back(char(kTimeLead));
        for (int k = 4; k >= 0; --k)
            out.push_back(char((bits >> (8 * k)) & 0xFF));
        t_tokenGrowth += kTimeTextSize - kTimeTokenSize;
        return;
    }
    if (const int id = enumLike ? valueId(value) : -1; id >= 0) {
        writeToken(out, kValueLeadMin, id, value);
        return;
    }
    jsonwriter::writeString(out, value);
}

void writeValue(std::string &out, dom::element el, bool enumLike = false);

// `"key":value` of an object member.
void writeMember(std::string &out, std::string_view key, dom::element value)
{
    const bool enumLike = writeKey(out, key);
    writeValue(out, value, enumLike);
}

void writeObject(std::string &out, dom::object obj)
{
    out.push_back('{');
    bool first = true;
    for (dom::key_value_pair kv : obj) {
        if (!first)
            out.push_back(',');
        first = false;
        writeMember(out, kv.key, kv.value);
    }
    out.push_back('}');
}

void writeValue(std::string &out, dom::element el, bool enumLike)
{
    switch (el.type()) {
    case dom::element_type::OBJECT:
        writeObject(out, dom::object(el));
        break;
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
    case dom::element_type::STRING:
        writeString(out, std::string_view(el), enumLike);
        break;
    default:
        jsonwriter::writeScalar(out, el);
        break;
    }
}

int metaField(std::string_view key)
{
    static constexpr std::array<std::string_view, MetaFieldCount> names{"name", "generateName", "uid",
        "resourceVersion", "creationTimestamp", "deletionTimestamp", "labels", "annotations", "ownerReferences",
        "finalizers"};
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
        const bool enumLike = writeKey(out, kv.key);
        const std::size_t start = out.size();
        writeValue(out, kv.value, enumLike);
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
    const bool enumLike = writeKey(out, key);
    writeString(out, value, enumLike); // as if the document had it: same packed bytes
}

} // namespace

PackResult pack(std::string &out, dom::object obj, const PackOptions &options)
{
    PackResult result;
    const std::size_t base = out.size();
    (void)detail::takeTokenGrowth();
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
        dom::object meta;
        // With duplicate members the last one is the document's (as every reader here takes
        // it): a later `metadata` discards what an earlier one recorded.
        if (kv.key == "metadata")
            result = PackResult{};
        if (kv.key == "metadata" && kv.value.get_object().get(meta) == simdjson::SUCCESS) {
            writeKey(out, kv.key);
            writeMetadata(out, base, meta, options, result);
        } else {
            writeMember(out, kv.key, kv.value);
        }
    }
    out.push_back('}');
    result.unpackedSize = out.size() - base + detail::takeTokenGrowth();
    return result;
}

namespace detail {
bool writeKey(std::string &out, std::string_view key) { return objectencoding::writeKey(out, key); }
void writeString(std::string &out, std::string_view value, bool enumLike)
{
    objectencoding::writeString(out, value, enumLike);
}
int metaField(std::string_view key) { return objectencoding::metaField(key); }
std::size_t takeTokenGrowth() { return std::exchange(t_tokenGrowth, 0); }
} // namespace detail

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

std::size_t tokenSize(std::string_view packed, std::size_t i)
{
    return static_cast<unsigned char>(packed[i]) == kTimeLead ? kTimeTokenSize : 2;
}

// The token at `i`: its dictionary text (keys and values) or, for a timestamp, empty.
struct Token
{
    enum Kind { Key, Value, Time } kind;
    std::string_view text;
};

Token tokenAt(std::string_view packed, std::size_t i)
{
    const int lead = static_cast<unsigned char>(packed[i]);
    if (lead == kTimeLead)
        return {Token::Time, {}};
    const int low = static_cast<unsigned char>(packed[i + 1]);
    if (lead < kValueLeadMin)
        return {Token::Key, keyDictionary().text((lead - kKeyLeadMin) * 256 + low)};
    return {Token::Value, valueDictionary().text((lead - kValueLeadMin) * 256 + low)};
}

std::size_t expandedSize(const Token &t)
{
    switch (t.kind) {
    case Token::Key:
        return t.text.size() + 3; // "key":
    case Token::Value:
        return t.text.size() + 2; // "value"
    case Token::Time:
        return kTimeTextSize;
    }
    return 0;
}

} // namespace

std::size_t unpackedSize(std::string_view packed)
{
    std::size_t size = packed.size();
    for (std::size_t i = nextToken(packed, 0); i < packed.size(); i = nextToken(packed, i + tokenSize(packed, i)))
        size += expandedSize(tokenAt(packed, i)) - tokenSize(packed, i);
    return size;
}

void unpackInto(std::string_view packed, char *dest)
{
    std::size_t run = 0; // start of the pending run of plain bytes
    for (std::size_t i = nextToken(packed, 0); i < packed.size(); i = nextToken(packed, run)) {
        std::memcpy(dest, packed.data() + run, i - run);
        dest += i - run;
        const Token t = tokenAt(packed, i);
        if (t.kind == Token::Time) {
            writeTimeText(dest, packed.data() + i + 1);
        } else {
            *dest = '"';
            std::memcpy(dest + 1, t.text.data(), t.text.size());
            dest[t.text.size() + 1] = '"';
            if (t.kind == Token::Key)
                dest[t.text.size() + 2] = ':';
        }
        dest += expandedSize(t);
        run = i + tokenSize(packed, i);
    }
    std::memcpy(dest, packed.data() + run, packed.size() - run);
}

std::string unpack(std::string_view packed)
{
    std::string out(unpackedSize(packed), '\0');
    unpackInto(packed, out.data());
    return out;
}

bool isToken(std::string_view text) { return !text.empty() && static_cast<unsigned char>(text.front()) < 0x20; }

} // namespace opbench::objectencoding
