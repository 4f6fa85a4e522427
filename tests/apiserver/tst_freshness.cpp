// SPDX-License-Identifier: Apache-2.0
// Freshness waits for a resourceVersion newer than the store's (FakeClock: no sleeping): the wait
// ends as soon as the RV is committed, or with "too large" once the wait has passed; and the 504
// Status has the real server's shape.
#include "engine/apiserver/storage/freshness.h"
#include "engine/testing/fakeclock.h"

#include "engine/apiserver/storage/store.h"
#include "engine/base/clock.h"

#include <QJsonArray>
#include <QtTest>

using namespace opbench;
using namespace opbench::apiserver;
using namespace std::chrono_literals;

namespace {
const GroupVersionResource kNamespaces{QString(), QStringLiteral("v1"), QStringLiteral("namespaces")};

void createNamespace(Store &store, const QString &name)
{
    auto r = store.create(kNamespaces, QString(),
        QJsonObject{{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}}}, {});
    QVERIFY2(r, r ? "" : qPrintable(r.error().message()));
}
} // namespace

class TestFreshness : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldAnswerAtOnceWhenTheRvIsAlreadyThere()
    {
        testing::FakeClock clock;
        Store store(&clock);
        QObject context;
        std::optional<bool> result;
        whenFresh(&store, store.resourceVersion(), 3000ms, &context, [&](bool fresh) { result = fresh; });
        QCOMPARE(result, std::optional<bool>(true));
        QCOMPARE(clock.pending(), 0);
    }

    void shouldEndTheWaitWhenTheRvArrives()
    {
        testing::FakeClock clock;
        Store store(&clock);
        QObject context;
        const quint64 wanted = store.resourceVersion() + 2;
        QList<bool> results;
        whenFresh(&store, wanted, 3000ms, &context, [&](bool fresh) { results << fresh; });
        createNamespace(store, QStringLiteral("one"));
        QVERIFY(results.isEmpty()); // wanted is still ahead
        clock.advance(2999ms);
        QVERIFY(results.isEmpty());
        createNamespace(store, QStringLiteral("two"));
        QCOMPARE(results, QList<bool>{true});
        QCOMPARE(clock.pending(), 0); // the deadline was cancelled
        clock.advance(10s);
        createNamespace(store, QStringLiteral("three"));
        QCOMPARE(results, QList<bool>{true}); // exactly once
    }

    void shouldGiveUpAfterTheWait()
    {
        testing::FakeClock clock;
        Store store(&clock);
        QObject context;
        QList<bool> results;
        whenFresh(&store, store.resourceVersion() + 100, 3000ms, &context, [&](bool fresh) { results << fresh; });
        clock.advance(2999ms);
        QVERIFY(results.isEmpty());
        clock.advance(1ms);
        QCOMPARE(results, QList<bool>{false});
        createNamespace(store, QStringLiteral("late"));
        QCOMPARE(results, QList<bool>{false});
    }

    void shouldNotCallBackIntoADestroyedContext()
    {
        testing::FakeClock clock;
        Store store(&clock);
        bool called = false;
        {
            QObject context;
            whenFresh(&store, store.resourceVersion() + 1, 3000ms, &context, [&](bool) { called = true; });
        }
        createNamespace(store, QStringLiteral("after"));
        clock.advance(5s);
        QVERIFY(!called);
    }

    void shouldDescribeTooLargeLikeTheRealServer()
    {
        const Status s = tooLargeResourceVersion(120, 100);
        QCOMPARE(s.code(), 504);
        QCOMPARE(s.reason(), QStringLiteral("Timeout"));
        QCOMPARE(s.message(), QStringLiteral("Timeout: Too large resource version: 120, current: 100"));
        QCOMPARE(s.details().retryAfterSeconds, 1);
        QCOMPARE(s.details().causes.size(), 1);
        QCOMPARE(s.details().causes.first().reason, QStringLiteral("ResourceVersionTooLarge"));
        QCOMPARE(s.details().causes.first().message, QStringLiteral("Too large resource version"));
    }
};

QTEST_GUILESS_MAIN(TestFreshness)
#include "tst_freshness.moc"
