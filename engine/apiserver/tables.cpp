// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/tables.h"

#include "engine/api/timeformat.h"

namespace opbench::apiserver {

namespace {

QJsonObject column(const char *name, const char *type = "string", const char *format = "", int priority = 0)
{
    return QJsonObject{{QStringLiteral("name"), QString::fromLatin1(name)},
                       {QStringLiteral("type"), QString::fromLatin1(type)},
                       {QStringLiteral("format"), QString::fromLatin1(format)},
                       {QStringLiteral("description"), QString()},
                       {QStringLiteral("priority"), priority}};
}

QJsonValue at(const QJsonObject &root, const QString &jsonPath)
{
    // Simple JSONPath: ".a.b" / "{.a.b}" / ".a[0].b".
    QString p = jsonPath;
    if (p.startsWith(u'{') && p.endsWith(u'}'))
        p = p.mid(1, p.size() - 2);
    QJsonValue v = root;
    for (QString part : p.split(u'.', Qt::SkipEmptyParts)) {
        int index = -1;
        const qsizetype br = part.indexOf(u'[');
        if (br >= 0 && part.endsWith(u']')) {
            index = part.mid(br + 1, part.size() - br - 2).toInt();
            part = part.left(br);
        }
        v = v.toObject().value(part);
        if (index >= 0)
            v = v.toArray().at(index);
    }
    return v;
}

int num(const QJsonObject &o, const QString &path) { return at(o, path).toInt(); }

QString age(const QJsonObject &o, const QDateTime &now)
{
    return humanAge(parseTimestamp(at(o, QStringLiteral(".metadata.creationTimestamp")).toString()), now);
}

QJsonArray podCells(const QJsonObject &o)
{
    const QJsonArray statuses = at(o, QStringLiteral(".status.containerStatuses")).toArray();
    const qsizetype total = at(o, QStringLiteral(".spec.containers")).toArray().size();
    int ready = 0;
    int restarts = 0;
    for (const QJsonValue &s : statuses) {
        ready += s.toObject().value(QLatin1String("ready")).toBool() ? 1 : 0;
        restarts += s.toObject().value(QLatin1String("restartCount")).toInt();
    }
    QString phase = at(o, QStringLiteral(".status.phase")).toString();
    if (!at(o, QStringLiteral(".metadata.deletionTimestamp")).toString().isEmpty())
        phase = QStringLiteral("Terminating");
    return {QStringLiteral("%1/%2").arg(ready).arg(total), phase, restarts};
}

QJsonArray customCells(const ResourceType &type, const QJsonObject &o, const QDateTime &now)
{
    QJsonArray cells;
    for (const QJsonValue &c : type.printerColumns) {
        const QJsonObject col = c.toObject();
        const QJsonValue v = at(o, col.value(QLatin1String("jsonPath")).toString());
        if (col.value(QLatin1String("type")).toString() == QLatin1String("date") && v.isString())
            cells.append(humanAge(parseTimestamp(v.toString()), now));
        else
            cells.append(v.isUndefined() ? QJsonValue() : v);
    }
    return cells;
}

} // namespace

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
        return b == 0 ? QString::number(a) + QLatin1String(ua) : QString::number(a) + QLatin1String(ua) + QString::number(b) + QLatin1String(ub);
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
    QJsonArray cols{column("Name", "string", "name")};
    const QString r = type.custom ? QString() : type.gvr().resource;
    if (type.custom) {
        bool hasAge = false;
        for (const QJsonValue &c : type.printerColumns) {
            const QJsonObject pc = c.toObject();
            hasAge = hasAge || pc.value(QLatin1String("name")).toString() == QLatin1String("Age");
            QJsonObject col = column("", "string");
            col.insert(QStringLiteral("name"), pc.value(QLatin1String("name")).toString());
            col.insert(QStringLiteral("type"), pc.value(QLatin1String("type")).toString(QStringLiteral("string")));
            col.insert(QStringLiteral("format"), pc.value(QLatin1String("format")).toString());
            col.insert(QStringLiteral("description"), pc.value(QLatin1String("description")).toString());
            col.insert(QStringLiteral("priority"), pc.value(QLatin1String("priority")).toInt());
            cols.append(col);
        }
        if (!hasAge)
            cols.append(column("Age"));
        return cols;
    }
    if (r == QLatin1String("pods"))
        cols << column("Ready") << column("Status") << column("Restarts", "integer");
    else if (r == QLatin1String("deployments"))
        cols << column("Ready") << column("Up-to-date", "integer") << column("Available", "integer");
    else if (r == QLatin1String("replicasets"))
        cols << column("Desired", "integer") << column("Current", "integer") << column("Ready", "integer");
    else if (r == QLatin1String("namespaces"))
        cols << column("Status");
    else if (r == QLatin1String("configmaps"))
        cols << column("Data", "integer");
    else if (r == QLatin1String("secrets"))
        cols << column("Type") << column("Data", "integer");
    else if (r == QLatin1String("leases"))
        cols << column("Holder");
    else if (r == QLatin1String("events"))
        cols << column("Type") << column("Reason") << column("Object") << column("Message");
    cols.append(column("Age"));
    return cols;
}

QJsonObject tableRow(const ResourceType &type, const Object &object, const QDateTime &now)
{
    const QJsonObject o = object.json();
    QJsonArray cells{object.name()};
    const QString r = type.custom ? QString() : type.gvr().resource;
    if (type.custom) {
        bool hasAge = false;
        for (const QJsonValue &c : type.printerColumns)
            hasAge = hasAge || c.toObject().value(QLatin1String("name")).toString() == QLatin1String("Age");
        for (const QJsonValue &v : customCells(type, o, now))
            cells.append(v);
        if (!hasAge)
            cells.append(age(o, now));
    } else {
        if (r == QLatin1String("pods")) {
            for (const QJsonValue &v : podCells(o))
                cells.append(v);
        } else if (r == QLatin1String("deployments")) {
            cells << QStringLiteral("%1/%2").arg(num(o, QStringLiteral(".status.readyReplicas"))).arg(num(o, QStringLiteral(".spec.replicas")))
                  << num(o, QStringLiteral(".status.updatedReplicas")) << num(o, QStringLiteral(".status.availableReplicas"));
        } else if (r == QLatin1String("replicasets")) {
            cells << num(o, QStringLiteral(".spec.replicas")) << num(o, QStringLiteral(".status.replicas"))
                  << num(o, QStringLiteral(".status.readyReplicas"));
        } else if (r == QLatin1String("namespaces")) {
            cells << at(o, QStringLiteral(".status.phase")).toString();
        } else if (r == QLatin1String("configmaps")) {
            cells << int(o.value(QLatin1String("data")).toObject().size() + o.value(QLatin1String("binaryData")).toObject().size());
        } else if (r == QLatin1String("secrets")) {
            cells << o.value(QLatin1String("type")).toString() << int(o.value(QLatin1String("data")).toObject().size());
        } else if (r == QLatin1String("leases")) {
            cells << at(o, QStringLiteral(".spec.holderIdentity")).toString();
        } else if (r == QLatin1String("events")) {
            const QJsonObject io = o.value(QLatin1String("involvedObject")).toObject();
            cells << o.value(QLatin1String("type")).toString() << o.value(QLatin1String("reason")).toString()
                  << io.value(QLatin1String("kind")).toString().toLower() + u'/' + io.value(QLatin1String("name")).toString()
                  << o.value(QLatin1String("message")).toString();
        }
        cells.append(age(o, now));
    }
    QJsonObject meta = o.value(QLatin1String("metadata")).toObject();
    meta.remove(QLatin1String("managedFields"));
    const QJsonObject partial{{QStringLiteral("kind"), QStringLiteral("PartialObjectMetadata")},
                              {QStringLiteral("apiVersion"), QStringLiteral("meta.k8s.io/v1")},
                              {QStringLiteral("metadata"), meta}};
    return QJsonObject{{QStringLiteral("cells"), cells}, {QStringLiteral("object"), partial}};
}

QJsonObject makeTable(const ResourceType &type, const QList<Object> &objects, const QString &resourceVersion,
                      const QString &continueToken, const QDateTime &now, bool withColumns)
{
    QJsonArray rows;
    for (const Object &o : objects)
        rows.append(tableRow(type, o, now));
    QJsonObject meta{{QStringLiteral("resourceVersion"), resourceVersion}};
    if (!continueToken.isEmpty())
        meta.insert(QStringLiteral("continue"), continueToken);
    QJsonObject table{{QStringLiteral("kind"), QStringLiteral("Table")},
                      {QStringLiteral("apiVersion"), QStringLiteral("meta.k8s.io/v1")},
                      {QStringLiteral("metadata"), meta},
                      {QStringLiteral("rows"), rows}};
    table.insert(QStringLiteral("columnDefinitions"), withColumns ? tableColumns(type) : QJsonArray());
    return table;
}

} // namespace opbench::apiserver
