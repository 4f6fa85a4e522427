// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to engine/api: ObjectData, the shared block behind an Object (object.cpp builds it
// from a QJsonObject, objectparse.cpp from JSON text), and the shared ObjectType table.

#include "engine/api/object.h"
#include "engine/api/objectencoding_p.h"

#include <QSharedData>

#include <simdjson.h>

#include <array>
#include <atomic>
#include <cstring>
#include <string_view>

namespace opbench {

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
    ObjectData(ObjectData &&) = delete;
    ObjectData &operator=(ObjectData &&) = delete;
    ~ObjectData()
    {
        delete labels.load(std::memory_order_acquire);
        delete ownerReferences.load(std::memory_order_acquire);
        delete finalizers.load(std::memory_order_acquire);
        if (ownsType)
            delete type;
    }

    std::string_view packed() const { return {reinterpret_cast<const char *>(this + 1), packedSize}; }
    std::string_view text(objectencoding::MetaField f) const
    {
        const objectencoding::Span s = meta[f];
        return packed().substr(s.offset, s.size);
    }

    const ObjectType *type = nullptr; // shared (or, past the table's bound, owned: ownsType)
    QString ns;
    qint64 generation = 0;
    std::array<objectencoding::Span, objectencoding::MetaFieldCount> meta{};
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

namespace objectdata {

// The shared ObjectType of (apiVersion, kind). The table is bounded: past it, `owned` is set and
// the caller owns the returned block.
const ObjectType *typeOf(const QString &apiVersion, const QString &kind, bool &owned);
/// A new block packed from `obj` (`apiVersion` and `kind` stand in for members it lacks).
ObjectData *buildData(
    simdjson::dom::object obj, const QString &apiVersion, const QString &kind, bool stripManagedFields);

} // namespace objectdata

} // namespace opbench
