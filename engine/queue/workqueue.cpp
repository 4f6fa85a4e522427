// SPDX-License-Identifier: Apache-2.0
#include "engine/queue/workqueue.h"

#include "engine/base/metrics.h"
#include "engine/queue/priorityqueue.h"
#include "engine/queue/ratelimitingqueue.h"

#include <algorithm>

namespace opbench {

QString KeyState::stateName(State s)
{
    switch (s) {
    case State::Held:
        return QStringLiteral("Held");
    case State::Processing:
        return QStringLiteral("Processing");
    case State::Queued:
        return QStringLiteral("Queued");
    case State::Waiting:
        return QStringLiteral("Waiting");
    case State::Idle:
        return QStringLiteral("Idle");
    }
    return QString();
}

WorkQueue::WorkQueue(WorkQueueOptions &options, std::unique_ptr<RateLimiter> defaultLimiter, QObject *parent)
    : QObject(parent)
    , m_name(options.name)
    , m_clock(options.clock ? options.clock : Clock::system())
    , m_registry(options.metrics ? options.metrics : &MetricsRegistry::global())
    , m_limiter(options.rateLimiter ? std::move(options.rateLimiter) : std::move(defaultLimiter))
    , m_maxCauses(std::max(0, options.maxCausesPerKey))
{ }

WorkQueue::~WorkQueue() = default;

void WorkQueue::addListener(WorkQueueListener *listener)
{
    if (listener && std::find(m_listeners.begin(), m_listeners.end(), listener) == m_listeners.end())
        m_listeners.push_back(listener);
}

void WorkQueue::removeListener(WorkQueueListener *listener)
{
    m_listeners.erase(std::remove(m_listeners.begin(), m_listeners.end(), listener), m_listeners.end());
}

void WorkQueue::notifyChanged(const KeyState &state) const
{
    for (WorkQueueListener *l : m_listeners)
        l->keyChanged(state);
}

void WorkQueue::notifyRemoved(const QueueKey &key) const
{
    for (WorkQueueListener *l : m_listeners)
        l->keyRemoved(key);
}

std::unique_ptr<WorkQueue> makeWorkQueue(WorkQueue::Kind kind, WorkQueueOptions options, QObject *parent)
{
    if (kind == WorkQueue::Kind::Priority)
        return std::make_unique<PriorityQueue>(std::move(options), parent);
    return std::make_unique<RateLimitingQueue>(std::move(options), parent);
}

} // namespace opbench
