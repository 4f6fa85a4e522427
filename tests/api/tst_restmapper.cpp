// SPDX-License-Identifier: Apache-2.0
#include "engine/api/restmapper.h"

#include <QTest>

using namespace opbench;

class tst_RestMapper : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldResolveWhatUsersType_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("group");
        QTest::addColumn<QString>("resource");
        QTest::newRow("plural") << "deployments"
                                << "apps"
                                << "deployments";
        QTest::newRow("singular") << "deployment"
                                  << "apps"
                                  << "deployments";
        QTest::newRow("short") << "deploy"
                               << "apps"
                               << "deployments";
        QTest::newRow("kind") << "Deployment"
                              << "apps"
                              << "deployments";
        QTest::newRow("qualified") << "deployments.apps"
                                   << "apps"
                                   << "deployments";
        QTest::newRow("versioned") << "deployments.v1.apps"
                                   << "apps"
                                   << "deployments";
        QTest::newRow("core preferred") << "events"
                                        << ""
                                        << "events";
        QTest::newRow("events.k8s.io") << "events.events.k8s.io"
                                       << "events.k8s.io"
                                       << "events";
        QTest::newRow("crd short") << "crd"
                                   << "apiextensions.k8s.io"
                                   << "customresourcedefinitions";
        QTest::newRow("custom") << "myapp"
                                << "example.com"
                                << "myapplications";
    }
    void shouldResolveWhatUsersType()
    {
        QFETCH(QString, input);
        QFETCH(QString, group);
        QFETCH(QString, resource);
        RestMapper m = RestMapper::withBuiltins();
        ResourceMapping custom;
        custom.gvr = {QStringLiteral("example.com"), QStringLiteral("v1alpha1"), QStringLiteral("myapplications")};
        custom.kind = QStringLiteral("MyApplication");
        custom.shortNames = {QStringLiteral("myapp")};
        m.add(custom);
        auto r = m.resolve(input);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message()));
        QCOMPARE(r->gvr.group, group);
        QCOMPARE(r->gvr.resource, resource);
    }

    void shouldFillDefaultsAndMapBothWays()
    {
        const RestMapper m = RestMapper::withBuiltins();
        auto lease = m.forKind({QStringLiteral("coordination.k8s.io"), QStringLiteral("v1"), QStringLiteral("Lease")});
        QVERIFY(lease);
        QCOMPARE(lease->gvr.resource, QStringLiteral("leases"));
        QCOMPARE(lease->listKind, QStringLiteral("LeaseList"));
        QCOMPARE(lease->singular, QStringLiteral("lease"));
        QVERIFY(lease->verbs.contains(QStringLiteral("watch")));
        auto ns = m.forResource({QString(), QStringLiteral("v1"), QStringLiteral("namespaces")});
        QVERIFY(ns);
        QVERIFY(!ns->namespaced);
        QCOMPARE(ns->gvr.basePath(), QStringLiteral("/api/v1"));
    }

    void unknownTypesAreNotFoundNamingTheInput()
    {
        auto r = RestMapper::withBuiltins().resolve(QStringLiteral("widgets"));
        QVERIFY(!r.ok());
        QVERIFY(isNotFound(r.error()));
        QVERIFY(r.error().message().contains(QLatin1String("\"widgets\"")));
    }

    void removeDropsCustomKinds()
    {
        RestMapper m;
        ResourceMapping custom;
        custom.gvr = {QStringLiteral("example.com"), QStringLiteral("v1alpha1"), QStringLiteral("myapplications")};
        custom.kind = QStringLiteral("MyApplication");
        m.add(custom);
        QVERIFY(m.remove(custom.gvr));
        QVERIFY(!m.forKind(custom.gvk()));
    }
};

QTEST_GUILESS_MAIN(tst_RestMapper)
#include "tst_restmapper.moc"
