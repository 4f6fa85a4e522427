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

// Every options type has a constructor, so none is an aggregate: g++ 12 destroys an aggregate
// temporary with QString members twice when it is built inside a co_await expression's
// arguments (tests/api/tst_awaitsafety.cpp checks this).

struct GetOptions
{
    GetOptions() = default;
    QString resourceVersion; // "" = most recent, "0" = any
    QString subresource;     // e.g. "status", "scale"
    void addTo(QueryParams &q) const;
};

struct ListOptions
{
    ListOptions() = default;
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
    WriteOptions() = default;
    explicit WriteOptions(bool dryRunAll, QString manager = {}, QString validation = {})
        : dryRun(dryRunAll)
        , fieldManager(std::move(manager))
        , fieldValidation(std::move(validation))
    { }
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
    PatchOptions() = default;
    bool force = false;  // server-side apply only: take ownership of conflicting fields
    QString subresource; // e.g. "status"
    void addTo(QueryParams &q) const;
};

struct DeleteOptions
{
    DeleteOptions() = default;
    /// The fields in declaration order.
    explicit DeleteOptions(QString propagation, std::optional<qint64> gracePeriod = std::nullopt, QString uid = {},
        QString resourceVersion = {}, bool dryRunAll = false)
        : propagationPolicy(std::move(propagation))
        , gracePeriodSeconds(gracePeriod)
        , preconditionUid(std::move(uid))
        , preconditionResourceVersion(std::move(resourceVersion))
        , dryRun(dryRunAll)
    { }
    QString propagationPolicy; // Foreground, Background, Orphan; "" = the server's default
    std::optional<qint64> gracePeriodSeconds;
    QString preconditionUid;
    QString preconditionResourceVersion;
    bool dryRun = false;
    /// The DeleteOptions body (kind/apiVersion included).
    QByteArray toJson() const;
};

} // namespace opbench
