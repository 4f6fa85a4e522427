// SPDX-License-Identifier: Apache-2.0
// admissionregistration.k8s.io/v1 webhook configurations through HTTP (issue 24): discovery,
// CRUD, kube-apiserver's defaults, the NAME/WEBHOOKS/AGE table and the 422 messages of
// pkg/apis/admissionregistration/validation (field paths and wording as the real server's).
#include "tests/apiserver/apiserverfixture.h"

#include <QJsonArray>
#include <QtTest>

using namespace opbench::testing;

namespace {

const QString kMutating = QStringLiteral("/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations");
const QString kValidating = QStringLiteral("/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations");

/// A configuration with one webhook; `hookYaml` replaces the webhook's fields after its name.
QByteArray config(const char *kind, const char *name, const QByteArray &hookYaml)
{
    return "apiVersion: admissionregistration.k8s.io/v1\nkind: " + QByteArray(kind)
        + "\nmetadata:\n  name: " + QByteArray(name) + "\nwebhooks:\n" + hookYaml;
}

const QByteArray kGoodHook = "- name: check.example.com\n  sideEffects: None\n  admissionReviewVersions: [v1]\n"
                             "  clientConfig:\n    service: {namespace: system, name: hooks}\n"
                             "  rules:\n  - operations: [CREATE]\n    apiGroups: ['']\n    apiVersions: [v1]\n"
                             "    resources: [configmaps]\n";

QString messageOf(const HttpReply &r) { return r.json().value(QLatin1String("message")).toString(); }

} // namespace

class TestApiServerWebhookConfig : public QObject, private ApiServerFixture
{
    Q_OBJECT

    HttpReply postYaml(const QString &path, const QByteArray &yaml)
    {
        return m_http.call("POST", path, yaml, "application/yaml");
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_api.start(), qPrintable(m_api.errorString())); }

    void shouldServeBothKindsInDiscovery()
    {
        const HttpReply r = m_http.get(QStringLiteral("/apis/admissionregistration.k8s.io/v1"));
        QCOMPARE(r.code, 200);
        QStringList names;
        for (const QJsonValue v : r.json().value(QLatin1String("resources")).toArray()) {
            names << v.toObject().value(QLatin1String("name")).toString();
            QCOMPARE(v.toObject().value(QLatin1String("namespaced")).toBool(), false);
        }
        QVERIFY(names.contains(QStringLiteral("mutatingwebhookconfigurations")));
        QVERIFY(names.contains(QStringLiteral("validatingwebhookconfigurations")));
    }

    // pkg/apis/admissionregistration/v1/defaults.go
    void shouldDefaultLikeKubeApiserver()
    {
        const HttpReply r = postYaml(kMutating, config("MutatingWebhookConfiguration", "defaults", kGoodHook));
        QCOMPARE(r.code, 201);
        const QJsonObject hook = r.json().value(QLatin1String("webhooks")).toArray().first().toObject();
        QCOMPARE(hook.value(QLatin1String("failurePolicy")).toString(), QStringLiteral("Fail"));
        QCOMPARE(hook.value(QLatin1String("matchPolicy")).toString(), QStringLiteral("Equivalent"));
        QCOMPARE(hook.value(QLatin1String("timeoutSeconds")).toInt(), 10);
        QCOMPARE(hook.value(QLatin1String("reinvocationPolicy")).toString(), QStringLiteral("Never"));
        QCOMPARE(hook.value(QLatin1String("namespaceSelector")).toObject(), QJsonObject());
        QCOMPARE(hook.value(QLatin1String("objectSelector")).toObject(), QJsonObject());
        QCOMPARE(hook.value(QLatin1String("rules")).toArray().first().toObject().value(QLatin1String("scope")),
            QJsonValue(QStringLiteral("*")));
        const QJsonObject svc
            = hook.value(QLatin1String("clientConfig")).toObject().value(QLatin1String("service")).toObject();
        QCOMPARE(svc.value(QLatin1String("port")).toInt(), 443);

        const HttpReply v = postYaml(kValidating, config("ValidatingWebhookConfiguration", "defaults", kGoodHook));
        QCOMPARE(v.code, 201);
        QVERIFY(!v.json()
                     .value(QLatin1String("webhooks"))
                     .toArray()
                     .first()
                     .toObject()
                     .contains(QLatin1String("reinvocationPolicy")));
        QCOMPARE(m_http.del(kValidating + QStringLiteral("/defaults")).code, 200);
        QCOMPARE(m_http.get(kValidating + QStringLiteral("/defaults")).code, 404);
    }

    void shouldPrintWebhooksColumn()
    {
        QCOMPARE(postYaml(kValidating, config("ValidatingWebhookConfiguration", "table", kGoodHook)).code, 201);
        const HttpReply r
            = m_http.call("GET", kValidating, {}, {}, {{"Accept", "application/json;as=Table;v=v1;g=meta.k8s.io"}});
        QCOMPARE(r.code, 200);
        QStringList columns;
        for (const QJsonValue c : r.json().value(QLatin1String("columnDefinitions")).toArray())
            columns << c.toObject().value(QLatin1String("name")).toString();
        QCOMPARE(columns, (QStringList{QStringLiteral("Name"), QStringLiteral("Webhooks"), QStringLiteral("Age")}));
        const QJsonArray cells = r.json()
                                     .value(QLatin1String("rows"))
                                     .toArray()
                                     .first()
                                     .toObject()
                                     .value(QLatin1String("cells"))
                                     .toArray();
        QCOMPARE(cells.at(0).toString(), QStringLiteral("table"));
        QCOMPARE(cells.at(1).toInt(), 1);
    }

    void shouldRefuseInvalidConfigurations_data()
    {
        QTest::addColumn<QByteArray>("hook");
        QTest::addColumn<QString>("message");
        const QString prefix = QStringLiteral("ValidatingWebhookConfiguration.admissionregistration.k8s.io \"bad\" is "
                                              "invalid: ");
        QTest::newRow("two segments") << QByteArray(kGoodHook).replace("check.example.com", "check.example")
                                      << prefix
                + "webhooks[0].name: Invalid value: \"check.example\": should be a domain with at least three "
                  "segments separated by dots";
        QTest::newRow("sideEffects missing") << QByteArray(kGoodHook).replace("  sideEffects: None\n",
            "") << prefix + "webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun";
        QTest::newRow("sideEffects Some") << QByteArray(kGoodHook).replace("sideEffects: None", "sideEffects: Some")
                                          << prefix
                + "webhooks[0].sideEffects: Unsupported value: \"Some\": supported values: \"None\", \"NoneOnDryRun\"";
        QTest::newRow("review versions") << QByteArray(kGoodHook).replace(
            "admissionReviewVersions: [v1]", "admissionReviewVersions: [v2]")
                                         << prefix
                + "webhooks[0].admissionReviewVersions: Invalid value: []string{\"v2\"}: must include at least one of "
                  "v1, v1beta1";
        QTest::newRow("both client configs")
            << QByteArray(kGoodHook).replace("  rules:", "    url: https://hooks.example.com/\n  rules:")
            << prefix + "webhooks[0].clientConfig: Required value: exactly one of url or service is required";
        QTest::newRow("http url") << QByteArray(kGoodHook).replace(
            "service: {namespace: system, name: hooks}", "url: http://hooks.example.com/check")
                                  << prefix
                + "webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme";
        QTest::newRow("timeout") << QByteArray(kGoodHook) + "  timeoutSeconds: 31\n"
                                 << prefix
                + "webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds";
        QTest::newRow("failurePolicy") << QByteArray(kGoodHook) + "  failurePolicy: Retry\n"
                                       << prefix
                + "webhooks[0].failurePolicy: Unsupported value: \"Retry\": supported values: \"Fail\", \"Ignore\"";
        QTest::newRow("matchPolicy") << QByteArray(kGoodHook) + "  matchPolicy: Loose\n"
                                     << prefix
                + "webhooks[0].matchPolicy: Unsupported value: \"Loose\": supported values: \"Equivalent\", "
                  "\"Exact\"";
        QTest::newRow("duplicate name") << kGoodHook + kGoodHook
                                        << prefix + "webhooks[1].name: Duplicate value: \"check.example.com\"";
    }

    void shouldRefuseInvalidConfigurations()
    {
        QFETCH(QByteArray, hook);
        QFETCH(QString, message);
        const HttpReply r = postYaml(kValidating, config("ValidatingWebhookConfiguration", "bad", hook));
        QCOMPARE(r.code, 422);
        QCOMPARE(messageOf(r), message);
    }
};

QTEST_GUILESS_MAIN(TestApiServerWebhookConfig)
#include "tst_apiserver_webhookconfig.moc"
