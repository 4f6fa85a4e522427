// SPDX-License-Identifier: Apache-2.0
// EventRecorder against the embedded API server over HTTP: a new event is POSTed, an identical
// repeat PATCHes count and lastTimestamp (client-go's de-duplication), a different reason is a
// new Event, a deleted Event is POSTed again, and the spam filter drops beyond its burst.
#include "engine/api/event.h"
#include "engine/client/restclient.h"
#include "engine/manager/eventrecorder.h"
#include "engine/testing/fakeclock.h"
#include "tests/support/testapiserver.h"

#include <QTest>

using namespace opbench;
using namespace std::chrono_literals;

namespace {

const GroupVersionResource kEvents{QString(), QStringLiteral("v1"), QStringLiteral("events")};
const QString kNs = QStringLiteral("default");

Object involved(const QString &name)
{
    return Object::fromJson(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("example.com/v1alpha1")},
        {QStringLiteral("kind"), QStringLiteral("MyApplication")},
        {QStringLiteral("metadata"),
            QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), kNs},
                {QStringLiteral("uid"), QStringLiteral("uid-") + name}}}});
}

} // namespace

class TestEventRecorder : public QObject
{
    Q_OBJECT

private:
    testing::TestApiServer m_api;
    std::unique_ptr<RestClient> m_rest;

    /// The Events on the server whose involvedObject is `name`.
    QList<Event> eventsFor(const QString &name)
    {
        Expected<Object::List> all = QCoro::waitFor(m_rest->list(kEvents, kNs));
        QList<Event> out;
        if (!all)
            return out;
        for (const Object &o : all->items)
            if (Event(o).involvedObject().name == name)
                out << Event(o);
        return out;
    }
    Expected<Object> record(EventRecorder &r, const QString &name, const QString &reason, const QString &message,
        const QString &type = QStringLiteral("Normal"))
    {
        return QCoro::waitFor(r.record(involved(name), type, reason, message));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_api.start(), qPrintable(m_api.errorString()));
        Expected<RestConfig> cfg = loadConfig(m_api.kubeconfigPath());
        QVERIFY(cfg.ok());
        m_rest = std::make_unique<RestClient>(*cfg);
    }

    void shouldPostNewEventWithCountOne()
    {
        testing::FakeClock clock;
        EventRecorder r(m_rest.get(), QStringLiteral("myapplication-controller"), QStringLiteral("node-a"), &clock);
        Expected<Object> written
            = record(r, QStringLiteral("fresh"), QStringLiteral("Created"), QStringLiteral("Created Deployment fresh"));
        QVERIFY2(written.ok(), written.ok() ? "" : qPrintable(written.error().toString()));
        const QList<Event> events = eventsFor(QStringLiteral("fresh"));
        QCOMPARE(events.size(), 1);
        const Event &e = events.first();
        QVERIFY(e.name().startsWith(QLatin1String("fresh.")));
        QCOMPARE(e.count(), 1);
        QCOMPARE(e.reason(), QStringLiteral("Created"));
        QCOMPARE(e.message(), QStringLiteral("Created Deployment fresh"));
        QCOMPARE(e.type(), QStringLiteral("Normal"));
        QCOMPARE(e.sourceComponent(), QStringLiteral("myapplication-controller"));
        QCOMPARE(e.sourceHost(), QStringLiteral("node-a"));
        QCOMPARE(e.involvedObject().uid, QStringLiteral("uid-fresh"));
        QCOMPARE(e.involvedObject().kind, QStringLiteral("MyApplication"));
        QCOMPARE(e.firstTimestamp(), clock.wallNow());
        QCOMPARE(e.lastTimestamp(), clock.wallNow());
    }

    void shouldPatchCountAndLastTimestampForIdenticalEvent()
    {
        testing::FakeClock clock;
        EventRecorder r(m_rest.get(), QStringLiteral("c"), {}, &clock);
        const QDateTime first = clock.wallNow();
        QVERIFY(record(r, QStringLiteral("same"), QStringLiteral("Updated"), QStringLiteral("Updated Deployment same"))
                    .ok());
        clock.advance(5s);
        QVERIFY(record(r, QStringLiteral("same"), QStringLiteral("Updated"), QStringLiteral("Updated Deployment same"))
                    .ok());
        clock.advance(7s);
        Expected<Object> third
            = record(r, QStringLiteral("same"), QStringLiteral("Updated"), QStringLiteral("Updated Deployment same"));
        QVERIFY(third.ok());
        const QList<Event> events = eventsFor(QStringLiteral("same"));
        QCOMPARE(events.size(), 1); // one Event, patched twice
        QCOMPARE(events.first().count(), 3);
        QCOMPARE(events.first().firstTimestamp(), first);
        QCOMPARE(events.first().lastTimestamp(), first.addSecs(12));
        QCOMPARE(Event(*third).count(), 3);
    }

    void shouldCreateNewEventForDifferentReasonOrMessage()
    {
        testing::FakeClock clock; // the same instant: names must still differ
        EventRecorder r(m_rest.get(), QStringLiteral("c"), {}, &clock);
        QVERIFY(record(r, QStringLiteral("diff"), QStringLiteral("Created"), QStringLiteral("m")).ok());
        QVERIFY(record(r, QStringLiteral("diff"), QStringLiteral("Updated"), QStringLiteral("m")).ok());
        QVERIFY(record(r, QStringLiteral("diff"), QStringLiteral("Updated"), QStringLiteral("other message")).ok());
        QVERIFY(
            record(r, QStringLiteral("diff"), QStringLiteral("Updated"), QStringLiteral("m"), QStringLiteral("Warning"))
                .ok());
        const QList<Event> events = eventsFor(QStringLiteral("diff"));
        QCOMPARE(events.size(), 4);
        QSet<QString> names;
        for (const Event &e : events) {
            QCOMPARE(e.count(), 1);
            names.insert(e.name());
        }
        QCOMPARE(names.size(), 4);
    }

    void shouldPostAgainWhenThePatchedEventIsGone()
    {
        testing::FakeClock clock;
        EventRecorder r(m_rest.get(), QStringLiteral("c"), {}, &clock);
        Expected<Object> first = record(r, QStringLiteral("gone"), QStringLiteral("Created"), QStringLiteral("m"));
        QVERIFY(first.ok());
        QVERIFY(QCoro::waitFor(m_rest->remove(kEvents, kNs, first->name())).ok());
        clock.advance(1s);
        Expected<Object> again = record(r, QStringLiteral("gone"), QStringLiteral("Created"), QStringLiteral("m"));
        QVERIFY2(again.ok(), again.ok() ? "" : qPrintable(again.error().toString()));
        QVERIFY(again->name() != first->name());
        const QList<Event> events = eventsFor(QStringLiteral("gone"));
        QCOMPARE(events.size(), 1);
        QCOMPARE(events.first().count(), 1);
    }

    void shouldDropEventsBeyondTheSpamBurst()
    {
        testing::FakeClock clock;
        EventRecorder r(m_rest.get(), QStringLiteral("spammer"), {}, &clock);
        for (int i = 0; i < 25; ++i)
            QVERIFY(record(r, QStringLiteral("spam"), QStringLiteral("Tick"), QStringLiteral("tick %1").arg(i)).ok());
        Expected<Object> dropped = record(r, QStringLiteral("spam"), QStringLiteral("Tick"), QStringLiteral("tick 25"));
        QVERIFY(!dropped.ok());
        QVERIFY(isTooManyRequests(dropped.error()));
        QCOMPARE(r.droppedCount(), 1);
        // Another type has its own bucket; and one token comes back after 300 s.
        QVERIFY(
            record(r, QStringLiteral("spam"), QStringLiteral("Tick"), QStringLiteral("w"), QStringLiteral("Warning"))
                .ok());
        clock.advance(300s);
        QVERIFY(record(r, QStringLiteral("spam"), QStringLiteral("Tick"), QStringLiteral("tick 26")).ok());
        QVERIFY(!record(r, QStringLiteral("spam"), QStringLiteral("Tick"), QStringLiteral("tick 27")).ok());
        QCOMPARE(eventsFor(QStringLiteral("spam")).size(), 27);
    }
};

QTEST_GUILESS_MAIN(TestEventRecorder)
#include "tst_eventrecorder.moc"
