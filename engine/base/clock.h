// SPDX-License-Identifier: Apache-2.0
#pragma once
// Clock: the only source of time in the engine. Queue delays, backoff, leases and the API
// server's simulator read time and arm wake-ups through a Clock, so tests drive a FakeClock
// (engine/testing/fakeclock.h) and never sleep.

#include <QDateTime>

#include <chrono>
#include <functional>
#include <memory>

class QObject;

namespace opbench {

class Clock
{
public:
    using TimePoint = std::chrono::steady_clock::time_point;
    using Duration = std::chrono::nanoseconds;

    virtual ~Clock() = default;

    /// Monotonic time, for delays and expiry.
    [[nodiscard]] virtual TimePoint now() const = 0;
    /// Wall-clock time in UTC, for timestamps written into objects.
    [[nodiscard]] virtual QDateTime wallNow() const = 0;

    /// Calls `fn` once, on the thread of `context`, when now() >= `at`. Nothing is called after
    /// `context` is destroyed or after cancel(id). Returns an id (never 0).
    virtual quint64 callAt(TimePoint at, QObject *context, std::function<void()> fn) = 0;
    virtual void cancel(quint64 id) = 0;

    quint64 callAfter(Duration d, QObject *context, std::function<void()> fn)
    {
        return callAt(now() + d, context, std::move(fn));
    }

    /// The process-wide real clock (QTimer based).
    static Clock *system();
};

/// The real clock. One QTimer per pending callAt: callers that keep many deadlines (the
/// delaying queue) keep their own heap and arm one wake-up at a time.
class SystemClock final : public Clock
{
public:
    SystemClock();
    ~SystemClock() override;
    TimePoint now() const override;
    QDateTime wallNow() const override;
    quint64 callAt(TimePoint at, QObject *context, std::function<void()> fn) override;
    void cancel(quint64 id) override;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace opbench
