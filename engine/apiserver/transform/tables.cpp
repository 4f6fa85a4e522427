// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/transform/tables.h"

#include "engine/api/timeformat.h"
#include "engine/apiserver/transform/tablecells_p.h"
#include "engine/apiserver/transform/tableprinters_p.h"

#include <QJsonDocument>

namespace opbench::apiserver {

using tableprint::age;
using tableprint::builtinColumns;
using tableprint::Column;
using tableprint::kAge;

namespace {

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
