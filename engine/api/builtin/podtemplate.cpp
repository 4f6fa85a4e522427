// SPDX-License-Identifier: Apache-2.0
#include "engine/api/builtin/podtemplate.h"

#include "engine/api/builtin/jsonfields_p.h"

namespace opbench {

using namespace builtin_json;

QJsonObject PodSecurityContext::toJson() const
{
    QJsonObject o;
    put(o, "runAsNonRoot", runAsNonRoot);
    put(o, "runAsUser", runAsUser);
    put(o, "runAsGroup", runAsGroup);
    put(o, "fsGroup", fsGroup);
    putValue(o, "seccompProfile", seccompProfile);
    return o;
}

PodSecurityContext PodSecurityContext::fromJson(const QJsonObject &o)
{
    return {.runAsNonRoot = optBool(o, "runAsNonRoot"),
        .runAsUser = optInt64(o, "runAsUser"),
        .runAsGroup = optInt64(o, "runAsGroup"),
        .fsGroup = optInt64(o, "fsGroup"),
        .seccompProfile = optValue<SeccompProfile>(o, "seccompProfile")};
}

QJsonObject ConfigMapVolumeSource::toJson() const
{
    QJsonObject o;
    put(o, "name", name);
    put(o, "defaultMode", defaultMode);
    return o;
}

ConfigMapVolumeSource ConfigMapVolumeSource::fromJson(const QJsonObject &o)
{
    return {.name = str(o, "name"), .defaultMode = optInt(o, "defaultMode")};
}

QJsonObject SecretVolumeSource::toJson() const
{
    QJsonObject o;
    put(o, "secretName", secretName);
    put(o, "defaultMode", defaultMode);
    return o;
}

SecretVolumeSource SecretVolumeSource::fromJson(const QJsonObject &o)
{
    return {.secretName = str(o, "secretName"), .defaultMode = optInt(o, "defaultMode")};
}

QJsonObject EmptyDirVolumeSource::toJson() const
{
    QJsonObject o;
    put(o, "medium", medium);
    put(o, "sizeLimit", sizeLimit);
    return o;
}

EmptyDirVolumeSource EmptyDirVolumeSource::fromJson(const QJsonObject &o)
{
    return {.medium = str(o, "medium"), .sizeLimit = str(o, "sizeLimit")};
}

QJsonObject PersistentVolumeClaimVolumeSource::toJson() const
{
    QJsonObject o;
    put(o, "claimName", claimName);
    put(o, "readOnly", readOnly);
    return o;
}

PersistentVolumeClaimVolumeSource PersistentVolumeClaimVolumeSource::fromJson(const QJsonObject &o)
{
    return {.claimName = str(o, "claimName"), .readOnly = optBool(o, "readOnly")};
}

QJsonObject Volume::toJson() const
{
    QJsonObject o;
    put(o, "name", name);
    putValue(o, "configMap", configMap);
    putValue(o, "secret", secret);
    putValue(o, "emptyDir", emptyDir);
    putValue(o, "persistentVolumeClaim", persistentVolumeClaim);
    return o;
}

Volume Volume::fromJson(const QJsonObject &o)
{
    return {.name = str(o, "name"),
        .configMap = optValue<ConfigMapVolumeSource>(o, "configMap"),
        .secret = optValue<SecretVolumeSource>(o, "secret"),
        .emptyDir = optValue<EmptyDirVolumeSource>(o, "emptyDir"),
        .persistentVolumeClaim = optValue<PersistentVolumeClaimVolumeSource>(o, "persistentVolumeClaim")};
}

QJsonObject PodTemplate::specJson() const
{
    QJsonObject spec;
    putList(spec, "containers", containers);
    putList(spec, "initContainers", initContainers);
    put(spec, "serviceAccountName", serviceAccountName);
    putValue(spec, "securityContext", securityContext);
    putList(spec, "volumes", volumes);
    put(spec, "restartPolicy", restartPolicy);
    put(spec, "nodeSelector", nodeSelector);
    put(spec, "terminationGracePeriodSeconds", terminationGracePeriodSeconds);
    return spec;
}

QJsonObject PodTemplate::toJson() const
{
    QJsonObject meta;
    put(meta, "labels", labels);
    put(meta, "annotations", annotations);
    QJsonObject o;
    put(o, "metadata", meta);
    put(o, "spec", specJson());
    return o;
}

PodTemplate PodTemplate::fromJson(const QJsonObject &o)
{
    const QJsonObject meta = o.value(key("metadata")).toObject();
    const QJsonObject spec = o.value(key("spec")).toObject();
    return {.labels = strMap(meta, "labels"),
        .annotations = strMap(meta, "annotations"),
        .containers = list<Container>(spec, "containers"),
        .initContainers = list<Container>(spec, "initContainers"),
        .serviceAccountName = str(spec, "serviceAccountName"),
        .securityContext = optValue<PodSecurityContext>(spec, "securityContext"),
        .volumes = list<Volume>(spec, "volumes"),
        .restartPolicy = str(spec, "restartPolicy"),
        .nodeSelector = strMap(spec, "nodeSelector"),
        .terminationGracePeriodSeconds = optInt64(spec, "terminationGracePeriodSeconds")};
}

} // namespace opbench
