// SPDX-License-Identifier: Apache-2.0
// The Guestbook operator against opbench's embedded API server over loopback HTTP: owned
// children created and restored, the registry entry written, and on deletion the finalizer
// cleans the registry (outside the owner tree) before the Guestbook goes. Each test uses its
// own Guestbook, so they pass in any order.
#include "guestbook_controller.h"
#include "operator.h"

#include <opbench/testing.h>

#include <QTest>

using namespace opbench;
using namespace guestbook;

class tst_GuestbookController : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY2(env.ok(), qPrintable(env.errorString())); }

    void shouldCreateChildrenRegisterAndReportReady()
    {
        Guestbook book = make("party", 9090);
        QVERIFY(env.eventually([&] { return configMap("party").value("entries") == "ada\nalan"; }, "the entries"));
        QVERIFY(env.eventually([&] { return servicePort("party") == 9090; }, "the Service on port 9090"));
        QVERIFY(env.eventually(
            [&] { return configMap(kRegistryName).value("party") == "Party guests"; }, "the registry entry"));
        QVERIFY(env.eventually([&] { return phase("party") == "Ready"; }, "phase Ready"));
        QVERIFY(env.get<Guestbook>(ObjectKey("default", "party"))->hasFinalizer(kRegistryFinalizer));
        QVERIFY(env.eventually([&] { return !env.events(book).isEmpty(); }, "a Ready event"));
        QCOMPARE(env.events(book).constLast().reason(), QString("Ready"));
    }

    void shouldRestoreADeletedService()
    {
        make("restore", 8081);
        QVERIFY(env.eventually([&] { return servicePort("restore") == 8081; }, "the Service"));
        QVERIFY(env.remove(Service("default", "restore")));
        QVERIFY(env.eventually([&] { return servicePort("restore") == 8081; }, "the Service restored"));
    }

    void shouldReachTheChildrenWhenTheSpecChanges()
    {
        make("change", 8082);
        QVERIFY(env.eventually([&] { return servicePort("change") == 8082; }, "the Service"));
        // Read-modify-write, retried on a 409: the operator writes the object's status meanwhile.
        QVERIFY(env.eventually(
            [&] {
                Guestbook book = *env.get<Guestbook>(ObjectKey("default", "change"));
                book.spec.port = 8083;
                return env.update(book);
            },
            "the new port written"));
        QVERIFY(env.eventually([&] { return servicePort("change") == 8083; }, "the Service on the new port"));
    }

    void shouldCleanTheRegistryBeforeTheGuestbookGoes()
    {
        Guestbook book = make("leaving", 8084);
        QVERIFY(env.eventually([&] { return configMap(kRegistryName).contains("leaving"); }, "the registry entry"));
        QVERIFY(env.remove(book));
        // The finalizer removed the registry entry, then let the deletion complete.
        QVERIFY(env.eventually([&] { return gone<Guestbook>("leaving"); }, "the deletion"));
        QVERIFY(!configMap(kRegistryName).contains("leaving"));
    }

private:
    template<class T> bool gone(const QString &name)
    {
        auto got = env.get<T>(ObjectKey("default", name));
        return !got && isNotFound(got.error());
    }
    Guestbook make(const QString &name, int port)
    {
        Guestbook book("default", name);
        book.spec = {"Party guests", {"ada", "alan"}, port};
        if (!env.create(book))
            qFatal("cannot create guestbook %s: %s", qPrintable(name), qPrintable(env.lastFailure()));
        return book;
    }
    Labels configMap(const QString &name)
    {
        auto cm = env.get<ConfigMap>(ObjectKey("default", name));
        return cm ? cm->data() : Labels();
    }
    int servicePort(const QString &name)
    {
        auto svc = env.get<Service>(ObjectKey("default", name));
        return svc && !svc->ports().isEmpty() ? svc->ports().constFirst().port : 0;
    }
    QString phase(const QString &name)
    {
        auto book = env.get<Guestbook>(ObjectKey("default", name));
        return book ? book->status.phase : QString();
    }

    testing::OperatorFixture env{definition()};
};

QTEST_GUILESS_MAIN(tst_GuestbookController)
#include "tst_guestbook_controller.moc"
