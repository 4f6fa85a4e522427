// SPDX-License-Identifier: Apache-2.0
#include "ui/models/objectbadge.h"

#include "ui/widgets/palette.h"

#include <QJsonArray>
#include <QObject>

namespace opbench::ui {

namespace {

/// The badge of a `Ready` (else `Available`) condition in status.conditions; empty without one.
ObjectBadge conditionBadge(const Object &o)
{
    const QJsonArray conditions = o.value({QLatin1String("status"), QLatin1String("conditions")}).toArray();
    for (const QLatin1String type : {QLatin1String("Ready"), QLatin1String("Available")}) {
        for (const auto &v : conditions) {
            const QJsonObject c = v.toObject();
            if (c.value(QLatin1String("type")).toString() != type)
                continue;
            const QString status = c.value(QLatin1String("status")).toString();
            const QString reason = c.value(QLatin1String("reason")).toString();
            const QString message = c.value(QLatin1String("message")).toString();
            const QString tip
                = QObject::tr("%1=%2%3%4")
                      .arg(type, status, reason.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(reason),
                          message.isEmpty() ? QString() : QStringLiteral(" — ") + message);
            if (status == u"True")
                return {QString(type), phaseColour(QStringLiteral("Running")), tip};
            if (status == u"False")
                return {reason.isEmpty() ? QObject::tr("Not %1").arg(type) : reason,
                    phaseColour(QStringLiteral("Failed")), tip};
            return {
                reason.isEmpty() ? QObject::tr("%1?").arg(type) : reason, phaseColour(QStringLiteral("Pending")), tip};
        }
    }
    return {};
}

} // namespace

ObjectBadge objectBadge(const QString &kind, const Object &o)
{
    const QLatin1String status("status");
    if (kind == u"Deployment") {
        const int desired = o.value({QLatin1String("spec"), QLatin1String("replicas")}).toInt(1);
        const int available = o.value({status, QLatin1String("availableReplicas")}).toInt();
        return {QStringLiteral("%1/%2").arg(available).arg(desired),
            available >= desired ? phaseColour(QStringLiteral("Running")) : phaseColour(QStringLiteral("Pending")),
            QObject::tr("%1 of %2 desired replicas available").arg(available).arg(desired)};
    }
    const QString phase = o.value({status, QLatin1String("phase")}).toString();
    if (phase.isEmpty())
        return conditionBadge(o); // a kind without a phase: its Ready/Available condition
    const QString message = o.value({status, QLatin1String("message")}).toString();
    return {phase, phaseColour(phase),
        message.isEmpty() ? QObject::tr("status.phase: %1").arg(phase)
                          : QObject::tr("status.phase: %1 — %2").arg(phase, message)};
}

} // namespace opbench::ui
