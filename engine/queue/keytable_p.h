// SPDX-License-Identifier: Apache-2.0
#pragma once
// KeyTable: interns QueueKeys to small integer ids so a queue hashes a key once per operation and
// keeps everything else (FIFO, heaps) as plain integers. Internal to engine/queue.
//
// The index is an open-addressing table of {hash tag, id} pairs (8 bytes a slot, linear probing,
// load ≤ 1/2, backward-shift deletion): the key itself is stored once, in its entry, and compared
// only when the tag matches.

#include "engine/queue/queuekey.h"

#include <vector>

namespace opbench::detail {

/// `Entry` must be default-constructible and have `QueueKey key`, `bool live` and `bool parked`
/// members. A queue parks an entry that became idle (nothing pending, no retry history) instead
/// of releasing it at once: re-adding a parked key costs one lookup instead of an erase and an
/// insert. Parked entries are released in batches by sweep().
template<typename Entry> class KeyTable
{
public:
    static constexpr quint32 NoId = 0xffffffffu;

    /// The id of `key`, creating a fresh entry when unknown (one hash computation either way).
    quint32 intern(const QueueKey &key)
    {
        if ((m_live + 1) * 2 > m_slots.size())
            grow();
        const quint64 h = hashOf(key);
        size_t i = size_t(h) & m_mask;
        const quint32 tag = quint32(h >> 32);
        for (;; i = (i + 1) & m_mask) {
            Slot &s = m_slots[i];
            if (s.id == NoId)
                break;
            if (s.tag == tag && m_entries[s.id].key == key)
                return s.id;
        }
        quint32 id;
        if (!m_free.empty()) {
            id = m_free.back();
            m_free.pop_back();
        } else {
            id = quint32(m_entries.size());
            m_entries.emplace_back();
        }
        m_slots[i] = {tag, id};
        ++m_live;
        Entry &e = m_entries[id];
        e.key = key;
        e.live = true;
        return id;
    }
    /// The id of `key`, or NoId.
    [[nodiscard]] quint32 find(const QueueKey &key) const
    {
        if (m_live == 0)
            return NoId;
        const quint64 h = hashOf(key);
        const quint32 tag = quint32(h >> 32);
        for (size_t i = size_t(h) & m_mask;; i = (i + 1) & m_mask) {
            const Slot &s = m_slots[i];
            if (s.id == NoId)
                return NoId;
            if (s.tag == tag && m_entries[s.id].key == key)
                return s.id;
        }
    }
    /// Forgets the entry: its id may be reused by the next intern().
    void release(quint32 id)
    {
        Entry &e = m_entries[id];
        if (e.parked)
            --m_parked;
        eraseSlot(id, hashOf(e.key));
        e = Entry();
        m_free.push_back(id);
        --m_live;
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
        if (m_parked <= SweepThreshold || size_t(m_parked) * 2 <= m_live)
            return;
        for (quint32 id = 0; id < quint32(m_entries.size()); ++id) {
            if (m_entries[id].live && m_entries[id].parked)
                release(id);
        }
    }
    Entry &operator[](quint32 id) { return m_entries[id]; }
    const Entry &operator[](quint32 id) const { return m_entries[id]; }
    /// Number of live entries.
    [[nodiscard]] qsizetype size() const { return qsizetype(m_live); }
    /// Number of parked entries.
    [[nodiscard]] qsizetype parked() const { return m_parked; }
    /// Upper bound of ids (live or free), for iteration with `live` checks.
    [[nodiscard]] quint32 capacity() const { return quint32(m_entries.size()); }

private:
    struct Slot
    {
        quint32 tag = 0;   // high half of the key's hash
        quint32 id = NoId; // NoId: empty
    };

    static quint64 hashOf(const QueueKey &key) { return quint64(qHash(key, 0)); }

    void grow()
    {
        std::vector<Slot> old = std::move(m_slots);
        const size_t size = old.empty() ? 64 : old.size() * 2;
        m_slots.assign(size, Slot{});
        m_mask = size - 1;
        for (const Slot &s : old) {
            if (s.id == NoId)
                continue;
            size_t i = size_t(hashOf(m_entries[s.id].key)) & m_mask;
            while (m_slots[i].id != NoId)
                i = (i + 1) & m_mask;
            m_slots[i] = s;
        }
    }

    void eraseSlot(quint32 id, quint64 h)
    {
        size_t i = size_t(h) & m_mask;
        while (m_slots[i].id != id)
            i = (i + 1) & m_mask;
        // Backward-shift: pull later members of the probe run into the hole.
        size_t hole = i;
        for (size_t j = (i + 1) & m_mask; m_slots[j].id != NoId; j = (j + 1) & m_mask) {
            const size_t home = size_t(hashOf(m_entries[m_slots[j].id].key)) & m_mask;
            // Move j into the hole unless its home lies cyclically in (hole, j].
            const bool homeBetween = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
            if (!homeBetween) {
                m_slots[hole] = m_slots[j];
                hole = j;
            }
        }
        m_slots[hole] = Slot{};
    }

    std::vector<Slot> m_slots;    // open addressing; size a power of two, at most half full
    size_t m_mask = 0;            // m_slots.size() - 1
    std::vector<Entry> m_entries; // by id; entries not live are default-constructed and in m_free
    std::vector<quint32> m_free;  // ids to reuse
    size_t m_live = 0;            // live entries (= occupied slots)
    qsizetype m_parked = 0;       // live entries with `parked`
    static constexpr qsizetype SweepThreshold = 1024;
};

} // namespace opbench::detail
