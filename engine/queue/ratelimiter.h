// SPDX-License-Identifier: Apache-2.0
#pragma once
// Rate limiters: how long a key should wait before its next retry. Small, composable pieces, as in
// client-go's workqueue: per-item exponential backoff, a token bucket shared by all items, the
// maximum of several limiters, fast-then-slow, and a cap on the wait.
//
// Limiters keep per-key history until forget(key); a queue calls when() from addRateLimited().
// Everything runs on the engine thread; none of these is thread-safe.

#include "engine/base/clock.h"
#include "engine/queue/queuekey.h"

#include <QHash>

#include <memory>
#include <vector>

namespace opbench {

class RateLimiter
{
public:
    virtual ~RateLimiter() = default;
    /// How long `key` should wait now. Each call counts as one more failure for per-item limiters.
    [[nodiscard]] virtual Clock::Duration when(const QueueKey &key) = 0;
    /// Drops the history of `key` (it succeeded). Safe for unknown keys.
    virtual void forget(const QueueKey &key) = 0;
    /// How many times `key` has failed since its last forget (0 for limiters that do not count).
    [[nodiscard]] virtual int numRequeues(const QueueKey &key) const = 0;

protected:
    RateLimiter() = default;
    RateLimiter(const RateLimiter &) = default;
    RateLimiter &operator=(const RateLimiter &) = default;
};

/// base·2^n capped at `max`, n = number of when() calls for the key since its last forget.
class ItemExponentialFailureRateLimiter final : public RateLimiter
{
public:
    ItemExponentialFailureRateLimiter(Clock::Duration base, Clock::Duration max);
    Clock::Duration when(const QueueKey &key) override;
    void forget(const QueueKey &key) override;
    int numRequeues(const QueueKey &key) const override;

private:
    Clock::Duration m_base;
    Clock::Duration m_max;
    QHash<QueueKey, int> m_failures; // keys with at least one when() since their last forget
};

/// A token bucket shared by all keys (golang.org/x/time/rate Reserve semantics): `qps` tokens per
/// second, at most `burst` stored, starts full. Every when() spends a token, even when the caller
/// ends up using a longer delay from another limiter; the wait is how long until that token exists,
/// with no cap (1000 failures at once at 10 qps / burst 100: the last waits 90 s).
class BucketRateLimiter final : public RateLimiter
{
public:
    /// `clock` defaults to Clock::system(). qps <= 0 means "no limit" (when() returns 0).
    BucketRateLimiter(double qps, int burst, Clock *clock = nullptr);
    Clock::Duration when(const QueueKey &key) override;
    void forget(const QueueKey &) override { }
    int numRequeues(const QueueKey &) const override { return 0; }

private:
    double m_qps;
    int m_burst;
    Clock *m_clock;
    double m_tokens;         // may go negative: reservations not yet covered
    Clock::TimePoint m_last; // time m_tokens was computed for
};

/// `fast` for the first `maxFastAttempts` when() calls of a key, `slow` afterwards.
class ItemFastSlowRateLimiter final : public RateLimiter
{
public:
    ItemFastSlowRateLimiter(Clock::Duration fast, Clock::Duration slow, int maxFastAttempts);
    Clock::Duration when(const QueueKey &key) override;
    void forget(const QueueKey &key) override;
    int numRequeues(const QueueKey &key) const override;

private:
    Clock::Duration m_fast;
    Clock::Duration m_slow;
    int m_maxFast;
    QHash<QueueKey, int> m_attempts;
};

/// The longest wait of all its limiters (each one's when() is called); numRequeues is the maximum,
/// forget goes to all.
class MaxOfRateLimiter final : public RateLimiter
{
public:
    explicit MaxOfRateLimiter(std::vector<std::unique_ptr<RateLimiter>> limiters);
    Clock::Duration when(const QueueKey &key) override;
    void forget(const QueueKey &key) override;
    int numRequeues(const QueueKey &key) const override;

private:
    std::vector<std::unique_ptr<RateLimiter>> m_limiters;
};

/// Caps another limiter's wait at `maxWait`.
class WithMaxWaitRateLimiter final : public RateLimiter
{
public:
    WithMaxWaitRateLimiter(std::unique_ptr<RateLimiter> inner, Clock::Duration maxWait);
    Clock::Duration when(const QueueKey &key) override;
    void forget(const QueueKey &key) override { m_inner->forget(key); }
    int numRequeues(const QueueKey &key) const override { return m_inner->numRequeues(key); }

private:
    std::unique_ptr<RateLimiter> m_inner;
    Clock::Duration m_maxWait;
};

/// client-go's DefaultControllerRateLimiter: MaxOf(exponential 5 ms → 1000 s, bucket 10 qps / burst 100).
/// The bucket reads `clock` (default Clock::system()).
[[nodiscard]] std::unique_ptr<RateLimiter> defaultControllerRateLimiter(Clock *clock = nullptr);
/// controller-runtime's priority-queue default: exponential 5 ms → 1000 s, no bucket.
[[nodiscard]] std::unique_ptr<RateLimiter> defaultPriorityQueueRateLimiter();
/// client-go's DefaultItemBasedRateLimiter: exponential 1 ms → 1000 s.
[[nodiscard]] std::unique_ptr<RateLimiter> defaultItemBasedRateLimiter();

} // namespace opbench
