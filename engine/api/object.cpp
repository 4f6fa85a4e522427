// SPDX-License-Identifier: Apache-2.0
#include "engine/api/object.h"

#include "engine/api/listscanner_p.h"
#include "engine/api/objectdecode_p.h"
#include "engine/api/objectencoding_p.h"

#include <QCborValue>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QMutex>

#include <simdjson.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

namespace opbench {

namespace enc = objectencoding;

// An object's apiVersion and kind, shared by every object of that type (see typeOf()).
struct ObjectType
{
    QString apiVersion;
    QString kind;
};

// The shared, immutable state behind an Object. Invariant: every field agrees with the packed
// document; nothing observable changes after construction (the lazily decoded lists are caches
// of it, published once with compare-and-swap, so concurrent readers are safe).
//
// Memory (see bench/objectmemory.cpp): one allocation holds this block and, right after it, the
// packed document (objectencoding_p.h); apiVersion and kind point to a shared ObjectType, the
// namespace is interned (thousands of objects share one copy); other metadata are positions in
// the packed document, read on demand.
class ObjectData : public QSharedData
{
public:
    // A block with room for `packedSize` bytes of packed document after it.
    static ObjectData *create(std::string_view packed)
    {
        void *memory = ::operator new(sizeof(ObjectData) + packed.size());
        auto *d = new (memory) ObjectData(quint32(packed.size()));
        std::memcpy(d->packedBytes(), packed.data(), packed.size());
        return d;
    }
    static void operator delete(void *p) { ::operator delete(p); }

    ObjectData(const ObjectData &) = delete;
    ObjectData &operator=(const ObjectData &) = delete;
    ~ObjectData()
    {
        delete labels.load(std::memory_order_acquire);
        delete ownerReferences.load(std::memory_order_acquire);
        delete finalizers.load(std::memory_order_acquire);
        if (ownsType)
            delete type;
    }

    std::string_view packed() const { return {reinterpret_cast<const char *>(this + 1), packedSize}; }
    std::string_view text(enc::MetaField f) const
    {
        const enc::Span s = meta[f];
        return packed().substr(s.offset, s.size);
    }

    const ObjectType *type = nullptr; // shared (or, past the table's bound, owned: ownsType)
    QString ns;
    qint64 generation = 0;
    std::array<enc::Span, enc::MetaFieldCount> meta{};
    const quint32 packedSize;
    quint32 jsonSize = 0; // size of the unpacked document
    bool hasManagedFields = false;
    bool ownsType = false;
    mutable std::atomic<Labels *> labels{nullptr};
    mutable std::atomic<QList<OwnerReference> *> ownerReferences{nullptr};
    mutable std::atomic<QStringList *> finalizers{nullptr};

private:
    explicit ObjectData(quint32 size)
        : packedSize(size)
    { }
    char *packedBytes() { return reinterpret_cast<char *>(this + 1); }
};

QJsonObject OwnerReference::toJson() const
{
    QJsonObject o;
    o.insert(QLatin1String("apiVersion"), apiVersion);
    o.insert(QLatin1String("kind"), kind);
    o.insert(QLatin1String("name"), name);
    o.insert(QLatin1String("uid"), uid);
    if (controller)
        o.insert(QLatin1String("controller"), true);
    if (blockOwnerDeletion)
        o.insert(QLatin1String("blockOwnerDeletion"), true);
    return o;
}

OwnerReference OwnerReference::fromJson(const QJsonObject &o)
{
    return {o.value(QLatin1String("apiVersion")).toString(), o.value(QLatin1String("kind")).toString(),
        o.value(QLatin1String("name")).toString(), o.value(QLatin1String("uid")).toString(),
        o.value(QLatin1String("controller")).toBool(), o.value(QLatin1String("blockOwnerDeletion")).toBool()};
}

QString objectKey(const QString &ns, const QString &name) { return ns.isEmpty() ? name : ns + u'/' + name; }

namespace {

namespace dom = simdjson::dom;

using namespace objectdecode;

// The value kept in `slot`, decoding it from `text` on the first call (the first decoder to
// publish wins; a concurrent loser frees its copy).
template<typename T, typename Decode> const T &lazily(std::atomic<T *> &slot, std::string_view text, Decode decode)
{
    static const T empty;
    if (text.empty())
        return empty;
    if (T *v = slot.load(std::memory_order_acquire))
        return *v;
    auto fresh = std::make_unique<T>(decode(text));
    T *expected = nullptr;
    if (slot.compare_exchange_strong(expected, fresh.get(), std::memory_order_acq_rel))
        return *fresh.release();
    return *expected;
}

Status decodeError(simdjson::error_code code, const QByteArray &json)
{
    return Status::transport(QString::fromLatin1(StatusReason::DecodeError),
        QStringLiteral("invalid JSON (%1) in %2 bytes starting %3")
            .arg(QString::fromUtf8(simdjson::error_message(code)))
            .arg(json.size())
            .arg(QString::fromUtf8(json.left(60).toPercentEncoding(" {}[]\":,.-_/"))));
}

// The shared ObjectType of (apiVersion, kind). The table is bounded: past it, `owned` is set and
// the caller owns the returned block.
const ObjectType *typeOf(const QString &apiVersion, const QString &kind, bool &owned)
{
    static QBasicMutex mutex;
    static auto *table = new QHash<QString, const ObjectType *>(); // never destroyed: objects may outlive statics
    const QString key = apiVersion + QChar(0) + kind;
    const QMutexLocker lock(&mutex);
    owned = false;
    if (const ObjectType *t = table->value(key))
        return t;
    auto *t = new ObjectType{intern(apiVersion), intern(kind)};
    if (table->size() >= 4096) {
        owned = true;
        return t;
    }
    table->insert(key, t);
    return t;
}

ObjectData *buildData(dom::object obj, const QString &apiVersion, const QString &kind, bool stripManagedFields)
{
    // Pack into a reused scratch buffer, then copy once into the exactly sized block (no
    // growth reallocations, no slack: less time and less heap fragmentation).
    thread_local std::string scratch;
    scratch.clear();
    const std::string apiVersionUtf8 = apiVersion.toStdString();
    const std::string kindUtf8 = kind.toStdString();
    const enc::PackResult packed = enc::pack(scratch, obj, {stripManagedFields, apiVersionUtf8, kindUtf8});
    auto *d = ObjectData::create(scratch);
    d->jsonSize = quint32(enc::unpackedSize(scratch));
    d->meta = packed.meta;
    d->hasManagedFields = packed.hasManagedFields;
    const QString ownApiVersion = stringField(obj, "apiVersion");
    const QString ownKind = stringField(obj, "kind");
    d->type
        = typeOf(ownApiVersion.isEmpty() ? apiVersion : ownApiVersion, ownKind.isEmpty() ? kind : ownKind, d->ownsType);
    dom::object meta;
    if (lastMember(obj, "metadata").get_object().get(meta) == simdjson::SUCCESS) { // the packer's metadata
        d->ns = internedField(meta, "namespace");
        int64_t gen = 0;
        if (lastMember(meta, "generation").get_int64().get(gen) == simdjson::SUCCESS)
            d->generation = gen;
    }
    if (scratch.capacity() > (size_t(1) << 20))
        std::string().swap(scratch); // do not keep a huge buffer after an unusually large object
    return d;
}

// Bytes of a string this object alone holds (shared and interned strings count nothing here).
qsizetype ownedStringBytes(const QString &s)
{
    return s.isEmpty() || !s.isDetached() ? 0 : qsizetype(sizeof(QArrayData)) + s.capacity() * 2;
}

} // namespace

Object::Object() = default;
Object::Object(ObjectData *data)
    : d(data)
{ }
Object::Object(const Object &) = default;
Object::Object(Object &&) noexcept = default;
Object &Object::operator=(const Object &) = default;
Object &Object::operator=(Object &&) noexcept = default;
Object::~Object() = default;

Object Object::fromJson(const QJsonObject &json)
{
    // Packed straight from the QJsonObject: the same bytes as packing its compact JSON, without
    // printing it and parsing it back (a third of the API server's write path did only that).
    thread_local std::string scratch;
    scratch.clear();
    const enc::PackResult packed = enc::pack(scratch, json);
    auto *d = ObjectData::create(scratch);
    d->jsonSize = quint32(enc::unpackedSize(scratch));
    d->meta = packed.meta;
    d->hasManagedFields = packed.hasManagedFields;
    const QJsonValue apiVersion = json.value(QLatin1String("apiVersion"));
    const QJsonValue kind = json.value(QLatin1String("kind"));
    d->type = typeOf(apiVersion.isString() ? apiVersion.toString() : QString(),
        kind.isString() ? kind.toString() : QString(), d->ownsType);
    const QJsonValue meta = json.value(QLatin1String("metadata"));
    if (meta.isObject()) {
        const QJsonObject m = meta.toObject();
        const QJsonValue ns = m.value(QLatin1String("namespace"));
        if (ns.isString())
            d->ns = objectdecode::intern(ns.toString());
        const QJsonValue gen = m.value(QLatin1String("generation"));
        // As the JSON text would read: an integer, not a number with a fraction or an exponent.
        if (const QCborValue c = QCborValue::fromJsonValue(gen); c.isInteger())
            d->generation = c.toInteger();
        else if (gen.isDouble() && std::isfinite(gen.toDouble()) && gen.toDouble() == std::floor(gen.toDouble())
            && !QByteArray::number(gen.toDouble(), 'g', QLocale::FloatingPointShortest).contains('e'))
            d->generation = qint64(gen.toDouble());
    }
    if (scratch.capacity() > (size_t(1) << 20))
        std::string().swap(scratch);
    return Object(d);
}

namespace {

// What simdjson refuses and other JSON readers accept: integer literals outside the 64-bit range
// (JSON allows them; Go's float64 fields and Qt write them for large numbers, e.g.
// 18446744073709552000) and \u escapes of unpaired UTF-16 surrogates (the JSON grammar allows
// them; Go reads them as U+FFFD; Qt keeps them and writes them back as escapes). Returns `json`
// with ".0" after each such literal (a double then) and \ufffd for each such escape, or nullopt
// when there is none.
std::optional<QByteArray> repairedForSimdjson(const QByteArray &json)
{
    const auto digit = [&json](qsizetype i) { return i < json.size() && json[i] >= '0' && json[i] <= '9'; };
    // The code unit of a \uXXXX escape at `i` (the backslash), or -1.
    const auto escapeAt = [&json](qsizetype i) -> int {
        if (i + 5 >= json.size() || json[i] != '\\' || json[i + 1] != 'u')
            return -1;
        bool ok = false;
        const int v = QByteArrayView(json).sliced(i + 2, 4).toInt(&ok, 16);
        return ok ? v : -1;
    };
    QByteArray out;
    qsizetype copied = 0;
    const auto replace = [&](qsizetype from, qsizetype to, const char *with) {
        out += QByteArrayView(json).sliced(copied, from - copied);
        out += with;
        copied = to;
    };
    qsizetype i = 0;
    while (i < json.size()) {
        const char c = json[i];
        if (c == '"') { // a string: skip it, mending unpaired surrogate escapes
            for (++i; i < json.size() && json[i] != '"';) {
                if (json[i] != '\\') {
                    ++i;
                    continue;
                }
                const int unit = escapeAt(i);
                if (unit >= 0xD800 && unit <= 0xDBFF) {
                    const int low = escapeAt(i + 6);
                    if (low >= 0xDC00 && low <= 0xDFFF) {
                        i += 12;
                        continue;
                    }
                }
                if (unit >= 0xD800 && unit <= 0xDFFF)
                    replace(i, i + 6, "\\ufffd");
                i += unit >= 0 ? 6 : 2;
            }
            ++i;
            continue;
        }
        if (c != '-' && !digit(i)) {
            ++i;
            continue;
        }
        const bool negative = c == '-';
        const qsizetype digitsStart = negative ? i + 1 : i;
        for (i = digitsStart; digit(i);)
            ++i;
        const std::string_view digits(json.constData() + digitsStart, std::size_t(i - digitsStart));
        if (i < json.size() && (json[i] == '.' || json[i] == 'e' || json[i] == 'E')) { // not an integer
            while (i < json.size()
                && (digit(i) || json[i] == '.' || json[i] == 'e' || json[i] == 'E' || json[i] == '+' || json[i] == '-'))
                ++i;
            continue;
        }
        const std::string_view limit = negative ? "9223372036854775808" : "18446744073709551615";
        if (digits.size() > limit.size() || (digits.size() == limit.size() && digits > limit))
            replace(i, i, ".0");
    }
    if (copied == 0)
        return std::nullopt;
    out += QByteArrayView(json).sliced(copied);
    return out;
}

} // namespace

Expected<Object> Object::parse(const QByteArray &json)
{
    dom::element el;
    auto err = threadParser().parse(json.constData(), size_t(json.size())).get(el);
    if (err == simdjson::NUMBER_ERROR || err == simdjson::STRING_ERROR)
        if (const std::optional<QByteArray> repaired = repairedForSimdjson(json))
            return parse(*repaired);
    if (err)
        return decodeError(err, json);
    if (!el.is_object())
        return Status::transport(QString::fromLatin1(StatusReason::DecodeError),
            QStringLiteral("expected a JSON object, got %1").arg(QString::fromUtf8(json.left(40))));
    return Object(buildData(dom::object(el), {}, {}, false));
}

namespace {

Status listError(const QString &message)
{
    return Status::transport(QString::fromLatin1(StatusReason::DecodeError), message);
}

void readListMetadata(dom::object meta, Object::List &list)
{
    list.resourceVersion = stringField(meta, "resourceVersion");
    list.continueToken = stringField(meta, "continue");
    int64_t remaining = -1;
    if (meta["remainingItemCount"].get_int64().get(remaining) == simdjson::SUCCESS)
        list.remainingItemCount = remaining;
}

// Item by item (listscanner_p.h): the parser holds one item at a time, not the whole page.
// nullopt when the body's shape needs the whole-document parser (and its exact errors).
// `wrap` makes an Object of a built block (Object's constructor from one is private).
template<typename Wrap>
std::optional<Expected<Object::List>> parseListByItems(
    const QByteArray &json, const QString &itemApiVersion, const QString &itemKind, bool stripManagedFields, Wrap wrap)
{
    const std::string_view body(json.constData(), size_t(json.size()));
    const auto layout = listscanner::scan(body);
    if (!layout)
        return std::nullopt;
    // As strict as the whole-document parser: valid UTF-8 throughout, every other member valid.
    if (!simdjson::validate_utf8(body.data(), body.size()))
        return std::nullopt;
    const auto part = [body](listscanner::Part p) { return body.substr(p.offset, p.size); };
    dom::parser parser; // freed on return: it grows to the largest item only
    dom::element el;
    for (const listscanner::Part &p : layout->others)
        if (parser.parse(part(p)).error())
            return std::nullopt;
    Object::List list;
    if (layout->kind.size != 0) {
        std::string_view kind;
        if (parser.parse(part(layout->kind)).get(el) || el.get_string().get(kind))
            return std::nullopt;
        list.kind = qstr(kind);
    }
    if (layout->metadata.size != 0) {
        if (parser.parse(part(layout->metadata)).get(el))
            return std::nullopt;
        if (dom::object meta; el.get_object().get(meta) == simdjson::SUCCESS)
            readListMetadata(meta, list);
    }
    if (layout->itemsValue.size != 0) {
        if (part(layout->itemsValue) != "null") // "items": null is tolerated as empty
            return Expected<Object::List>(listError(QStringLiteral("list \"items\" is not an array")));
        return Expected<Object::List>(std::move(list));
    }
    list.items.reserve(qsizetype(layout->items.size()));
    for (std::size_t i = 0; i < layout->items.size(); ++i) {
        const listscanner::Part p = layout->items[i];
        if (auto err = parser.parse(part(p)).get(el))
            return Expected<Object::List>(
                listError(QStringLiteral("invalid JSON (%1) in list item %2 (bytes %3 to %4 of %5)")
                              .arg(QString::fromUtf8(simdjson::error_message(err)))
                              .arg(i)
                              .arg(p.offset)
                              .arg(p.offset + p.size)
                              .arg(json.size())));
        if (!el.is_object())
            return Expected<Object::List>(listError(QStringLiteral("a list item is not an object")));
        list.items.append(wrap(buildData(dom::object(el), itemApiVersion, itemKind, stripManagedFields)));
    }
    return Expected<Object::List>(std::move(list));
}

} // namespace

namespace {

// parseList() on the text as it is; `wrap` makes an Object of a built block.
template<typename Wrap>
Expected<Object::List> parseListAsIs(
    const QByteArray &json, const QString &itemApiVersion, const QString &itemKind, bool stripManagedFields, Wrap wrap)
{
    if (auto byItems = parseListByItems(json, itemApiVersion, itemKind, stripManagedFields, wrap))
        return std::move(*byItems);
    // The whole document at once, with a parser of its own freed on return (its padded copy,
    // tape and string buffer are several times the body): for bodies the item scan declined,
    // so that errors say exactly what is wrong.
    dom::parser parser;
    dom::element el;
    auto err = parser.parse(json.constData(), size_t(json.size())).get(el);
    if (err)
        return decodeError(err, json);
    dom::object obj;
    if (el.get_object().get(obj))
        return listError(QStringLiteral("a list must be a JSON object"));
    Object::List list;
    list.kind = stringField(obj, "kind");
    if (dom::object meta; obj["metadata"].get_object().get(meta) == simdjson::SUCCESS)
        readListMetadata(meta, list);
    dom::array items;
    auto itemsErr = obj["items"].get_array().get(items);
    if (itemsErr && itemsErr != simdjson::NO_SUCH_FIELD) {
        // "items": null is tolerated as empty; anything else is an error.
        if (!obj["items"].is_null())
            return listError(QStringLiteral("list \"items\" is not an array"));
    }
    if (!itemsErr) {
        list.items.reserve(qsizetype(items.size()));
        for (dom::element item : items) {
            if (!item.is_object())
                return listError(QStringLiteral("a list item is not an object"));
            list.items.append(wrap(buildData(dom::object(item), itemApiVersion, itemKind, stripManagedFields)));
        }
    }
    return list;
}

} // namespace

Expected<Object::List> Object::parseList(
    const QByteArray &json, const QString &itemApiVersion, const QString &itemKind, bool stripManagedFields)
{
    const auto wrap = [](ObjectData *d) { return Object(d); };
    Expected<List> list = parseListAsIs(json, itemApiVersion, itemKind, stripManagedFields, wrap);
    if (!list)
        if (const std::optional<QByteArray> repaired = repairedForSimdjson(json)) // see Object::parse
            return parseListAsIs(*repaired, itemApiVersion, itemKind, stripManagedFields, wrap);
    return list;
}

bool Object::isNull() const { return !d; }

QJsonObject Object::json() const { return d ? QJsonDocument::fromJson(toJsonBytes()).object() : QJsonObject(); }

QByteArray Object::toJsonBytes() const
{
    if (!d)
        return {};
    QByteArray out(qsizetype(d->jsonSize), Qt::Uninitialized);
    enc::unpackInto(d->packed(), out.data());
    return out;
}

void Object::appendJsonTo(QByteArray &out) const
{
    if (!d)
        return;
    const qsizetype at = out.size();
    out.resize(at + qsizetype(d->jsonSize)); // amortized growth: reserve ahead for many appends
    enc::unpackInto(d->packed(), out.data() + at);
}

qsizetype Object::memoryFootprint() const
{
    if (!d)
        return 0;
    qsizetype n = qsizetype(sizeof(ObjectData)) + qsizetype(d->packedSize) + ownedStringBytes(d->ns);
    if (d->ownsType)
        n += qsizetype(sizeof(ObjectType)) + ownedStringBytes(d->type->apiVersion) + ownedStringBytes(d->type->kind);
    if (const Labels *labels = d->labels.load(std::memory_order_acquire)) {
        n += qsizetype(sizeof(Labels)) + 48; // map header
        for (auto it = labels->cbegin(); it != labels->cend(); ++it)
            n += 48 + ownedStringBytes(it.key()) + ownedStringBytes(it.value()); // map node + strings
    }
    if (const QList<OwnerReference> *refs = d->ownerReferences.load(std::memory_order_acquire)) {
        n += qsizetype(sizeof(*refs)) + qsizetype(sizeof(QArrayData));
        for (const OwnerReference &r : *refs)
            n += qsizetype(sizeof(OwnerReference)) + ownedStringBytes(r.apiVersion) + ownedStringBytes(r.kind)
                + ownedStringBytes(r.name) + ownedStringBytes(r.uid);
    }
    if (const QStringList *fins = d->finalizers.load(std::memory_order_acquire)) {
        n += qsizetype(sizeof(*fins)) + qsizetype(sizeof(QArrayData));
        for (const QString &f : *fins)
            n += qsizetype(sizeof(QString)) + ownedStringBytes(f);
    }
    return n;
}

QString Object::apiVersion() const { return d ? d->type->apiVersion : QString(); }
QString Object::kind() const { return d ? d->type->kind : QString(); }
GroupVersionKind Object::gvk() const { return GroupVersionKind::fromApiVersionKind(apiVersion(), kind()); }
QString Object::name() const { return d ? decodeString(d->text(enc::Name)) : QString(); }
QString Object::generateName() const { return d ? decodeString(d->text(enc::GenerateName)) : QString(); }
QString Object::namespaceName() const { return d ? d->ns : QString(); }
QString Object::key() const { return d ? objectKey(d->ns, name()) : QString(); }
namespace {

constexpr std::uint64_t kFnvOffset = 14695981039346656037ULL;
constexpr std::uint64_t kFnvPrime = 1099511628211ULL;

void fnv(std::uint64_t &h, char16_t c) { h = (h ^ c) * kFnvPrime; }

// The characters of a packed name when they need no decoding (a plain JSON string of ASCII
// without escapes, the case for every valid name): then its bytes are its UTF-16 code units.
bool plainAsciiName(std::string_view quoted, std::string_view &inner)
{
    if (quoted.size() < 2 || quoted.front() != '"')
        return false;
    inner = quoted.substr(1, quoted.size() - 2);
    return std::all_of(
        inner.begin(), inner.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80 && c != '\\'; });
}

} // namespace

std::size_t objectKeyHash(QStringView key)
{
    std::uint64_t h = kFnvOffset;
    for (QChar c : key)
        fnv(h, c.unicode());
    return std::size_t(h);
}

std::size_t Object::keyHash() const
{
    if (!d)
        return objectKeyHash({});
    std::uint64_t h = kFnvOffset;
    for (QChar c : d->ns)
        fnv(h, c.unicode());
    if (!d->ns.isEmpty())
        fnv(h, u'/');
    std::string_view inner;
    if (plainAsciiName(d->text(enc::Name), inner)) {
        for (char c : inner)
            fnv(h, char16_t(static_cast<unsigned char>(c)));
    } else {
        for (QChar c : name())
            fnv(h, c.unicode());
    }
    return std::size_t(h);
}

bool Object::hasKey(QStringView key) const
{
    if (!d)
        return key.isEmpty();
    QStringView rest = key;
    if (!d->ns.isEmpty()) {
        if (key.size() <= d->ns.size() || key[d->ns.size()] != u'/' || !key.startsWith(d->ns))
            return false;
        rest = key.mid(d->ns.size() + 1);
    }
    std::string_view inner;
    if (!plainAsciiName(d->text(enc::Name), inner))
        return rest == name();
    if (rest.size() != qsizetype(inner.size()))
        return false;
    for (qsizetype i = 0; i < rest.size(); ++i)
        if (rest[i].unicode() != static_cast<unsigned char>(inner[size_t(i)]))
            return false;
    return true;
}

bool Object::sameKey(const Object &other) const
{
    if (d == other.d)
        return true;
    if (!d || !other.d)
        return key() == other.key();
    if (d->ns != other.d->ns)
        return false;
    std::string_view a;
    std::string_view b;
    if (plainAsciiName(d->text(enc::Name), a) && plainAsciiName(other.d->text(enc::Name), b))
        return a == b;
    return name() == other.name();
}

QString Object::uid() const { return d ? decodeString(d->text(enc::Uid)) : QString(); }
QString Object::resourceVersion() const { return d ? decodeString(d->text(enc::ResourceVersion)) : QString(); }
qint64 Object::generation() const { return d ? d->generation : 0; }
QString Object::creationTimestamp() const { return d ? decodeString(d->text(enc::CreationTimestamp)) : QString(); }
QString Object::deletionTimestamp() const { return d ? decodeString(d->text(enc::DeletionTimestamp)) : QString(); }

const Labels &Object::labels() const
{
    static const Labels empty;
    if (!d)
        return empty;
    return lazily(d->labels, d->text(enc::Labels), [](std::string_view t) { return decodeStringMap(t, true); });
}

Labels Object::annotations() const { return d ? decodeStringMap(d->text(enc::Annotations), false) : Labels(); }

const QList<OwnerReference> &Object::ownerReferences() const
{
    static const QList<OwnerReference> empty;
    if (!d)
        return empty;
    return lazily(d->ownerReferences, d->text(enc::OwnerReferences), decodeOwnerReferences);
}

QStringList Object::ownerReferenceUids() const
{
    QStringList uids;
    if (!d)
        return uids;
    if (const QList<OwnerReference> *refs = d->ownerReferences.load(std::memory_order_acquire)) {
        for (const OwnerReference &r : *refs)
            uids << r.uid;
        return uids;
    }
    for (const OwnerReference &r : decodeOwnerReferences(d->text(enc::OwnerReferences)))
        uids << r.uid;
    return uids;
}

std::optional<OwnerReference> Object::controllerReference() const
{
    for (const OwnerReference &r : ownerReferences())
        if (r.controller)
            return r;
    return std::nullopt;
}

const QStringList &Object::finalizers() const
{
    static const QStringList empty;
    if (!d)
        return empty;
    return lazily(d->finalizers, d->text(enc::Finalizers), decodeStringArray);
}

QJsonValue Object::value(std::initializer_list<QLatin1String> path) const
{
    QJsonValue v = json();
    for (QLatin1String p : path) {
        if (!v.isObject())
            return QJsonValue(QJsonValue::Undefined);
        v = v.toObject().value(p);
    }
    return v;
}

Object Object::withoutManagedFields() const
{
    if (!d || !d->hasManagedFields)
        return *this;
    const QByteArray json = toJsonBytes();
    dom::element el;
    if (valueParser().parse(json.constData(), size_t(json.size())).get(el) || !el.is_object())
        return *this;
    return Object(buildData(dom::object(el), {}, {}, true));
}

bool operator==(const Object &a, const Object &b)
{
    if (a.d == b.d)
        return true;
    if (!a.d || !b.d)
        return false;
    // The packing is canonical (objectencoding_p.h): equal packed bytes ⇔ equal documents.
    return a.d->packed() == b.d->packed();
}

} // namespace opbench
