// SPDX-License-Identifier: Apache-2.0
// Breakpoint specs (engine/controller/breakpoint.h): by key, by kind, on an object's condition,
// before a kind of client call, on error; enabled and disabled; which one hit.
#include "tests/controller/steppingfixture.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using namespace opbench;
using namespace opbench::test;

namespace {

Object phased(const char *name, const char *phase)
{
    QJsonObject o = configMap(QStringLiteral("ns"), QString::fromLatin1(name)).json();
    o.insert(QStringLiteral("status"),
        QJsonObject{{QStringLiteral("phase"), QString::fromLatin1(phase)},
            {QStringLiteral("conditions"),
                QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("Ready")},
                    {QStringLiteral("status"), QStringLiteral("False")}}}}});
    return Object::fromJson(o);
}

} // namespace

class tst_Breakpoints : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void shouldParseAConditionOrSayWhatIsWrong_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("described"); // empty: rejected
        QTest::newRow("equal") << "status.phase == Failed"
                               << "status.phase == Failed";
        QTest::newRow("not equal, quoted") << R"(status.phase != "Running")"
                                           << "status.phase != Running";
        QTest::newRow("list item") << "status.conditions[0].status==False"
                                   << "status.conditions[0].status == False";
        QTest::newRow("no operator") << "status.phase Failed"
                                     << "";
        QTest::newRow("other operator") << "spec.replicas > 2"
                                        << "";
    }
    void shouldParseAConditionOrSayWhatIsWrong()
    {
        QFETCH(QString, text);
        QFETCH(QString, described);
        const Expected<Breakpoint> b = Breakpoint::condition(text);
        QCOMPARE(b.ok(), !described.isEmpty());
        if (b.ok())
            QCOMPARE(b->describe(), described);
        else
            QVERIFY2(b.error().message().contains(text), qPrintable(b.error().message()));
    }

    void shouldParseWhatDescribeSays_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("described"); // empty: rejected
        QTest::newRow("key") << "key default/web"
                             << "key"
                             << "key default/web";
        QTest::newRow("kind") << "kind MyApplication"
                              << "kind"
                              << "kind MyApplication";
        QTest::newRow("error") << "on error"
                               << "error"
                               << "on error";
        QTest::newRow("write to a kind") << "before write Deployment"
                                         << "call"
                                         << "before write Deployment";
        QTest::newRow("any call of a key") << "before any call of ns/a"
                                           << "call"
                                           << "before any call of ns/a";
        QTest::newRow("verb, kind, key") << "before get ConfigMap of ns/a"
                                         << "call"
                                         << "before get ConfigMap of ns/a";
        QTest::newRow("condition") << "if status.phase == Failed"
                                   << "condition"
                                   << "status.phase == Failed";
        QTest::newRow("nonsense") << "stop somewhere"
                                  << ""
                                  << "";
        QTest::newRow("key without key") << "key"
                                         << ""
                                         << "";
    }
    void shouldParseWhatDescribeSays()
    {
        QFETCH(QString, text);
        QFETCH(QString, type);
        QFETCH(QString, described);
        const Expected<Breakpoint> b = Breakpoint::parse(text);
        QCOMPARE(b.ok(), !described.isEmpty());
        if (!b.ok()) {
            QVERIFY2(b.error().message().contains(text), qPrintable(b.error().message()));
            return;
        }
        QCOMPARE(Breakpoint::typeName(b->type), type);
        QCOMPARE(b->describe(), described);
        QCOMPARE(Breakpoint::parse(b->describe())->describe(), described);
    }

    void shouldReadValuesAtAPath()
    {
        const QJsonObject o = phased("a", "Failed").json();
        QCOMPARE(Breakpoint::valueAt(o, QStringLiteral("status.phase")), QStringLiteral("Failed"));
        QCOMPARE(Breakpoint::valueAt(o, QStringLiteral("status.conditions[0].status")), QStringLiteral("False"));
        QCOMPARE(Breakpoint::valueAt(o, QStringLiteral("metadata.generation")), QStringLiteral("1"));
        QCOMPARE(Breakpoint::valueAt(o, QStringLiteral("status.missing")), QString());
        QCOMPARE(Breakpoint::valueAt(o, QStringLiteral("status.conditions[7].status")), QString());
    }

    void shouldPauseBeforeAKindAndSayWhich()
    {
        // Given a breakpoint on the controller's kind (ConfigMap) and one on another kind
        SteppingFixture f(configMapGvk());
        const int other = f.ctrl->addBreakpoint(Breakpoint(Breakpoint::Type::Kind, QStringLiteral("Deployment")));
        const int mine = f.ctrl->addBreakpoint(Breakpoint(Breakpoint::Type::Kind, QStringLiteral("ConfigMap")));
        QVERIFY(other != mine);
        QSignalSpy hit(f.ctrl, &Controller::breakpointHit);
        // When an item comes
        f.add("a");
        // Then the controller pauses before taking it, naming the kind breakpoint
        QTRY_COMPARE(hit.size(), 1);
        QCOMPARE(hit.at(0).at(0).toString(), QStringLiteral("kind"));
        QCOMPARE(f.ctrl->lastBreakpointHit(), mine);
        QVERIFY(f.ctrl->isPaused());
        QCOMPARE(f.rec->requests.size(), 0);
        // And a disabled breakpoint stops nothing
        QVERIFY(f.ctrl->setBreakpointEnabled(mine, false));
        f.ctrl->resume();
        QTRY_COMPARE(f.rec->requests.size(), 1);
        f.add("b");
        QTRY_COMPARE(f.rec->requests.size(), 2);
        QCOMPARE(hit.size(), 1);
        QVERIFY(f.ctrl->removeBreakpoint(mine));
        QVERIFY(!f.ctrl->removeBreakpoint(mine));
        QCOMPARE(f.ctrl->breakpointList().size(), 1);
    }

    void shouldPauseOnAConditionOfTheCachedObject()
    {
        // Given the For informer holds a (Failed) and b (Running)
        SteppingFixture f;
        Informer *inf = f.readThrough({phased("a", "Failed"), phased("b", "Running")}, {});
        f.ctrl->setForInformer(inf);
        const int id = f.ctrl->addBreakpoint(*Breakpoint::condition(QStringLiteral("status.phase == Failed")));
        QSignalSpy hit(f.ctrl, &Controller::breakpointHit);
        f.ctrl->pause();
        f.add("b");
        f.add("a");
        // When the controller runs
        f.ctrl->resume();
        // Then b passes, and it pauses before a, whose phase is Failed
        QTRY_COMPARE(hit.size(), 1);
        QCOMPARE(hit.at(0).at(0).toString(), QStringLiteral("condition"));
        QCOMPARE(hit.at(0).at(1).toString(), QStringLiteral("ns/a"));
        QCOMPARE(f.ctrl->lastBreakpointHit(), id);
        QCOMPARE(f.rec->requests.size(), 1);
        QCOMPARE(f.rec->requests.at(0).name, QStringLiteral("b"));
    }

    void shouldHaltBeforeAMatchingCallOnly_data()
    {
        QTest::addColumn<QString>("verb");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<bool>("stops");
        QTest::newRow("get ConfigMap") << "get"
                                       << "ConfigMap" << true;
        QTest::newRow("any call") << ""
                                  << "" << true;
        QTest::newRow("any write") << "write"
                                   << "" << false;
        QTest::newRow("get Deployment") << "get"
                                        << "Deployment" << false;
    }
    void shouldHaltBeforeAMatchingCallOnly()
    {
        QFETCH(QString, verb);
        QFETCH(QString, kind);
        QFETCH(bool, stops);
        // Given a running controller whose reconciles read two ConfigMaps, watched by a debugger
        SteppingFixture f;
        f.readTwoConfigMaps();
        f.ctrl->setProgressObserved(true);
        const int id = f.ctrl->addBreakpoint(Breakpoint::beforeCall(verb, kind));
        QSignalSpy hit(f.ctrl, &Controller::breakpointHit);
        QSignalSpy pending(f.ctrl, &Controller::callPending);
        QSignalSpy progress(f.ctrl, &Controller::reconcileProgress);
        // When a reconcile runs (not stepped)
        f.add("a");
        if (!stops) {
            QTRY_COMPARE(f.rec->finishedKeys.size(), 1);
            QCOMPARE(hit.size(), 0);
            QVERIFY(!f.ctrl->isPaused());
            return;
        }
        // Then it halts before its first read, the controller pauses, the debugger sees it
        QTRY_COMPARE(pending.size(), 1);
        QCOMPARE(hit.size(), 1);
        QCOMPARE(hit.at(0).at(0).toString(), QStringLiteral("call"));
        QCOMPARE(hit.at(0).at(1).toString(), QStringLiteral("ns/a"));
        QVERIFY(!hit.at(0).at(2).toString().isEmpty());
        QCOMPARE(f.ctrl->lastBreakpointHit(), id);
        QVERIFY(f.ctrl->isPaused());
        QCOMPARE(pending.at(0).at(0).value<PendingCall>().key, QStringLiteral("ns/one"));
        QCOMPARE(progress.size(), 1);
        // And from there it is stepped into: the next call halts too
        f.ctrl->setBreakpointEnabled(id, false);
        QVERIFY(f.ctrl->continueCall());
        QTRY_COMPARE(pending.size(), 2);
        QVERIFY(f.ctrl->continueToEnd());
        QTRY_COMPARE(f.rec->finishedKeys.size(), 1);
    }

    void shouldPauseOnAnErrorBreakpointAndNotWhenDisabled()
    {
        SteppingFixture f;
        f.rec->script = [](const Request &) { return ReconcileOutcome::error(QStringLiteral("broken")); };
        const int id = f.ctrl->addBreakpoint(Breakpoint(Breakpoint::Type::Error, QString()));
        QVERIFY(!f.ctrl->breakOnError()); // the flag is the toolbar's, the breakpoint is separate
        QSignalSpy hit(f.ctrl, &Controller::breakpointHit);
        f.add("a");
        QTRY_COMPARE(hit.size(), 1);
        QCOMPARE(hit.at(0).at(0).toString(), QStringLiteral("error"));
        QVERIFY(f.ctrl->isPaused());
        f.ctrl->setBreakpointEnabled(id, false);
        f.add("b");
        f.ctrl->resume();
        QTRY_VERIFY(f.rec->finishedKeys.contains(QStringLiteral("ns/b")));
        QCOMPARE(hit.size(), 1);
    }

    void shouldKeepOneKeyBreakpointPerKey()
    {
        SteppingFixture f;
        const QueueKey k{QStringLiteral("ns"), QStringLiteral("a")};
        f.ctrl->addBreakpoint(k);
        f.ctrl->addBreakpoint(k);
        QCOMPARE(f.ctrl->breakpointList().size(), 1);
        QCOMPARE(f.ctrl->breakpointList().at(0).describe(), QStringLiteral("key ns/a"));
        f.ctrl->removeBreakpoint(k);
        QVERIFY(f.ctrl->breakpointList().isEmpty());
    }
};

QTEST_GUILESS_MAIN(tst_Breakpoints)
#include "tst_breakpoints.moc"
