// SPDX-License-Identifier: Apache-2.0
#pragma once
// Options of REST calls and how they map to URL paths and query parameters, exactly as the
// API server reads them (booleans are written "true").

#include "engine/api/gvk.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

#include <optional>

namespace opbench {

/// Ordered query parameters (name, decoded value).
using QueryParams = QList<QPair<QString, QString>>;

/// Percent-encodes parameters the way Go's url.Values.Encode does ('+' and spaces encoded).
QByteArray encodeQuery(const QueryParams &params);

/// `/api/v1/namespaces/ns/pods/name/sub` or `/apis/g/v/...`; cluster-scoped (or all
/// namespaces) when `ns` is empty; the collection when `name` is empty.
QString resourcePath(
    const GroupVersionResource &gvr, const QString &ns, const QString &name = {}, const QString &subresource = {});

struct GetOptions
{
    QString resourceVersion; // "" = most recent, "0" = any
    QString subresource;     // e.g. "status", "scale"
    void addTo(QueryParams &q) const;
};

struct ListOptions
{
    QString labelSelector;
    QString fieldSelector;
    qint64 limit = 0; // 0 = no limit
    QString continueToken;
    QString resourceVersion;
    QString resourceVersionMatch; // NotOlderThan, Exact
    int timeoutSeconds = 0;       // 0 = unset
    bool allowWatchBookmarks = false;
    std::optional<bool> sendInitialEvents;
    void addTo(QueryParams &q) const;
};

struct WriteOptions
{
    bool dryRun = false; // dryRun=All
    QString fieldManager;
    QString fieldValidation; // Strict, Warn, Ignore
    void addTo(QueryParams &q) const;
};

enum class PatchType { Merge, JSONPatch, StrategicMerge, Apply };

/// The Content-Type of a patch type.
QByteArray patchContentType(PatchType t);

struct PatchOptions : WriteOptions
{
    bool force = false;  // server-side apply only: take ownership of conflicting fields
    QString subresource; // e.g. "status"
    void addTo(QueryParams &q) const;
};

struct DeleteOptions
{
    QString propagationPolicy; // Foreground, Background, Orphan; "" = the server's default
    std::optional<qint64> gracePeriodSeconds;
    QString preconditionUid;
    QString preconditionResourceVersion;
    bool dryRun = false;
    /// The DeleteOptions body (kind/apiVersion included).
    QByteArray toJson() const;
};

} // namespace opbench
