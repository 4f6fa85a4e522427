// SPDX-License-Identifier: Apache-2.0
#pragma once
// Store: the informer's thread-confined, indexed object cache (client-go's Indexer /
// ThreadSafeStore), keyed "namespace/name" (or "name" for cluster-scoped objects).
//
// Objects in the store are immutable values (opbench::Object); a caller can never change what
// the cache holds. Every index maps an index value to the set of objects that yield that value.
// Two indexes always exist: "namespace" and "owner-uid" (every ownerReference's uid).
// Memory: keys are never stored as strings; the store and each index are ObjectSets (one 32-byte
// node per object per set, see objectset.h).
// Thread: the engine thread only (no locks).

#include "engine/api/expected.h"
#include "engine/api/object.h"
#include "engine/cache/objectset.h"

#include <QHash>

#include <functional>
#include <optional>

namespace opbench {

/// Returns the index values of an object (may be empty). Must be pure and cheap.
using IndexFunc = std::function<QStringList(const Object &)>;

class Store
{
public:
    static constexpr auto NamespaceIndex = "namespace";
    static constexpr auto OwnerUidIndex = "owner-uid";

    Store();

    /// Adds or replaces the object under its key; returns the previous value (null if none).
    Object upsert(const Object &obj);
    /// Removes the key; returns the removed object (null if it was absent).
    Object remove(const QString &key);
    /// Replaces the whole content (a relist); returns the objects that disappeared.
    QList<Object> replace(const QList<Object> &objects);

    [[nodiscard]] Object get(const QString &key) const;
    /// The cached object with `like`'s key (null if none), without building the key.
    [[nodiscard]] Object find(const Object &like) const;
    [[nodiscard]] bool contains(const QString &key) const { return m_items.find(QStringView(key)) != m_items.end(); }
    [[nodiscard]] QList<Object> list() const;
    [[nodiscard]] QStringList keys() const;
    [[nodiscard]] qsizetype size() const { return m_items.size(); }
    /// Objects of one namespace (through the namespace index).
    [[nodiscard]] QList<Object> listNamespace(const QString &ns) const;

    /// Adds indexers; fails (nothing added) when a name is already taken. Existing objects are
    /// indexed at once, so this is allowed after the informer started.
    Expected<void> addIndexers(const QHash<QString, IndexFunc> &indexers);
    [[nodiscard]] bool hasIndex(const QString &name) const { return m_indexers.contains(name); }
    /// Objects whose `index` yields `value`. Unknown index → empty list.
    [[nodiscard]] QList<Object> byIndex(const QString &index, const QString &value) const;
    [[nodiscard]] QStringList indexKeys(const QString &index, const QString &value) const;
    /// Every value the index currently holds.
    [[nodiscard]] QStringList listIndexFuncValues(const QString &index) const;

    /// Bytes held by the cache: the objects (Object::memoryFootprint summed now: O(n)) plus the
    /// store's and its indexes' own nodes and buckets, for the GUI and benches.
    [[nodiscard]] qint64 bytesHeld() const;

private:
    void indexObject(const Object &obj);
    void unindexObject(const Object &obj);

    void indexInto(const QString &name, const IndexFunc &fn, const Object &obj);

    ObjectSet m_items;                                   // the objects, by key; the source of truth
    QHash<QString, IndexFunc> m_indexers;                // index name -> function
    QHash<QString, QHash<QString, ObjectSet>> m_indices; // index name -> value -> objects (only non-empty sets)
};

} // namespace opbench
