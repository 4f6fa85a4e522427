// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/transform/tablecells_p.h"

#include "engine/api/timeformat.h"
#include "engine/apiserver/transform/tables.h"

#include <QJsonArray>

namespace opbench::apiserver::tableprint {

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

namespace {

QString ageOf(const QString &timestamp, const QDateTime &now)
{
    return timestamp.isEmpty() ? QStringLiteral("<unknown>") : humanAge(parseTimestamp(timestamp), now);
}

} // namespace

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
    for (const QJsonValue e : selector.value(QLatin1String("matchExpressions")).toArray()) {
        const QJsonObject x = e.toObject();
        const QString key = x.value(QLatin1String("key")).toString();
        const QString op = x.value(QLatin1String("operator")).toString();
        QStringList values;
        for (const QJsonValue v : x.value(QLatin1String("values")).toArray())
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
    for (const QJsonValue c : at(o, containersPath).toArray())
        out << c.toObject().value(QLatin1String(field)).toString();
    return orNone(out.join(u','));
}

// ---- pods ---------------------------------------------------------------------------------

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
    for (const QJsonValue g : gates) {
        const QString type = g.toObject().value(QLatin1String("conditionType")).toString();
        for (const QJsonValue c : at(o, ".status.conditions").toArray())
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
    for (const QJsonValue pv : at(o, ".spec.ports").toArray()) {
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
    for (const QJsonValue v : at(o, ".spec.externalIPs").toArray())
        external << v.toString();
    if (type == QLatin1String("ExternalName"))
        return text(o, ".spec.externalName");
    if (type == QLatin1String("LoadBalancer")) {
        QStringList lb;
        for (const QJsonValue v : at(o, ".status.loadBalancer.ingress").toArray()) {
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
    for (const QJsonValue v : at(o, ".subjects").toArray()) {
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
    for (const QJsonValue c : at(o, ".status.conditions").toArray())
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
    for (const QJsonValue a : at(o, ".status.addresses").toArray())
        if (a.toObject().value(QLatin1String("type")).toString() == QLatin1String(type))
            return a.toObject().value(QLatin1String("address")).toString();
    return QStringLiteral("<none>");
}

} // namespace opbench::apiserver::tableprint
