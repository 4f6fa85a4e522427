// SPDX-License-Identifier: Apache-2.0
#pragma once
// Which admission webhooks a request goes to: the configurations in the store (by name), then
// each one's webhooks in list order, kept when a rule matches (operations, apiGroups,
// apiVersions, resources with `*`, `res/sub`, `*/sub`, `res/*`; scope Cluster/Namespaced/*), the
// namespaceSelector matches the namespace's labels (the namespace itself for namespaces;
// cluster-scoped objects always match) and the objectSelector matches the old or new object's
// labels. matchPolicy Equivalent and Exact agree here: each kind is served at one version.

#include "engine/apiserver/admission/admissionreview.h"
#include "engine/apiserver/storage/store.h"

namespace opbench::apiserver {

struct MatchedWebhook
{
    QString configuration;
    QJsonObject hook;
};

/// The webhooks of the mutating (or validating) configurations that `attributes` goes to.
QList<MatchedWebhook> matchingWebhooks(Store *store, bool mutating, const AdmissionAttributes &attributes);

/// metav1.LabelSelector semantics (matchLabels and matchExpressions; {} matches everything).
bool labelSelectorMatches(const QJsonObject &selector, const QJsonObject &labels);

} // namespace opbench::apiserver
