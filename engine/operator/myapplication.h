// SPDX-License-Identifier: Apache-2.0
#pragma once
// MyApplication (example.com/v1alpha1): the operator's custom resource, as a typed view that
// knows its kind (opbench::Kind), so the typed client and the controller builder take it:
// `client().get<MyApplication>(req)`, `forKind<MyApplication>()`.
//
// spec.image (required), spec.replicas (>= 1, default 1); status.availableReplicas,
// status.phase (Pending | Running | Failed), status.observedGeneration, status.conditions
// (a "Ready" condition following the API conventions).
//
// The CRD stays hand-written (resources/crds/myapplications.example.com.yaml), not generated
// from CustomResource<> types: the standalone opbench-apiserver, the tests and the manifests
// read that file, and a generated one would not say the same (status fields omitted when zero,
// so `kubectl get` would show no Available count for 0; stricter condition patterns).

#include "engine/api/condition.h"
#include "engine/api/gvk.h"
#include "engine/api/kind.h"
#include "engine/api/objectview.h"
#include "engine/api/restmapper.h"
#include "engine/api/typed/customresource.h"
#include "engine/webhook/conversion.h"

namespace opbench::myapp {

namespace Phase {
inline const QString Pending = QStringLiteral("Pending");
inline const QString Running = QStringLiteral("Running");
inline const QString Failed = QStringLiteral("Failed");
} // namespace Phase

/// The storage version and the conversion hub (v1beta1 converts to and from it:
/// myapplicationv1beta1.h).
class MyApplication : public ObjectView, public Hub
{
public:
    OPBENCH_KIND("example.com", "v1alpha1", "MyApplication", "myapplications")

    /// A new MyApplication, no name yet.
    MyApplication()
        : ObjectView(kindInfo().apiVersion(), kindInfo().gvk.kind)
    { }
    /// A new MyApplication `name` in `namespaceName`.
    MyApplication(const QString &namespaceName, const QString &name);
    explicit MyApplication(const Object &object)
        : ObjectView(object)
    { }

    QString image() const { return stringAt({"spec", "image"}); }
    void setImage(const QString &image) { setAt({"spec", "image"}, image); }
    /// spec.replicas (1 when absent).
    int replicas() const { return int(intAt({"spec", "replicas"}, 1)); }
    void setReplicas(int n) { setAt({"spec", "replicas"}, n); }

    /// The whole spec and status (conversions copy what they do not change).
    QJsonObject spec() const { return at({"spec"}).toObject(); }
    void setSpec(const QJsonObject &spec) { setAt({"spec"}, spec); }
    QJsonObject statusObject() const { return at({"status"}).toObject(); }
    /// An empty `status` removes it.
    void setStatusObject(const QJsonObject &status)
    {
        setAt({"status"}, status.isEmpty() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(status));
    }

    int availableReplicas() const { return int(intAt({"status", "availableReplicas"})); }
    QString phase() const { return stringAt({"status", "phase"}); }
    qint64 observedGeneration() const { return intAt({"status", "observedGeneration"}); }
    std::optional<Condition> condition(const QString &type) const { return findStatusCondition(type); }

    /// Sets status.availableReplicas, status.phase and status.observedGeneration (the
    /// generation); true when any of them changed (the Ready condition: setStatusCondition()).
    bool setStatus(int availableReplicas, const QString &phase);
};

inline const GroupVersionKind &kMyApplicationGvk = gvkOf<MyApplication>();

/// MyApplication's one identity: GVR example.com/v1alpha1/myapplications, kind, list kind,
/// singular, short name "myapp", namespaced, the status subresource (as its CRD says).
const ResourceMapping &resourceMapping();
/// The resource alone (example.com/v1alpha1/myapplications).
inline const GroupVersionResource &resource() { return resourceMapping().gvr; }
/// The leader-election id shared by opbench-operator and the workbench (kubebuilder's
/// "<name>.<domain>" convention).
inline QString leaseName() { return QStringLiteral("myapplication-operator.example.com"); }

} // namespace opbench::myapp
