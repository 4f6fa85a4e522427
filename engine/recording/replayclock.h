// SPDX-License-Identifier: Apache-2.0
#pragma once
// ReplayClock: the Clock a replay injects: it reads what the recording says the clock read at
// each reconcile's start (set()), and never fires a callback (a replay runs no timers: requeues
// are compared, not waited for).

#include "engine/base/clock.h"

namespace opbench {

class ReplayClock final : public Clock
{
public:
    void set(TimePoint monotonic, QDateTime wall)
    {
        m_now = monotonic;
        m_wall = std::move(wall);
    }
    TimePoint now() const override { return m_now; }
    QDateTime wallNow() const override { return m_wall; }
    quint64 callAt(TimePoint at, QObject *context, std::function<void()> fn) override
    {
        Q_UNUSED(at);
        Q_UNUSED(context);
        Q_UNUSED(fn);
        return ++m_nextId;
    }
    void cancel(quint64 id) override { Q_UNUSED(id); }

private:
    TimePoint m_now{};
    QDateTime m_wall = QDateTime::fromMSecsSinceEpoch(0, Qt::UTC);
    quint64 m_nextId = 0;
};

} // namespace opbench
