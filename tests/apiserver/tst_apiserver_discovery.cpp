// SPDX-License-Identifier: Apache-2.0
// Discovery, /version, health, OpenAPI and the generic HTTP errors of the embedded API server.
#include "tests/support/testhttp.h"

#include <QJsonArray>
#include <QtTest>

using namespace opbench::testing;

class TestApiServerDiscovery : public QObject
{
    Q_OBJECT
private:
    TestApiServer m_api;
    std::unique_ptr<TestHttp> m_http;

    static QJsonObject findResource(const QJsonObject &list, const QString &name)
    {
        for (const QJsonValue &v : list.value(QLatin1String("resources")).toArray())
            if (v.toObject().value(QLatin1String("name")).toString() == name)
                return v.toObject();
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_api.start(), qPrintable(m_api.errorString()));
        m_http = std::make_unique<TestHttp>(m_api);
    }

    void shouldListCoreVersions()
    {
        const HttpReply r = m_http->get(QStringLiteral("/api"));
        QCOMPARE(r.code, 200);
        QCOMPARE(r.json().value(QLatin1String("kind")).toString(), QStringLiteral("APIVersions"));
        QCOMPARE(r.json().value(QLatin1String("versions")).toArray(), QJsonArray{QStringLiteral("v1")});
        QVERIFY(!r.json().value(QLatin1String("serverAddressByClientCIDRs")).toArray().isEmpty());
    }

    void shouldListGroupsWithPreferredVersions()
    {
        const QJsonObject o = m_http->get(QStringLiteral("/apis")).json();
        QCOMPARE(o.value(QLatin1String("kind")).toString(), QStringLiteral("APIGroupList"));
        QStringList names;
        for (const QJsonValue &g : o.value(QLatin1String("groups")).toArray()) {
            names << g.toObject().value(QLatin1String("name")).toString();
            QVERIFY(g.toObject()
                        .value(QLatin1String("preferredVersion"))
                        .toObject()
                        .contains(QLatin1String("groupVersion")));
        }
        for (const char *g : {"apps", "coordination.k8s.io", "events.k8s.io", "apiextensions.k8s.io", "example.com"})
            QVERIFY2(names.contains(QLatin1String(g)), g);
        QCOMPARE(m_http->get(QStringLiteral("/apis/apps")).json().value(QLatin1String("kind")).toString(),
            QStringLiteral("APIGroup"));
    }

    void shouldDescribeResourcesWithoutNulls_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("resource");
        QTest::newRow("pods") << "/api/v1"
                              << "pods";
        QTest::newRow("deployments") << "/apis/apps/v1"
                                     << "deployments";
        QTest::newRow("myapplications") << "/apis/example.com/v1alpha1"
                                        << "myapplications";
        QTest::newRow("leases") << "/apis/coordination.k8s.io/v1"
                                << "leases";
    }
    void shouldDescribeResourcesWithoutNulls()
    {
        QFETCH(QString, path);
        QFETCH(QString, resource);
        const QJsonObject list = m_http->get(path).json();
        QCOMPARE(list.value(QLatin1String("kind")).toString(), QStringLiteral("APIResourceList"));
        for (const QJsonValue &v : list.value(QLatin1String("resources")).toArray()) {
            const QJsonObject e = v.toObject();
            for (const char *k : {"name", "singularName", "namespaced", "kind", "verbs"})
                QVERIFY2(e.contains(QLatin1String(k)) && !e.value(QLatin1String(k)).isNull(), k);
        }
        const QJsonObject e = findResource(list, resource);
        QVERIFY(!e.isEmpty());
        QVERIFY(e.value(QLatin1String("verbs")).toArray().contains(QStringLiteral("watch")));
    }

    void shouldAdvertiseSubresourcesShortNamesAndCategories()
    {
        const QJsonObject apps = m_http->get(QStringLiteral("/apis/apps/v1")).json();
        QCOMPARE(findResource(apps, QStringLiteral("deployments")).value(QLatin1String("shortNames")).toArray(),
            QJsonArray{QStringLiteral("deploy")});
        QCOMPARE(findResource(apps, QStringLiteral("deployments")).value(QLatin1String("categories")).toArray(),
            QJsonArray{QStringLiteral("all")});
        QCOMPARE(findResource(apps, QStringLiteral("deployments/scale")).value(QLatin1String("kind")).toString(),
            QStringLiteral("Scale"));
        QCOMPARE(findResource(apps, QStringLiteral("deployments/scale")).value(QLatin1String("group")).toString(),
            QStringLiteral("autoscaling"));
        const QJsonObject ex = m_http->get(QStringLiteral("/apis/example.com/v1alpha1")).json();
        QCOMPARE(findResource(ex, QStringLiteral("myapplications")).value(QLatin1String("shortNames")).toArray(),
            QJsonArray{QStringLiteral("myapp")});
        QVERIFY(!findResource(ex, QStringLiteral("myapplications/status")).isEmpty());
    }

    void shouldServeVersionAndHealth()
    {
        const QJsonObject v = m_http->get(QStringLiteral("/version")).json();
        for (const char *k : {"major", "minor", "gitVersion", "gitCommit", "gitTreeState", "buildDate", "goVersion",
                 "compiler", "platform"})
            QVERIFY2(v.value(QLatin1String(k)).isString(), k);
        for (const char *p : {"/healthz", "/livez", "/readyz"}) {
            const HttpReply r = m_http->get(QLatin1String(p));
            QCOMPARE(r.code, 200);
            QCOMPARE(r.body, QByteArray("ok"));
            QVERIFY(r.header("Content-Type").startsWith("text/plain"));
        }
        QVERIFY(m_http->get(QStringLiteral("/readyz?verbose")).body.contains("[+]ping ok"));
    }

    void shouldServeOpenApiV2()
    {
        const HttpReply r = m_http->call("GET", QStringLiteral("/openapi/v2"), {}, {},
            {{"Accept", "application/com.github.proto-openapi.spec.v2@v1.0+protobuf"}});
        QCOMPARE(r.code, 200);
        QCOMPARE(r.header("Content-Type"), QByteArray("application/com.github.proto-openapi.spec.v2.v1.0+protobuf"));
        QVERIFY(r.body.startsWith(QByteArray::fromHex("0a03322e30"))); // the rest: tst_apiserver_openapi, tst_openapiv2
    }

    void shouldAnswerUnknownPathsAndMethods()
    {
        const HttpReply unknown = m_http->get(QStringLiteral("/apis/nope.example/v1/things"));
        QCOMPARE(unknown.code, 404);
        QCOMPARE(unknown.json().value(QLatin1String("message")).toString(),
            QStringLiteral("the server could not find the requested resource"));
        QCOMPARE(unknown.json().value(QLatin1String("kind")).toString(), QStringLiteral("Status"));
        QCOMPARE(m_http->get(QStringLiteral("/nothing/here")).code, 404);
        QCOMPARE(m_http->call("POST", QStringLiteral("/api/v1/namespaces/default/configmaps/x"), "{}").code, 405);
        QCOMPARE(m_http->call("PUT", QStringLiteral("/version"), "{}").code, 405);
    }
};

QTEST_GUILESS_MAIN(TestApiServerDiscovery)
#include "tst_apiserver_discovery.moc"
