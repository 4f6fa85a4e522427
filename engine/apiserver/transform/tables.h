// SPDX-License-Identifier: Apache-2.0
#pragma once
// Server-side printing: meta.k8s.io/v1 Tables for `kubectl get` (Accept: ...;as=Table;...).
// One printer table (tableprinters.cpp) lists, per built-in resource, the columns kube-apiserver's
// printers produce (priority 1 = shown by `-o wide` only) and how each cell is computed:
// Services (TYPE CLUSTER-IP EXTERNAL-IP PORT(S)), Pods (READY STATUS RESTARTS), Deployments,
// ReplicaSets, Events (LAST SEEN TYPE REASON OBJECT MESSAGE, no NAME), Leases, Namespaces,
// ConfigMaps, Secrets, CRDs (CREATED AT), Nodes, ServiceAccounts, RBAC kinds. Custom resources
// get their CRD's additionalPrinterColumns (JSONPath with [n], [*] and [?(@.k=="v")] filters),
// or NAME AGE when the CRD defines none. Ages are pre-formatted the way kubectl prints them
// ("5s", "3m10s", "2d").

#include "engine/api/object.h"
#include "engine/apiserver/registry/registry.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>

namespace opbench::apiserver {

/// TableOptions.includeObject: what each row's `object` carries (default Metadata).
enum class TableObject { None, Metadata, Object };
/// Parses the includeObject query value ("", "None", "Metadata", "Object"); nullopt when invalid.
std::optional<TableObject> tableObjectFrom(const QString &value);

/// kubectl's HumanDuration ("0s", "90s", "3m10s", "5h", "2d3h", "3y"); "<unknown>" for an
/// invalid `since`.
QString humanAge(const QDateTime &since, const QDateTime &now);

/// Every value `jsonPath` (".a.b[0]", "{.a[*].b}", ".a[?(@.type==\"Ready\")].status") selects in
/// `root`, in document order.
QJsonArray jsonPathValues(const QJsonObject &root, const QString &jsonPath);

/// The column definitions for `type`.
QJsonArray tableColumns(const ResourceType &type);
/// One row (cells plus the object `include` asks for) for `object`.
QJsonObject tableRow(
    const ResourceType &type, const Object &object, const QDateTime &now, TableObject include = TableObject::Metadata);
/// A whole Table; `withColumns` false omits columnDefinitions (watch events after the first).
QJsonObject makeTable(const ResourceType &type, const QList<Object> &objects, const QString &resourceVersion,
    const QString &continueToken, const QDateTime &now, bool withColumns = true,
    TableObject include = TableObject::Metadata);

} // namespace opbench::apiserver
