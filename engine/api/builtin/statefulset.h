// SPDX-License-Identifier: Apache-2.0
#pragma once
// StatefulSet (apps/v1): replicas, selector, serviceName and the typed pod template
// (WorkloadView; setters overlay, keeping the server's defaults).

#include "engine/api/builtin/workloadview.h"
#include "engine/api/kind.h"

namespace opbench {

class StatefulSet : public WorkloadView
{
public:
    /// apps/v1 StatefulSet, "statefulsets", namespaced.
    static const KindInfo &kindInfo();

    /// A new, empty apps/v1 StatefulSet.
    StatefulSet();
    /// A new apps/v1 StatefulSet `name` in `namespaceName`.
    StatefulSet(const QString &namespaceName, const QString &name);
    explicit StatefulSet(const Object &object)
        : WorkloadView(object)
    { }

    /// spec.replicas; 1 when absent (the API server's default).
    int replicas() const { return int(intAt({"spec", "replicas"}, 1)); }
    void setReplicas(int n) { setAt({"spec", "replicas"}, n); }
    Labels selectorMatchLabels() const { return toStringMap(at({"spec", "selector", "matchLabels"}).toObject()); }
    /// Sets spec.selector to exactly {matchLabels: labels}.
    void setSelector(const Labels &matchLabels);
    /// spec.serviceName: the headless Service that gives the pods their DNS names.
    QString serviceName() const { return stringAt({"spec", "serviceName"}); }
    void setServiceName(const QString &name) { setAt({"spec", "serviceName"}, name); }

    // status (0 when absent)
    int readyReplicas() const { return int(intAt({"status", "readyReplicas"})); }
    int currentReplicas() const { return int(intAt({"status", "currentReplicas"})); }
    qint64 observedGeneration() const { return intAt({"status", "observedGeneration"}); }
};

} // namespace opbench
