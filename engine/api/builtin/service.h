// SPDX-License-Identifier: Apache-2.0
#pragma once
// Service (core/v1): type, selector and typed ports. setPorts() overlays onto the ports the
// server returned, so its defaults (protocol TCP, targetPort = port, nodePort for NodePort
// Services) and its allocations (clusterIP, clusterIPs, ipFamilies, …) stay untouched:
//
//     Service s(ns, name);
//     s.setSelector({{"app", name}});
//     s.setPorts({ServicePort{.name = "http", .port = 80, .targetPort = 8080}});

#include "engine/api/builtin/container.h"
#include "engine/api/kind.h"
#include "engine/api/objectview.h"

namespace opbench {

struct ServicePort
{
    QString name;
    int port = 0;
    std::optional<IntOrString> targetPort; ///< = port when unset (a server default)
    QString protocol;                      ///< "TCP" when unset (a server default)
    std::optional<int> nodePort;           ///< allocated by the server for NodePort/LoadBalancer
    QJsonObject toJson() const;
    static ServicePort fromJson(const QJsonObject &o);
    friend bool operator==(const ServicePort &, const ServicePort &) = default;
};

class Service : public ObjectView
{
public:
    /// v1 Service, "services", namespaced.
    static const KindInfo &kindInfo();

    /// A new, empty v1 Service.
    Service();
    /// A new v1 Service `name` in `namespaceName`.
    Service(const QString &namespaceName, const QString &name);
    explicit Service(const Object &object)
        : ObjectView(object)
    { }

    /// spec.type: "ClusterIP" (also when absent), "NodePort", "LoadBalancer", "ExternalName".
    QString type() const;
    void setType(const QString &type) { setAt({"spec", "type"}, type); }
    /// spec.selector (a plain label map).
    Labels selector() const { return toStringMap(at({"spec", "selector"}).toObject()); }
    /// Sets spec.selector to exactly `selector`; an empty map removes it.
    void setSelector(const Labels &selector);
    QList<ServicePort> ports() const;
    /// Overlays `ports` onto spec.ports (same count: element by element; otherwise replaced).
    void setPorts(const QList<ServicePort> &ports);
    /// Sets spec.ports to exactly `ports` (unset fields are removed; the server defaults them again).
    void replacePorts(const QList<ServicePort> &ports);
    /// spec.clusterIP ("None" for a headless Service; allocated by the server when unset).
    QString clusterIP() const { return stringAt({"spec", "clusterIP"}); }
    /// Sets spec.clusterIP; "None" makes the Service headless (set it at creation: it is immutable).
    void setClusterIP(const QString &ip) { setAt({"spec", "clusterIP"}, ip); }
};

} // namespace opbench
