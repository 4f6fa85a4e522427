// SPDX-License-Identifier: Apache-2.0
// CRDs at run time: the built-in MyApplication CRD, a new CRD becoming served with its
// conditions, and its removal.
#include "tests/apiserver/apiserverfixture.h"

#include <QJsonArray>
#include <QtTest>

using namespace opbench::testsupport;

namespace {
const QString kCrds = QStringLiteral("/apis/apiextensions.k8s.io/v1/customresourcedefinitions");

QJsonObject widgetCrd()
{
    const QJsonObject schema{{QStringLiteral("type"), QStringLiteral("object")},
                             {QStringLiteral("properties"),
                              QJsonObject{{QStringLiteral("spec"), QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                                                                               {QStringLiteral("properties"), QJsonObject{{QStringLiteral("size"), QJsonObject{{QStringLiteral("type"), QStringLiteral("integer")}, {QStringLiteral("maximum"), 10}}}}}}}}}};
    const QJsonObject version{{QStringLiteral("name"), QStringLiteral("v1")},
                              {QStringLiteral("served"), true},
                              {QStringLiteral("storage"), true},
                              {QStringLiteral("schema"), QJsonObject{{QStringLiteral("openAPIV3Schema"), schema}}}};
    return QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("apiextensions.k8s.io/v1")},
                       {QStringLiteral("kind"), QStringLiteral("CustomResourceDefinition")},
                       {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("widgets.test.example")}}},
                       {QStringLiteral("spec"), QJsonObject{{QStringLiteral("group"), QStringLiteral("test.example")},
                                                            {QStringLiteral("scope"), QStringLiteral("Namespaced")},
                                                            {QStringLiteral("names"), QJsonObject{{QStringLiteral("plural"), QStringLiteral("widgets")}, {QStringLiteral("kind"), QStringLiteral("Widget")}}},
                                                            {QStringLiteral("versions"), QJsonArray{version}}}}};
}

QString conditionStatus(const QJsonObject &crd, const QString &type)
{
    for (const QJsonValue &c : crd.value(QLatin1String("status")).toObject().value(QLatin1String("conditions")).toArray())
        if (c.toObject().value(QLatin1String("type")).toString() == type)
            return c.toObject().value(QLatin1String("status")).toString();
    return {};
}
} // namespace

class TestApiServerCrd : public QObject, private ApiServerFixture
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_api.start(), qPrintable(m_api.errorString())); }

    void shouldInstallMyApplicationAtStart()
    {
        const QJsonObject crd = m_http.get(kCrds + QStringLiteral("/myapplications.example.com")).json();
        QCOMPARE(conditionStatus(crd, QStringLiteral("Established")), QStringLiteral("True"));
        QCOMPARE(conditionStatus(crd, QStringLiteral("NamesAccepted")), QStringLiteral("True"));
        QCOMPARE(crd.value(QLatin1String("status")).toObject().value(QLatin1String("storedVersions")).toArray(), QJsonArray{QStringLiteral("v1alpha1")});
        QCOMPARE(crd.value(QLatin1String("status")).toObject().value(QLatin1String("acceptedNames")).toObject().value(QLatin1String("kind")).toString(),
                 QStringLiteral("MyApplication"));
    }

    void shouldServeANewCrdAndForgetItWhenDeleted()
    {
        const QString widgets = QStringLiteral("/apis/test.example/v1/namespaces/default/widgets");
        QCOMPARE(m_http.get(widgets).code, 404);
        QCOMPARE(m_http.post(kCrds, widgetCrd()).code, 201);
        QVERIFY(QTest::qWaitFor([&]() { return conditionStatus(m_http.get(kCrds + QStringLiteral("/widgets.test.example")).json(), QStringLiteral("Established")) == QLatin1String("True"); }, 5000));
        const QJsonObject list = m_http.get(widgets).json();
        QCOMPARE(list.value(QLatin1String("kind")).toString(), QStringLiteral("WidgetList"));
        const QJsonObject w{{QStringLiteral("apiVersion"), QStringLiteral("test.example/v1")}, {QStringLiteral("kind"), QStringLiteral("Widget")},
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

    void shouldRejectMalformedCrds()
    {
        QJsonObject bad = widgetCrd();
        bad.insert(QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("wrong.name")}});
        QCOMPARE(m_http.post(kCrds, bad).code, 422);
    }
};

QTEST_GUILESS_MAIN(TestApiServerCrd)
#include "tst_apiserver_crd.moc"
