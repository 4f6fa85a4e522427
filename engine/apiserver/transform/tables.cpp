// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/transform/tables.h"

#include "engine/api/timeformat.h"

#include <QJsonDocument>

namespace opbench::apiserver {

namespace {

using Cell = QJsonValue (*)(const QJsonObject &o, const QDateTime &now);

struct Column
{
    const char *name;
    const char *type;   // string, integer, number, boolean, date
    const char *format; // "name" for the Name column
    int priority;       // 1: -o wide only
    const char *description;
    Cell cell;
};

struct Printer
{
    const char *group;
    const char *resource;
    bool nameColumn; // events have none
    QList<Column> columns;
};

// ---- small readers ------------------------------------------------------------------------

QJsonValue at(const QJsonObject &o, const char *path)
{
    const QJsonArray v = jsonPathValues(o, QLatin1String(path));
    return v.isEmpty() ? QJsonValue(QJsonValue::Undefined) : v.first();
}
QString text(const QJsonObject &o, const char *path) { return at(o, path).toString(); }
qint64 integer(const QJsonObject &o, const char *path) { return at(o, path).toInteger(); }
QString orNone(const QString &s) { return s.isEmpty() ? QStringLiteral("<none>") : s; }

QString age(const QJsonObject &o, const QDateTime &now)
{
    return humanAge(parseTimestamp(text(o, ".metadata.creationTimestamp")), now);
}

QString ageOf(const QString &timestamp, const QDateTime &now)
{
    return timestamp.isEmpty() ? QStringLiteral("<unknown>") : humanAge(parseTimestamp(timestamp), now);
}

/// "a=b,c=d" (keys sorted), "<none>" when empty: labels.FormatLabels.
QString formatLabels(const QJsonObject &labels)
{
    QStringList parts;
    for (auto it = labels.begin(); it != labels.end(); ++it) // QJsonObject iterates in key order
        parts << it.key() + u'=' + it.value().toString();
    return orNone(parts.join(u','));
}

/// metav1.FormatLabelSelector: matchLabels, then "key op (values)" expressions.
QString formatSelector(const QJsonObject &selector)
{
    if (selector.isEmpty())
        return QStringLiteral("<none>");
    QStringList parts;
    const QJsonObject ml = selector.value(QLatin1String("matchLabels")).toObject();
    for (auto it = ml.begin(); it != ml.end(); ++it)
        parts << it.key() + u'=' + it.value().toString();
    for (const QJsonValue &e : selector.value(QLatin1String("matchExpressions")).toArray()) {
        const QJsonObject x = e.toObject();
        const QString key = x.value(QLatin1String("key")).toString();
        const QString op = x.value(QLatin1String("operator")).toString();
        QStringList values;
        for (const QJsonValue &v : x.value(QLatin1String("values")).toArray())
            values << v.toString();
        if (op == QLatin1String("Exists"))
            parts << key;
        else if (op == QLatin1String("DoesNotExist"))
            parts << u'!' + key;
        else
            parts << QStringLiteral("%1 %2 (%3)")
                         .arg(key, op == QLatin1String("In") ? QStringLiteral("in") : QStringLiteral("notin"),
                             values.join(u','));
    }
    return orNone(parts.join(u','));
}

QString containerField(const QJsonObject &o, const char *containersPath, const char *field)
{
    QStringList out;
    for (const QJsonValue &c : at(o, containersPath).toArray())
        out << c.toObject().value(QLatin1String(field)).toString();
    return orNone(out.join(u','));
}

// ---- pods ---------------------------------------------------------------------------------

struct PodSummary
{
    int ready = 0;
    int total = 0;
    qint64 restarts = 0;
    QDateTime lastRestart;
    QString reason;
};

PodSummary summarizePod(const QJsonObject &o)
{
    PodSummary s;
    s.total = int(at(o, ".spec.containers").toArray().size());
    s.reason = text(o, ".status.phase");
    if (!text(o, ".status.reason").isEmpty())
        s.reason = text(o, ".status.reason");
    bool hasRunning = false;
    const QJsonArray statuses = at(o, ".status.containerStatuses").toArray();
    for (qsizetype i = statuses.size() - 1; i >= 0; --i) {
        const QJsonObject cs = statuses.at(i).toObject();
        s.restarts += cs.value(QLatin1String("restartCount")).toInteger();
        const QString finished = cs.value(QLatin1String("lastState"))
                                     .toObject()
                                     .value(QLatin1String("terminated"))
                                     .toObject()
                                     .value(QLatin1String("finishedAt"))
                                     .toString();
        if (!finished.isEmpty()) {
            const QDateTime t = parseTimestamp(finished);
            if (!s.lastRestart.isValid() || t > s.lastRestart)
                s.lastRestart = t;
        }
        const QJsonObject state = cs.value(QLatin1String("state")).toObject();
        const QJsonObject waiting = state.value(QLatin1String("waiting")).toObject();
        const QJsonObject terminated = state.value(QLatin1String("terminated")).toObject();
        if (!waiting.value(QLatin1String("reason")).toString().isEmpty()) {
            s.reason = waiting.value(QLatin1String("reason")).toString();
        } else if (!terminated.value(QLatin1String("reason")).toString().isEmpty()) {
            s.reason = terminated.value(QLatin1String("reason")).toString();
        } else if (state.contains(QLatin1String("terminated"))) {
            const int signal = terminated.value(QLatin1String("signal")).toInt();
            s.reason = signal != 0
                ? QStringLiteral("Signal:%1").arg(signal)
                : QStringLiteral("ExitCode:%1").arg(terminated.value(QLatin1String("exitCode")).toInt());
        } else if (cs.value(QLatin1String("ready")).toBool() && state.contains(QLatin1String("running"))) {
            hasRunning = true;
            ++s.ready;
        }
    }
    if (s.reason == QLatin1String("Completed") && hasRunning)
        s.reason = QStringLiteral("Running");
    if (!text(o, ".metadata.deletionTimestamp").isEmpty())
        s.reason = text(o, ".status.reason") == QLatin1String("NodeLost") ? QStringLiteral("Unknown")
                                                                          : QStringLiteral("Terminating");
    return s;
}

QJsonValue podRestarts(const QJsonObject &o, const QDateTime &now)
{
    const PodSummary s = summarizePod(o);
    if (s.restarts > 0 && s.lastRestart.isValid())
        return QStringLiteral("%1 (%2 ago)").arg(s.restarts).arg(humanAge(s.lastRestart, now));
    return QString::number(s.restarts);
}

QString readinessGates(const QJsonObject &o)
{
    const QJsonArray gates = at(o, ".spec.readinessGates").toArray();
    if (gates.isEmpty())
        return QStringLiteral("<none>");
    int ready = 0;
    for (const QJsonValue &g : gates) {
        const QString type = g.toObject().value(QLatin1String("conditionType")).toString();
        for (const QJsonValue &c : at(o, ".status.conditions").toArray())
            if (c.toObject().value(QLatin1String("type")).toString() == type
                && c.toObject().value(QLatin1String("status")).toString() == QLatin1String("True"))
                ++ready;
    }
    return QStringLiteral("%1/%2").arg(ready).arg(gates.size());
}

// ---- services -----------------------------------------------------------------------------

QString servicePorts(const QJsonObject &o)
{
    QStringList out;
    for (const QJsonValue &pv : at(o, ".spec.ports").toArray()) {
        const QJsonObject p = pv.toObject();
        const QString proto = p.value(QLatin1String("protocol")).toString(QStringLiteral("TCP"));
        const qint64 nodePort = p.value(QLatin1String("nodePort")).toInteger();
        out << (nodePort != 0
                ? QStringLiteral("%1:%2/%3").arg(p.value(QLatin1String("port")).toInteger()).arg(nodePort).arg(proto)
                : QStringLiteral("%1/%2").arg(p.value(QLatin1String("port")).toInteger()).arg(proto));
    }
    return orNone(out.join(u','));
}

QString serviceClusterIp(const QJsonObject &o)
{
    const QJsonArray ips = at(o, ".spec.clusterIPs").toArray();
    if (!ips.isEmpty())
        return ips.first().toString();
    return orNone(text(o, ".spec.clusterIP"));
}

QString serviceExternalIp(const QJsonObject &o)
{
    const QString type = text(o, ".spec.type");
    QStringList external;
    for (const QJsonValue &v : at(o, ".spec.externalIPs").toArray())
        external << v.toString();
    if (type == QLatin1String("ExternalName"))
        return text(o, ".spec.externalName");
    if (type == QLatin1String("LoadBalancer")) {
        QStringList lb;
        for (const QJsonValue &v : at(o, ".status.loadBalancer.ingress").toArray()) {
            const QJsonObject ing = v.toObject();
            lb << (ing.contains(QLatin1String("ip")) ? ing.value(QLatin1String("ip")).toString()
                                                     : ing.value(QLatin1String("hostname")).toString());
        }
        lb += external;
        return lb.isEmpty() ? QStringLiteral("<pending>") : lb.join(u',');
    }
    return orNone(external.join(u','));
}

// ---- events (core/v1 and events.k8s.io/v1 serve the same objects) ---------------------------

QString eventField(const QJsonObject &o, const char *core, const char *eventsV1)
{
    const QJsonValue v = o.value(QLatin1String(core));
    return v.isUndefined() || v.isNull() ? o.value(QLatin1String(eventsV1)).toString() : v.toString();
}

QString eventFirstSeen(const QJsonObject &o, const QDateTime &now)
{
    const QString first = eventField(o, "firstTimestamp", "deprecatedFirstTimestamp");
    return ageOf(first.isEmpty() ? o.value(QLatin1String("eventTime")).toString() : first, now);
}

QString eventLastSeen(const QJsonObject &o, const QDateTime &now)
{
    const QString series = at(o, ".series.lastObservedTime").toString();
    if (!series.isEmpty())
        return ageOf(series, now);
    const QString last = eventField(o, "lastTimestamp", "deprecatedLastTimestamp");
    return last.isEmpty() ? eventFirstSeen(o, now) : ageOf(last, now);
}

qint64 eventCount(const QJsonObject &o)
{
    if (o.contains(QLatin1String("series")))
        return integer(o, ".series.count");
    const qint64 c = o.contains(QLatin1String("count")) ? o.value(QLatin1String("count")).toInteger()
                                                        : o.value(QLatin1String("deprecatedCount")).toInteger();
    return c == 0 ? 1 : c;
}

QJsonObject eventSubject(const QJsonObject &o)
{
    return o.contains(QLatin1String("involvedObject")) ? o.value(QLatin1String("involvedObject")).toObject()
                                                       : o.value(QLatin1String("regarding")).toObject();
}

QString eventSource(const QJsonObject &o)
{
    QString component = at(o, ".source.component").toString();
    QString host = at(o, ".source.host").toString();
    if (component.isEmpty()) {
        component = o.value(QLatin1String("reportingController")).toString();
        host = o.value(QLatin1String("reportingInstance")).toString();
        if (component.isEmpty())
            component = at(o, ".deprecatedSource.component").toString();
    }
    return host.isEmpty() ? component : component + QLatin1String(", ") + host;
}

QString roleRef(const QJsonObject &o) { return text(o, ".roleRef.kind") + u'/' + text(o, ".roleRef.name"); }

QString subjects(const QJsonObject &o, const char *kind)
{
    QStringList out;
    for (const QJsonValue &v : at(o, ".subjects").toArray()) {
        const QJsonObject s = v.toObject();
        if (s.value(QLatin1String("kind")).toString() != QLatin1String(kind))
            continue;
        const QString ns = s.value(QLatin1String("namespace")).toString();
        out << (ns.isEmpty() || QLatin1String(kind) != QLatin1String("ServiceAccount")
                ? s.value(QLatin1String("name")).toString()
                : ns + u'/' + s.value(QLatin1String("name")).toString());
    }
    return out.join(QLatin1String(", "));
}

QString nodeStatus(const QJsonObject &o)
{
    QStringList out;
    for (const QJsonValue &c : at(o, ".status.conditions").toArray())
        if (c.toObject().value(QLatin1String("type")).toString() == QLatin1String("Ready"))
            out << (c.toObject().value(QLatin1String("status")).toString() == QLatin1String("True")
                    ? QStringLiteral("Ready")
                    : QStringLiteral("NotReady"));
    if (out.isEmpty())
        out << QStringLiteral("Unknown");
    if (at(o, ".spec.unschedulable").toBool())
        out << QStringLiteral("SchedulingDisabled");
    return out.join(u',');
}

QString nodeRoles(const QJsonObject &o)
{
    QStringList roles;
    const QJsonObject labels = at(o, ".metadata.labels").toObject();
    for (auto it = labels.begin(); it != labels.end(); ++it)
        if (it.key().startsWith(QLatin1String("node-role.kubernetes.io/")))
            roles << it.key().mid(24);
    return orNone(roles.join(u','));
}

QString nodeAddress(const QJsonObject &o, const char *type)
{
    for (const QJsonValue &a : at(o, ".status.addresses").toArray())
        if (a.toObject().value(QLatin1String("type")).toString() == QLatin1String(type))
            return a.toObject().value(QLatin1String("address")).toString();
    return QStringLiteral("<none>");
}

// ---- the printer table --------------------------------------------------------------------

const Column kAge{"Age", "string", "", 0,
    "CreationTimestamp is a timestamp representing the server time when this object was created.",
    [](const QJsonObject &o, const QDateTime &now) -> QJsonValue { return age(o, now); }};
const Column kCreatedAt{"Created At", "date", "", 0,
    "CreationTimestamp is a timestamp representing the server time when this object was created.",
    [](const QJsonObject &o, const QDateTime &) -> QJsonValue { return text(o, ".metadata.creationTimestamp"); }};

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

const QList<Printer> &printers()
{
    static const QList<Printer> table{
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
        {"apiextensions.k8s.io", "customresourcedefinitions", true, {kCreatedAt}},
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

/// The built-in printer for `type`: nullptr for custom resources and kinds printed as NAME AGE.
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

QJsonObject columnJson(
    const QString &name, const QString &type, const QString &format, int priority, const QString &description)
{
    return QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("type"), type},
        {QStringLiteral("format"), format}, {QStringLiteral("description"), description},
        {QStringLiteral("priority"), priority}};
}

const QJsonObject &nameColumnJson()
{
    static const QJsonObject c = columnJson(QStringLiteral("Name"), QStringLiteral("string"), QStringLiteral("name"), 0,
        QStringLiteral("Name must be unique within a namespace."));
    return c;
}

/// A CRD printer column's cell, as the apiextensions table convertor makes it.
QJsonValue customCell(const QJsonObject &col, const QJsonObject &o, const QDateTime &now)
{
    const QJsonArray found = jsonPathValues(o, col.value(QLatin1String("jsonPath")).toString());
    if (found.isEmpty() || found.first().isNull())
        return QJsonValue::Null;
    const QJsonValue v = found.first();
    const QString type = col.value(QLatin1String("type")).toString();
    if (type == QLatin1String("date"))
        return v.isString() ? QJsonValue(humanAge(parseTimestamp(v.toString()), now)) : QJsonValue::Null;
    if (type == QLatin1String("integer"))
        return v.isDouble() ? QJsonValue(v.toInteger()) : QJsonValue::Null;
    if (type == QLatin1String("number"))
        return v.isDouble() ? v : QJsonValue::Null;
    if (type == QLatin1String("boolean"))
        return v.isBool() ? v : QJsonValue::Null;
    if (v.isString())
        return v;
    if (v.isDouble())
        return v.toDouble() == double(v.toInteger()) ? QString::number(v.toInteger()) : QString::number(v.toDouble());
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    return QString::fromUtf8(QJsonDocument(v.isObject() ? QJsonDocument(v.toObject()) : QJsonDocument(v.toArray()))
                                 .toJson(QJsonDocument::Compact));
}

// ---- JSONPath -----------------------------------------------------------------------------

/// Splits ".a.b[0]['c'][?(@.x=="y")]" into steps: names, "[n]", "[*]", "[?...]".
QStringList pathSteps(QString p)
{
    p = p.trimmed();
    if (p.startsWith(u'{') && p.endsWith(u'}'))
        p = p.mid(1, p.size() - 2);
    QStringList steps;
    qsizetype i = 0;
    while (i < p.size()) {
        if (p[i] == u'.') {
            ++i;
            continue;
        }
        if (p[i] == u'[') {
            int depth = 0;
            qsizetype j = i;
            for (; j < p.size(); ++j) {
                if (p[j] == u'[')
                    ++depth;
                else if (p[j] == u']' && --depth == 0)
                    break;
            }
            steps << p.mid(i, j - i + 1);
            i = j + 1;
            continue;
        }
        qsizetype j = i;
        while (j < p.size() && p[j] != u'.' && p[j] != u'[')
            ++j;
        steps << p.mid(i, j - i);
        i = j;
    }
    return steps;
}

QString unquote(QString s)
{
    s = s.trimmed();
    if (s.size() >= 2 && (s.startsWith(u'"') || s.startsWith(u'\'')) && s.endsWith(s[0]))
        return s.mid(1, s.size() - 2);
    return s;
}

bool filterMatches(const QJsonValue &element, const QString &expr)
{
    // "@.a.b==\"v\"", "@.a!=\"v\"", "@.a" (exists)
    static const QStringList ops{QStringLiteral("=="), QStringLiteral("!=")};
    for (const QString &op : ops) {
        const qsizetype at = expr.indexOf(op);
        if (at < 0)
            continue;
        const QString lhs = expr.left(at).trimmed();
        const QString rhs = unquote(expr.mid(at + 2));
        if (!lhs.startsWith(u'@') || !element.isObject())
            return false;
        const QJsonArray got = jsonPathValues(element.toObject(), lhs.mid(1));
        QString value;
        if (!got.isEmpty())
            value = got.first().isString()
                ? got.first().toString()
                : (got.first().isDouble() ? QString::number(got.first().toDouble())
                                          : (got.first().isBool() ? (got.first().toBool() ? QStringLiteral("true")
                                                                                          : QStringLiteral("false"))
                                                                  : QString()));
        const bool equal = !got.isEmpty() && value == rhs;
        return op == QLatin1String("==") ? equal : !equal;
    }
    const QString e = expr.trimmed();
    return e.startsWith(u'@') && element.isObject() && !jsonPathValues(element.toObject(), e.mid(1)).isEmpty();
}

} // namespace

std::optional<TableObject> tableObjectFrom(const QString &value)
{
    if (value.isEmpty() || value == QLatin1String("Metadata"))
        return TableObject::Metadata;
    if (value == QLatin1String("None"))
        return TableObject::None;
    if (value == QLatin1String("Object"))
        return TableObject::Object;
    return std::nullopt;
}

QJsonArray jsonPathValues(const QJsonObject &root, const QString &jsonPath)
{
    QJsonArray current{root};
    for (const QString &step : pathSteps(jsonPath)) {
        QJsonArray next;
        for (const QJsonValue &v : std::as_const(current)) {
            if (!step.startsWith(u'[')) {
                const QJsonValue child = v.toObject().value(step);
                if (v.isObject() && !child.isUndefined())
                    next.append(child);
                continue;
            }
            const QString inner = step.mid(1, step.size() - 2).trimmed();
            if (inner == QLatin1String("*")) {
                if (v.isArray())
                    for (const QJsonValue &e : v.toArray())
                        next.append(e);
                else if (v.isObject())
                    for (const QJsonValue &e : v.toObject())
                        next.append(e);
            } else if (inner.startsWith(QLatin1String("?(")) && inner.endsWith(u')')) {
                for (const QJsonValue &e : v.toArray())
                    if (filterMatches(e, inner.mid(2, inner.size() - 3)))
                        next.append(e);
            } else if (inner.startsWith(u'\'') || inner.startsWith(u'"')) {
                const QJsonValue child = v.toObject().value(unquote(inner));
                if (v.isObject() && !child.isUndefined())
                    next.append(child);
            } else {
                bool ok = false;
                qsizetype index = inner.toLongLong(&ok);
                const QJsonArray a = v.toArray();
                if (ok && index < 0)
                    index += a.size();
                if (ok && v.isArray() && index >= 0 && index < a.size())
                    next.append(a.at(index));
            }
        }
        current = next;
    }
    return current;
}

QString humanAge(const QDateTime &since, const QDateTime &now)
{
    if (!since.isValid())
        return QStringLiteral("<unknown>");
    const qint64 secs = since.secsTo(now);
    if (secs < -1)
        return QStringLiteral("<invalid>");
    if (secs < 0)
        return QStringLiteral("0s");
    auto two = [](qint64 a, const char *ua, qint64 b, const char *ub) {
        return b == 0 ? QString::number(a) + QLatin1String(ua)
                      : QString::number(a) + QLatin1String(ua) + QString::number(b) + QLatin1String(ub);
    };
    const qint64 minutes = secs / 60;
    const qint64 hours = secs / 3600;
    if (secs < 120)
        return QString::number(secs) + u's';
    if (minutes < 10)
        return two(minutes, "m", secs % 60, "s");
    if (minutes < 180)
        return QString::number(minutes) + u'm';
    if (hours < 8)
        return two(hours, "h", minutes % 60, "m");
    if (hours < 48)
        return QString::number(hours) + u'h';
    if (hours < 24 * 8)
        return two(hours / 24, "d", hours % 24, "h");
    if (hours < 24 * 365 * 2)
        return QString::number(hours / 24) + u'd';
    if (hours < 24 * 365 * 8)
        return two(hours / 24 / 365, "y", (hours / 24) % 365, "d");
    return QString::number(hours / 24 / 365) + u'y';
}

QJsonArray tableColumns(const ResourceType &type)
{
    bool nameColumn = true;
    const QList<Column> *builtin = builtinColumns(type, &nameColumn);
    QJsonArray cols;
    if (nameColumn)
        cols.append(nameColumnJson());
    if (builtin) {
        for (const Column &c : *builtin)
            cols.append(columnJson(QLatin1String(c.name), QLatin1String(c.type), QLatin1String(c.format), c.priority,
                QLatin1String(c.description)));
        return cols;
    }
    if (type.custom && !type.printerColumns.isEmpty()) {
        for (const QJsonValue &v : type.printerColumns) {
            const QJsonObject pc = v.toObject();
            cols.append(columnJson(pc.value(QLatin1String("name")).toString(),
                pc.value(QLatin1String("type")).toString(QStringLiteral("string")),
                pc.value(QLatin1String("format")).toString(), pc.value(QLatin1String("priority")).toInt(),
                pc.value(QLatin1String("description")).toString()));
        }
        return cols;
    }
    cols.append(
        columnJson(QLatin1String(kAge.name), QLatin1String(kAge.type), QString(), 0, QLatin1String(kAge.description)));
    return cols;
}

QJsonObject tableRow(const ResourceType &type, const Object &object, const QDateTime &now, TableObject include)
{
    const QJsonObject o = object.json();
    bool nameColumn = true;
    const QList<Column> *builtin = builtinColumns(type, &nameColumn);
    QJsonArray cells;
    if (nameColumn)
        cells.append(object.name());
    if (builtin) {
        for (const Column &c : *builtin)
            cells.append(c.cell(o, now));
    } else if (type.custom && !type.printerColumns.isEmpty()) {
        for (const QJsonValue &c : type.printerColumns)
            cells.append(customCell(c.toObject(), o, now));
    } else {
        cells.append(age(o, now));
    }
    QJsonObject row{{QStringLiteral("cells"), cells}};
    if (include == TableObject::Object) {
        row.insert(QStringLiteral("object"), o);
    } else if (include == TableObject::Metadata) {
        QJsonObject meta = o.value(QLatin1String("metadata")).toObject();
        meta.remove(QLatin1String("managedFields"));
        row.insert(QStringLiteral("object"),
            QJsonObject{{QStringLiteral("kind"), QStringLiteral("PartialObjectMetadata")},
                {QStringLiteral("apiVersion"), QStringLiteral("meta.k8s.io/v1")}, {QStringLiteral("metadata"), meta}});
    }
    return row;
}

QJsonObject makeTable(const ResourceType &type, const QList<Object> &objects, const QString &resourceVersion,
    const QString &continueToken, const QDateTime &now, bool withColumns, TableObject include)
{
    QJsonArray rows;
    for (const Object &o : objects)
        rows.append(tableRow(type, o, now, include));
    QJsonObject meta{{QStringLiteral("resourceVersion"), resourceVersion}};
    if (!continueToken.isEmpty())
        meta.insert(QStringLiteral("continue"), continueToken);
    QJsonObject table{{QStringLiteral("kind"), QStringLiteral("Table")},
        {QStringLiteral("apiVersion"), QStringLiteral("meta.k8s.io/v1")}, {QStringLiteral("metadata"), meta},
        {QStringLiteral("rows"), rows}};
    table.insert(QStringLiteral("columnDefinitions"), withColumns ? tableColumns(type) : QJsonArray());
    return table;
}

} // namespace opbench::apiserver
