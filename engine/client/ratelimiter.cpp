// SPDX-License-Identifier: Apache-2.0
#include "engine/client/ratelimiter.h"

#include <algorithm>

namespace opbench {

TokenBucket::TokenBucket(double qps, int burst, Clock *clock)
    : m_qps(qps)
    , m_burst(std::max(1, burst))
    , m_tokens(m_burst)
    , m_clock(clock)
    , m_last(clock->now())
{ }

Clock::Duration TokenBucket::reserve()
{
    const Clock::TimePoint now = m_clock->now();
    const double elapsed = std::chrono::duration<double>(now - m_last).count();
    m_last = now;
    m_tokens = std::min(m_burst, m_tokens + elapsed * m_qps);
    m_tokens -= 1.0;
    if (m_tokens >= 0)
        return Clock::Duration::zero();
    // Negative tokens are debts: the wait until this request's token has refilled.
    return std::chrono::duration_cast<Clock::Duration>(std::chrono::duration<double>(-m_tokens / m_qps));
}

} // namespace opbench
