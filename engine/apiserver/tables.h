// SPDX-License-Identifier: Apache-2.0
#pragma once
// Server-side printing: meta.k8s.io/v1 Tables for `kubectl get` (Accept: ...;as=Table;...).
// Per-kind columns like the real server's (pods: Ready/Status/Restarts, deployments:
// Ready/Up-to-date/Available, ...), a CRD's additionalPrinterColumns for custom resources, and
// ages pre-formatted the way kubectl prints them ("5s", "3m10s", "2d").

#include "engine/api/object.h"
#include "engine/apiserver/registry.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>

namespace opbench::apiserver {

/// kubectl's HumanDuration ("0s", "90s", "3m10s", "5h", "2d3h", "3y"); "<unknown>" for an
/// invalid `since`.
QString humanAge(const QDateTime &since, const QDateTime &now);

/// The column definitions for `type`.
QJsonArray tableColumns(const ResourceType &type);
/// One row (cells plus a PartialObjectMetadata object) for `object`.
QJsonObject tableRow(const ResourceType &type, const Object &object, const QDateTime &now);
/// A whole Table; `withColumns` false omits columnDefinitions (watch events after the first).
QJsonObject makeTable(const ResourceType &type, const QList<Object> &objects, const QString &resourceVersion,
                      const QString &continueToken, const QDateTime &now, bool withColumns = true);

} // namespace opbench::apiserver
