// SPDX-License-Identifier: Apache-2.0
// webhookRegistration() (engine/sdk/webhookconfigurations.h): what WebhookBuilder registered
// becomes the MutatingWebhookConfiguration, ValidatingWebhookConfiguration and CRD conversion
// an embedded cluster gets, with the fields kubebuilder's markers generate (sideEffects None,
// admissionReviewVersions [v1], failurePolicy Fail, CREATE and UPDATE on the kind's resource).
#include "engine/api/restmapper.h"
#include "engine/sdk/webhookconfigurations.h"

#include <QJsonArray>
#include <QTest>

using namespace opbench;

namespace {

const GroupVersionKind kApp(QStringLiteral("example.com"), QStringLiteral("v1alpha1"), QStringLiteral("MyApplication"));
const QString kBase = QStringLiteral("https://127.0.0.1:40123");
const QByteArray kCa = QByteArrayLiteral("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");

RestMapper mapper()
{
    RestMapper m;
    ResourceMapping app;
    app.gvr = {kApp.group, kApp.version, QStringLiteral("myapplications")};
    app.kind = kApp.kind;
    app.namespaced = true;
    m.add(app);
    return m;
}

QList<ServedWebhook> allThree()
{
    return {{ServedWebhook::Type::Defaulting, QStringLiteral("/mutate-example-com-v1alpha1-myapplication"), kApp},
        {ServedWebhook::Type::Validating, QStringLiteral("/validate-example-com-v1alpha1-myapplication"), kApp},
        {ServedWebhook::Type::Conversion, QStringLiteral("/convert"), kApp}};
}

QJsonObject onlyWebhook(const Object &configuration)
{
    const QJsonArray webhooks = configuration.json().value(QLatin1String("webhooks")).toArray();
    return webhooks.size() == 1 ? webhooks.first().toObject() : QJsonObject();
}

} // namespace

class TestWebhookConfigurations : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void defaulterAndValidatorBecomeTwoConfigurations()
    {
        Expected<WebhookRegistration> reg
            = webhookRegistration(QStringLiteral("myapplication"), allThree(), mapper(), kBase, kCa);
        QVERIFY2(reg.ok(), reg.ok() ? "" : qPrintable(reg.error().message()));
        QCOMPARE(reg->configurations.size(), 2);
        const Object &mutating = reg->configurations.at(0);
        QCOMPARE(mutating.kind(), QStringLiteral("MutatingWebhookConfiguration"));
        QCOMPARE(mutating.json().value(QLatin1String("apiVersion")).toString(),
            QStringLiteral("admissionregistration.k8s.io/v1"));
        QCOMPARE(mutating.name(), QStringLiteral("myapplication-mutating-webhook-configuration"));
        const QJsonObject m = onlyWebhook(mutating);
        QCOMPARE(m.value(QLatin1String("name")).toString(), QStringLiteral("mmyapplication.example.com"));
        const QJsonObject client = m.value(QLatin1String("clientConfig")).toObject();
        QCOMPARE(client.value(QLatin1String("url")).toString(),
            kBase + QStringLiteral("/mutate-example-com-v1alpha1-myapplication"));
        QCOMPARE(QByteArray::fromBase64(client.value(QLatin1String("caBundle")).toString().toLatin1()), kCa);
        QCOMPARE(m.value(QLatin1String("sideEffects")).toString(), QStringLiteral("None"));
        QCOMPARE(m.value(QLatin1String("failurePolicy")).toString(), QStringLiteral("Fail"));
        QCOMPARE(m.value(QLatin1String("admissionReviewVersions")).toArray(), QJsonArray{QStringLiteral("v1")});
        const QJsonObject rule = m.value(QLatin1String("rules")).toArray().first().toObject();
        QCOMPARE(rule.value(QLatin1String("apiGroups")).toArray(), QJsonArray{QStringLiteral("example.com")});
        QCOMPARE(rule.value(QLatin1String("apiVersions")).toArray(), QJsonArray{QStringLiteral("v1alpha1")});
        QCOMPARE(rule.value(QLatin1String("resources")).toArray(), QJsonArray{QStringLiteral("myapplications")});
        QCOMPARE(rule.value(QLatin1String("operations")).toArray(),
            (QJsonArray{QStringLiteral("CREATE"), QStringLiteral("UPDATE")}));

        const Object &validating = reg->configurations.at(1);
        QCOMPARE(validating.kind(), QStringLiteral("ValidatingWebhookConfiguration"));
        QCOMPARE(validating.name(), QStringLiteral("myapplication-validating-webhook-configuration"));
        const QJsonObject v = onlyWebhook(validating);
        QCOMPARE(v.value(QLatin1String("name")).toString(), QStringLiteral("vmyapplication.example.com"));
        QCOMPARE(v.value(QLatin1String("clientConfig")).toObject().value(QLatin1String("url")).toString(),
            kBase + QStringLiteral("/validate-example-com-v1alpha1-myapplication"));
    }

    void conversionFillsTheCrdsConversion()
    {
        Expected<WebhookRegistration> reg
            = webhookRegistration(QStringLiteral("myapplication"), allThree(), mapper(), kBase, kCa);
        QVERIFY(reg.ok());
        QCOMPARE(reg->conversions.size(), 1);
        QCOMPARE(reg->conversions.first().crdName, QStringLiteral("myapplications.example.com"));
        const QJsonObject conversion = reg->conversions.first().conversion;
        QCOMPARE(conversion.value(QLatin1String("strategy")).toString(), QStringLiteral("Webhook"));
        const QJsonObject webhook = conversion.value(QLatin1String("webhook")).toObject();
        QCOMPARE(webhook.value(QLatin1String("conversionReviewVersions")).toArray(), QJsonArray{QStringLiteral("v1")});
        const QJsonObject client = webhook.value(QLatin1String("clientConfig")).toObject();
        QCOMPARE(client.value(QLatin1String("url")).toString(), kBase + QStringLiteral("/convert"));
        QCOMPARE(QByteArray::fromBase64(client.value(QLatin1String("caBundle")).toString().toLatin1()), kCa);
    }

    void onlyWhatIsRegisteredIsConfigured()
    {
        Expected<WebhookRegistration> reg
            = webhookRegistration(QStringLiteral("op"), {allThree().at(1)}, mapper(), kBase, kCa);
        QVERIFY(reg.ok());
        QCOMPARE(reg->configurations.size(), 1);
        QCOMPARE(reg->configurations.first().kind(), QStringLiteral("ValidatingWebhookConfiguration"));
        QVERIFY(reg->conversions.isEmpty());
        Expected<WebhookRegistration> none = webhookRegistration(QStringLiteral("op"), {}, mapper(), kBase, kCa);
        QVERIFY(none.ok());
        QVERIFY(none->isEmpty());
    }

    void anUnmappedKindIsNamed()
    {
        const GroupVersionKind other(QStringLiteral("other.io"), QStringLiteral("v1"), QStringLiteral("Thing"));
        Expected<WebhookRegistration> reg = webhookRegistration(QStringLiteral("op"),
            {{ServedWebhook::Type::Validating, QStringLiteral("/validate-other-io-v1-thing"), other}}, mapper(), kBase,
            kCa);
        QVERIFY(!reg.ok());
        QVERIFY2(reg.error().message().contains(QStringLiteral("other.io/v1, Kind=Thing"))
                || reg.error().message().contains(QStringLiteral("Thing")),
            qPrintable(reg.error().message()));
        QVERIFY2(reg.error().message().contains(QStringLiteral("OperatorDefinition::crds")),
            qPrintable(reg.error().message()));
    }
};

QTEST_GUILESS_MAIN(TestWebhookConfigurations)
#include "tst_webhookconfigurations.moc"
