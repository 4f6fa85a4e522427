// SPDX-License-Identifier: Apache-2.0
#pragma once
// Service defaulting (see defaults.h for the conventions) and the cluster IP allocation the real
// server's Service REST storage does. Allocation needs the other Services, so the Store calls
// allocateClusterIp with the addresses in use; everything here stays a pure function.

#include <QJsonObject>
#include <QSet>
#include <QString>

namespace opbench::apiserver::defaults {

/// core/v1 Service: type ClusterIP, sessionAffinity None (ClientIP gets sessionAffinityConfig
/// clientIP.timeoutSeconds 10800), ports[].protocol TCP, ports[].targetPort = port,
/// externalTrafficPolicy Cluster when externally accessible (NodePort, LoadBalancer, externalIPs),
/// internalTrafficPolicy Cluster (not for ExternalName), allocateLoadBalancerNodePorts true for
/// LoadBalancer; for every type but ExternalName ipFamilyPolicy (SingleStack; RequireDualStack
/// for a headless Service without selector) and ipFamilies ["IPv4"] (a single-stack IPv4
/// cluster); clusterIPs mirrors a set clusterIP.
void defaultService(QJsonObject &service);
/// Whether a Service of this spec gets a cluster IP allocated: every type but ExternalName, when
/// spec.clusterIP is unset ("None" is headless: no allocation).
bool needsClusterIp(const QJsonObject &serviceSpec);
/// Deterministic allocation in the service CIDR 10.96.0.0/12: a start address hashed from
/// `key` (e.g. "ns/name"), then the next address not in `used`. Never returns the network
/// address, 10.96.0.1 (the `kubernetes` Service's) or the broadcast address; "" when the range
/// is full.
QString allocateClusterIp(const QString &key, const QSet<QString> &used);
/// Whether a Service of this spec gets node ports: types NodePort and LoadBalancer (unless
/// allocateLoadBalancerNodePorts is false).
bool needsNodePorts(const QJsonObject &serviceSpec);
/// Deterministic node port in 30000–32767: hashed from `key` (e.g. "ns/name/0"), then the next
/// port not in `used`. 0 when every port is taken.
int allocateNodePort(const QString &key, const QSet<int> &used);
/// On update, as the real server does: when the new Service still needs a cluster IP but omits
/// it, the one allocated to `old` is kept; a port without nodePort keeps the old port of the same
/// name when both versions need node ports.
void keepAllocatedServiceFields(QJsonObject &service, const QJsonObject &old);

} // namespace opbench::apiserver::defaults
