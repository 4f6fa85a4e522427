// SPDX-License-Identifier: Apache-2.0
#pragma once
// Freshness waits: what the real API server does when a request names a resourceVersion newer
// than its own (k8s-api-semantics §3, "RV newer than the server's"). The watch cache blocks up
// to 3 s for the RV to arrive, then gives up with
//   504 Timeout "Timeout: Too large resource version: N, current: M",
//   details.causes [{reason: ResourceVersionTooLarge, message: "Too large resource version"}],
//   details.retryAfterSeconds 1.
// This happens for lists (resourceVersion=N, unset or NotOlderThan match) and for streaming-list
// watches (sendInitialEvents=true, as an ERROR event); a plain watch from N opens at once and
// only delivers events after N.

#include "engine/api/status.h"

#include <QObject>

#include <chrono>
#include <functional>

namespace opbench::apiserver {

class Store;

/// How long a request waits for a future resourceVersion (the real server: 3 s).
inline constexpr std::chrono::milliseconds kDefaultFreshnessWait{3000};

/// The 504 Status for `wanted` > `current`.
Status tooLargeResourceVersion(quint64 wanted, quint64 current);

/// Calls `done(true)` as soon as `store`'s resourceVersion is at least `rv` (at once when it
/// already is), or `done(false)` once `wait` has passed on the store's Clock. `done` runs
/// exactly once, on `context`'s thread, and not at all if `context` is destroyed first.
void whenFresh(
    Store *store, quint64 rv, std::chrono::milliseconds wait, QObject *context, std::function<void(bool fresh)> done);

} // namespace opbench::apiserver
