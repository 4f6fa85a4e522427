// SPDX-License-Identifier: Apache-2.0
#pragma once
// Value types of a pod template (core/v1 PodTemplateSpec), as short as Go struct literals:
//
//     PodTemplate{.labels = {{"app", name}},
//                 .containers = {Container{.name = "web", .image = "nginx:1.25"}},
//                 .securityContext = PodSecurityContext{.runAsNonRoot = true,
//                     .seccompProfile = SeccompProfile{.type = "RuntimeDefault"}}}
//
// Same conventions as container.h: unset fields are omitted by toJson(); aggregates.

#include "engine/api/builtin/container.h"

namespace opbench {

/// A pod's securityContext.
struct PodSecurityContext
{
    std::optional<bool> runAsNonRoot;
    std::optional<qint64> runAsUser;
    std::optional<qint64> runAsGroup;
    std::optional<qint64> fsGroup;
    std::optional<SeccompProfile> seccompProfile;
    QJsonObject toJson() const;
    static PodSecurityContext fromJson(const QJsonObject &o);
    friend bool operator==(const PodSecurityContext &, const PodSecurityContext &) = default;
};

struct ConfigMapVolumeSource
{
    QString name;
    std::optional<int> defaultMode; ///< 0644 (420) when unset (a server default)
    QJsonObject toJson() const;
    static ConfigMapVolumeSource fromJson(const QJsonObject &o);
    friend bool operator==(const ConfigMapVolumeSource &, const ConfigMapVolumeSource &) = default;
};

struct SecretVolumeSource
{
    QString secretName;
    std::optional<int> defaultMode; ///< 0644 (420) when unset (a server default)
    QJsonObject toJson() const;
    static SecretVolumeSource fromJson(const QJsonObject &o);
    friend bool operator==(const SecretVolumeSource &, const SecretVolumeSource &) = default;
};

struct EmptyDirVolumeSource
{
    QString medium; ///< "" or "Memory"
    QString sizeLimit;
    QJsonObject toJson() const;
    static EmptyDirVolumeSource fromJson(const QJsonObject &o);
    friend bool operator==(const EmptyDirVolumeSource &, const EmptyDirVolumeSource &) = default;
};

struct PersistentVolumeClaimVolumeSource
{
    QString claimName;
    std::optional<bool> readOnly;
    QJsonObject toJson() const;
    static PersistentVolumeClaimVolumeSource fromJson(const QJsonObject &o);
    friend bool operator==(const PersistentVolumeClaimVolumeSource &, const PersistentVolumeClaimVolumeSource &)
        = default;
};

/// A pod volume: a name and one source (none set → emptyDir, as the server defaults).
struct Volume
{
    QString name;
    std::optional<ConfigMapVolumeSource> configMap;
    std::optional<SecretVolumeSource> secret;
    std::optional<EmptyDirVolumeSource> emptyDir;
    std::optional<PersistentVolumeClaimVolumeSource> persistentVolumeClaim;
    QJsonObject toJson() const;
    static Volume fromJson(const QJsonObject &o);
    friend bool operator==(const Volume &, const Volume &) = default;
};

/// spec.template of a Deployment, StatefulSet or Job: metadata (labels, annotations) and the
/// pod spec fields operators set.
struct PodTemplate
{
    Labels labels;
    Labels annotations;
    QList<Container> containers;
    QList<Container> initContainers;
    QString serviceAccountName;
    std::optional<PodSecurityContext> securityContext;
    QList<Volume> volumes;
    QString restartPolicy; ///< "Always" when unset; Jobs need "Never" or "OnFailure"
    Labels nodeSelector;
    std::optional<qint64> terminationGracePeriodSeconds;
    /// {metadata: {labels, annotations}, spec: {…}} with unset fields omitted.
    QJsonObject toJson() const;
    /// The pod spec part of toJson().
    QJsonObject specJson() const;
    static PodTemplate fromJson(const QJsonObject &o);
    friend bool operator==(const PodTemplate &, const PodTemplate &) = default;
};

} // namespace opbench
