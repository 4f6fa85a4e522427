// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/validation/servicedefaults.h"

#include "engine/apiserver/validation/defaults.h"

#include <QHash>
#include <QJsonArray>

namespace opbench::apiserver::defaults {

namespace {

const QLatin1String kSpec("spec");
const QLatin1String kType("type");
const QLatin1String kClusterIp("clusterIP");
const QLatin1String kClusterIps("clusterIPs");
const QLatin1String kNodePort("nodePort");

QString typeOf(const QJsonObject &spec)
{
    const QString t = spec.value(kType).toString();
    return t.isEmpty() ? QStringLiteral("ClusterIP") : t;
}

bool isExternalName(const QJsonObject &spec) { return typeOf(spec) == QLatin1String("ExternalName"); }

quint32 fnv1a(const QString &key)
{
    quint32 h = 2166136261u;
    for (const char c : key.toUtf8()) {
        h ^= quint8(c);
        h *= 16777619u;
    }
    return h;
}

void defaultSessionAffinity(QJsonObject &spec)
{
    setDefaultString(spec, QLatin1String("sessionAffinity"), QStringLiteral("None"));
    const QString affinity = spec.value(QLatin1String("sessionAffinity")).toString();
    const QLatin1String configKey("sessionAffinityConfig");
    if (affinity == QLatin1String("None"))
        spec.remove(configKey);
    const QJsonValue timeout = spec.value(configKey)
                                   .toObject()
                                   .value(QLatin1String("clientIP"))
                                   .toObject()
                                   .value(QLatin1String("timeoutSeconds"));
    if (affinity == QLatin1String("ClientIP") && isUnset(timeout))
        spec.insert(configKey,
            QJsonObject{{QStringLiteral("clientIP"), QJsonObject{{QStringLiteral("timeoutSeconds"), 10800}}}});
}

void defaultPorts(QJsonObject &spec)
{
    editEach(spec, QLatin1String("ports"), [](QJsonObject &port) {
        setDefaultString(port, QLatin1String("protocol"), QStringLiteral("TCP"));
        const QJsonValue target = port.value(QLatin1String("targetPort"));
        if (isUnset(target) || (target.isDouble() && target.toInteger() == 0)
            || (target.isString() && target.toString().isEmpty()))
            port.insert(QLatin1String("targetPort"), port.value(QLatin1String("port")));
    });
}

/// The fields the real server's Service storage sets next to the allocation (a single-stack IPv4
/// cluster): clusterIP/clusterIPs mirrored, ipFamilyPolicy and ipFamilies.
void defaultIpFields(QJsonObject &spec)
{
    const QString ip = spec.value(kClusterIp).toString();
    const QJsonArray ips = spec.value(kClusterIps).toArray();
    if (!ip.isEmpty() && ips.isEmpty())
        spec.insert(kClusterIps, QJsonArray{ip});
    else if (ip.isEmpty() && !ips.isEmpty())
        spec.insert(kClusterIp, ips.first());
    const bool headlessWithoutSelector = spec.value(kClusterIp).toString() == QLatin1String("None")
        && spec.value(QLatin1String("selector")).toObject().isEmpty();
    setDefaultString(spec, QLatin1String("ipFamilyPolicy"),
        headlessWithoutSelector ? QStringLiteral("RequireDualStack") : QStringLiteral("SingleStack"));
    if (spec.value(QLatin1String("ipFamilies")).toArray().isEmpty())
        spec.insert(QLatin1String("ipFamilies"), QJsonArray{QStringLiteral("IPv4")});
}

} // namespace

void defaultService(QJsonObject &service)
{
    editObject(service, kSpec, [](QJsonObject &spec) {
        defaultSessionAffinity(spec);
        setDefaultString(spec, kType, QStringLiteral("ClusterIP"));
        defaultPorts(spec);
        const QString type = spec.value(kType).toString();
        const bool nodePorts = type == QLatin1String("NodePort") || type == QLatin1String("LoadBalancer");
        if (nodePorts
            || (type == QLatin1String("ClusterIP") && !spec.value(QLatin1String("externalIPs")).toArray().isEmpty()))
            setDefaultString(spec, QLatin1String("externalTrafficPolicy"), QStringLiteral("Cluster"));
        if (nodePorts || type == QLatin1String("ClusterIP"))
            setDefault(spec, QLatin1String("internalTrafficPolicy"), QStringLiteral("Cluster"));
        if (type == QLatin1String("LoadBalancer"))
            setDefault(spec, QLatin1String("allocateLoadBalancerNodePorts"), true);
        if (!isExternalName(spec))
            defaultIpFields(spec);
    });
}

bool needsClusterIp(const QJsonObject &serviceSpec)
{
    return !isExternalName(serviceSpec) && serviceSpec.value(kClusterIp).toString().isEmpty()
        && serviceSpec.value(kClusterIps).toArray().isEmpty();
}

QString allocateClusterIp(const QString &key, const QSet<QString> &used)
{
    constexpr quint32 base = (10u << 24) | (96u << 16); // 10.96.0.0/12
    constexpr quint32 first = 2;                        // .0 is the network, .1 the kubernetes Service
    constexpr quint32 count = (1u << 20) - 3;           // up to, not including, the broadcast address
    const quint32 start = fnv1a(key) % count;
    for (quint32 i = 0; i < count; ++i) {
        const quint32 a = base + first + (start + i) % count;
        const QString ip
            = QStringLiteral("%1.%2.%3.%4").arg(a >> 24).arg((a >> 16) & 255).arg((a >> 8) & 255).arg(a & 255);
        if (!used.contains(ip))
            return ip;
    }
    return {};
}

bool needsNodePorts(const QJsonObject &serviceSpec)
{
    const QString type = typeOf(serviceSpec);
    if (type == QLatin1String("NodePort"))
        return true;
    return type == QLatin1String("LoadBalancer")
        && serviceSpec.value(QLatin1String("allocateLoadBalancerNodePorts")).toBool(true);
}

int allocateNodePort(const QString &key, const QSet<int> &used)
{
    constexpr int first = 30000;
    constexpr int count = 32767 - first + 1;
    const int start = int(fnv1a(key) % count);
    for (int i = 0; i < count; ++i) {
        const int port = first + (start + i) % count;
        if (!used.contains(port))
            return port;
    }
    return 0;
}

void keepAllocatedServiceFields(QJsonObject &service, const QJsonObject &old)
{
    const QJsonObject oldSpec = old.value(kSpec).toObject();
    editObject(service, kSpec, [&oldSpec](QJsonObject &spec) {
        if (!isExternalName(oldSpec) && !isExternalName(spec)) {
            if (spec.value(kClusterIp).toString().isEmpty() && oldSpec.contains(kClusterIp))
                spec.insert(kClusterIp, oldSpec.value(kClusterIp));
            if (spec.value(kClusterIps).toArray().isEmpty() && oldSpec.contains(kClusterIps))
                spec.insert(kClusterIps, oldSpec.value(kClusterIps));
        }
        if (!needsNodePorts(oldSpec) || !needsNodePorts(spec))
            return;
        QHash<QString, QJsonValue> oldPorts;
        QSet<qint64> usedByNew;
        for (const QJsonValue &p : oldSpec.value(QLatin1String("ports")).toArray())
            oldPorts.insert(p.toObject().value(QLatin1String("name")).toString(), p.toObject().value(kNodePort));
        for (const QJsonValue &p : spec.value(QLatin1String("ports")).toArray())
            usedByNew.insert(p.toObject().value(kNodePort).toInteger());
        editEach(spec, QLatin1String("ports"), [&](QJsonObject &port) {
            const QJsonValue previous = oldPorts.value(port.value(QLatin1String("name")).toString());
            if (port.value(kNodePort).toInteger() == 0 && previous.toInteger() != 0
                && !usedByNew.contains(previous.toInteger()))
                port.insert(kNodePort, previous);
        });
    });
}

} // namespace opbench::apiserver::defaults
