// SPDX-License-Identifier: Apache-2.0
#include "engine/cache/history.h"

namespace opbench {

int compareResourceVersions(const QString &a, const QString &b)
{
    bool okA = false;
    bool okB = false;
    const quint64 na = a.toULongLong(&okA);
    const quint64 nb = b.toULongLong(&okB);
    if (okA && okB)
        return na < nb ? -1 : (na > nb ? 1 : 0);
    return QString::compare(a, b);
}

void CacheHistory::setCapacity(int capacity)
{
    m_capacity = capacity;
    while (int(m_changes.size()) > std::max(0, m_capacity))
        m_changes.pop_front();
}

void CacheHistory::record(CacheChange change)
{
    if (m_capacity <= 0)
        return;
    m_changes.push_back(std::move(change));
    while (int(m_changes.size()) > m_capacity)
        m_changes.pop_front();
}

QList<CacheChange> CacheHistory::changesFor(const QString &key) const
{
    QList<CacheChange> out;
    for (const CacheChange &c : m_changes)
        if (c.key == key)
            out.append(c);
    return out;
}

QString CacheHistory::oldestReachable() const
{
    if (m_changes.empty())
        return {};
    const CacheChange &first = m_changes.front();
    // The state before the first change is reachable only as "before it": report its RV - 1.
    bool ok = false;
    const quint64 rv = first.resourceVersion.toULongLong(&ok);
    return ok && rv > 0 ? QString::number(rv - 1) : first.resourceVersion;
}

std::optional<QHash<QString, Object>> CacheHistory::contentAt(const QString &rv, QHash<QString, Object> current) const
{
    if (!m_changes.empty() && compareResourceVersions(rv, oldestReachable()) < 0)
        return std::nullopt;
    for (auto it = m_changes.rbegin(); it != m_changes.rend(); ++it) {
        if (compareResourceVersions(it->resourceVersion, rv) <= 0)
            break;
        switch (it->type) {
        case CacheChange::Type::Added:
            current.remove(it->key);
            break;
        case CacheChange::Type::Modified:
        case CacheChange::Type::Deleted:
            current.insert(it->key, it->oldObject);
            break;
        }
    }
    return current;
}

} // namespace opbench
