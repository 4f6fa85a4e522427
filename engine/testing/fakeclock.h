// SPDX-License-Identifier: Apache-2.0
#pragma once
// FakeClock: the Clock that tests drive. Time moves only when the test calls advance(), so
// queue delays, backoff, leases and the API server's simulator are tested without sleeping.
//
//   opbench::testing::FakeClock clock;
//   queue.addAfter(key, 5s);            // queue built with &clock
//   clock.advance(5s);                  // the item is due now; no real time passed

#include "engine/base/clock.h"

#include <QDateTime>

#include <map>
#include <memory>

namespace opbench::testing {

/// A clock that moves only when told. advance() runs every due callback in deadline order
/// (callbacks scheduled by callbacks run too if they fall inside the advanced window).
class FakeClock final : public Clock
{
public:
    explicit FakeClock(QDateTime wallStart = QDateTime::fromSecsSinceEpoch(1'700'000'000, Qt::UTC));
    ~FakeClock() override;
    TimePoint now() const override { return m_now; }
    QDateTime wallNow() const override;
    quint64 callAt(TimePoint at, QObject *context, std::function<void()> fn) override;
    void cancel(quint64 id) override;

    void advance(Duration d);
    /// Number of callbacks still pending.
    [[nodiscard]] int pending() const;

private:
    struct Pending;
    TimePoint m_now{};
    QDateTime m_wallStart;
    quint64 m_nextId = 1;
    std::multimap<TimePoint, std::unique_ptr<Pending>> m_pending; // deadline -> callback
};

} // namespace opbench::testing
