// SPDX-License-Identifier: Apache-2.0
#pragma once
// Deployment (apps/v1): a typed view over the fields controllers and the workload simulator use.
// The pod template is typed (WorkloadView: setTemplate(PodTemplate{…}), setContainer(Container{…}))
// and its setters overlay onto the object, keeping the server's defaults (builtin/overlay.h):
//
//     Deployment d(ns, name);
//     d.setReplicas(3);
//     d.setSelector({{"app", name}});
//     d.setTemplate(PodTemplate{.labels = {{"app", name}},
//                               .containers = {Container{.name = "web", .image = "nginx:1.25"}}});

#include "engine/api/builtin/workloadview.h"
#include "engine/api/condition.h"
#include "engine/api/kind.h"
#include "engine/api/labelselector.h"

namespace opbench {

class Deployment : public WorkloadView
{
public:
    /// apps/v1 Deployment, "deployments", namespaced.
    static const KindInfo &kindInfo();

    /// A new, empty apps/v1 Deployment.
    Deployment()
        : WorkloadView(QStringLiteral("apps/v1"), QStringLiteral("Deployment"))
    { }
    /// A new apps/v1 Deployment `name` in `namespaceName`.
    Deployment(const QString &namespaceName, const QString &name);
    explicit Deployment(const Object &object)
        : WorkloadView(object)
    { }

    /// spec.replicas; 1 when absent (the API server's default).
    int replicas() const { return int(intAt({"spec", "replicas"}, 1)); }
    void setReplicas(int n) { setAt({"spec", "replicas"}, n); }

    /// spec.selector as JSON ({matchLabels, matchExpressions}).
    QJsonObject selector() const { return at({"spec", "selector"}).toObject(); }
    /// spec.selector converted; a missing selector matches nothing.
    Expected<LabelSelector> labelSelector() const;
    Labels selectorMatchLabels() const;
    void setSelectorMatchLabels(const Labels &labels);
    /// Sets spec.selector to exactly {matchLabels: labels}.
    void setSelector(const Labels &matchLabels);

    Labels templateLabels() const;
    void setTemplateLabels(const Labels &labels);

    QList<ContainerImage> containers() const;
    /// Sets the image of container `container`; returns false when there is no such container.
    bool setImage(const QString &container, const QString &image);
    /// Sets the image of `container`, appending the container when it does not exist.
    void setContainer(const QString &container, const QString &image);
    using WorkloadView::setContainer;

    /// spec.strategy as JSON; type() is "RollingUpdate" when absent.
    QJsonObject strategy() const { return at({"spec", "strategy"}).toObject(); }
    QString strategyType() const;
    void setStrategy(const QJsonObject &strategy) { setAt({"spec", "strategy"}, strategy); }
    /// spec.progressDeadlineSeconds; 600 when absent.
    int progressDeadlineSeconds() const { return int(intAt({"spec", "progressDeadlineSeconds"}, 600)); }
    void setProgressDeadlineSeconds(int s) { setAt({"spec", "progressDeadlineSeconds"}, s); }
    bool paused() const { return at({"spec", "paused"}).toBool(); }

    // status (0 when absent)
    int statusReplicas() const { return int(intAt({"status", "replicas"})); }
    int updatedReplicas() const { return int(intAt({"status", "updatedReplicas"})); }
    int readyReplicas() const { return int(intAt({"status", "readyReplicas"})); }
    int availableReplicas() const { return int(intAt({"status", "availableReplicas"})); }
    int unavailableReplicas() const { return int(intAt({"status", "unavailableReplicas"})); }
    qint64 observedGeneration() const { return intAt({"status", "observedGeneration"}); }
    void setStatusReplicas(int n) { setAt({"status", "replicas"}, n); }
    void setUpdatedReplicas(int n) { setAt({"status", "updatedReplicas"}, n); }
    void setReadyReplicas(int n) { setAt({"status", "readyReplicas"}, n); }
    void setAvailableReplicas(int n) { setAt({"status", "availableReplicas"}, n); }
    void setUnavailableReplicas(int n) { setAt({"status", "unavailableReplicas"}, n); }
    void setObservedGeneration(qint64 g) { setAt({"status", "observedGeneration"}, g); }

    QList<Condition> conditions() const;
    /// The condition of `type` ("Available", "Progressing", "ReplicaFailure").
    std::optional<Condition> condition(const QString &type) const;
    /// Sets a condition (see opbench::setCondition for lastTransitionTime). Returns true on change.
    bool setCondition(const Condition &c, const QDateTime &now);
};

} // namespace opbench
