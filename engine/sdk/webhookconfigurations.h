// SPDX-License-Identifier: Apache-2.0
#pragma once
// The cluster objects that make an API server call an operator's webhooks, derived from what
// WebhookBuilder registered (WebhookServer::servedWebhooks()): what `runOperator --embedded`, the
// workbench's embedded cluster and the test harness register (localwebhooks.h), and what
// kubebuilder's markers and cert-manager's CA injection produce for a real cluster.
//
// One MutatingWebhookConfiguration "<operator>-mutating-webhook-configuration" with an entry per
// defaulter, one ValidatingWebhookConfiguration "<operator>-validating-webhook-configuration"
// with an entry per validator (named kubebuilder-style: "m<kind>.<group>", "v<kind>.<group>";
// rules: the kind's group, version and resource, CREATE and UPDATE; sideEffects None,
// admissionReviewVersions [v1], failurePolicy Fail; clientConfig.url <baseUrl><path> and the CA
// bundle), and per hub kind with conversion the CRD's spec.conversion (strategy Webhook,
// conversionReviewVersions [v1], clientConfig.url <baseUrl>/convert and the CA bundle).

#include "engine/api/expected.h"
#include "engine/api/object.h"
#include "engine/webhook/webhookserver.h"

#include <QJsonObject>
#include <QList>

namespace opbench {

class RestMapper;

struct WebhookRegistration
{
    /// spec.conversion for one CRD (metadata.name `crdName`).
    struct CrdConversion
    {
        QString crdName;
        QJsonObject conversion;
    };
    /// The Mutating- and ValidatingWebhookConfiguration (each only when it has an entry).
    QList<Object> configurations;
    QList<CrdConversion> conversions;

    [[nodiscard]] bool isEmpty() const { return configurations.isEmpty() && conversions.isEmpty(); }
};

/// The registration of `webhooks` served at `baseUrl` ("https://127.0.0.1:9443") with a serving
/// certificate signed by `caPem`. Errors: a kind `mapper` does not know (name the kind and how
/// to map it), an empty operator name or base URL.
Expected<WebhookRegistration> webhookRegistration(const QString &operatorName, const QList<ServedWebhook> &webhooks,
    const RestMapper &mapper, const QString &baseUrl, const QByteArray &caPem);

/// The configuration names: "<operator>-mutating-webhook-configuration", "…-validating-…".
QString mutatingConfigurationName(const QString &operatorName);
QString validatingConfigurationName(const QString &operatorName);

} // namespace opbench
