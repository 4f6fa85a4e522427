// SPDX-License-Identifier: Apache-2.0
#pragma once
// The GUI-facing views both queues give of their key tables (snapshot() and state(key)), written
// once over KeyTable. Internal to engine/queue.

#include "engine/queue/keytable_p.h"
#include "engine/queue/workqueue.h"

#include <algorithm>
#include <vector>

namespace opbench::detail {

/// Every live, unparked key's state, sorted by key. `stateOf(entry)` builds one KeyState.
template<typename Entry, typename StateOf>
std::vector<KeyState> snapshotKeys(const KeyTable<Entry> &keys, StateOf stateOf)
{
    std::vector<KeyState> out;
    out.reserve(size_t(keys.size()));
    for (quint32 id = 0; id < keys.capacity(); ++id) {
        const Entry &e = keys[id];
        if (e.live && !e.parked)
            out.push_back(stateOf(e));
    }
    std::sort(out.begin(), out.end(), [](const KeyState &a, const KeyState &b) { return a.key < b.key; });
    return out;
}

/// One key's state; an unknown or parked key is Idle with nothing else set.
template<typename Entry, typename StateOf>
KeyState keyState(const KeyTable<Entry> &keys, const QueueKey &key, StateOf stateOf)
{
    const quint32 id = keys.find(key);
    if (id == KeyTable<Entry>::NoId || keys[id].parked) {
        KeyState s;
        s.key = key;
        return s;
    }
    return stateOf(keys[id]);
}

} // namespace opbench::detail
