// SPDX-License-Identifier: Apache-2.0
#include "engine/sdk/webhookconfigurations.h"

#include "engine/api/restmapper.h"
#include "engine/api/status.h"

#include <QJsonArray>

namespace opbench {

namespace {

const QString kAdmissionApiVersion = QStringLiteral("admissionregistration.k8s.io/v1");

QJsonObject clientConfig(const QString &url, const QByteArray &caPem)
{
    return {{QStringLiteral("url"), url}, {QStringLiteral("caBundle"), QString::fromLatin1(caPem.toBase64())}};
}

// One webhook entry, as kubebuilder's marker
// `+kubebuilder:webhook:path=…,mutating=…,failurePolicy=fail,sideEffects=None,verbs=create;update,
// admissionReviewVersions=v1` generates it.
QJsonObject webhookEntry(
    const ServedWebhook &webhook, const ResourceMapping &mapping, const QString &baseUrl, const QByteArray &caPem)
{
    const bool mutating = webhook.type == ServedWebhook::Type::Defaulting;
    const QString name = (mutating ? QStringLiteral("m") : QStringLiteral("v")) + webhook.gvk.kind.toLower() + u'.'
        + webhook.gvk.group;
    const QJsonObject rule{{QStringLiteral("apiGroups"), QJsonArray{webhook.gvk.group}},
        {QStringLiteral("apiVersions"), QJsonArray{webhook.gvk.version}},
        {QStringLiteral("resources"), QJsonArray{mapping.gvr.resource}},
        {QStringLiteral("operations"), QJsonArray{QStringLiteral("CREATE"), QStringLiteral("UPDATE")}}};
    return {{QStringLiteral("name"), name},
        {QStringLiteral("clientConfig"), clientConfig(baseUrl + webhook.path, caPem)},
        {QStringLiteral("rules"), QJsonArray{rule}}, {QStringLiteral("sideEffects"), QStringLiteral("None")},
        {QStringLiteral("admissionReviewVersions"), QJsonArray{QStringLiteral("v1")}},
        {QStringLiteral("failurePolicy"), QStringLiteral("Fail")}};
}

Object configuration(const QString &kind, const QString &name, const QJsonArray &webhooks)
{
    return Object::fromJson({{QStringLiteral("apiVersion"), kAdmissionApiVersion}, {QStringLiteral("kind"), kind},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}},
        {QStringLiteral("webhooks"), webhooks}});
}

QJsonObject conversionFor(const QString &baseUrl, const QByteArray &caPem)
{
    const QJsonObject webhook{
        {QStringLiteral("clientConfig"), clientConfig(baseUrl + QStringLiteral("/convert"), caPem)},
        {QStringLiteral("conversionReviewVersions"), QJsonArray{QStringLiteral("v1")}}};
    return {{QStringLiteral("strategy"), QStringLiteral("Webhook")}, {QStringLiteral("webhook"), webhook}};
}

} // namespace

QString mutatingConfigurationName(const QString &operatorName)
{
    return operatorName + QStringLiteral("-mutating-webhook-configuration");
}

QString validatingConfigurationName(const QString &operatorName)
{
    return operatorName + QStringLiteral("-validating-webhook-configuration");
}

Expected<WebhookRegistration> webhookRegistration(const QString &operatorName, const QList<ServedWebhook> &webhooks,
    const RestMapper &mapper, const QString &baseUrl, const QByteArray &caPem)
{
    if (operatorName.isEmpty())
        return Status::badRequest(QStringLiteral("webhook registration: the operator has no name"));
    if (baseUrl.isEmpty())
        return Status::badRequest(QStringLiteral("webhook registration: no URL for the webhook server"));
    QJsonArray mutating;
    QJsonArray validating;
    WebhookRegistration out;
    for (const ServedWebhook &webhook : webhooks) {
        const std::optional<ResourceMapping> mapping = mapper.forKind(webhook.gvk);
        if (!mapping)
            return Status::badRequest(QStringLiteral("webhook registration: kind %1 (webhook %2) is not mapped to a "
                                                     "resource; add its CRD to OperatorDefinition::crds")
                                          .arg(webhook.gvk.toString(), webhook.path));
        switch (webhook.type) {
        case ServedWebhook::Type::Defaulting:
            mutating.append(webhookEntry(webhook, *mapping, baseUrl, caPem));
            break;
        case ServedWebhook::Type::Validating:
            validating.append(webhookEntry(webhook, *mapping, baseUrl, caPem));
            break;
        case ServedWebhook::Type::Conversion:
            out.conversions.append({mapping->gvr.resource + u'.' + mapping->gvr.group, conversionFor(baseUrl, caPem)});
            break;
        }
    }
    if (!mutating.isEmpty())
        out.configurations.append(configuration(
            QStringLiteral("MutatingWebhookConfiguration"), mutatingConfigurationName(operatorName), mutating));
    if (!validating.isEmpty())
        out.configurations.append(configuration(
            QStringLiteral("ValidatingWebhookConfiguration"), validatingConfigurationName(operatorName), validating));
    return out;
}

} // namespace opbench
