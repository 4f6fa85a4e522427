// SPDX-License-Identifier: Apache-2.0
#pragma once
// Admission webhook configurations for the suites that watch the server's webhook calls
// (tst_apiserver_webhookcalls, tests/ui/tst_admissionpanel): a webhook for ConfigMaps of
// objects labelled `hook=SELECTOR` calling `url`, and the Mutating/ValidatingWebhookConfiguration
// that holds such webhooks, as a user would POST them.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace opbench::testing {

inline const QString kMutatingConfigs
    = QStringLiteral("/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations");
inline const QString kValidatingConfigs
    = QStringLiteral("/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations");

/// Webhook `name` for ConfigMap writes labelled hook=`selector`, calling `url` (trusting `caPem`),
/// with `extra` fields (failurePolicy, timeoutSeconds, …) on top.
inline QJsonObject configMapHook(const QString &name, const QString &selector, const QString &url,
    const QByteArray &caPem, const QJsonObject &extra = {})
{
    QJsonObject h{{"name", name}, {"sideEffects", "None"}, {"admissionReviewVersions", QJsonArray{"v1"}},
        {"clientConfig", QJsonObject{{"url", url}, {"caBundle", QString::fromLatin1(caPem.toBase64())}}},
        {"objectSelector", QJsonObject{{"matchLabels", QJsonObject{{"hook", selector}}}}},
        {"rules",
            QJsonArray{QJsonObject{{"operations", QJsonArray{"*"}}, {"apiGroups", QJsonArray{""}},
                {"apiVersions", QJsonArray{"v1"}}, {"resources", QJsonArray{"configmaps"}}}}}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        h.insert(it.key(), it.value());
    return h;
}

/// A Mutating (or Validating) WebhookConfiguration named `name` holding `hooks`.
inline QJsonObject webhookConfiguration(bool mutating, const QString &name, const QJsonArray &hooks)
{
    return QJsonObject{{"apiVersion", "admissionregistration.k8s.io/v1"},
        {"kind", mutating ? "MutatingWebhookConfiguration" : "ValidatingWebhookConfiguration"},
        {"metadata", QJsonObject{{"name", name}}}, {"webhooks", hooks}};
}

/// ConfigMap `name` labelled hook=`selector`.
inline QJsonObject labelledConfigMap(const QString &name, const QString &selector)
{
    return QJsonObject{{"apiVersion", "v1"}, {"kind", "ConfigMap"},
        {"metadata", QJsonObject{{"name", name}, {"labels", QJsonObject{{"hook", selector}}}}},
        {"data", QJsonObject{{"k", "v"}}}};
}

/// The AdmissionReview response of a mutating webhook adding label `key`=`value` (JSONPatch).
inline QJsonObject addLabelResponse(const QString &key, const QString &value)
{
    const QJsonArray ops{
        QJsonObject{{"op", "add"}, {"path", QStringLiteral("/metadata/labels/") + key}, {"value", value}}};
    return QJsonObject{{"allowed", true}, {"patchType", "JSONPatch"},
        {"patch", QString::fromLatin1(QJsonDocument(ops).toJson(QJsonDocument::Compact).toBase64())}};
}

} // namespace opbench::testing
