// SPDX-License-Identifier: Apache-2.0
#pragma once
// MutatingWebhookConfiguration and ValidatingWebhookConfiguration
// (admissionregistration.k8s.io/v1): kube-apiserver's defaulting (failurePolicy Fail,
// matchPolicy Equivalent, timeoutSeconds 10, empty selectors, rule scope "*", service port 443,
// reinvocationPolicy Never for mutating webhooks) and its validation, with upstream's field paths
// and messages (pkg/apis/admissionregistration/validation): fully qualified and unique webhook
// names, sideEffects None/NoneOnDryRun, admissionReviewVersions including v1 or v1beta1, exactly
// one of clientConfig.url (https) and clientConfig.service, timeoutSeconds 1..30, the enums.

#include "engine/api/status.h"
#include "engine/apiserver/registry/registry.h"

#include <QJsonArray>
#include <QJsonObject>

namespace opbench::apiserver {

/// True for the two webhook configuration kinds; `*mutating` says which.
bool isWebhookConfiguration(const ResourceType &type, bool *mutating = nullptr);

/// Fills the v1 defaults into every webhook of a configuration.
void defaultWebhookConfiguration(QJsonObject &configuration, bool mutating);

/// The causes kube-apiserver gives for an invalid configuration (empty when valid).
QList<StatusCause> validateWebhookConfiguration(const QJsonObject &configuration, bool mutating);

/// A webhook clientConfig at `at` (shared with CRD conversion webhooks): exactly one of url
/// (https, no query, fragment or user) and service (name, namespace, path, port).
void validateWebhookClientConfig(const QJsonObject &clientConfig, const QString &at, QList<StatusCause> &causes);
/// admissionReviewVersions / conversionReviewVersions at `at`: not empty (Required with
/// `requiredDetail`), no duplicates, DNS-1035 labels, one of v1 and v1beta1 among them.
void validateWebhookReviewVersions(
    const QJsonArray &versions, const QString &at, const QString &requiredDetail, QList<StatusCause> &causes);

} // namespace opbench::apiserver
