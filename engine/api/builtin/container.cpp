// SPDX-License-Identifier: Apache-2.0
#include "engine/api/builtin/container.h"

#include "engine/api/builtin/jsonfields_p.h"

namespace opbench {

using namespace builtin_json;

namespace {
void putPort(QJsonObject &o, const char *k, const std::optional<IntOrString> &v)
{
    if (v)
        o.insert(key(k), v->toJson());
}
} // namespace

QJsonValue IntOrString::toJson() const { return isInt() ? QJsonValue(intValue()) : QJsonValue(stringValue()); }

std::optional<IntOrString> IntOrString::fromJson(const QJsonValue &v)
{
    if (v.isDouble())
        return IntOrString(v.toInt());
    if (v.isString())
        return IntOrString(v.toString());
    return std::nullopt;
}

QJsonObject ContainerPort::toJson() const
{
    QJsonObject o;
    put(o, "name", name);
    o.insert(key("containerPort"), containerPort);
    put(o, "protocol", protocol);
    return o;
}

ContainerPort ContainerPort::fromJson(const QJsonObject &o)
{
    return {
        .name = str(o, "name"), .containerPort = o.value(key("containerPort")).toInt(), .protocol = str(o, "protocol")};
}

QJsonObject KeySelector::toJson() const
{
    QJsonObject o;
    put(o, "name", name);
    put(o, "key", key);
    put(o, "optional", optional);
    return o;
}

KeySelector KeySelector::fromJson(const QJsonObject &o)
{
    return {.name = str(o, "name"), .key = str(o, "key"), .optional = optBool(o, "optional")};
}

QJsonObject EnvVarSource::toJson() const
{
    QJsonObject o;
    putValue(o, "secretKeyRef", secretKeyRef);
    putValue(o, "configMapKeyRef", configMapKeyRef);
    if (!fieldPath.isEmpty())
        o.insert(key("fieldRef"), QJsonObject{{QStringLiteral("fieldPath"), fieldPath}});
    return o;
}

EnvVarSource EnvVarSource::fromJson(const QJsonObject &o)
{
    return {.secretKeyRef = optValue<KeySelector>(o, "secretKeyRef"),
        .configMapKeyRef = optValue<KeySelector>(o, "configMapKeyRef"),
        .fieldPath = str(o.value(key("fieldRef")).toObject(), "fieldPath")};
}

EnvVar EnvVar::fromSecret(const QString &name, const QString &secret, const QString &key)
{
    return {.name = name, .valueFrom = EnvVarSource{.secretKeyRef = KeySelector{.name = secret, .key = key}}};
}

EnvVar EnvVar::fromConfigMap(const QString &name, const QString &configMap, const QString &key)
{
    return {.name = name, .valueFrom = EnvVarSource{.configMapKeyRef = KeySelector{.name = configMap, .key = key}}};
}

QJsonObject EnvVar::toJson() const
{
    QJsonObject o;
    put(o, "name", name);
    put(o, "value", value);
    putValue(o, "valueFrom", valueFrom);
    return o;
}

EnvVar EnvVar::fromJson(const QJsonObject &o)
{
    return {.name = str(o, "name"), .value = str(o, "value"), .valueFrom = optValue<EnvVarSource>(o, "valueFrom")};
}

QJsonObject ResourceRequirements::toJson() const
{
    QJsonObject o;
    put(o, "requests", requests);
    put(o, "limits", limits);
    return o;
}

ResourceRequirements ResourceRequirements::fromJson(const QJsonObject &o)
{
    return {.requests = strMap(o, "requests"), .limits = strMap(o, "limits")};
}

QJsonObject Capabilities::toJson() const
{
    QJsonObject o;
    put(o, "add", add);
    put(o, "drop", drop);
    return o;
}

Capabilities Capabilities::fromJson(const QJsonObject &o)
{
    return {.add = strList(o, "add"), .drop = strList(o, "drop")};
}

QJsonObject SeccompProfile::toJson() const
{
    QJsonObject o;
    put(o, "type", type);
    put(o, "localhostProfile", localhostProfile);
    return o;
}

SeccompProfile SeccompProfile::fromJson(const QJsonObject &o)
{
    return {.type = str(o, "type"), .localhostProfile = str(o, "localhostProfile")};
}

QJsonObject SecurityContext::toJson() const
{
    QJsonObject o;
    put(o, "runAsNonRoot", runAsNonRoot);
    put(o, "runAsUser", runAsUser);
    put(o, "runAsGroup", runAsGroup);
    put(o, "allowPrivilegeEscalation", allowPrivilegeEscalation);
    put(o, "readOnlyRootFilesystem", readOnlyRootFilesystem);
    put(o, "privileged", privileged);
    putValue(o, "capabilities", capabilities);
    putValue(o, "seccompProfile", seccompProfile);
    return o;
}

SecurityContext SecurityContext::fromJson(const QJsonObject &o)
{
    return {.runAsNonRoot = optBool(o, "runAsNonRoot"),
        .runAsUser = optInt64(o, "runAsUser"),
        .runAsGroup = optInt64(o, "runAsGroup"),
        .allowPrivilegeEscalation = optBool(o, "allowPrivilegeEscalation"),
        .readOnlyRootFilesystem = optBool(o, "readOnlyRootFilesystem"),
        .privileged = optBool(o, "privileged"),
        .capabilities = optValue<Capabilities>(o, "capabilities"),
        .seccompProfile = optValue<SeccompProfile>(o, "seccompProfile")};
}

QJsonObject HTTPGetAction::toJson() const
{
    QJsonObject o;
    put(o, "path", path);
    putPort(o, "port", port);
    put(o, "scheme", scheme);
    return o;
}

HTTPGetAction HTTPGetAction::fromJson(const QJsonObject &o)
{
    return {.path = str(o, "path"), .port = IntOrString::fromJson(o.value(key("port"))), .scheme = str(o, "scheme")};
}

QJsonObject TCPSocketAction::toJson() const
{
    QJsonObject o;
    putPort(o, "port", port);
    return o;
}

TCPSocketAction TCPSocketAction::fromJson(const QJsonObject &o)
{
    return {.port = IntOrString::fromJson(o.value(key("port")))};
}

QJsonObject ExecAction::toJson() const
{
    QJsonObject o;
    put(o, "command", command);
    return o;
}

ExecAction ExecAction::fromJson(const QJsonObject &o) { return {.command = strList(o, "command")}; }

QJsonObject Probe::toJson() const
{
    QJsonObject o;
    putValue(o, "httpGet", httpGet);
    putValue(o, "tcpSocket", tcpSocket);
    putValue(o, "exec", exec);
    put(o, "initialDelaySeconds", initialDelaySeconds);
    put(o, "periodSeconds", periodSeconds);
    put(o, "timeoutSeconds", timeoutSeconds);
    put(o, "successThreshold", successThreshold);
    put(o, "failureThreshold", failureThreshold);
    return o;
}

Probe Probe::fromJson(const QJsonObject &o)
{
    return {.httpGet = optValue<HTTPGetAction>(o, "httpGet"),
        .tcpSocket = optValue<TCPSocketAction>(o, "tcpSocket"),
        .exec = optValue<ExecAction>(o, "exec"),
        .initialDelaySeconds = optInt(o, "initialDelaySeconds"),
        .periodSeconds = optInt(o, "periodSeconds"),
        .timeoutSeconds = optInt(o, "timeoutSeconds"),
        .successThreshold = optInt(o, "successThreshold"),
        .failureThreshold = optInt(o, "failureThreshold")};
}

QJsonObject VolumeMount::toJson() const
{
    QJsonObject o;
    put(o, "name", name);
    put(o, "mountPath", mountPath);
    put(o, "readOnly", readOnly);
    put(o, "subPath", subPath);
    return o;
}

VolumeMount VolumeMount::fromJson(const QJsonObject &o)
{
    return {.name = str(o, "name"),
        .mountPath = str(o, "mountPath"),
        .readOnly = optBool(o, "readOnly"),
        .subPath = str(o, "subPath")};
}

QJsonObject Container::toJson() const
{
    QJsonObject o;
    put(o, "name", name);
    put(o, "image", image);
    put(o, "command", command);
    put(o, "args", args);
    putList(o, "ports", ports);
    putList(o, "env", env);
    putValue(o, "resources", resources);
    putValue(o, "securityContext", securityContext);
    putValue(o, "livenessProbe", livenessProbe);
    putValue(o, "readinessProbe", readinessProbe);
    putValue(o, "startupProbe", startupProbe);
    put(o, "imagePullPolicy", imagePullPolicy);
    putList(o, "volumeMounts", volumeMounts);
    put(o, "workingDir", workingDir);
    return o;
}

Container Container::fromJson(const QJsonObject &o)
{
    return {.name = str(o, "name"),
        .image = str(o, "image"),
        .command = strList(o, "command"),
        .args = strList(o, "args"),
        .ports = list<ContainerPort>(o, "ports"),
        .env = list<EnvVar>(o, "env"),
        .resources = optValue<ResourceRequirements>(o, "resources"),
        .securityContext = optValue<SecurityContext>(o, "securityContext"),
        .livenessProbe = optValue<Probe>(o, "livenessProbe"),
        .readinessProbe = optValue<Probe>(o, "readinessProbe"),
        .startupProbe = optValue<Probe>(o, "startupProbe"),
        .imagePullPolicy = str(o, "imagePullPolicy"),
        .volumeMounts = list<VolumeMount>(o, "volumeMounts"),
        .workingDir = str(o, "workingDir")};
}

} // namespace opbench
