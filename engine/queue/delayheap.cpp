// SPDX-License-Identifier: Apache-2.0
#include "engine/queue/delayheap_p.h"

#include <algorithm>

namespace opbench::detail {

namespace {
// std::*_heap build a max-heap: "less" here means "later".
bool later(const DelayHeap::Node &a, const DelayHeap::Node &b) { return a.at != b.at ? a.at > b.at : a.seq > b.seq; }
} // namespace

void DelayHeap::push(Node n)
{
    m_nodes.push_back(n);
    std::push_heap(m_nodes.begin(), m_nodes.end(), later);
}

void DelayHeap::pop()
{
    std::pop_heap(m_nodes.begin(), m_nodes.end(), later);
    m_nodes.pop_back();
}

WakeUp::WakeUp(Clock *clock, QObject *context, std::function<void()> fn)
    : m_clock(clock)
    , m_context(context)
    , m_fn(std::move(fn))
{ }

WakeUp::~WakeUp() { cancel(); }

void WakeUp::armAt(Clock::TimePoint at)
{
    if (m_id != 0) {
        if (m_at <= at)
            return;
        m_clock->cancel(m_id);
    }
    m_at = at;
    m_id = m_clock->callAt(at, m_context, [this] {
        m_id = 0;
        m_fn();
    });
}

void WakeUp::cancel()
{
    if (m_id != 0) {
        m_clock->cancel(m_id);
        m_id = 0;
    }
}

} // namespace opbench::detail
