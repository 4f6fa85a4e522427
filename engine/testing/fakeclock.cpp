// SPDX-License-Identifier: Apache-2.0
#include "engine/testing/fakeclock.h"

#include <QPointer>

namespace opbench::testing {

struct FakeClock::Pending
{
    quint64 id;
    QPointer<QObject> context;
    bool hadContext;
    std::function<void()> fn;
};

FakeClock::FakeClock(QDateTime wallStart)
    : m_wallStart(std::move(wallStart))
{ }
FakeClock::~FakeClock() = default;

QDateTime FakeClock::wallNow() const
{
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(m_now.time_since_epoch());
    return m_wallStart.addMSecs(ms.count());
}

quint64 FakeClock::callAt(TimePoint at, QObject *context, std::function<void()> fn)
{
    const quint64 id = m_nextId++;
    m_pending.emplace(at, std::make_unique<Pending>(Pending{id, context, context != nullptr, std::move(fn)}));
    return id;
}

void FakeClock::cancel(quint64 id)
{
    for (auto it = m_pending.begin(); it != m_pending.end(); ++it) {
        if (it->second->id == id) {
            m_pending.erase(it);
            return;
        }
    }
}

void FakeClock::advance(Duration d)
{
    const TimePoint target = m_now + d;
    while (!m_pending.empty() && m_pending.begin()->first <= target) {
        auto node = m_pending.extract(m_pending.begin());
        if (node.key() > m_now)
            m_now = node.key();
        Pending &p = *node.mapped();
        if (p.hadContext && !p.context)
            continue;
        p.fn();
    }
    m_now = target;
}

int FakeClock::pending() const { return int(m_pending.size()); }

} // namespace opbench::testing
