// SPDX-License-Identifier: Apache-2.0
#include "engine/base/clock.h"
#include "engine/testing/fakeclock.h"

#include <QTest>

using namespace opbench;
using namespace std::chrono_literals;

class tst_Clock : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fakeClockRunsDueCallbacksInDeadlineOrder()
    {
        testing::FakeClock clock;
        QStringList fired;
        clock.callAfter(30ms, nullptr, [&] { fired << QStringLiteral("c"); });
        clock.callAfter(10ms, nullptr, [&] { fired << QStringLiteral("a"); });
        const quint64 cancelled = clock.callAfter(20ms, nullptr, [&] { fired << QStringLiteral("x"); });
        clock.callAfter(20ms, nullptr, [&] {
            fired << QStringLiteral("b");
            clock.callAfter(5ms, nullptr, [&] { fired << QStringLiteral("b+5"); }); // lands at 25 ms
        });
        clock.cancel(cancelled);
        clock.advance(9ms);
        QVERIFY(fired.isEmpty());
        clock.advance(21ms);
        QCOMPARE(
            fired, (QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("b+5"), QStringLiteral("c")}));
        QCOMPARE(clock.pending(), 0);
    }

    void fakeClockSkipsCallbacksWhoseContextDied()
    {
        testing::FakeClock clock;
        bool fired = false;
        {
            QObject context;
            clock.callAfter(1ms, &context, [&] { fired = true; });
        }
        clock.advance(5ms);
        QVERIFY(!fired);
    }

    void fakeWallClockMovesWithMonotonicTime()
    {
        testing::FakeClock clock;
        const QDateTime start = clock.wallNow();
        clock.advance(1500ms);
        QCOMPARE(start.msecsTo(clock.wallNow()), 1500);
    }

    void systemClockFiresNotBeforeTheDeadline()
    {
        QObject context;
        Clock *clock = Clock::system();
        const auto deadline = clock->now() + 20ms;
        Clock::TimePoint firedAt{};
        clock->callAt(deadline, &context, [&] { firedAt = clock->now(); });
        QTRY_VERIFY(firedAt != Clock::TimePoint{});
        QVERIFY(firedAt >= deadline);
    }
};

QTEST_GUILESS_MAIN(tst_Clock)
#include "tst_clock.moc"
