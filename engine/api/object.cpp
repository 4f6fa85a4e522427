// SPDX-License-Identifier: Apache-2.0
#include "engine/api/object.h"

#include "engine/api/objectdata_p.h"
#include "engine/api/objectdecode_p.h"

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
#include <memory>
#include <optional>

namespace opbench {

namespace enc = objectencoding;

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

namespace objectdata {

const ObjectType *typeOf(const QString &apiVersion, const QString &kind, bool &owned)
{
    static QBasicMutex mutex;
    static auto *table = new QHash<QString, const ObjectType *>(); // never destroyed: objects may outlive statics
    const QString key = apiVersion + QChar(0) + kind;
    const QMutexLocker lock(&mutex);
    owned = false;
    if (const ObjectType *t = table->value(key))
        return t;
    auto *t = new ObjectType{objectdecode::intern(apiVersion), objectdecode::intern(kind)};
    if (table->size() >= 4096) {
        owned = true;
        return t;
    }
    table->insert(key, t);
    return t;
}

} // namespace objectdata

namespace {

namespace dom = simdjson::dom;

using namespace objectdecode;
using objectdata::buildData;
using objectdata::typeOf;

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
    enc::JsonFields fields; // apiVersion, kind, namespace, generation: read while packing
    const enc::PackResult packed = enc::pack(scratch, json, &fields);
    auto *d = ObjectData::create(scratch);
    d->jsonSize = quint32(packed.unpackedSize);
    d->meta = packed.meta;
    d->hasManagedFields = packed.hasManagedFields;
    d->type = typeOf(fields.apiVersion.isString() ? fields.apiVersion.toString() : QString(),
        fields.kind.isString() ? fields.kind.toString() : QString(), d->ownsType);
    if (fields.ns.isString())
        d->ns = objectdecode::intern(fields.ns.toString());
    const QJsonValue &gen = fields.generation;
    // As the JSON text would read: an integer, not a number with a fraction or an exponent.
    if (const QCborValue c = QCborValue::fromJsonValue(gen); c.isInteger())
        d->generation = c.toInteger();
    else if (gen.isDouble() && std::isfinite(gen.toDouble()) && gen.toDouble() == std::floor(gen.toDouble())
        && !QByteArray::number(gen.toDouble(), 'g', QLocale::FloatingPointShortest).contains('e'))
        d->generation = qint64(gen.toDouble());
    if (scratch.capacity() > (size_t(1) << 20))
        std::string().swap(scratch);
    return Object(d);
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
