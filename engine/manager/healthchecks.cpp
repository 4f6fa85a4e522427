// SPDX-License-Identifier: Apache-2.0
#include "engine/manager/healthchecks.h"

#include <QSet>

namespace opbench {

HealthResponse HealthChecks::serve(const QString &subPath, const QUrlQuery &query) const
{
    if (!subPath.isEmpty()) {
        const auto it = m_checks.find(subPath);
        if (it == m_checks.end())
            return {404, QByteArrayLiteral("404 page not found\n")};
        const Expected<void> res = it->second();
        if (!res)
            return {500, QStringLiteral("internal server error: %1 check failed\n").arg(subPath).toUtf8()};
        return {200, QByteArrayLiteral("ok")};
    }
    QSet<QString> excluded;
    for (const QString &e : query.allQueryItemValues(QStringLiteral("exclude")))
        for (const QString &part : e.split(u',', Qt::SkipEmptyParts))
            excluded.insert(part.trimmed());
    const bool verbose = query.hasQueryItem(QStringLiteral("verbose"));
    QByteArray lines;
    bool failed = false;
    for (const auto &[name, check] : m_checks) {
        if (excluded.remove(name))
            continue;
        if (check()) {
            lines += "[+]" + name.toUtf8() + " ok\n";
        } else {
            failed = true;
            lines += "[-]" + name.toUtf8() + " failed: reason withheld\n";
        }
    }
    for (const QString &e : excluded)
        lines += "warn: some health checks cannot be excluded: no matches for \"" + e.toUtf8() + "\"\n";
    if (failed)
        return {500, lines + m_kind.toUtf8() + " check failed\n"};
    if (verbose)
        return {200, lines + m_kind.toUtf8() + " check passed\n"};
    return {200, QByteArrayLiteral("ok")};
}

} // namespace opbench
