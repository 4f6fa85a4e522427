// SPDX-License-Identifier: Apache-2.0
#include "engine/cache/store.h"

namespace opbench {

Store::Store()
{
    m_indexers.insert(QString::fromLatin1(NamespaceIndex), [](const Object &o) {
        return o.namespaceName().isEmpty() ? QStringList() : QStringList{o.namespaceName()};
    });
    // ownerReferenceUids() keeps nothing decoded in the object (unlike ownerReferences()).
    m_indexers.insert(QString::fromLatin1(OwnerUidIndex), [](const Object &o) { return o.ownerReferenceUids(); });
}

void Store::indexObject(const QString &key, const Object &obj)
{
    for (auto it = m_indexers.cbegin(); it != m_indexers.cend(); ++it) {
        const QStringList values = it.value()(obj);
        if (values.isEmpty())
            continue;
        auto &index = m_indices[it.key()];
        for (const QString &v : values)
            index[v].insert(key);
    }
}

void Store::unindexObject(const QString &key, const Object &obj)
{
    for (auto it = m_indexers.cbegin(); it != m_indexers.cend(); ++it) {
        auto idx = m_indices.find(it.key());
        if (idx == m_indices.end())
            continue;
        for (const QString &v : it.value()(obj)) {
            auto set = idx->find(v);
            if (set == idx->end())
                continue;
            set->remove(key);
            if (set->isEmpty())
                idx->erase(set);
        }
    }
}

Object Store::upsert(const Object &obj) { return upsert(obj.key(), obj); }

Object Store::upsert(const QString &key, const Object &obj)
{
    Object previous;
    auto it = m_items.find(key);
    if (it != m_items.end()) {
        previous = it.value();
        unindexObject(key, previous);
        it.value() = obj;
    } else {
        m_items.insert(key, obj);
    }
    indexObject(key, obj);
    return previous;
}

Object Store::remove(const QString &key)
{
    auto it = m_items.find(key);
    if (it == m_items.end())
        return {};
    const Object previous = it.value();
    m_items.erase(it);
    unindexObject(key, previous);
    return previous;
}

QList<Object> Store::replace(const QList<Object> &objects)
{
    QHash<QString, Object> fresh;
    fresh.reserve(objects.size());
    for (const Object &o : objects)
        fresh.insert(o.key(), o);
    QList<Object> gone;
    for (auto it = m_items.cbegin(); it != m_items.cend(); ++it)
        if (!fresh.contains(it.key()))
            gone.append(it.value());
    m_items = std::move(fresh);
    m_indices.clear();
    for (auto it = m_items.cbegin(); it != m_items.cend(); ++it)
        indexObject(it.key(), it.value());
    return gone;
}

qint64 Store::bytesHeld() const
{
    // Summed on demand: an object's footprint grows when its labels() etc. are first decoded.
    qint64 n = 0;
    for (const Object &o : m_items)
        n += o.memoryFootprint();
    return n;
}

Object Store::get(const QString &key) const { return m_items.value(key); }

QList<Object> Store::list() const { return m_items.values(); }

QStringList Store::keys() const { return m_items.keys(); }

QList<Object> Store::listNamespace(const QString &ns) const
{
    if (ns.isEmpty())
        return list();
    return byIndex(QString::fromLatin1(NamespaceIndex), ns);
}

Expected<void> Store::addIndexers(const QHash<QString, IndexFunc> &indexers)
{
    for (auto it = indexers.cbegin(); it != indexers.cend(); ++it)
        if (m_indexers.contains(it.key()))
            return Status::badRequest(QStringLiteral("indexer conflict: an index named \"%1\" already exists").arg(it.key()));
    for (auto it = indexers.cbegin(); it != indexers.cend(); ++it) {
        m_indexers.insert(it.key(), it.value());
        auto &index = m_indices[it.key()];
        for (auto obj = m_items.cbegin(); obj != m_items.cend(); ++obj)
            for (const QString &v : it.value()(obj.value()))
                index[v].insert(obj.key());
        if (index.isEmpty())
            m_indices.remove(it.key());
    }
    return {};
}

QStringList Store::indexKeys(const QString &index, const QString &value) const
{
    const auto idx = m_indices.constFind(index);
    if (idx == m_indices.cend())
        return {};
    const auto set = idx->constFind(value);
    return set == idx->cend() ? QStringList() : QStringList(set->cbegin(), set->cend());
}

QList<Object> Store::byIndex(const QString &index, const QString &value) const
{
    QList<Object> out;
    for (const QString &key : indexKeys(index, value))
        out.append(m_items.value(key));
    return out;
}

QStringList Store::listIndexFuncValues(const QString &index) const
{
    return m_indices.value(index).keys();
}

} // namespace opbench
