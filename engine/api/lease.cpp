// SPDX-License-Identifier: Apache-2.0
#include "engine/api/lease.h"

#include "engine/api/timeformat.h"

namespace opbench {

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
