// SPDX-License-Identifier: Apache-2.0
#pragma once
// RecentlyBuilt: the last few values a hot path built, by key, so that building the same value
// again returns the one already built. For small immutable or copy-on-write values (a
// QJsonObject shares its data when copied) that the API server builds on every write from a
// handful of inputs: a managedFields entry (manager, operation, time to the second), the
// admission options, the simulator's pod conditions and container statuses. Returning a shared
// copy changes nothing a reader sees, and later equality checks of shared data are cheap.
//
// One per thread (`thread_local`): no locking. The oldest entry makes room for a new key.

#include <algorithm>
#include <array>
#include <cstddef>

namespace opbench {

template<typename Key, typename Value, std::size_t N = 8> class RecentlyBuilt
{
public:
    /// The value kept for `key`, or `build()`'s result, kept in place of the oldest entry.
    template<typename Build> Value get(const Key &key, Build &&build)
    {
        for (std::size_t i = 0; i < m_used; ++i) {
            if (m_entries[i].key == key)
                return m_entries[i].value;
        }
        Value value = build();
        m_entries[m_next] = Entry{key, value};
        m_next = (m_next + 1) % N;
        m_used = std::min(m_used + 1, N);
        return value;
    }

    /// Entries kept (at most N).
    std::size_t size() const { return m_used; }

private:
    struct Entry
    {
        Key key{};
        Value value{};
    };
    std::array<Entry, N> m_entries{};
    std::size_t m_next = 0;
    std::size_t m_used = 0;
};

} // namespace opbench
