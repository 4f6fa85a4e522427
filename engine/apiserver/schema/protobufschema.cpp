// SPDX-License-Identifier: Apache-2.0
// Field tables of the Kubernetes protobuf messages the server decodes (numbers from
// k8s.io/api and k8s.io/apimachinery generated.proto).
#include "engine/apiserver/schema/protobufschema.h"

namespace opbench::apiserver {

namespace {

using T = ProtobufFieldType;
using MessageFn = const ProtobufMessage &(*)();

ProtobufField scalar(quint32 n, const char *json, T type)
{
    return ProtobufField{n, json, type, nullptr, false, false};
}
ProtobufField pointer(quint32 n, const char *json, T type)
{
    return ProtobufField{n, json, type, nullptr, false, true};
}
ProtobufField strings(quint32 n, const char *json) { return ProtobufField{n, json, T::String, nullptr, true, false}; }
ProtobufField message(quint32 n, const char *json, MessageFn m)
{
    return ProtobufField{n, json, T::Message, m, false, false};
}
ProtobufField messages(quint32 n, const char *json, MessageFn m)
{
    return ProtobufField{n, json, T::Message, m, true, false};
}

// The message tables, kept one field list a message as written.
// clang-format off
const ProtobufMessage &ownerReference()
{
    static const ProtobufMessage m{"OwnerReference",
                                   {scalar(1, "kind", T::String), scalar(3, "name", T::String), scalar(4, "uid", T::String),
                                    scalar(5, "apiVersion", T::String), pointer(6, "controller", T::Bool),
                                    pointer(7, "blockOwnerDeletion", T::Bool)}};
    return m;
}

const ProtobufMessage &objectMeta()
{
    static const ProtobufMessage m{
        "ObjectMeta",
        {scalar(1, "name", T::String), scalar(2, "generateName", T::String), scalar(3, "namespace", T::String),
         scalar(4, "selfLink", T::String), scalar(5, "uid", T::String), scalar(6, "resourceVersion", T::String),
         scalar(7, "generation", T::Int), scalar(8, "creationTimestamp", T::Time), scalar(9, "deletionTimestamp", T::Time),
         pointer(10, "deletionGracePeriodSeconds", T::Int), scalar(11, "labels", T::StringMap), scalar(12, "annotations", T::StringMap),
         messages(13, "ownerReferences", &ownerReference), strings(14, "finalizers")}};
    return m;
}

const ProtobufMessage &labelSelectorRequirement()
{
    static const ProtobufMessage m{"LabelSelectorRequirement", {scalar(1, "key", T::String), scalar(2, "operator", T::String), strings(3, "values")}};
    return m;
}

const ProtobufMessage &labelSelector()
{
    static const ProtobufMessage m{"LabelSelector", {scalar(1, "matchLabels", T::StringMap), messages(2, "matchExpressions", &labelSelectorRequirement)}};
    return m;
}

const ProtobufMessage &containerPort()
{
    static const ProtobufMessage m{"ContainerPort",
                                   {scalar(1, "name", T::String), scalar(2, "hostPort", T::Int), scalar(3, "containerPort", T::Int),
                                    scalar(4, "protocol", T::String), scalar(5, "hostIP", T::String)}};
    return m;
}

const ProtobufMessage &envVar()
{
    static const ProtobufMessage m{"EnvVar", {scalar(1, "name", T::String), scalar(2, "value", T::String)}};
    return m;
}

const ProtobufMessage &resourceRequirements()
{
    static const ProtobufMessage m{"ResourceRequirements", {scalar(1, "limits", T::QuantityMap), scalar(2, "requests", T::QuantityMap)}};
    return m;
}

const ProtobufMessage &volumeMount()
{
    static const ProtobufMessage m{"VolumeMount",
                                   {scalar(1, "name", T::String), scalar(2, "readOnly", T::Bool), scalar(3, "mountPath", T::String),
                                    scalar(4, "subPath", T::String), scalar(6, "subPathExpr", T::String)}};
    return m;
}

const ProtobufMessage &container()
{
    static const ProtobufMessage m{
        "Container",
        {scalar(1, "name", T::String), scalar(2, "image", T::String), strings(3, "command"), strings(4, "args"),
         scalar(5, "workingDir", T::String), messages(6, "ports", &containerPort), messages(7, "env", &envVar),
         message(8, "resources", &resourceRequirements), messages(9, "volumeMounts", &volumeMount),
         scalar(13, "terminationMessagePath", T::String), scalar(14, "imagePullPolicy", T::String), scalar(16, "stdin", T::Bool),
         scalar(17, "stdinOnce", T::Bool), scalar(18, "tty", T::Bool), scalar(20, "terminationMessagePolicy", T::String)}};
    return m;
}

const ProtobufMessage &localObjectReference()
{
    static const ProtobufMessage m{"LocalObjectReference", {scalar(1, "name", T::String)}};
    return m;
}

const ProtobufMessage &podSpec()
{
    static const ProtobufMessage m{
        "PodSpec",
        {messages(2, "containers", &container), scalar(3, "restartPolicy", T::String), pointer(4, "terminationGracePeriodSeconds", T::Int),
         pointer(5, "activeDeadlineSeconds", T::Int), scalar(6, "dnsPolicy", T::String), scalar(7, "nodeSelector", T::StringMap),
         scalar(8, "serviceAccountName", T::String), scalar(9, "serviceAccount", T::String), scalar(10, "nodeName", T::String),
         scalar(11, "hostNetwork", T::Bool), scalar(12, "hostPID", T::Bool), scalar(13, "hostIPC", T::Bool),
         messages(15, "imagePullSecrets", &localObjectReference), scalar(16, "hostname", T::String), scalar(17, "subdomain", T::String),
         scalar(19, "schedulerName", T::String), messages(20, "initContainers", &container),
         pointer(21, "automountServiceAccountToken", T::Bool), scalar(24, "priorityClassName", T::String), pointer(25, "priority", T::Int),
         pointer(27, "shareProcessNamespace", T::Bool), pointer(30, "enableServiceLinks", T::Bool)}};
    return m;
}

const ProtobufMessage &podTemplateSpec()
{
    static const ProtobufMessage m{"PodTemplateSpec", {message(1, "metadata", &objectMeta), message(2, "spec", &podSpec)}};
    return m;
}

const ProtobufMessage &podStatus()
{
    static const ProtobufMessage m{"PodStatus", {scalar(1, "phase", T::String)}};
    return m;
}

const ProtobufMessage &pod()
{
    static const ProtobufMessage m{"Pod", {message(1, "metadata", &objectMeta), message(2, "spec", &podSpec), message(3, "status", &podStatus)}};
    return m;
}

const ProtobufMessage &rollingUpdateDeployment()
{
    static const ProtobufMessage m{"RollingUpdateDeployment", {scalar(1, "maxUnavailable", T::IntOrString), scalar(2, "maxSurge", T::IntOrString)}};
    return m;
}

const ProtobufMessage &deploymentStrategy()
{
    static const ProtobufMessage m{"DeploymentStrategy", {scalar(1, "type", T::String), message(2, "rollingUpdate", &rollingUpdateDeployment)}};
    return m;
}

const ProtobufMessage &deploymentSpec()
{
    static const ProtobufMessage m{
        "DeploymentSpec",
        {pointer(1, "replicas", T::Int), message(2, "selector", &labelSelector), message(3, "template", &podTemplateSpec),
         message(4, "strategy", &deploymentStrategy), scalar(5, "minReadySeconds", T::Int), pointer(6, "revisionHistoryLimit", T::Int),
         scalar(7, "paused", T::Bool), pointer(9, "progressDeadlineSeconds", T::Int)}};
    return m;
}

const ProtobufMessage &deploymentStatus()
{
    static const ProtobufMessage m{
        "DeploymentStatus",
        {scalar(1, "observedGeneration", T::Int), scalar(2, "replicas", T::Int), scalar(3, "updatedReplicas", T::Int),
         scalar(4, "availableReplicas", T::Int), scalar(5, "unavailableReplicas", T::Int), scalar(7, "readyReplicas", T::Int),
         pointer(8, "collisionCount", T::Int)}};
    return m;
}

const ProtobufMessage &deployment()
{
    static const ProtobufMessage m{
        "Deployment", {message(1, "metadata", &objectMeta), message(2, "spec", &deploymentSpec), message(3, "status", &deploymentStatus)}};
    return m;
}

const ProtobufMessage &configMap()
{
    static const ProtobufMessage m{"ConfigMap",
                                   {message(1, "metadata", &objectMeta), scalar(2, "data", T::StringMap), scalar(3, "binaryData", T::BytesMap),
                                    pointer(4, "immutable", T::Bool)}};
    return m;
}

const ProtobufMessage &secret()
{
    static const ProtobufMessage m{"Secret",
                                   {message(1, "metadata", &objectMeta), scalar(2, "data", T::BytesMap), scalar(3, "type", T::String),
                                    scalar(4, "stringData", T::StringMap), pointer(5, "immutable", T::Bool)}};
    return m;
}

const ProtobufMessage &namespaceSpec()
{
    static const ProtobufMessage m{"NamespaceSpec", {strings(1, "finalizers")}};
    return m;
}

const ProtobufMessage &namespaceStatus()
{
    static const ProtobufMessage m{"NamespaceStatus", {scalar(1, "phase", T::String)}};
    return m;
}

const ProtobufMessage &namespaceMessage()
{
    static const ProtobufMessage m{
        "Namespace", {message(1, "metadata", &objectMeta), message(2, "spec", &namespaceSpec), message(3, "status", &namespaceStatus)}};
    return m;
}

// authorization.k8s.io/v1 and authentication.k8s.io/v1 reviews (kubectl >= 1.33 `auth can-i`,
// `auth whoami`); their status is never read from a request.
const ProtobufMessage &resourceAttributes()
{
    static const ProtobufMessage m{"ResourceAttributes",
                                   {scalar(1, "namespace", T::String), scalar(2, "verb", T::String), scalar(3, "group", T::String),
                                    scalar(4, "version", T::String), scalar(5, "resource", T::String), scalar(6, "subresource", T::String),
                                    scalar(7, "name", T::String)}};
    return m;
}

const ProtobufMessage &nonResourceAttributes()
{
    static const ProtobufMessage m{"NonResourceAttributes", {scalar(1, "path", T::String), scalar(2, "verb", T::String)}};
    return m;
}

const ProtobufMessage &subjectAccessReviewSpec()
{
    static const ProtobufMessage m{"SubjectAccessReviewSpec",
                                   {message(1, "resourceAttributes", &resourceAttributes), message(2, "nonResourceAttributes", &nonResourceAttributes),
                                    scalar(3, "user", T::String), strings(4, "groups"), scalar(6, "uid", T::String)}};
    return m;
}

const ProtobufMessage &subjectAccessReview()
{
    static const ProtobufMessage m{"SubjectAccessReview", {message(1, "metadata", &objectMeta), message(2, "spec", &subjectAccessReviewSpec)}};
    return m;
}

const ProtobufMessage &selfSubjectRulesReviewSpec()
{
    static const ProtobufMessage m{"SelfSubjectRulesReviewSpec", {scalar(1, "namespace", T::String)}};
    return m;
}

const ProtobufMessage &selfSubjectRulesReview()
{
    static const ProtobufMessage m{"SelfSubjectRulesReview", {message(1, "metadata", &objectMeta), message(2, "spec", &selfSubjectRulesReviewSpec)}};
    return m;
}

const ProtobufMessage &selfSubjectReview()
{
    static const ProtobufMessage m{"SelfSubjectReview", {message(1, "metadata", &objectMeta)}};
    return m;
}

struct TopLevel
{
    const char *apiVersion;
    const char *kind;
    MessageFn message;
};

constexpr TopLevel kTopLevel[] = {
    {"v1", "ConfigMap", &configMap}, {"v1", "Namespace", &namespaceMessage}, {"v1", "Pod", &pod},
    {"v1", "Secret", &secret},       {"apps/v1", "Deployment", &deployment},
    // SelfSubjectAccessReviewSpec is SubjectAccessReviewSpec's fields 1 and 2
    {"authorization.k8s.io/v1", "SelfSubjectAccessReview", &subjectAccessReview},
    {"authorization.k8s.io/v1", "SubjectAccessReview", &subjectAccessReview},
    {"authorization.k8s.io/v1", "LocalSubjectAccessReview", &subjectAccessReview},
    {"authorization.k8s.io/v1", "SelfSubjectRulesReview", &selfSubjectRulesReview},
    {"authentication.k8s.io/v1", "SelfSubjectReview", &selfSubjectReview},
    {"authentication.k8s.io/v1beta1", "SelfSubjectReview", &selfSubjectReview},
};

} // namespace

const ProtobufField *ProtobufMessage::field(quint32 number) const
{
    for (const ProtobufField &f : fields)
        if (f.number == number)
            return &f;
    return nullptr;
}

const ProtobufMessage *protobufMessageFor(const QString &apiVersion, const QString &kind)
{
    for (const TopLevel &t : kTopLevel)
        if (apiVersion == QLatin1String(t.apiVersion) && kind == QLatin1String(t.kind))
            return &t.message();
    return nullptr;
}

QString protobufSupportedKinds()
{
    QStringList names;
    for (const TopLevel &t : kTopLevel)
        names << QLatin1String(t.apiVersion) + u' ' + QLatin1String(t.kind);
    return names.join(QLatin1String(", "));
}

// clang-format on
} // namespace opbench::apiserver
