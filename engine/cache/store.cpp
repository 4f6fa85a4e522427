// SPDX-License-Identifier: Apache-2.0
#include "engine/cache/store.h"

namespace opbench {

Store::Store()
{
    m_indexers.insert(QString::fromLatin1(NamespaceIndex),
        [](const Object &o) { return o.namespaceName().isEmpty() ? QStringList() : QStringList{o.namespaceName()}; });
    // ownerReferenceUids() keeps nothing decoded in the object (unlike ownerReferences()).
    m_indexers.insert(QString::fromLatin1(OwnerUidIndex), [](const Object &o) { return o.ownerReferenceUids(); });
}

void Store::indexInto(const QString &name, const IndexFunc &fn, const Object &obj)
{
    const QStringList values = fn(obj);
    if (values.isEmpty())
        return;
    auto &index = m_indices[name];
    for (const QString &v : values)
        index[v].insert(obj);
}

void Store::indexObject(const Object &obj)
{
    for (auto it = m_indexers.cbegin(); it != m_indexers.cend(); ++it)
        indexInto(it.key(), it.value(), obj);
}

void Store::unindexObject(const Object &obj)
{
    for (auto it = m_indexers.cbegin(); it != m_indexers.cend(); ++it) {
        auto idx = m_indices.find(it.key());
        if (idx == m_indices.end())
            continue;
        for (const QString &v : it.value()(obj)) {
            auto set = idx->find(v);
            if (set == idx->end())
                continue;
            set->erase(obj);
            if (set->empty())
                idx->erase(set);
        }
        if (idx->isEmpty())
            m_indices.erase(idx);
    }
}

Object Store::upsert(const Object &obj)
{
    const Object previous = find(obj);
    if (!previous.isNull())
        unindexObject(previous);
    assign(m_items, obj);
    indexObject(obj);
    return previous;
}

Object Store::remove(const QString &key)
{
    auto it = m_items.find(QStringView(key));
    if (it == m_items.end())
        return {};
    const Object previous = *it;
    m_items.erase(it);
    unindexObject(previous);
    return previous;
}

QList<Object> Store::replace(const QList<Object> &objects)
{
    ObjectSet fresh;
    fresh.reserve(size_t(objects.size()));
    for (const Object &o : objects)
        assign(fresh, o); // the later of two objects with one key wins, as an upsert would
    QList<Object> gone;
    for (const Object &o : m_items)
        if (!fresh.contains(o))
            gone.append(o);
    m_items = std::move(fresh);
    m_indices.clear();
    for (const Object &o : m_items)
        indexObject(o);
    return gone;
}

qint64 Store::bytesHeld() const
{
    // Summed on demand: an object's footprint grows when its labels() etc. are first decoded.
    qint64 n = structureBytes(m_items);
    for (const Object &o : m_items)
        n += o.memoryFootprint();
    for (const auto &index : m_indices)
        for (const ObjectSet &set : index)
            n += structureBytes(set);
    return n;
}

Object Store::get(const QString &key) const
{
    const auto it = m_items.find(QStringView(key));
    return it == m_items.end() ? Object() : *it;
}

Object Store::find(const Object &like) const
{
    const auto it = m_items.find(like);
    return it == m_items.end() ? Object() : *it;
}

QList<Object> Store::list() const { return QList<Object>(m_items.cbegin(), m_items.cend()); }

QStringList Store::keys() const
{
    QStringList out;
    out.reserve(qsizetype(m_items.size()));
    for (const Object &o : m_items)
        out.append(o.key());
    return out;
}

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
            return Status::badRequest(
                QStringLiteral("indexer conflict: an index named \"%1\" already exists").arg(it.key()));
    for (auto it = indexers.cbegin(); it != indexers.cend(); ++it) {
        m_indexers.insert(it.key(), it.value());
        for (const Object &o : m_items)
            indexInto(it.key(), it.value(), o);
    }
    return {};
}

QStringList Store::indexKeys(const QString &index, const QString &value) const
{
    QStringList out;
    for (const Object &o : byIndex(index, value))
        out.append(o.key());
    return out;
}

QList<Object> Store::byIndex(const QString &index, const QString &value) const
{
    const auto idx = m_indices.constFind(index);
    if (idx == m_indices.cend())
        return {};
    const auto set = idx->constFind(value);
    return set == idx->cend() ? QList<Object>() : QList<Object>(set->cbegin(), set->cend());
}

QStringList Store::listIndexFuncValues(const QString &index) const { return m_indices.value(index).keys(); }

} // namespace opbench
