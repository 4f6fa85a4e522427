// SPDX-License-Identifier: Apache-2.0
#include "engine/api/clock.h"

#include <QHash>
#include <QPointer>
#include <QTimer>

namespace opbench {

Clock *Clock::system()
{
    static SystemClock clock;
    return &clock;
}

struct SystemClock::Private
{
    quint64 nextId = 1;
    QHash<quint64, QPointer<QTimer>> timers;
};

SystemClock::SystemClock() : d(std::make_unique<Private>()) {}
SystemClock::~SystemClock() = default;

Clock::TimePoint SystemClock::now() const { return std::chrono::steady_clock::now(); }

QDateTime SystemClock::wallNow() const { return QDateTime::currentDateTimeUtc(); }

quint64 SystemClock::callAt(TimePoint at, QObject *context, std::function<void()> fn)
{
    const quint64 id = d->nextId++;
    auto delay = std::chrono::duration_cast<std::chrono::milliseconds>(at - now());
    if (delay.count() < 0)
        delay = std::chrono::milliseconds(0);
    // Round up so that a callback never runs before its deadline.
    if (std::chrono::steady_clock::now() + delay < at)
        delay += std::chrono::milliseconds(1);
    auto *timer = new QTimer(context);
    timer->setSingleShot(true);
    timer->setTimerType(Qt::PreciseTimer);
    QObject::connect(timer, &QTimer::timeout, timer, [this, id, timer, fn = std::move(fn)] {
        d->timers.remove(id);
        timer->deleteLater();
        fn();
    });
    d->timers.insert(id, timer);
    timer->start(delay);
    return id;
}

void SystemClock::cancel(quint64 id)
{
    if (auto timer = d->timers.take(id)) {
        timer->stop();
        timer->deleteLater();
    }
}

struct FakeClock::Pending
{
    quint64 id;
    QPointer<QObject> context;
    bool hadContext;
    std::function<void()> fn;
};

FakeClock::FakeClock(QDateTime wallStart) : m_wallStart(std::move(wallStart)) {}
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

} // namespace opbench
