// SPDX-License-Identifier: Apache-2.0
#include "engine/queue/ratelimiter.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace opbench {

using namespace std::chrono_literals;

ItemExponentialFailureRateLimiter::ItemExponentialFailureRateLimiter(Clock::Duration base, Clock::Duration max)
    : m_base(base)
    , m_max(max)
{ }

Clock::Duration ItemExponentialFailureRateLimiter::when(const QueueKey &key)
{
    int &failures = m_failures[key];
    const int exp = failures++;
    // Computed in floating point, like client-go, so a large exponent saturates instead of overflowing.
    const double backoff = double(m_base.count()) * std::pow(2.0, double(exp));
    if (backoff >= double(std::numeric_limits<Clock::Duration::rep>::max()))
        return m_max;
    const Clock::Duration d{Clock::Duration::rep(backoff)};
    return std::min(d, m_max);
}

void ItemExponentialFailureRateLimiter::forget(const QueueKey &key) { m_failures.remove(key); }

int ItemExponentialFailureRateLimiter::numRequeues(const QueueKey &key) const { return m_failures.value(key, 0); }

BucketRateLimiter::BucketRateLimiter(double qps, int burst, Clock *clock)
    : m_qps(qps)
    , m_burst(burst)
    , m_clock(clock ? clock : Clock::system())
    , m_tokens(burst)
    , m_last(m_clock->now())
{ }

Clock::Duration BucketRateLimiter::when(const QueueKey &)
{
    if (m_qps <= 0)
        return 0ns;
    const Clock::TimePoint now = m_clock->now();
    if (now > m_last) {
        const double elapsed = std::chrono::duration<double>(now - m_last).count();
        m_tokens = std::min(double(m_burst), m_tokens + elapsed * m_qps);
        m_last = now;
    }
    m_tokens -= 1.0;
    if (m_tokens >= 0)
        return 0ns;
    return Clock::Duration(Clock::Duration::rep(-m_tokens / m_qps * 1e9));
}

ItemFastSlowRateLimiter::ItemFastSlowRateLimiter(Clock::Duration fast, Clock::Duration slow, int maxFastAttempts)
    : m_fast(fast)
    , m_slow(slow)
    , m_maxFast(maxFastAttempts)
{ }

Clock::Duration ItemFastSlowRateLimiter::when(const QueueKey &key)
{
    const int attempts = ++m_attempts[key];
    return attempts <= m_maxFast ? m_fast : m_slow;
}

void ItemFastSlowRateLimiter::forget(const QueueKey &key) { m_attempts.remove(key); }

int ItemFastSlowRateLimiter::numRequeues(const QueueKey &key) const { return m_attempts.value(key, 0); }

MaxOfRateLimiter::MaxOfRateLimiter(std::vector<std::unique_ptr<RateLimiter>> limiters)
    : m_limiters(std::move(limiters))
{ }

Clock::Duration MaxOfRateLimiter::when(const QueueKey &key)
{
    Clock::Duration longest{0};
    for (const auto &l : m_limiters)
        longest = std::max(longest, l->when(key));
    return longest;
}

void MaxOfRateLimiter::forget(const QueueKey &key)
{
    for (const auto &l : m_limiters)
        l->forget(key);
}

int MaxOfRateLimiter::numRequeues(const QueueKey &key) const
{
    int most = 0;
    for (const auto &l : m_limiters)
        most = std::max(most, l->numRequeues(key));
    return most;
}

WithMaxWaitRateLimiter::WithMaxWaitRateLimiter(std::unique_ptr<RateLimiter> inner, Clock::Duration maxWait)
    : m_inner(std::move(inner))
    , m_maxWait(maxWait)
{ }

Clock::Duration WithMaxWaitRateLimiter::when(const QueueKey &key) { return std::min(m_inner->when(key), m_maxWait); }

std::unique_ptr<RateLimiter> defaultControllerRateLimiter(Clock *clock)
{
    std::vector<std::unique_ptr<RateLimiter>> parts;
    parts.push_back(std::make_unique<ItemExponentialFailureRateLimiter>(5ms, 1000s));
    parts.push_back(std::make_unique<BucketRateLimiter>(10.0, 100, clock));
    return std::make_unique<MaxOfRateLimiter>(std::move(parts));
}

std::unique_ptr<RateLimiter> defaultPriorityQueueRateLimiter()
{
    return std::make_unique<ItemExponentialFailureRateLimiter>(5ms, 1000s);
}

std::unique_ptr<RateLimiter> defaultItemBasedRateLimiter()
{
    return std::make_unique<ItemExponentialFailureRateLimiter>(1ms, 1000s);
}

} // namespace opbench
