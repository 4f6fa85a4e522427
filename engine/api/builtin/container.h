// SPDX-License-Identifier: Apache-2.0
#pragma once
// Value types of a container (core/v1), as short as Go struct literals:
//
//     Container{.name = "memcached", .image = "memcached:1.6",
//               .command = {"memcached", "-m=64", "-o", "modern", "-v"},
//               .ports = {ContainerPort{.name = "memcached", .containerPort = 11211}},
//               .securityContext = SecurityContext{.runAsNonRoot = true, .runAsUser = 1001,
//                   .allowPrivilegeEscalation = false, .capabilities = Capabilities{.drop = {"ALL"}}}}
//
// Unset fields (empty strings and lists, disengaged optionals) are omitted by toJson(), so a
// setter overlays only what the author said (engine/api/builtin/overlay.h). fromJson() reads the
// fields these types know; others are dropped (the views keep them in the object). These are
// aggregates: build them in a setter's arguments, not inside a co_await expression (the g++ 12
// trap, see the SDK docs).

#include "engine/api/object.h"

#include <QJsonObject>
#include <QStringList>

#include <optional>

namespace opbench {

/// An int or a string (a port number or a port name): `.targetPort = 8080`, `.port = "http"`.
class IntOrString
{
public:
    IntOrString(int value)
        : m_int(value)
        , m_isInt(true)
    { }
    IntOrString(QString name)
        : m_string(std::move(name))
    { }
    IntOrString(const char *name)
        : m_string(QString::fromUtf8(name))
    { }
    bool isInt() const { return m_isInt; }
    int intValue() const { return m_isInt ? m_int : 0; }
    QString stringValue() const { return m_isInt ? QString() : m_string; }
    QJsonValue toJson() const;
    /// Absent or of another type → std::nullopt.
    static std::optional<IntOrString> fromJson(const QJsonValue &v);
    friend bool operator==(const IntOrString &, const IntOrString &) = default;

private:
    // Two members rather than std::variant<int, QString>: g++ 12 at -O1 (the sanitizer build)
    // reports a false maybe-uninitialized in the variant's move, and -Werror makes it fatal.
    QString m_string;
    int m_int = 0;
    bool m_isInt = false;
};

struct ContainerPort
{
    QString name;
    int containerPort = 0;
    QString protocol; ///< "TCP" when unset (a server default)
    QJsonObject toJson() const;
    static ContainerPort fromJson(const QJsonObject &o);
    friend bool operator==(const ContainerPort &, const ContainerPort &) = default;
};

/// secretKeyRef / configMapKeyRef.
struct KeySelector
{
    QString name; ///< the Secret's or ConfigMap's name
    QString key;
    std::optional<bool> optional;
    QJsonObject toJson() const;
    static KeySelector fromJson(const QJsonObject &o);
    friend bool operator==(const KeySelector &, const KeySelector &) = default;
};

struct EnvVarSource
{
    std::optional<KeySelector> secretKeyRef;
    std::optional<KeySelector> configMapKeyRef;
    QString fieldPath; ///< fieldRef.fieldPath ("metadata.name", "status.podIP")
    QJsonObject toJson() const;
    static EnvVarSource fromJson(const QJsonObject &o);
    friend bool operator==(const EnvVarSource &, const EnvVarSource &) = default;
};

struct EnvVar
{
    QString name;
    QString value;
    std::optional<EnvVarSource> valueFrom;
    /// `name` from key `key` of Secret `secret`.
    static EnvVar fromSecret(const QString &name, const QString &secret, const QString &key);
    /// `name` from key `key` of ConfigMap `configMap`.
    static EnvVar fromConfigMap(const QString &name, const QString &configMap, const QString &key);
    QJsonObject toJson() const;
    static EnvVar fromJson(const QJsonObject &o);
    friend bool operator==(const EnvVar &, const EnvVar &) = default;
};

/// Quantities as strings: {{"cpu", "100m"}, {"memory", "64Mi"}}.
struct ResourceRequirements
{
    Labels requests;
    Labels limits;
    QJsonObject toJson() const;
    static ResourceRequirements fromJson(const QJsonObject &o);
    friend bool operator==(const ResourceRequirements &, const ResourceRequirements &) = default;
};

struct Capabilities
{
    QStringList add;
    QStringList drop; ///< {"ALL"}
    QJsonObject toJson() const;
    static Capabilities fromJson(const QJsonObject &o);
    friend bool operator==(const Capabilities &, const Capabilities &) = default;
};

struct SeccompProfile
{
    QString type; ///< "RuntimeDefault", "Localhost", "Unconfined"
    QString localhostProfile;
    QJsonObject toJson() const;
    static SeccompProfile fromJson(const QJsonObject &o);
    friend bool operator==(const SeccompProfile &, const SeccompProfile &) = default;
};

/// A container's securityContext.
struct SecurityContext
{
    std::optional<bool> runAsNonRoot;
    std::optional<qint64> runAsUser;
    std::optional<qint64> runAsGroup;
    std::optional<bool> allowPrivilegeEscalation;
    std::optional<bool> readOnlyRootFilesystem;
    std::optional<bool> privileged;
    std::optional<Capabilities> capabilities;
    std::optional<SeccompProfile> seccompProfile;
    QJsonObject toJson() const;
    static SecurityContext fromJson(const QJsonObject &o);
    friend bool operator==(const SecurityContext &, const SecurityContext &) = default;
};

struct HTTPGetAction
{
    QString path; ///< "/" when unset (a server default)
    std::optional<IntOrString> port;
    QString scheme; ///< "HTTP" when unset (a server default)
    QJsonObject toJson() const;
    static HTTPGetAction fromJson(const QJsonObject &o);
    friend bool operator==(const HTTPGetAction &, const HTTPGetAction &) = default;
};

struct TCPSocketAction
{
    std::optional<IntOrString> port;
    QJsonObject toJson() const;
    static TCPSocketAction fromJson(const QJsonObject &o);
    friend bool operator==(const TCPSocketAction &, const TCPSocketAction &) = default;
};

struct ExecAction
{
    QStringList command;
    QJsonObject toJson() const;
    static ExecAction fromJson(const QJsonObject &o);
    friend bool operator==(const ExecAction &, const ExecAction &) = default;
};

/// One of httpGet, tcpSocket, exec; timings default on the server (period 10 s, timeout 1 s, …).
struct Probe
{
    std::optional<HTTPGetAction> httpGet;
    std::optional<TCPSocketAction> tcpSocket;
    std::optional<ExecAction> exec;
    std::optional<int> initialDelaySeconds;
    std::optional<int> periodSeconds;
    std::optional<int> timeoutSeconds;
    std::optional<int> successThreshold;
    std::optional<int> failureThreshold;
    QJsonObject toJson() const;
    static Probe fromJson(const QJsonObject &o);
    friend bool operator==(const Probe &, const Probe &) = default;
};

struct VolumeMount
{
    QString name;
    QString mountPath;
    std::optional<bool> readOnly;
    QString subPath;
    QJsonObject toJson() const;
    static VolumeMount fromJson(const QJsonObject &o);
    friend bool operator==(const VolumeMount &, const VolumeMount &) = default;
};

struct Container
{
    QString name;
    QString image;
    QStringList command;
    QStringList args;
    QList<ContainerPort> ports;
    QList<EnvVar> env;
    std::optional<ResourceRequirements> resources;
    std::optional<SecurityContext> securityContext;
    std::optional<Probe> livenessProbe;
    std::optional<Probe> readinessProbe;
    std::optional<Probe> startupProbe;
    QString imagePullPolicy; ///< set by the server from the image's tag when unset
    QList<VolumeMount> volumeMounts;
    QString workingDir;
    QJsonObject toJson() const;
    static Container fromJson(const QJsonObject &o);
    friend bool operator==(const Container &, const Container &) = default;
};

} // namespace opbench
