// SPDX-License-Identifier: Apache-2.0
#include "engine/api/lease.h"

#include "engine/api/timeformat.h"

namespace opbench {

const KindInfo &Lease::kindInfo()
{
    static const KindInfo info(
        GroupVersionKind(QStringLiteral("coordination.k8s.io"), QStringLiteral("v1"), QStringLiteral("Lease")),
        QStringLiteral("leases"));
    return info;
}

Lease::Lease(const QString &namespaceName, const QString &name)
    : Lease()
{
    meta().setNamespace(namespaceName);
    meta().setName(name);
}

namespace {
QJsonValue microTimeValue(const QDateTime &t)
{
    return t.isValid() ? QJsonValue(formatMicroTime(t)) : QJsonValue(QJsonValue::Undefined);
}
} // namespace

QDateTime Lease::acquireTime() const { return parseMicroTime(stringAt({"spec", "acquireTime"})); }
void Lease::setAcquireTime(const QDateTime &t) { setAt({"spec", "acquireTime"}, microTimeValue(t)); }
QDateTime Lease::renewTime() const { return parseMicroTime(stringAt({"spec", "renewTime"})); }
void Lease::setRenewTime(const QDateTime &t) { setAt({"spec", "renewTime"}, microTimeValue(t)); }

} // namespace opbench
