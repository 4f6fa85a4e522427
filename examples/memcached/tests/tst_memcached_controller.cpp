// SPDX-License-Identifier: Apache-2.0
// The Memcached operator against opbench's embedded API server over loopback HTTP: the
// Deployment as the tutorial builds it, conditions, a resize, and the finalizer's event.
#include "memcached_controller.h"

#include <opbench/testing.h>

#include <QTest>

using namespace opbench;
using namespace memcached;

class tst_MemcachedController : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY2(env.ok(), qPrintable(env.errorString())); }

    void shouldDeployMemcachedAsTheTutorialDoes()
    {
        make("cache", 2);
        QVERIFY(env.eventually([&] { return deployment("cache").replicas() == 2; }, "a Deployment of 2 replicas"));
        const Container c = deployment("cache").podTemplate().containers.value(0);
        QCOMPARE(c.command, QStringList({"memcached", "--memory-limit=64", "-o", "modern", "-v"}));
        QCOMPARE(c.ports.value(0).containerPort, 11211);
        QCOMPARE(c.securityContext->runAsUser, std::optional<qint64>(1001));
        QCOMPARE(c.securityContext->capabilities->drop, QStringList({"ALL"}));
        QCOMPARE(deployment("cache").podTemplate().securityContext->seccompProfile->type, QString("RuntimeDefault"));
        QVERIFY(env.eventually([&] { return available("cache"); }, "Available True"));
        QVERIFY(env.get<Memcached>(ObjectKey("default", "cache"))->hasFinalizer(kFinalizer));
    }

    void shouldFollowTheSize()
    {
        make("resize", 1);
        QVERIFY(env.eventually([&] { return deployment("resize").replicas() == 1; }, "1 replica"));
        // Read-modify-write, retried on a 409: the operator writes the object's status meanwhile.
        QVERIFY(env.eventually(
            [&] {
                Memcached cr = *env.get<Memcached>(ObjectKey("default", "resize"));
                cr.spec.size = 3;
                return env.update(cr);
            },
            "the new size written"));
        QVERIFY(env.eventually([&] { return deployment("resize").replicas() == 3; }, "3 replicas"));
    }

    void shouldRefuseASizeOutsideTheSchema()
    {
        Memcached cr("default", "too-big");
        cr.spec = {4, 11211};
        QVERIFY(!env.create(cr)); // maximum 3, from the types' markers
    }

    void shouldWarnAndReleaseOnDeletion()
    {
        Memcached cr = make("leaving", 1);
        QVERIFY(env.eventually([&] { return available("leaving"); }, "Available True"));
        QVERIFY(env.remove(cr));
        QVERIFY(env.eventually([&] { return gone<Memcached>("leaving"); }, "the deletion"));
        QVERIFY(env.eventually(
            [&] {
                const QList<Event> events = env.events(cr);
                return !events.isEmpty() && events.constLast().reason() == "Deleting";
            },
            "the Warning event Deleting"));
    }

private:
    template<class T> bool gone(const QString &name)
    {
        auto got = env.get<T>(ObjectKey("default", name));
        return !got && isNotFound(got.error());
    }
    Memcached make(const QString &name, int size)
    {
        Memcached cr("default", name);
        cr.spec = {size, 11211};
        if (!env.create(cr))
            qFatal("cannot create %s: %s", qPrintable(name), qPrintable(env.lastFailure()));
        return cr;
    }
    Deployment deployment(const QString &name)
    {
        auto d = env.get<Deployment>(ObjectKey("default", name));
        return d ? *d : Deployment();
    }
    bool available(const QString &name)
    {
        auto cr = env.get<Memcached>(ObjectKey("default", name));
        return cr && isStatusConditionTrue(cr->status.conditions, "Available");
    }

    testing::OperatorFixture env{definition()};
};

QTEST_GUILESS_MAIN(tst_MemcachedController)
#include "tst_memcached_controller.moc"
