// SPDX-License-Identifier: Apache-2.0
#pragma once
// Pod (core/v1): a typed view over phase, readiness, node and container images.

#include "engine/api/condition.h"
#include "engine/api/kind.h"
#include "engine/api/objectview.h"

namespace opbench {

class Pod : public ObjectView
{
public:
    /// v1 Pod, "pods", namespaced.
    static const KindInfo &kindInfo();

    /// A new, empty v1 Pod.
    Pod()
        : ObjectView(QStringLiteral("v1"), QStringLiteral("Pod"))
    { }
    /// A new v1 Pod `name` in `namespaceName`.
    Pod(const QString &namespaceName, const QString &name);
    explicit Pod(const Object &object)
        : ObjectView(object)
    { }

    /// status.phase: Pending, Running, Succeeded, Failed or Unknown ("" when absent).
    QString phase() const { return stringAt({"status", "phase"}); }
    void setPhase(const QString &phase) { setAt({"status", "phase"}, phase); }
    QString nodeName() const { return stringAt({"spec", "nodeName"}); }
    void setNodeName(const QString &node) { setAt({"spec", "nodeName"}, node); }
    QString podIP() const { return stringAt({"status", "podIP"}); }
    void setPodIP(const QString &ip) { setAt({"status", "podIP"}, ip); }

    QList<ContainerImage> containers() const { return containerImages(at({"spec", "containers"}).toArray()); }
    /// Sets the image of `container`, appending the container when it does not exist.
    void setContainer(const QString &container, const QString &image);

    QList<Condition> conditions() const;
    std::optional<Condition> condition(const QString &type) const;
    bool setCondition(const Condition &c, const QDateTime &now);
    /// The Ready condition is True.
    bool isReady() const;
    /// Sets the Ready (and ContainersReady) condition.
    void setReady(bool ready, const QDateTime &now);

    /// The controlling owner (e.g. the ReplicaSet), if any.
    std::optional<OwnerReference> owner() const;
};

} // namespace opbench
