// SPDX-License-Identifier: Apache-2.0
// The Guestbook operator against opbench's embedded API server over loopback HTTP: owned
// children created and restored, the registry entry written, and on deletion the finalizer
// cleans the registry (outside the owner tree) before the Guestbook goes.
#include "guestbook.h"
#include "guestbook_controller.h"
#include "operator.h"

#include <engine/api/configmap.h>
#include <engine/client/restconfig.h>
#include <engine/testing/testapiserver.h>

#include <QJsonArray>
#include <QTest>

using namespace opbench;

class tst_GuestbookController : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_api.start(), qPrintable(m_api.errorString()));
        Expected<void> installed;
        m_api.runOnServerThread(
            [&installed](apiserver::ApiServer &s) { installed = s.installCrd(guestbook::crdYaml()); });
        QVERIFY2(installed.ok(), qPrintable(installed.ok() ? QString() : installed.error().message()));
        Expected<RestConfig> config = loadConfig(m_api.kubeconfigPath());
        QVERIFY(config.ok());
        ManagerOptions options;
        options.restConfig = config.value();
        auto manager = Manager::create(options);
        QVERIFY(manager.ok());
        m_manager = std::move(manager.value());
        QVERIFY(registerCrds(m_manager->cache()->mapper(), {guestbook::crdYaml()}).ok());
        QVERIFY(guestbook::setupGuestbookController(m_manager.get()).ok());
        QVERIFY(QCoro::waitFor(m_manager->start()).ok());
    }

    void cleanupTestCase() { m_manager.reset(); }

    void shouldCreateChildrenRegisterAndReportReady()
    {
        guestbook::Guestbook book;
        book.meta().setName(QStringLiteral("party"));
        book.meta().setNamespace(QStringLiteral("default"));
        book.setTitle(QStringLiteral("Party guests"));
        book.setEntries({QStringLiteral("ada"), QStringLiteral("alan")});
        book.setPort(9090);
        auto created
            = QCoro::waitFor(m_manager->restClient()->create(books(), QStringLiteral("default"), book.toObject()));
        QVERIFY2(created.ok(), qPrintable(created.ok() ? QString() : created.error().message()));

        QTRY_COMPARE_WITH_TIMEOUT(
            configMap(QStringLiteral("party")).value(QStringLiteral("entries")), QStringLiteral("ada\nalan"), 15000);
        QTRY_COMPARE_WITH_TIMEOUT(servicePort(QStringLiteral("party")), 9090, 15000);
        QTRY_COMPARE_WITH_TIMEOUT(configMap(QStringLiteral("guestbook-registry")).value(QStringLiteral("party")),
            QStringLiteral("Party guests"), 15000);
        QTRY_COMPARE_WITH_TIMEOUT(phaseOf(QStringLiteral("party")), QStringLiteral("Ready"), 15000);
        const Object now = get(books(), QStringLiteral("party"));
        QVERIFY(now.finalizers().contains(guestbook::registryFinalizer()));
    }

    void shouldRestoreADeletedService()
    {
        auto removed = QCoro::waitFor(
            m_manager->restClient()->remove(services(), QStringLiteral("default"), QStringLiteral("party")));
        QVERIFY(removed.ok());
        QTRY_COMPARE_WITH_TIMEOUT(servicePort(QStringLiteral("party")), 9090, 15000);
    }

    void shouldCleanTheRegistryBeforeTheGuestbookGoes()
    {
        auto removed = QCoro::waitFor(
            m_manager->restClient()->remove(books(), QStringLiteral("default"), QStringLiteral("party")));
        QVERIFY(removed.ok());
        // The finalizer removed the registry entry, then let the deletion complete.
        QTRY_VERIFY_WITH_TIMEOUT(get(books(), QStringLiteral("party")).isNull(), 15000);
        QVERIFY(!configMap(QStringLiteral("guestbook-registry")).contains(QStringLiteral("party")));
    }

private:
    static GroupVersionResource books()
    {
        return {QStringLiteral("webapp.example.org"), QStringLiteral("v1"), QStringLiteral("guestbooks")};
    }
    static GroupVersionResource configMaps() { return {QString(), QStringLiteral("v1"), QStringLiteral("configmaps")}; }
    static GroupVersionResource services() { return {QString(), QStringLiteral("v1"), QStringLiteral("services")}; }
    Object get(const GroupVersionResource &gvr, const QString &name)
    {
        auto got = QCoro::waitFor(m_manager->restClient()->get(gvr, QStringLiteral("default"), name));
        return got ? got.value() : Object();
    }
    Labels configMap(const QString &name) { return ConfigMap(get(configMaps(), name)).data(); }
    int servicePort(const QString &name)
    {
        const Object svc = get(services(), name);
        return svc.isNull() ? 0
                            : svc.value({QLatin1String("spec"), QLatin1String("ports")})
                                  .toArray()
                                  .at(0)
                                  .toObject()
                                  .value(QLatin1String("port"))
                                  .toInt();
    }
    QString phaseOf(const QString &name) { return guestbook::Guestbook(get(books(), name)).phase(); }

    testing::TestApiServer m_api;
    std::unique_ptr<Manager> m_manager;
};

QTEST_GUILESS_MAIN(tst_GuestbookController)
#include "tst_guestbook_controller.moc"
