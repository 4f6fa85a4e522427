// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/transform/tableprinters_p.h"

#include "engine/apiserver/transform/tablecells_p.h"

#include <QJsonArray>

namespace opbench::apiserver::tableprint {

const Column kAge{"Age", "string", "", 0,
    "CreationTimestamp is a timestamp representing the server time when this object was created.",
    [](const QJsonObject &o, const QDateTime &now) -> QJsonValue { return age(o, now); }};
const Column kCreatedAt{"Created At", "date", "", 0,
    "CreationTimestamp is a timestamp representing the server time when this object was created.",
    [](const QJsonObject &o, const QDateTime &) -> QJsonValue { return text(o, ".metadata.creationTimestamp"); }};

namespace {

const Column kWebhooks{"Webhooks", "integer", "", 0,
    "Webhooks indicates the number of webhooks included in this configuration.",
    [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
        return o.value(QLatin1String("webhooks")).toArray().size();
    }};

const Column kDeploymentLike[] = {
    {"Containers", "string", "", 1, "Names of each container in the template.",
        [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
            return containerField(o, ".spec.template.spec.containers", "name");
        }},
    {"Images", "string", "", 1, "Images referenced by each container in the template.",
        [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
            return containerField(o, ".spec.template.spec.containers", "image");
        }},
    {"Selector", "string", "", 1, "Label selector for pods.",
        [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
            return formatSelector(at(o, ".spec.selector").toObject());
        }},
};

/// Pods and Services.
QList<Printer> podAndServicePrinters()
{
    return {
        {"", "pods", true,
            {{"Ready", "string", "", 0, "The aggregate readiness state of this pod for accepting traffic.",
                 [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
                     const PodSummary s = summarizePod(o);
                     return QStringLiteral("%1/%2").arg(s.ready).arg(s.total);
                 }},
                {"Status", "string", "", 0, "The aggregate status of the containers in this pod.",
                    [](const QJsonObject &o, const QDateTime &) -> QJsonValue { return summarizePod(o).reason; }},
                {"Restarts", "string", "", 0,
                    "The number of times the containers in this pod have been restarted and when the last container in "
                    "this pod has restarted.",
                    &podRestarts},
                kAge,
                {"IP", "string", "", 1, "IP address allocated to the pod. Routable at least within the cluster.",
                    [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
                        return orNone(text(o, ".status.podIP"));
                    }},
                {"Node", "string", "", 1, "Name of the Node this pod is scheduled to.",
                    [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
                        return orNone(text(o, ".spec.nodeName"));
                    }},
                {"Nominated Node", "string", "", 1, "Name of the node nominated by the scheduler.",
                    [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
                        return orNone(text(o, ".status.nominatedNodeName"));
                    }},
                {"Readiness Gates", "string", "", 1, "Pod readiness gates.",
                    [](const QJsonObject &o, const QDateTime &) -> QJsonValue { return readinessGates(o); }}}},
        {"", "services", true,
            {{"Type", "string", "", 0, "The type of the service.",
                 [](const QJsonObject &o, const QDateTime &) -> QJsonValue { return text(o, ".spec.type"); }},
                {"Cluster-IP", "string", "", 0, "The cluster IP of the service.",
                    [](const QJsonObject &o, const QDateTime &) -> QJsonValue { return serviceClusterIp(o); }},
                {"External-IP", "string", "", 0, "The external IP of the service.",
                    [](const QJsonObject &o, const QDateTime &) -> QJsonValue { return serviceExternalIp(o); }},
                {"Port(s)", "string", "", 0, "The ports of the service.",
                    [](const QJsonObject &o, const QDateTime &) -> QJsonValue { return servicePorts(o); }},
                kAge,
                {"Selector", "string", "", 1, "The selector of the service.",
                    [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
                        return formatLabels(at(o, ".spec.selector").toObject());
                    }}}},
    };
}

/// Deployments and ReplicaSets.
QList<Printer> appsPrinters()
{
    return {
        {"apps", "deployments", true,
            {{"Ready", "string", "", 0, "Number of the pod with ready state.",
                 [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
                     return QStringLiteral("%1/%2")
                         .arg(integer(o, ".status.readyReplicas"))
                         .arg(integer(o, ".spec.replicas"));
                 }},
                {"Up-to-date", "integer", "", 0,
                    "Total number of non-terminated pods targeted by this deployment that have the desired template "
                    "spec.",
                    [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
                        return integer(o, ".status.updatedReplicas");
                    }},
                {"Available", "integer", "", 0,
                    "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.",
                    [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
                        return integer(o, ".status.availableReplicas");
                    }},
                kAge, kDeploymentLike[0], kDeploymentLike[1], kDeploymentLike[2]}},
        {"apps", "replicasets", true,
            {{"Desired", "integer", "", 0, "Number of desired pods.",
                 [](const QJsonObject &o, const QDateTime &) -> QJsonValue { return integer(o, ".spec.replicas"); }},
                {"Current", "integer", "", 0, "Number of actual pods.",
                    [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
                        return integer(o, ".status.replicas");
                    }},
                {"Ready", "integer", "", 0, "Number of ready pods.",
                    [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
                        return integer(o, ".status.readyReplicas");
                    }},
                kAge, kDeploymentLike[0], kDeploymentLike[1], kDeploymentLike[2]}},
    };
}

/// Namespaces, ConfigMaps, Secrets, ServiceAccounts, Nodes and Leases.
QList<Printer> clusterPrinters()
{
    return {
        {"", "namespaces", true,
            {{"Status", "string", "", 0, "The status of the namespace",
                 [](const QJsonObject &o, const QDateTime &) -> QJsonValue { return text(o, ".status.phase"); }},
                kAge}},
        {"", "configmaps", true,
            {{"Data", "integer", "", 0, "Number of data entries.",
                 [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
                     return qint64(o.value(QLatin1String("data")).toObject().size()
                         + o.value(QLatin1String("binaryData")).toObject().size());
                 }},
                kAge}},
        {"", "secrets", true,
            {{"Type", "string", "", 0, "The type of the secret",
                 [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
                     return o.value(QLatin1String("type")).toString();
                 }},
                {"Data", "integer", "", 0, "Number of data entries.",
                    [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
                        return qint64(o.value(QLatin1String("data")).toObject().size());
                    }},
                kAge}},
        {"", "serviceaccounts", true,
            {{"Secrets", "string", "", 0,
                 "Secrets is the list of secrets allowed to be used by pods running using this ServiceAccount",
                 [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
                     return QString::number(at(o, ".secrets").toArray().size());
                 }},
                kAge}},
        {"", "nodes", true,
            {{"Status", "string", "", 0, "The status of the node",
                 [](const QJsonObject &o, const QDateTime &) -> QJsonValue { return nodeStatus(o); }},
                {"Roles", "string", "", 0, "The roles of the node",
                    [](const QJsonObject &o, const QDateTime &) -> QJsonValue { return nodeRoles(o); }},
                kAge,
                {"Version", "string", "", 0, "Kubelet Version reported by the node.",
                    [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
                        return text(o, ".status.nodeInfo.kubeletVersion");
                    }},
                {"Internal-IP", "string", "", 1, "List of internal IPs in the node.",
                    [](const QJsonObject &o, const QDateTime &) -> QJsonValue { return nodeAddress(o, "InternalIP"); }},
                {"External-IP", "string", "", 1, "List of external IPs in the node.",
                    [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
                        return nodeAddress(o, "ExternalIP");
                    }}}},
        {"coordination.k8s.io", "leases", true,
            {{"Holder", "string", "", 0, "The holder of the lease",
                 [](const QJsonObject &o, const QDateTime &) -> QJsonValue { return text(o, ".spec.holderIdentity"); }},
                kAge}},
    };
}

/// CRDs and the RBAC kinds.
QList<Printer> rbacAndCrdPrinters()
{
    return {
        {"apiextensions.k8s.io", "customresourcedefinitions", true, {kCreatedAt}},
        {"admissionregistration.k8s.io", "mutatingwebhookconfigurations", true, {kWebhooks, kAge}},
        {"admissionregistration.k8s.io", "validatingwebhookconfigurations", true, {kWebhooks, kAge}},
        {"rbac.authorization.k8s.io", "roles", true, {kCreatedAt}},
        {"rbac.authorization.k8s.io", "clusterroles", true, {kCreatedAt}},
        {"rbac.authorization.k8s.io", "rolebindings", true,
            {{"Role", "string", "", 0, "Role",
                 [](const QJsonObject &o, const QDateTime &) -> QJsonValue { return roleRef(o); }},
                kAge,
                {"Users", "string", "", 1, "Users in the roleBinding",
                    [](const QJsonObject &o, const QDateTime &) -> QJsonValue { return subjects(o, "User"); }},
                {"Groups", "string", "", 1, "Groups in the roleBinding",
                    [](const QJsonObject &o, const QDateTime &) -> QJsonValue { return subjects(o, "Group"); }},
                {"ServiceAccounts", "string", "", 1, "ServiceAccounts in the roleBinding",
                    [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
                        return subjects(o, "ServiceAccount");
                    }}}},
        {"rbac.authorization.k8s.io", "clusterrolebindings", true,
            {{"Role", "string", "", 0, "Role",
                 [](const QJsonObject &o, const QDateTime &) -> QJsonValue { return roleRef(o); }},
                kAge,
                {"Users", "string", "", 1, "Users in the clusterRoleBinding",
                    [](const QJsonObject &o, const QDateTime &) -> QJsonValue { return subjects(o, "User"); }},
                {"Groups", "string", "", 1, "Groups in the clusterRoleBinding",
                    [](const QJsonObject &o, const QDateTime &) -> QJsonValue { return subjects(o, "Group"); }},
                {"ServiceAccounts", "string", "", 1, "ServiceAccounts in the clusterRoleBinding",
                    [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
                        return subjects(o, "ServiceAccount");
                    }}}},
    };
}

const QList<Printer> &printers()
{
    static const QList<Printer> table
        = podAndServicePrinters() + appsPrinters() + clusterPrinters() + rbacAndCrdPrinters();
    return table;
}

const QList<Column> &eventColumns()
{
    static const QList<Column> cols{
        {"Last Seen", "string", "", 0, "Time when last this event was observed",
            [](const QJsonObject &o, const QDateTime &now) -> QJsonValue { return eventLastSeen(o, now); }},
        {"Type", "string", "", 0, "Type of this event (Normal, Warning), new types could be added in the future.",
            [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
                return o.value(QLatin1String("type")).toString();
            }},
        {"Reason", "string", "", 0, "The reason for this event.",
            [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
                return o.value(QLatin1String("reason")).toString();
            }},
        {"Object", "string", "", 0, "The object that this event is about.",
            [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
                const QJsonObject io = eventSubject(o);
                const QString kind = io.value(QLatin1String("kind")).toString().toLower();
                const QString name = io.value(QLatin1String("name")).toString();
                return name.isEmpty() ? kind : kind + u'/' + name;
            }},
        {"Subobject", "string", "", 1, "The subobject that this event is about.",
            [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
                return eventSubject(o).value(QLatin1String("fieldPath")).toString();
            }},
        {"Source", "string", "", 1, "The component reporting this event.",
            [](const QJsonObject &o, const QDateTime &) -> QJsonValue { return eventSource(o); }},
        {"Message", "string", "", 0, "A human-readable description of the status of this operation.",
            [](const QJsonObject &o, const QDateTime &) -> QJsonValue {
                return eventField(o, "message", "note").trimmed();
            }},
        {"First Seen", "string", "", 1, "The first time this event was observed.",
            [](const QJsonObject &o, const QDateTime &now) -> QJsonValue { return eventFirstSeen(o, now); }},
        {"Count", "string", "", 1, "The number of times this event has occurred.",
            [](const QJsonObject &o, const QDateTime &) -> QJsonValue { return eventCount(o); }},
        {"Name", "string", "name", 1, "Name must be unique within a namespace.",
            [](const QJsonObject &o, const QDateTime &) -> QJsonValue { return text(o, ".metadata.name"); }},
    };
    return cols;
}

} // namespace

const QList<Column> *builtinColumns(const ResourceType &type, bool *nameColumn)
{
    *nameColumn = true;
    if (type.custom)
        return nullptr;
    if (type.gvr().resource == QLatin1String("events")
        && (type.gvr().group.isEmpty() || type.gvr().group == QLatin1String("events.k8s.io"))) {
        *nameColumn = false;
        return &eventColumns();
    }
    for (const Printer &p : printers())
        if (type.gvr().group == QLatin1String(p.group) && type.gvr().resource == QLatin1String(p.resource))
            return &p.columns;
    return nullptr;
}

} // namespace opbench::apiserver::tableprint
