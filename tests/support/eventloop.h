// SPDX-License-Identifier: Apache-2.0
#pragma once
// drainEventLoop(): runs what is already queued on this thread's event loop — posted events,
// queued signals, zero-delay timers — and what that work queues in turn, for a bounded number of
// rounds, without waiting for anything new. For in-process tests on a FakeClock (no other
// thread or socket feeds the loop): after it, "nothing happened" is a fact about the code, not a
// guess about how long something takes (unlike QTest::qWait(N)). Header-only, so any test may
// include it whatever it links.

#include <QCoreApplication>
#include <QEventLoop>

namespace opbench::testing {

inline void drainEventLoop(int rounds = 20)
{
    for (int i = 0; i < rounds; ++i) {
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents(QEventLoop::AllEvents);
    }
}

} // namespace opbench::testing
