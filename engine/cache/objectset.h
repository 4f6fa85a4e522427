// SPDX-License-Identifier: Apache-2.0
#pragma once
// ObjectSet: a set of Objects identified by their cache key ("namespace/name" or "name"),
// searchable by key without the set holding any key strings: the key is read from the object
// itself (Object::keyHash / hasKey / sameKey). The store and its indexes are built on it, so a
// cached object costs one 32-byte node per set it is in, plus its share of the bucket array.

#include "engine/api/object.h"

#include <unordered_set>

namespace opbench {

struct ObjectKeyHash
{
    using is_transparent = void;
    // Not noexcept on purpose: the standard library then keeps each node's hash with it (the
    // node stays 32 bytes), so rehashing and lookups do not re-read object names.
    std::size_t operator()(const Object &o) const { return o.keyHash(); }
    std::size_t operator()(QStringView key) const { return objectKeyHash(key); }
};

struct ObjectKeyEqual
{
    using is_transparent = void;
    bool operator()(const Object &a, const Object &b) const { return a.sameKey(b); }
    bool operator()(QStringView key, const Object &o) const { return o.hasKey(key); }
    bool operator()(const Object &o, QStringView key) const { return o.hasKey(key); }
};

/// Find by key with `set.find(QStringView(key))`; insert or replace with assign().
using ObjectSet = std::unordered_set<Object, ObjectKeyHash, ObjectKeyEqual>;

/// Inserts `obj`, or replaces the element with its key (reusing that node: no allocation).
inline void assign(ObjectSet &set, const Object &obj)
{
    auto [it, inserted] = set.insert(obj);
    if (inserted)
        return;
    auto node = set.extract(it);
    node.value() = obj;
    set.insert(std::move(node));
}

/// Bytes the set's own structure takes (nodes and buckets, not the objects); 0 when empty.
inline qint64 structureBytes(const ObjectSet &set)
{
    if (set.empty())
        return 0;
    constexpr qint64 nodeBytes = 32; // next pointer, Object, cached hash: one 32-byte heap chunk
    return qint64(sizeof(ObjectSet)) + qint64(set.size()) * nodeBytes
        + qint64(set.bucket_count()) * qint64(sizeof(void *));
}

} // namespace opbench
