// SPDX-License-Identifier: Apache-2.0
// CRDs at run time: the built-in MyApplication CRD, a new CRD becoming served with its
// conditions, and its removal.
#include "engine/apiserver/registry/registry.h"
#include "engine/apiserver/storage/store.h"
#include "tests/apiserver/apiserverfixture.h"

#include <QJsonArray>
#include <QtTest>

using namespace opbench::testing;

namespace {
const QString kCrds = QStringLiteral("/apis/apiextensions.k8s.io/v1/customresourcedefinitions");

QJsonObject widgetCrd()
{
    const QJsonObject schema{{QStringLiteral("type"), QStringLiteral("object")},
        {QStringLiteral("properties"),
            QJsonObject{{QStringLiteral("spec"),
                QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                    {QStringLiteral("properties"),
                        QJsonObject{{QStringLiteral("size"),
                            QJsonObject{{QStringLiteral("type"), QStringLiteral("integer")},
                                {QStringLiteral("maximum"), 10}}}}}}}}}};
    const QJsonObject version{{QStringLiteral("name"), QStringLiteral("v1")}, {QStringLiteral("served"), true},
        {QStringLiteral("storage"), true},
        {QStringLiteral("schema"), QJsonObject{{QStringLiteral("openAPIV3Schema"), schema}}}};
    return QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("apiextensions.k8s.io/v1")},
        {QStringLiteral("kind"), QStringLiteral("CustomResourceDefinition")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("widgets.test.example")}}},
        {QStringLiteral("spec"),
            QJsonObject{{QStringLiteral("group"), QStringLiteral("test.example")},
                {QStringLiteral("scope"), QStringLiteral("Namespaced")},
                {QStringLiteral("names"),
                    QJsonObject{{QStringLiteral("plural"), QStringLiteral("widgets")},
                        {QStringLiteral("kind"), QStringLiteral("Widget")}}},
                {QStringLiteral("versions"), QJsonArray{version}}}}};
}

QString conditionStatus(const QJsonObject &crd, const QString &type)
{
    for (const QJsonValue &c :
        crd.value(QLatin1String("status")).toObject().value(QLatin1String("conditions")).toArray())
        if (c.toObject().value(QLatin1String("type")).toString() == type)
            return c.toObject().value(QLatin1String("status")).toString();
    return {};
}
} // namespace

class TestApiServerCrd : public QObject, private ApiServerFixture
{
    Q_OBJECT

    /// The version the server writes `gvr`'s objects at (read on the server's thread).
    QString storageVersionOf(const opbench::GroupVersionResource &gvr)
    {
        QString out;
        m_api.runOnServerThread([&](opbench::apiserver::ApiServer &server) {
            if (const auto type = server.store()->registry()->find(gvr))
                out = type->storageVersion;
        });
        return out;
    }
private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_api.start(), qPrintable(m_api.errorString())); }

    void shouldInstallMyApplicationAtStart()
    {
        const QJsonObject crd = m_http.get(kCrds + QStringLiteral("/myapplications.example.com")).json();
        QCOMPARE(conditionStatus(crd, QStringLiteral("Established")), QStringLiteral("True"));
        QCOMPARE(conditionStatus(crd, QStringLiteral("NamesAccepted")), QStringLiteral("True"));
        QCOMPARE(crd.value(QLatin1String("status")).toObject().value(QLatin1String("storedVersions")).toArray(),
            QJsonArray{QStringLiteral("v1alpha1")});
        QCOMPARE(crd.value(QLatin1String("status"))
                     .toObject()
                     .value(QLatin1String("acceptedNames"))
                     .toObject()
                     .value(QLatin1String("kind"))
                     .toString(),
            QStringLiteral("MyApplication"));
    }

    void shouldServeANewCrdAndForgetItWhenDeleted()
    {
        const QString widgets = QStringLiteral("/apis/test.example/v1/namespaces/default/widgets");
        QCOMPARE(m_http.get(widgets).code, 404);
        QCOMPARE(m_http.post(kCrds, widgetCrd()).code, 201);
        QVERIFY(QTest::qWaitFor(
            [&]() {
                return conditionStatus(m_http.get(kCrds + QStringLiteral("/widgets.test.example")).json(),
                           QStringLiteral("Established"))
                    == QLatin1String("True");
            },
            5000));
        const QJsonObject list = m_http.get(widgets).json();
        QCOMPARE(list.value(QLatin1String("kind")).toString(), QStringLiteral("WidgetList"));
        const QJsonObject w{{QStringLiteral("apiVersion"), QStringLiteral("test.example/v1")},
            {QStringLiteral("kind"), QStringLiteral("Widget")},
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("w1")}}},
            {QStringLiteral("spec"), QJsonObject{{QStringLiteral("size"), 3}}}};
        QCOMPARE(m_http.post(widgets, w).code, 201);
        QJsonObject tooBig = w;
        tooBig.insert(QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("w2")}});
        tooBig.insert(QStringLiteral("spec"), QJsonObject{{QStringLiteral("size"), 11}});
        QCOMPARE(m_http.post(widgets, tooBig).code, 422);
        QVERIFY(m_http.get(QStringLiteral("/apis")).body.contains("test.example"));
        QCOMPARE(m_http.del(kCrds + QStringLiteral("/widgets.test.example")).code, 200);
        QCOMPARE(m_http.get(widgets).code, 404);
        QVERIFY(!m_http.get(QStringLiteral("/apis")).body.contains("test.example"));
    }

    void shouldKeepObjectsWhenTheStorageVersionChanges()
    {
        // The textbook operator upgrade: v1alpha1 (storage), then add v1 and make it the storage
        // version. Objects live under /registry/<group>/<plural>: every version still sees them.
        auto version = [](const char *name, bool storage) {
            return QJsonObject{{QStringLiteral("name"), QLatin1String(name)}, {QStringLiteral("served"), true},
                {QStringLiteral("storage"), storage},
                {QStringLiteral("schema"),
                    QJsonObject{{QStringLiteral("openAPIV3Schema"),
                        QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                            {QStringLiteral("x-kubernetes-preserve-unknown-fields"), true}}}}}};
        };
        QJsonObject crd = widgetCrd();
        crd.insert(
            QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("gizmos.test.example")}});
        QJsonObject spec = crd.value(QLatin1String("spec")).toObject();
        spec.insert(QStringLiteral("names"),
            QJsonObject{{QStringLiteral("plural"), QStringLiteral("gizmos")},
                {QStringLiteral("kind"), QStringLiteral("Gizmo")}});
        spec.insert(QStringLiteral("versions"), QJsonArray{version("v1alpha1", true)});
        crd.insert(QStringLiteral("spec"), spec);
        QCOMPARE(m_http.post(kCrds, crd).code, 201);
        const QString alpha = QStringLiteral("/apis/test.example/v1alpha1/namespaces/default/gizmos");
        const QString v1 = QStringLiteral("/apis/test.example/v1/namespaces/default/gizmos");
        QVERIFY(QTest::qWaitFor([&]() { return m_http.get(alpha).code == 200; }, 5000));
        QCOMPARE(m_http
                     .post(alpha,
                         {{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("old")}}},
                             {QStringLiteral("spec"), QJsonObject{{QStringLiteral("x"), 1}}}})
                     .code,
            201);

        auto setVersions = [&](const QJsonArray &versions) {
            QJsonObject current = m_http.get(kCrds + QStringLiteral("/gizmos.test.example")).json();
            QJsonObject s = current.value(QLatin1String("spec")).toObject();
            s.insert(QStringLiteral("versions"), versions);
            current.insert(QStringLiteral("spec"), s);
            return m_http.put(kCrds + QStringLiteral("/gizmos.test.example"), current).code;
        };
        QCOMPARE(setVersions(QJsonArray{version("v1alpha1", false), version("v1", true)}), 200);
        QVERIFY(QTest::qWaitFor([&]() { return m_http.get(v1).code == 200; }, 5000));
        QTRY_COMPARE_WITH_TIMEOUT(
            storageVersionOf({QStringLiteral("test.example"), QStringLiteral("v1alpha1"), QStringLiteral("gizmos")}),
            QStringLiteral("v1"), 10000);
        const HttpReply gotV1 = m_http.get(v1 + QStringLiteral("/old"));
        QVERIFY2(gotV1.code == 200, gotV1.body.constData());
        const QJsonObject atV1 = gotV1.json();
        QCOMPARE(atV1.value(QLatin1String("apiVersion")).toString(), QStringLiteral("test.example/v1"));
        QCOMPARE(atV1.value(QLatin1String("spec")).toObject().value(QLatin1String("x")).toInt(), 1);
        QCOMPARE(m_http.get(alpha + QStringLiteral("/old")).json().value(QLatin1String("apiVersion")).toString(),
            QStringLiteral("test.example/v1alpha1"));
        QCOMPARE(
            m_http
                .post(v1, {{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("new")}}}})
                .code,
            201);
        auto names = [&](const QString &path) {
            QStringList out;
            for (const QJsonValue &i : m_http.get(path).json().value(QLatin1String("items")).toArray()) {
                out << i.toObject().value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
                if (!path.contains(i.toObject().value(QLatin1String("apiVersion")).toString()))
                    out << QStringLiteral("(wrong apiVersion %1)")
                               .arg(i.toObject().value(QLatin1String("apiVersion")).toString());
            }
            return out;
        };
        QCOMPARE(names(v1), (QStringList{"new", "old"}));
        QCOMPARE(names(alpha), (QStringList{"new", "old"}));
        QVERIFY(QTest::qWaitFor(
            [&]() {
                return m_http.get(kCrds + QStringLiteral("/gizmos.test.example"))
                           .json()
                           .value(QLatin1String("status"))
                           .toObject()
                           .value(QLatin1String("storedVersions"))
                           .toArray()
                    == QJsonArray({QStringLiteral("v1alpha1"), QStringLiteral("v1")});
            },
            5000));
        // and back: nothing is lost either way. v1alpha1 is served before and after this change,
        // so the reads below wait for the positive signal that it took effect: the registry's
        // storage version for the group is v1alpha1 again.
        QCOMPARE(setVersions(QJsonArray{version("v1alpha1", true), version("v1", false)}), 200);
        QTRY_COMPARE_WITH_TIMEOUT(
            storageVersionOf({QStringLiteral("test.example"), QStringLiteral("v1"), QStringLiteral("gizmos")}),
            QStringLiteral("v1alpha1"), 10000);
        QCOMPARE(names(alpha), (QStringList{"new", "old"}));
        QCOMPARE(names(v1), (QStringList{"new", "old"}));
        QCOMPARE(m_http.del(kCrds + QStringLiteral("/gizmos.test.example")).code, 200);
    }

    void shouldHonourObjectFinalizersWhenTheCrdIsDeleted()
    {
        QJsonObject crd = widgetCrd();
        crd.insert(
            QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("holds.test.example")}});
        QJsonObject spec = crd.value(QLatin1String("spec")).toObject();
        spec.insert(QStringLiteral("names"),
            QJsonObject{
                {QStringLiteral("plural"), QStringLiteral("holds")}, {QStringLiteral("kind"), QStringLiteral("Hold")}});
        crd.insert(QStringLiteral("spec"), spec);
        QCOMPARE(m_http.post(kCrds, crd).code, 201);
        const QString holds = QStringLiteral("/apis/test.example/v1/namespaces/default/holds");
        QVERIFY(QTest::qWaitFor([&]() { return m_http.get(holds).code == 200; }, 5000));
        QCOMPARE(m_http
                     .post(holds,
                         {{QStringLiteral("metadata"),
                             QJsonObject{{QStringLiteral("name"), QStringLiteral("kept")},
                                 {QStringLiteral("finalizers"), QJsonArray{QStringLiteral("example.com/cleanup")}}}}})
                     .code,
            201);
        QCOMPARE(m_http
                     .post(holds,
                         {{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("free")}}}})
                     .code,
            201);

        QCOMPARE(m_http.del(kCrds + QStringLiteral("/holds.test.example")).code, 200);
        const QJsonObject terminating = m_http.get(kCrds + QStringLiteral("/holds.test.example")).json();
        QVERIFY(terminating.value(QLatin1String("metadata")).toObject().contains(QLatin1String("deletionTimestamp")));
        QVERIFY(terminating.value(QLatin1String("metadata"))
                    .toObject()
                    .value(QLatin1String("finalizers"))
                    .toArray()
                    .contains(QStringLiteral("customresourcecleanup.apiextensions.k8s.io")));
        QCOMPARE(conditionStatus(terminating, QStringLiteral("Terminating")), QStringLiteral("True"));
        // the instance's finalizer holds it (and so the CRD); the other one went
        QCOMPARE(m_http.get(holds + QStringLiteral("/free")).code, 404);
        const QJsonObject kept = m_http.get(holds + QStringLiteral("/kept")).json();
        QVERIFY(kept.value(QLatin1String("metadata")).toObject().contains(QLatin1String("deletionTimestamp")));
        const HttpReply create = m_http.post(
            holds, {{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("late")}}}});
        QCOMPARE(create.code, 405);
        QCOMPARE(create.json().value(QLatin1String("message")).toString(),
            QStringLiteral("create not allowed while custom resource definition is terminating"));

        QJsonObject release = kept;
        QJsonObject meta = release.value(QLatin1String("metadata")).toObject();
        meta.remove(QStringLiteral("finalizers"));
        release.insert(QStringLiteral("metadata"), meta);
        QCOMPARE(m_http.put(holds + QStringLiteral("/kept"), release).code, 200);
        QVERIFY(QTest::qWaitFor(
            [&]() { return m_http.get(kCrds + QStringLiteral("/holds.test.example")).code == 404; }, 5000));
        QCOMPARE(m_http.get(holds).code, 404);
    }

    void shouldDropNullsAndDefaultOnRead()
    {
        // Helm renders `note: {{ .Values.note }}` as null: the real server drops a null in a
        // field that is not nullable instead of refusing it; and a default added to the schema
        // later shows on objects written before (defaults apply when objects are read).
        QJsonObject crd = widgetCrd();
        crd.insert(
            QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("knobs.test.example")}});
        QJsonObject spec = crd.value(QLatin1String("spec")).toObject();
        spec.insert(QStringLiteral("names"),
            QJsonObject{
                {QStringLiteral("plural"), QStringLiteral("knobs")}, {QStringLiteral("kind"), QStringLiteral("Knob")}});
        auto withSchema = [&](const QJsonObject &specProps) {
            QJsonObject v{{QStringLiteral("name"), QStringLiteral("v1")}, {QStringLiteral("served"), true},
                {QStringLiteral("storage"), true},
                {QStringLiteral("schema"),
                    QJsonObject{{QStringLiteral("openAPIV3Schema"),
                        QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                            {QStringLiteral("properties"),
                                QJsonObject{{QStringLiteral("spec"),
                                    QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                                        {QStringLiteral("properties"), specProps}}}}}}}}}};
            return QJsonArray{v};
        };
        const QJsonObject noteAndLevel{
            {QStringLiteral("note"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}},
            {QStringLiteral("level"), QJsonObject{{QStringLiteral("type"), QStringLiteral("integer")}}},
            {QStringLiteral("maybe"),
                QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}, {QStringLiteral("nullable"), true}}}};
        spec.insert(QStringLiteral("versions"), withSchema(noteAndLevel));
        crd.insert(QStringLiteral("spec"), spec);
        QCOMPARE(m_http.post(kCrds, crd).code, 201);
        const QString knobs = QStringLiteral("/apis/test.example/v1/namespaces/default/knobs");
        QVERIFY(QTest::qWaitFor([&]() { return m_http.get(knobs).code == 200; }, 5000));

        const HttpReply created
            = m_http.call("POST", knobs, R"({"metadata":{"name":"k1"},"spec":{"note":null,"maybe":null}})");
        QVERIFY2(created.code == 201, created.body.constData());
        const QJsonObject k1 = m_http.get(knobs + QStringLiteral("/k1")).json().value(QLatin1String("spec")).toObject();
        QVERIFY(!k1.contains(QLatin1String("note")));
        QVERIFY(k1.contains(QLatin1String("maybe")) && k1.value(QLatin1String("maybe")).isNull()); // nullable: kept

        QJsonObject current = m_http.get(kCrds + QStringLiteral("/knobs.test.example")).json();
        QJsonObject s = current.value(QLatin1String("spec")).toObject();
        QJsonObject withDefault = noteAndLevel;
        withDefault.insert(QStringLiteral("level"),
            QJsonObject{{QStringLiteral("type"), QStringLiteral("integer")}, {QStringLiteral("default"), 3}});
        s.insert(QStringLiteral("versions"), withSchema(withDefault));
        current.insert(QStringLiteral("spec"), s);
        QCOMPARE(m_http.put(kCrds + QStringLiteral("/knobs.test.example"), current).code, 200);
        QVERIFY(QTest::qWaitFor(
            [&]() {
                return m_http.get(knobs + QStringLiteral("/k1"))
                           .json()
                           .value(QLatin1String("spec"))
                           .toObject()
                           .value(QLatin1String("level"))
                           .toInt()
                    == 3;
            },
            5000));
        const QJsonArray items = m_http.get(knobs).json().value(QLatin1String("items")).toArray();
        QCOMPARE(
            items.first().toObject().value(QLatin1String("spec")).toObject().value(QLatin1String("level")).toInt(), 3);
        QCOMPARE(m_http.del(kCrds + QStringLiteral("/knobs.test.example")).code, 200);
    }

    void shouldRejectMalformedCrds()
    {
        QJsonObject bad = widgetCrd();
        bad.insert(QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("wrong.name")}});
        QCOMPARE(m_http.post(kCrds, bad).code, 422);
    }
};

QTEST_GUILESS_MAIN(TestApiServerCrd)
#include "tst_apiserver_crd.moc"
