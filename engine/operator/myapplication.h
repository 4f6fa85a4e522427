// SPDX-License-Identifier: Apache-2.0
#pragma once
// MyApplication (example.com/v1alpha1): the operator's custom resource, as a typed view.
//
// spec.image (required), spec.replicas (>= 1, default 1); status.availableReplicas,
// status.phase (Pending | Running | Failed), status.observedGeneration, status.conditions
// (a "Ready" condition following the API conventions).

#include "engine/api/condition.h"
#include "engine/api/gvk.h"
#include "engine/api/objectview.h"
#include "engine/api/restmapper.h"

namespace opbench::myapp {

inline const GroupVersionKind kMyApplicationGvk{
    QStringLiteral("example.com"), QStringLiteral("v1alpha1"), QStringLiteral("MyApplication")};
inline const GroupVersionKind kDeploymentGvk{
    QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("Deployment")};

/// MyApplication's one identity: GVR example.com/v1alpha1/myapplications, kind, list kind,
/// singular, short name "myapp", namespaced, the status subresource (as its CRD says).
const ResourceMapping &resourceMapping();
/// The resource alone (example.com/v1alpha1/myapplications).
inline const GroupVersionResource &resource() { return resourceMapping().gvr; }
/// The leader-election id shared by opbench-operator and the workbench (kubebuilder's
/// "<name>.<domain>" convention).
inline QString leaseName() { return QStringLiteral("myapplication-operator.example.com"); }

namespace Phase {
inline const QString Pending = QStringLiteral("Pending");
inline const QString Running = QStringLiteral("Running");
inline const QString Failed = QStringLiteral("Failed");
} // namespace Phase

/// The status the reconciler computes and compares (conditions compared without timestamps).
struct MyApplicationStatus
{
    int availableReplicas = 0;
    QString phase;
    qint64 observedGeneration = 0;
    Condition ready; // type "Ready"
};

class MyApplication : public ObjectView
{
public:
    MyApplication()
        : ObjectView(kMyApplicationGvk.apiVersion(), kMyApplicationGvk.kind)
    { }
    explicit MyApplication(const Object &object)
        : ObjectView(object)
    { }

    QString image() const { return stringAt({"spec", "image"}); }
    void setImage(const QString &image) { setAt({"spec", "image"}, image); }
    /// spec.replicas (1 when absent).
    int replicas() const { return int(intAt({"spec", "replicas"}, 1)); }
    void setReplicas(int n) { setAt({"spec", "replicas"}, n); }
    qint64 generation() const { return intAt({"metadata", "generation"}); }

    int availableReplicas() const { return int(intAt({"status", "availableReplicas"})); }
    QString phase() const { return stringAt({"status", "phase"}); }
    qint64 observedGeneration() const { return intAt({"status", "observedGeneration"}); }
    std::optional<Condition> condition(const QString &type) const;

    /// True when the stored status already says what `s` says (condition timestamps ignored).
    bool statusMatches(const MyApplicationStatus &s) const;
    /// Writes `s` into status (the Ready condition keeps its lastTransitionTime unless its
    /// status flips).
    void setStatus(const MyApplicationStatus &s, const QDateTime &now);
};

} // namespace opbench::myapp
