// SPDX-License-Identifier: Apache-2.0
// Create / get / update against the embedded API server: RV rules, generation, no-op writes,
// validation messages, dryRun, body errors.
#include "tests/apiserver/apiserverfixture.h"

#include <QFile>
#include <QJsonArray>
#include <QtTest>

using namespace opbench::testing;

namespace {
const QString kCms = QStringLiteral("/api/v1/namespaces/default/configmaps");
const QString kApps = QStringLiteral("/apis/example.com/v1alpha1/namespaces/default/myapplications");

QJsonObject configMap(const QString &name, const QJsonObject &data = {})
{
    return QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}}, {QStringLiteral("data"), data}};
}

QJsonObject myApp(const QString &name, const QString &image, int replicas)
{
    return QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("example.com/v1alpha1")},
        {QStringLiteral("kind"), QStringLiteral("MyApplication")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}},
        {QStringLiteral("spec"),
            QJsonObject{{QStringLiteral("image"), image}, {QStringLiteral("replicas"), replicas}}}};
}

QJsonObject meta(const QJsonObject &o) { return o.value(QLatin1String("metadata")).toObject(); }
quint64 rvOf(const QJsonObject &o) { return meta(o).value(QLatin1String("resourceVersion")).toString().toULongLong(); }
} // namespace

class TestApiServerCrud : public QObject, private ApiServerFixture
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_api.start(), qPrintable(m_api.errorString())); }

    void shouldCreateWithServerFields()
    {
        const HttpReply r = m_http.post(kCms, configMap(QStringLiteral("created")));
        QCOMPARE(r.code, 201);
        const QJsonObject m = meta(r.json());
        QCOMPARE(m.value(QLatin1String("uid")).toString().size(), 36);
        QVERIFY(m.value(QLatin1String("creationTimestamp")).toString().endsWith(u'Z'));
        QCOMPARE(m.value(QLatin1String("namespace")).toString(), QStringLiteral("default"));
        QVERIFY(rvOf(r.json()) > 0);
        QCOMPARE(m_http.get(kCms + QStringLiteral("/created")).json(), r.json());
    }

    void shouldRefuseDuplicatesWithAlreadyExists()
    {
        QCOMPARE(m_http.post(kCms, configMap(QStringLiteral("dup"))).code, 201);
        const HttpReply r = m_http.post(kCms, configMap(QStringLiteral("dup")));
        QCOMPARE(r.code, 409);
        QCOMPARE(r.json().value(QLatin1String("reason")).toString(), QStringLiteral("AlreadyExists"));
        QCOMPARE(
            r.json().value(QLatin1String("message")).toString(), QStringLiteral("configmaps \"dup\" already exists"));
    }

    void shouldGenerateNames()
    {
        QJsonObject cm = configMap(QString());
        cm.insert(QStringLiteral("metadata"), QJsonObject{{QStringLiteral("generateName"), QStringLiteral("gen-")}});
        const HttpReply r = m_http.post(kCms, cm);
        QCOMPARE(r.code, 201);
        const QString name = meta(r.json()).value(QLatin1String("name")).toString();
        QVERIFY(name.startsWith(QLatin1String("gen-")));
        QCOMPARE(name.size(), 9);
    }

    void shouldCheckNamespaces()
    {
        const HttpReply missing
            = m_http.post(QStringLiteral("/api/v1/namespaces/nope/configmaps"), configMap(QStringLiteral("x")));
        QCOMPARE(missing.code, 404);
        QCOMPARE(
            missing.json().value(QLatin1String("message")).toString(), QStringLiteral("namespaces \"nope\" not found"));
        QJsonObject cm = configMap(QStringLiteral("y"));
        cm.insert(QStringLiteral("metadata"),
            QJsonObject{{QStringLiteral("name"), QStringLiteral("y")},
                {QStringLiteral("namespace"), QStringLiteral("kube-system")}});
        QCOMPARE(m_http.post(kCms, cm).code, 400);
    }

    void shouldValidateNamesWithTheRealMessage()
    {
        const HttpReply r = m_http.post(kCms, configMap(QStringLiteral("Bad_Name")));
        QCOMPARE(r.code, 422);
        QVERIFY(r.json()
                    .value(QLatin1String("message"))
                    .toString()
                    .startsWith(QLatin1String("ConfigMap \"Bad_Name\" is invalid: metadata.name: Invalid value: "
                                              "\"Bad_Name\": a lowercase RFC 1123 subdomain")));
        QJsonObject noName = configMap(QString());
        const HttpReply r2 = m_http.post(kCms, noName);
        QCOMPARE(r2.code, 422);
        QVERIFY(r2.json()
                    .value(QLatin1String("message"))
                    .toString()
                    .contains(QLatin1String("name or generateName is required")));
    }

    void shouldUseOneGlobalIncreasingResourceVersion()
    {
        const quint64 a = rvOf(m_http.post(kCms, configMap(QStringLiteral("rv-a"))).json());
        const quint64 b = rvOf(m_http
                                   .post(QStringLiteral("/api/v1/namespaces/default/secrets"),
                                       QJsonObject{{QStringLiteral("metadata"),
                                           QJsonObject{{QStringLiteral("name"), QStringLiteral("rv-b")}}}})
                                   .json());
        const quint64 c = rvOf(m_http.post(kApps, myApp(QStringLiteral("rv-c"), QStringLiteral("nginx"), 1)).json());
        QVERIFY(a < b && b < c);
        const quint64 listRv = m_http.get(kCms)
                                   .json()
                                   .value(QLatin1String("metadata"))
                                   .toObject()
                                   .value(QLatin1String("resourceVersion"))
                                   .toString()
                                   .toULongLong();
        QCOMPARE(listRv, c);
    }

    void shouldRejectStaleUpdatesWithConflict()
    {
        QJsonObject cm = m_http.post(kCms, configMap(QStringLiteral("stale"))).json();
        QJsonObject next = cm;
        next.insert(QStringLiteral("data"), QJsonObject{{QStringLiteral("k"), QStringLiteral("1")}});
        QCOMPARE(m_http.put(kCms + QStringLiteral("/stale"), next).code, 200);
        next.insert(QStringLiteral("data"), QJsonObject{{QStringLiteral("k"), QStringLiteral("2")}});
        const HttpReply r = m_http.put(kCms + QStringLiteral("/stale"), next); // still the old RV
        QCOMPARE(r.code, 409);
        QCOMPARE(r.json().value(QLatin1String("message")).toString(),
            QStringLiteral(
                "Operation cannot be fulfilled on configmaps \"stale\": the object has been modified; please apply "
                "your changes to the latest version and try again"));
    }

    void shouldRequireResourceVersionForCustomResourceUpdates()
    {
        QJsonObject app = m_http.post(kApps, myApp(QStringLiteral("norv"), QStringLiteral("nginx"), 1)).json();
        QJsonObject m = meta(app);
        m.remove(QStringLiteral("resourceVersion"));
        app.insert(QStringLiteral("metadata"), m);
        const HttpReply r = m_http.put(kApps + QStringLiteral("/norv"), app);
        QCOMPARE(r.code, 422);
        QCOMPARE(r.json().value(QLatin1String("message")).toString(),
            QStringLiteral("MyApplication.example.com \"norv\" is invalid: metadata.resourceVersion: Invalid value: "
                           "0x0: must be specified for an update"));
    }

    void shouldKeepNoOpWritesInvisible()
    {
        const QJsonObject cm
            = m_http.post(kCms, configMap(QStringLiteral("noop"), {{QStringLiteral("a"), QStringLiteral("b")}})).json();
        const HttpReply r = m_http.put(kCms + QStringLiteral("/noop"), cm);
        QCOMPARE(r.code, 200);
        QCOMPARE(rvOf(r.json()), rvOf(cm));
        const HttpReply p = m_http.call(
            "PATCH", kCms + QStringLiteral("/noop"), R"({"data":{"a":"b"}})", "application/merge-patch+json");
        QCOMPARE(p.code, 200);
        QCOMPARE(rvOf(p.json()), rvOf(cm));
    }

    void shouldBumpGenerationOnSpecChangesOnly()
    {
        QJsonObject app = m_http.post(kApps, myApp(QStringLiteral("gen"), QStringLiteral("nginx"), 1)).json();
        QCOMPARE(meta(app).value(QLatin1String("generation")).toInt(), 1);
        QJsonObject labelled = app;
        QJsonObject m = meta(app);
        m.insert(QStringLiteral("labels"), QJsonObject{{QStringLiteral("x"), QStringLiteral("y")}});
        labelled.insert(QStringLiteral("metadata"), m);
        app = m_http.put(kApps + QStringLiteral("/gen"), labelled).json();
        QCOMPARE(meta(app).value(QLatin1String("generation")).toInt(), 1);
        app.insert(QStringLiteral("status"), QJsonObject{{QStringLiteral("phase"), QStringLiteral("Running")}});
        app = m_http.put(kApps + QStringLiteral("/gen"), app).json();
        QCOMPARE(meta(app).value(QLatin1String("generation")).toInt(), 1);
        QVERIFY(!app.contains(QLatin1String("status"))); // the main endpoint ignores status
        QJsonObject spec = app.value(QLatin1String("spec")).toObject();
        spec.insert(QStringLiteral("replicas"), 3);
        app.insert(QStringLiteral("spec"), spec);
        app = m_http.put(kApps + QStringLiteral("/gen"), app).json();
        QCOMPARE(meta(app).value(QLatin1String("generation")).toInt(), 2);
    }

    void shouldNotStoreDryRunWrites()
    {
        const quint64 before = rvOf(m_http.get(kCms).json());
        const HttpReply r = m_http.post(kCms + QStringLiteral("?dryRun=All"), configMap(QStringLiteral("dry")));
        QCOMPARE(r.code, 201);
        QCOMPARE(m_http.get(kCms + QStringLiteral("/dry")).code, 404);
        QCOMPARE(rvOf(m_http.get(kCms).json()), before);
        QCOMPARE(m_http.post(kCms + QStringLiteral("?dryRun=Some"), configMap(QStringLiteral("dry"))).code, 400);
    }

    void shouldRejectBadBodies_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("contentType");
        QTest::addColumn<int>("code");
        QTest::newRow("malformed json") << QByteArray("{\"metadata\": ") << QByteArray("application/json") << 400;
        QTest::newRow("not an object") << QByteArray("[1,2]") << QByteArray("application/json") << 400;
        QTest::newRow("malformed yaml") << QByteArray("metadata: [unclosed") << QByteArray("application/yaml") << 400;
        QTest::newRow("wrong content type") << QByteArray("<xml/>") << QByteArray("application/xml") << 415;
        QTest::newRow("too large") << QByteArray(3 * 1024 * 1024 + 10, 'x') << QByteArray("application/json") << 413;
    }
    void shouldRejectBadBodies()
    {
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, contentType);
        QFETCH(int, code);
        const qsizetype before = m_http.get(kCms).json().value(QLatin1String("items")).toArray().size();
        const HttpReply r = m_http.call("POST", kCms, body, contentType);
        QCOMPARE(r.code, code);
        QVERIFY(!r.json().value(QLatin1String("message")).toString().isEmpty());
        QCOMPARE(m_http.get(kCms).json().value(QLatin1String("items")).toArray().size(), before);
    }

    void shouldAcceptYamlBodies()
    {
        const HttpReply r = m_http.call("POST", kCms,
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  n: \"1\"\n", "application/yaml");
        QCOMPARE(r.code, 201);
        QCOMPARE(
            r.json().value(QLatin1String("data")).toObject().value(QLatin1String("n")).toString(), QStringLiteral("1"));
    }

    void shouldAcceptKubernetesProtobufBodies()
    {
        // kubectl 1.33 `create deployment web --image=nginx:1.25 --port=80 --replicas=2`, as sent.
        QFile f(QStringLiteral(OPBENCH_SOURCE_DIR "/tests/data/apiserver/protobuf/kubectl133-deployment.pb"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString path = QStringLiteral(
            "/apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-create&fieldValidation=Strict");
        const HttpReply r = m_http.call("POST", path, f.readAll(), "application/vnd.kubernetes.protobuf",
            {{"Accept", "application/vnd.kubernetes.protobuf,application/json"}});
        QCOMPARE(r.code, 201);
        QCOMPARE(r.header("Content-Type"), QByteArray("application/json")); // JSON is acceptable to the client
        const QJsonObject spec = m_http.get(QStringLiteral("/apis/apps/v1/namespaces/default/deployments/web"))
                                     .json()
                                     .value(QLatin1String("spec"))
                                     .toObject();
        QCOMPARE(spec.value(QLatin1String("replicas")).toInt(), 2);
        const QJsonObject c = spec.value(QLatin1String("template"))
                                  .toObject()
                                  .value(QLatin1String("spec"))
                                  .toObject()
                                  .value(QLatin1String("containers"))
                                  .toArray()
                                  .first()
                                  .toObject();
        QCOMPARE(c.value(QLatin1String("image")).toString(), QStringLiteral("nginx:1.25"));
        QCOMPARE(
            c.value(QLatin1String("ports")).toArray().first().toObject().value(QLatin1String("containerPort")).toInt(),
            80);
        // A kind the decoder has no table for: 415 naming it, nothing stored.
        const QByteArray service
            = QByteArray("k8s\0", 4) + QByteArray::fromHex("0a0d0a02763112075365727669636512070a050a03737663");
        const HttpReply refused = m_http.call("POST", QStringLiteral("/api/v1/namespaces/default/configmaps"), service,
            "application/vnd.kubernetes.protobuf");
        QCOMPARE(refused.code, 415);
        QVERIFY2(refused.json().value(QLatin1String("message")).toString().contains(QLatin1String("v1 Service")),
            refused.body.constData());
    }

    void shouldDefaultSecretTypeAndMergeStringData()
    {
        const QJsonObject secret{
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("sd")}}},
            {QStringLiteral("data"), QJsonObject{{QStringLiteral("a"), QStringLiteral("eA==")}}},
            {QStringLiteral("stringData"), QJsonObject{{QStringLiteral("b"), QStringLiteral("hello")}}}};
        const HttpReply r = m_http.post(QStringLiteral("/api/v1/namespaces/default/secrets"), secret);
        QCOMPARE(r.code, 201);
        const QJsonObject got = m_http.get(QStringLiteral("/api/v1/namespaces/default/secrets/sd")).json();
        QCOMPARE(got.value(QLatin1String("type")).toString(), QStringLiteral("Opaque"));
        QCOMPARE(got.value(QLatin1String("data")).toObject(),
            (QJsonObject{
                {QStringLiteral("a"), QStringLiteral("eA==")}, {QStringLiteral("b"), QStringLiteral("aGVsbG8=")}}));
        QVERIFY(!got.contains(QLatin1String("stringData")));
    }

    void shouldShareEventStorageBetweenApiGroups()
    {
        const QJsonObject ev{{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("ev1")}}},
            {QStringLiteral("eventTime"), QStringLiteral("2024-05-01T10:00:00.000000Z")},
            {QStringLiteral("reportingController"), QStringLiteral("opbench")},
            {QStringLiteral("reportingInstance"), QStringLiteral("i")},
            {QStringLiteral("action"), QStringLiteral("Sync")}, {QStringLiteral("reason"), QStringLiteral("Synced")},
            {QStringLiteral("note"), QStringLiteral("hello")}, {QStringLiteral("type"), QStringLiteral("Normal")},
            {QStringLiteral("regarding"),
                QJsonObject{
                    {QStringLiteral("kind"), QStringLiteral("Pod")}, {QStringLiteral("name"), QStringLiteral("p")}}}};
        QCOMPARE(m_http.post(QStringLiteral("/apis/events.k8s.io/v1/namespaces/default/events"), ev).code, 201);
        const QJsonObject core = m_http.get(QStringLiteral("/api/v1/namespaces/default/events/ev1")).json();
        QCOMPARE(core.value(QLatin1String("apiVersion")).toString(), QStringLiteral("v1"));
        QCOMPARE(core.value(QLatin1String("message")).toString(), QStringLiteral("hello"));
        QCOMPARE(core.value(QLatin1String("involvedObject")).toObject().value(QLatin1String("name")).toString(),
            QStringLiteral("p"));
        const QJsonObject list
            = m_http
                  .get(QStringLiteral(
                      "/apis/events.k8s.io/v1/namespaces/default/events?fieldSelector=regarding.name%3Dp"))
                  .json();
        QCOMPARE(list.value(QLatin1String("items")).toArray().size(), 1);
        QCOMPARE(
            list.value(QLatin1String("items")).toArray().first().toObject().value(QLatin1String("note")).toString(),
            QStringLiteral("hello"));
    }

    void shouldRefuseMistypedBuiltinFields_data()
    {
        QTest::addColumn<QByteArray>("spec");
        QTest::addColumn<QString>("message");
        const QByteArray tmpl
            = R"("selector":{"matchLabels":{"app":"t"}},"template":{"metadata":{"labels":{"app":"t"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}})";
        QTest::newRow("replicas string") << QByteArray(R"({"replicas":"3",)" + tmpl
            + "}") << "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32";
        QTest::newRow("replicas fraction")
            << QByteArray(R"({"replicas":1.5,)" + tmpl + "}")
            << "json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32";
        QTest::newRow("containers object")
            << QByteArray(R"({"selector":{"matchLabels":{"app":"t"}},"template":{"spec":{"containers":{}}}})")
            << "json: cannot unmarshal object into Go struct field PodSpec.spec.template.spec.containers of type "
               "[]v1.Container";
        QTest::newRow("image number") << QByteArray(
            R"({"selector":{"matchLabels":{"app":"t"}},"template":{"spec":{"containers":[{"name":"c","image":5}]}}})")
                                      << "json: cannot unmarshal number into Go struct field "
                                         "Container.spec.template.spec.containers.image of type string";
        QTest::newRow("selector string") << QByteArray(R"({"selector":"app=t"})")
                                         << "json: cannot unmarshal string into Go struct field "
                                            "DeploymentSpec.spec.selector of type v1.LabelSelector";
        QTest::newRow("label number") << QByteArray(R"({"selector":{"matchLabels":{"app":7}}})")
                                      << "json: cannot unmarshal number into Go struct field "
                                         "LabelSelector.spec.selector.matchLabels of type string";
    }
    void shouldRefuseMistypedBuiltinFields()
    {
        // A real server refuses these while decoding; stored, one would break every typed Go
        // informer's list (the reflector cannot decode it and retries forever).
        QFETCH(QByteArray, spec);
        QFETCH(QString, message);
        const QString deployments = QStringLiteral("/apis/apps/v1/namespaces/default/deployments");
        const QByteArray body
            = R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"typed"},"spec":)" + spec + "}";
        const HttpReply r = m_http.call("POST", deployments, body);
        QCOMPARE(r.code, 400);
        QCOMPARE(r.json().value(QLatin1String("reason")).toString(), QStringLiteral("BadRequest"));
        QCOMPARE(r.json().value(QLatin1String("message")).toString(),
            QStringLiteral("Deployment in version \"v1\" cannot be handled as a Deployment: ") + message);
        QCOMPARE(m_http.get(deployments + QStringLiteral("/typed")).code, 404);
    }

    void shouldRefuseMistypedFieldsOnUpdateAndPatch()
    {
        const QString cms = QStringLiteral("/api/v1/namespaces/default/configmaps");
        QCOMPARE(m_http.call("POST", cms, R"({"metadata":{"name":"typed-cm"},"data":{"a":"1"}})").code, 201);
        HttpReply r = m_http.call("POST", cms, R"({"metadata":{"name":"typed-cm2"},"data":{"a":1}})");
        QCOMPARE(r.code, 400);
        QCOMPARE(r.json().value(QLatin1String("message")).toString(),
            QStringLiteral("ConfigMap in version \"v1\" cannot be handled as a ConfigMap: json: cannot unmarshal "
                           "number into Go struct field ConfigMap.data of type string"));
        QJsonObject cm = m_http.get(cms + QStringLiteral("/typed-cm")).json();
        cm.insert(QStringLiteral("immutable"), QStringLiteral("yes"));
        QCOMPARE(m_http.put(cms + QStringLiteral("/typed-cm"), cm).code, 400);
        r = m_http.call("PATCH", cms + QStringLiteral("/typed-cm"), R"({"metadata":{"labels":{"n":1}}})",
            "application/merge-patch+json");
        QCOMPARE(r.code, 400);
        QVERIFY2(r.json()
                     .value(QLatin1String("message"))
                     .toString()
                     .contains(QLatin1String("Go struct field ObjectMeta.metadata.labels of type string")),
            r.body.constData());
        QCOMPARE(m_http
                     .call("PATCH", cms + QStringLiteral("/typed-cm"),
                         R"({"metadata":{"labels":{"n":"1"}},"data":{"b":null}})", "application/merge-patch+json")
                     .code,
            200);
    }

    void shouldServeTablesForKubectl()
    {
        const QByteArray accept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/"
                                  "json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
        QCOMPARE(m_http.post(kApps, myApp(QStringLiteral("table"), QStringLiteral("nginx:1.25"), 2)).code, 201);
        const HttpReply r = m_http.call("GET", kApps + QStringLiteral("?limit=500"), {}, {}, {{"Accept", accept}});
        QCOMPARE(r.code, 200);
        const QJsonObject t = r.json();
        QCOMPARE(t.value(QLatin1String("kind")).toString(), QStringLiteral("Table"));
        QStringList cols;
        for (const QJsonValue &c : t.value(QLatin1String("columnDefinitions")).toArray())
            cols << c.toObject().value(QLatin1String("name")).toString();
        QCOMPARE(cols, (QStringList{"Name", "Image", "Replicas", "Available", "Phase", "Age"}));
        bool found = false;
        for (const QJsonValue &row : t.value(QLatin1String("rows")).toArray()) {
            const QJsonArray cells = row.toObject().value(QLatin1String("cells")).toArray();
            if (cells.at(0).toString() != QLatin1String("table"))
                continue;
            found = true;
            QCOMPARE(cells.at(1).toString(), QStringLiteral("nginx:1.25"));
            QVERIFY(cells.at(5).toString().endsWith(u's')); // "0s", "1s": pre-formatted age
        }
        QVERIFY(found);
    }
};

QTEST_GUILESS_MAIN(TestApiServerCrud)
#include "tst_apiserver_crud.moc"
