// SPDX-License-Identifier: Apache-2.0
#pragma once
// Client-side token-bucket rate limiter (client-go's flowcontrol.NewTokenBucketRateLimiter):
// `qps` tokens per second refill a bucket of `burst`; each request takes one token and waits
// for it when the bucket is empty.

#include "engine/base/clock.h"

namespace opbench {

class TokenBucket
{
public:
    TokenBucket(double qps, int burst, Clock *clock);
    /// Takes a token and returns how long the caller must wait before using it (0 = now).
    Clock::Duration reserve();

private:
    double m_qps;
    double m_burst;
    double m_tokens;
    Clock *m_clock;
    Clock::TimePoint m_last;
};

} // namespace opbench
