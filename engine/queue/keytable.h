// SPDX-License-Identifier: Apache-2.0
#pragma once
// KeyTable: interns QueueKeys to small integer ids so a queue hashes a key once per operation and
// keeps everything else (FIFO, heaps) as plain integers. Internal to engine/queue.

#include "engine/queue/queuekey.h"

#include <QHash>

#include <vector>

namespace opbench::detail {

/// `Entry` must be default-constructible and have `QueueKey key`, `bool live` and `bool parked`
/// members. A queue parks an entry that became idle (nothing pending, no retry history) instead
/// of releasing it at once: re-adding a parked key costs one lookup instead of an erase and an
/// insert. Parked entries are released in batches by sweep().
template<typename Entry>
class KeyTable
{
public:
    static constexpr quint32 NoId = 0xffffffffu;

    /// The id of `key`, creating a fresh entry when unknown (one hash computation either way).
    quint32 intern(const QueueKey &key)
    {
        const qsizetype before = m_index.size();
        quint32 &slot = m_index[key];
        if (m_index.size() == before)
            return slot;
        quint32 id;
        if (!m_free.empty()) {
            id = m_free.back();
            m_free.pop_back();
        } else {
            id = quint32(m_entries.size());
            m_entries.emplace_back();
        }
        slot = id;
        Entry &e = m_entries[id];
        e.key = key;
        e.live = true;
        return id;
    }
    /// The id of `key`, or NoId.
    [[nodiscard]] quint32 find(const QueueKey &key) const { return m_index.value(key, NoId); }
    /// Forgets the entry: its id may be reused by the next intern().
    void release(quint32 id)
    {
        if (m_entries[id].parked)
            --m_parked;
        m_index.remove(m_entries[id].key);
        m_entries[id] = Entry();
        m_free.push_back(id);
    }
    /// Marks a live entry idle (no-op when already parked).
    void park(quint32 id)
    {
        Entry &e = m_entries[id];
        if (!e.parked) {
            e.parked = true;
            ++m_parked;
        }
    }
    /// Marks an entry in use again (no-op unless parked).
    void unpark(Entry &e)
    {
        if (e.parked) {
            e.parked = false;
            --m_parked;
        }
    }
    /// Releases every parked entry once they are many and at least half of the table.
    void sweep()
    {
        if (m_parked <= SweepThreshold || m_parked * 2 <= m_index.size())
            return;
        for (quint32 id = 0; id < quint32(m_entries.size()); ++id) {
            if (m_entries[id].live && m_entries[id].parked)
                release(id);
        }
    }
    /// Number of parked entries.
    [[nodiscard]] qsizetype parked() const { return m_parked; }
    Entry &operator[](quint32 id) { return m_entries[id]; }
    const Entry &operator[](quint32 id) const { return m_entries[id]; }
    /// Number of live entries.
    [[nodiscard]] qsizetype size() const { return m_index.size(); }
    /// Upper bound of ids (live or free), for iteration with `live` checks.
    [[nodiscard]] quint32 capacity() const { return quint32(m_entries.size()); }
    void clear()
    {
        m_index.clear();
        m_entries.clear();
        m_free.clear();
        m_parked = 0;
    }

private:
    QHash<QueueKey, quint32> m_index; // key -> id, exactly the live entries
    std::vector<Entry> m_entries;     // by id; entries not live are default-constructed and in m_free
    std::vector<quint32> m_free;      // ids to reuse
    qsizetype m_parked = 0;           // live entries with `parked`
    static constexpr qsizetype SweepThreshold = 1024;
};

} // namespace opbench::detail
