// SPDX-License-Identifier: Apache-2.0
#include "engine/base/clock.h"

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

SystemClock::SystemClock()
    : d(std::make_unique<Private>())
{ }
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

} // namespace opbench
