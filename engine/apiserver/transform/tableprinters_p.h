// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to Tables (tables.cpp): the printer table, per built-in resource the columns
// kube-apiserver's printers produce (priority 1 = shown by `-o wide` only) and how each cell is
// computed (tablecells_p.h).

#include "engine/apiserver/registry/registry.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>

namespace opbench::apiserver::tableprint {

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

/// The AGE column custom resources without printer columns get.
extern const Column kAge;

/// The built-in printer for `type`: nullptr for custom resources and kinds printed as NAME AGE.
const QList<Column> *builtinColumns(const ResourceType &type, bool *nameColumn);

} // namespace opbench::apiserver::tableprint
