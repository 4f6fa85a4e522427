// SPDX-License-Identifier: Apache-2.0
// Tables over HTTP as `kubectl get` asks for them: the columns kubectl shows on a real cluster
// for Services, Events, CRDs, ConfigMaps, Secrets, Leases and Namespaces; a CRD's printer
// columns with a JSONPath filter; includeObject.
#include "tests/apiserver/apiserverfixture.h"

#include <QHostAddress>
#include <QJsonDocument>
#include <QRegularExpression>

#include <QJsonArray>
#include <QtTest>

using namespace opbench::testing;

namespace {

const QByteArray kTableAccept
    = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

QJsonObject obj(const char *json) { return QJsonDocument::fromJson(QByteArray(json)).object(); }

} // namespace

class TestApiServerTables : public QObject, private ApiServerFixture
{
    Q_OBJECT
private:
    QJsonObject table(const QString &path)
    {
        const HttpReply r = m_http.call("GET", path, {}, {}, {{"Accept", kTableAccept}});
        if (r.code != 200)
            qWarning("GET %s: %d %s", qPrintable(path), r.code, r.body.constData());
        return r.json();
    }
    static QStringList columns(const QJsonObject &t, bool wide = false)
    {
        QStringList out;
        for (const QJsonValue &c : t.value(QLatin1String("columnDefinitions")).toArray())
            if (wide || c.toObject().value(QLatin1String("priority")).toInt() == 0)
                out << c.toObject().value(QLatin1String("name")).toString();
        return out;
    }
    /// The row whose cell `nameCell` is `name`, as column name -> cell.
    static QJsonObject row(const QJsonObject &t, const QString &name, int nameCell = 0)
    {
        const QJsonArray cols = t.value(QLatin1String("columnDefinitions")).toArray();
        for (const QJsonValue &r : t.value(QLatin1String("rows")).toArray()) {
            const QJsonArray cells = r.toObject().value(QLatin1String("cells")).toArray();
            if (cells.at(nameCell).toString() != name)
                continue;
            QJsonObject out;
            for (qsizetype i = 0; i < cols.size(); ++i)
                out.insert(cols.at(i).toObject().value(QLatin1String("name")).toString(), cells.at(i));
            return out;
        }
        return {};
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_api.start(), qPrintable(m_api.errorString())); }

    void shouldPrintServicesLikeKubectl()
    {
        QCOMPARE(
            m_http
                .post(QStringLiteral("/api/v1/namespaces/default/services"),
                    obj(R"({"metadata":{"name":"web"},"spec":{"selector":{"app":"web"},"ports":[{"port":80,"targetPort":8080}]}})"))
                .code,
            201);
        QCOMPARE(
            m_http
                .post(QStringLiteral("/api/v1/namespaces/default/services"),
                    obj(R"({"metadata":{"name":"np"},"spec":{"type":"NodePort","ports":[{"port":443,"protocol":"TCP"},{"port":53,"protocol":"UDP"}]}})"))
                .code,
            201);
        QCOMPARE(m_http
                     .post(QStringLiteral("/api/v1/namespaces/default/services"),
                         obj(R"({"metadata":{"name":"lb"},"spec":{"type":"LoadBalancer","ports":[{"port":80}]}})"))
                     .code,
            201);
        const QJsonObject t = table(QStringLiteral("/api/v1/namespaces/default/services?limit=500"));
        QCOMPARE(columns(t), (QStringList{"Name", "Type", "Cluster-IP", "External-IP", "Port(s)", "Age"}));
        QCOMPARE(columns(t, true).last(), QStringLiteral("Selector"));
        const QJsonObject web = row(t, QStringLiteral("web"));
        QCOMPARE(web.value(QLatin1String("Type")).toString(), QStringLiteral("ClusterIP"));
        QVERIFY(!QHostAddress(web.value(QLatin1String("Cluster-IP")).toString()).isNull());
        QCOMPARE(web.value(QLatin1String("External-IP")).toString(), QStringLiteral("<none>"));
        QCOMPARE(web.value(QLatin1String("Port(s)")).toString(), QStringLiteral("80/TCP"));
        QCOMPARE(web.value(QLatin1String("Selector")).toString(), QStringLiteral("app=web"));
        const QJsonObject np = row(t, QStringLiteral("np"));
        QVERIFY2(QRegularExpression(QStringLiteral("^443:3\\d{4}/TCP,53:3\\d{4}/UDP$"))
                     .match(np.value(QLatin1String("Port(s)")).toString())
                     .hasMatch(),
            qPrintable(np.value(QLatin1String("Port(s)")).toString()));
        QCOMPARE(
            row(t, QStringLiteral("lb")).value(QLatin1String("External-IP")).toString(), QStringLiteral("<pending>"));
    }

    void shouldPrintEventsWithoutANameColumn()
    {
        QCOMPARE(
            m_http
                .post(QStringLiteral("/api/v1/namespaces/default/events"),
                    obj(R"({"metadata":{"name":"ev-t"},"involvedObject":{"kind":"Pod","name":"web-1","namespace":"default"},
                                     "reason":"Pulled","message":"pulled image ","type":"Normal","count":3,"source":{"component":"kubelet"}})"))
                .code,
            201);
        for (const QString &path : {QStringLiteral("/api/v1/namespaces/default/events"),
                 QStringLiteral("/apis/events.k8s.io/v1/namespaces/default/events")}) {
            const QJsonObject t = table(path);
            QCOMPARE(columns(t), (QStringList{"Last Seen", "Type", "Reason", "Object", "Message"}));
            const QJsonObject ev = row(t, QStringLiteral("Pulled"), 2);
            QCOMPARE(ev.value(QLatin1String("Object")).toString(), QStringLiteral("pod/web-1"));
            QCOMPARE(ev.value(QLatin1String("Message")).toString(), QStringLiteral("pulled image"));
            QCOMPARE(ev.value(QLatin1String("Name")).toString(), QStringLiteral("ev-t"));
            QCOMPARE(ev.value(QLatin1String("Count")).toInteger(), 3);
            QCOMPARE(ev.value(QLatin1String("Source")).toString(), QStringLiteral("kubelet"));
        }
    }

    void shouldPrintConfigMapsSecretsLeasesNamespacesAndCrds()
    {
        QCOMPARE(m_http
                     .post(QStringLiteral("/api/v1/namespaces/default/configmaps"),
                         obj(R"({"metadata":{"name":"cm-t"},"data":{"a":"1","b":"2"}})"))
                     .code,
            201);
        QCOMPARE(m_http
                     .post(QStringLiteral("/api/v1/namespaces/default/secrets"),
                         obj(R"({"metadata":{"name":"s-t"},"stringData":{"p":"x"}})"))
                     .code,
            201);
        QCOMPARE(m_http
                     .post(QStringLiteral("/apis/coordination.k8s.io/v1/namespaces/default/leases"),
                         obj(R"({"metadata":{"name":"l-t"},"spec":{"holderIdentity":"pod-a_123"}})"))
                     .code,
            201);
        QJsonObject t = table(QStringLiteral("/api/v1/namespaces/default/configmaps"));
        QCOMPARE(columns(t), (QStringList{"Name", "Data", "Age"}));
        QCOMPARE(row(t, QStringLiteral("cm-t")).value(QLatin1String("Data")).toInteger(), 2);
        t = table(QStringLiteral("/api/v1/namespaces/default/secrets"));
        QCOMPARE(columns(t), (QStringList{"Name", "Type", "Data", "Age"}));
        QCOMPARE(row(t, QStringLiteral("s-t")).value(QLatin1String("Type")).toString(), QStringLiteral("Opaque"));
        QCOMPARE(row(t, QStringLiteral("s-t")).value(QLatin1String("Data")).toInteger(), 1);
        t = table(QStringLiteral("/apis/coordination.k8s.io/v1/namespaces/default/leases"));
        QCOMPARE(columns(t), (QStringList{"Name", "Holder", "Age"}));
        QCOMPARE(row(t, QStringLiteral("l-t")).value(QLatin1String("Holder")).toString(), QStringLiteral("pod-a_123"));
        t = table(QStringLiteral("/api/v1/namespaces/default"));
        QCOMPARE(columns(t), (QStringList{"Name", "Status", "Age"}));
        QCOMPARE(row(t, QStringLiteral("default")).value(QLatin1String("Status")).toString(), QStringLiteral("Active"));
        t = table(QStringLiteral("/apis/apiextensions.k8s.io/v1/customresourcedefinitions"));
        QCOMPARE(columns(t), (QStringList{"Name", "Created At"}));
        QVERIFY(row(t, QStringLiteral("myapplications.example.com"))
                    .value(QLatin1String("Created At"))
                    .toString()
                    .endsWith(u'Z'));
        t = table(QStringLiteral("/apis/apps/v1/namespaces/default/replicasets"));
        QCOMPARE(columns(t), (QStringList{"Name", "Desired", "Current", "Ready", "Age"}));
        QCOMPARE(columns(t, true).mid(5), (QStringList{"Containers", "Images", "Selector"}));
        t = table(QStringLiteral("/api/v1/namespaces/default/pods"));
        QCOMPARE(columns(t), (QStringList{"Name", "Ready", "Status", "Restarts", "Age"}));
        QCOMPARE(columns(t, true).mid(5), (QStringList{"IP", "Node", "Nominated Node", "Readiness Gates"}));
    }

    void shouldUsePrinterColumnsWithFilters()
    {
        const QJsonObject crd = obj(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
            "metadata":{"name":"widgets.tables.test"},
            "spec":{"group":"tables.test","scope":"Namespaced","names":{"plural":"widgets","singular":"widget","kind":"Widget"},
              "versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},
                "additionalPrinterColumns":[
                  {"name":"Ready","type":"string","jsonPath":".status.conditions[?(@.type=='Ready')].status"},
                  {"name":"Sizes","type":"integer","jsonPath":".spec.sizes[1]"},
                  {"name":"Missing","type":"string","jsonPath":".spec.nothing"}],
                "schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}})");
        QCOMPARE(m_http.post(QStringLiteral("/apis/apiextensions.k8s.io/v1/customresourcedefinitions"), crd).code, 201);
        const QString base = QStringLiteral("/apis/tables.test/v1/namespaces/default/widgets");
        HttpReply created;
        // The CRD is served once established (qWaitFor: the POST must run once per try).
        QVERIFY(QTest::qWaitFor(
            [&] {
                created = m_http.post(base, obj(R"({"metadata":{"name":"w1"},"spec":{"sizes":[1,7]}})"));
                return created.code != 404;
            },
            10000));
        QCOMPARE(created.code, 201);
        QJsonObject w = created.json();
        w.insert(QStringLiteral("status"),
            obj(R"({"conditions":[{"type":"Synced","status":"False"},{"type":"Ready","status":"True"}]})"));
        QCOMPARE(m_http.put(base + QStringLiteral("/w1/status"), w).code, 200);
        const QJsonObject t = table(base);
        QCOMPARE(columns(t), (QStringList{"Name", "Ready", "Sizes", "Missing"})); // no Age: the CRD defines columns
        const QJsonObject r = row(t, QStringLiteral("w1"));
        QCOMPARE(r.value(QLatin1String("Ready")).toString(), QStringLiteral("True"));
        QCOMPARE(r.value(QLatin1String("Sizes")).toInteger(), 7);
        QVERIFY(r.value(QLatin1String("Missing")).isNull());
    }

    void shouldHonourIncludeObject()
    {
        const QString path = QStringLiteral("/api/v1/namespaces/default/configmaps");
        QJsonObject first = table(path + QStringLiteral("?includeObject=Object"))
                                .value(QLatin1String("rows"))
                                .toArray()
                                .first()
                                .toObject();
        QCOMPARE(first.value(QLatin1String("object")).toObject().value(QLatin1String("kind")).toString(),
            QStringLiteral("ConfigMap"));
        QVERIFY(first.value(QLatin1String("object")).toObject().contains(QLatin1String("data")));
        first = table(path).value(QLatin1String("rows")).toArray().first().toObject();
        QCOMPARE(first.value(QLatin1String("object")).toObject().value(QLatin1String("kind")).toString(),
            QStringLiteral("PartialObjectMetadata"));
        first = table(path + QStringLiteral("?includeObject=None"))
                    .value(QLatin1String("rows"))
                    .toArray()
                    .first()
                    .toObject();
        QVERIFY(!first.contains(QLatin1String("object")));
        QCOMPARE(
            m_http.call("GET", path + QStringLiteral("?includeObject=All"), {}, {}, {{"Accept", kTableAccept}}).code,
            400);
    }
};

QTEST_GUILESS_MAIN(TestApiServerTables)
#include "tst_apiserver_tables.moc"
