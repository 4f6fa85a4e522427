// SPDX-License-Identifier: Apache-2.0
#include "ui/models/objectbadge.h"

#include "ui/widgets/palette.h"

#include <QObject>

namespace opbench::ui {

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
        return {};
    const QString message = o.value({status, QLatin1String("message")}).toString();
    return {phase, phaseColour(phase),
        message.isEmpty() ? QObject::tr("status.phase: %1").arg(phase)
                          : QObject::tr("status.phase: %1 — %2").arg(phase, message)};
}

} // namespace opbench::ui
