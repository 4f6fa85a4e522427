// SPDX-License-Identifier: Apache-2.0
#pragma once
// HealthChecks: controller-runtime's healthz handler. Named checks, run sorted by name.
//
// - all pass → 200 "ok" (with ?verbose: one "[+]name ok" line per check, then "<kind> check passed");
// - a failure → 500 with "[+]name ok" / "[-]name failed: reason withheld" lines and
//   "<kind> check failed";
// - ?exclude=name (repeatable) skips checks; "<path>/<name>" runs one check (404 if unknown);
// - with no checks at all, "ok" (controller-runtime serves a ping).

#include "engine/api/expected.h"

#include <QByteArray>
#include <QString>
#include <QUrlQuery>

#include <functional>
#include <map>

namespace opbench {

/// A check: success, or a Status whose message says why (logged, never served).
using HealthCheck = std::function<Expected<void>()>;

struct HealthResponse
{
    int code = 200;
    QByteArray body;
};

class HealthChecks
{
public:
    /// `kind` is "healthz" or "readyz" (used in the summary line).
    explicit HealthChecks(QString kind)
        : m_kind(std::move(kind))
    { }
    /// Adds or replaces the check called `name`.
    void add(const QString &name, HealthCheck check) { m_checks[name] = std::move(check); }
    bool isEmpty() const { return m_checks.empty(); }
    /// Runs the aggregate (subPath empty) or one check (subPath = its name).
    HealthResponse serve(const QString &subPath, const QUrlQuery &query) const;

private:
    QString m_kind;
    std::map<QString, HealthCheck> m_checks; // sorted by name
};

/// The always-passing ping check.
inline Expected<void> pingCheck() { return {}; }

} // namespace opbench
