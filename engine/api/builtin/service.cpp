// SPDX-License-Identifier: Apache-2.0
#include "engine/api/builtin/service.h"

#include "engine/api/builtin/jsonfields_p.h"
#include "engine/api/builtin/overlay.h"

namespace opbench {

using namespace builtin_json;

namespace {
QJsonArray portsJson(const QList<ServicePort> &ports)
{
    QJsonArray a;
    for (const ServicePort &p : ports)
        a.append(p.toJson());
    return a;
}
} // namespace

QJsonObject ServicePort::toJson() const
{
    QJsonObject o;
    put(o, "name", name);
    o.insert(key("port"), port);
    if (targetPort)
        o.insert(key("targetPort"), targetPort->toJson());
    put(o, "protocol", protocol);
    put(o, "nodePort", nodePort);
    return o;
}

ServicePort ServicePort::fromJson(const QJsonObject &o)
{
    return {.name = str(o, "name"),
        .port = o.value(key("port")).toInt(),
        .targetPort = IntOrString::fromJson(o.value(key("targetPort"))),
        .protocol = str(o, "protocol"),
        .nodePort = optInt(o, "nodePort")};
}

const KindInfo &Service::kindInfo()
{
    static const KindInfo info(
        GroupVersionKind(QString(), QStringLiteral("v1"), QStringLiteral("Service")), QStringLiteral("services"));
    return info;
}

Service::Service()
    : ObjectView(kindInfo().apiVersion(), kindInfo().gvk.kind)
{ }

Service::Service(const QString &namespaceName, const QString &name)
    : Service()
{
    meta().setNamespace(namespaceName);
    meta().setName(name);
}

QString Service::type() const
{
    const QString t = stringAt({"spec", "type"});
    return t.isEmpty() ? QStringLiteral("ClusterIP") : t;
}

void Service::setSelector(const Labels &selector)
{
    setAt({"spec", "selector"},
        selector.isEmpty() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(fromStringMap(selector)));
}

QList<ServicePort> Service::ports() const { return list<ServicePort>(at({"spec"}).toObject(), "ports"); }

void Service::setPorts(const QList<ServicePort> &ports) { overlayAt(m_json, {"spec", "ports"}, portsJson(ports)); }

void Service::replacePorts(const QList<ServicePort> &ports) { setAt({"spec", "ports"}, portsJson(ports)); }

} // namespace opbench
