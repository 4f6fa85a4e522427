// SPDX-License-Identifier: Apache-2.0
#pragma once
// The workbench's visual language (gui.md): the same colours in charts, lists, trees and badges.

#include <QColor>

namespace opbench::ui {

enum class ResultColour { Success, RequeueAfter, RateLimited, Error, TerminalError, Paused };

/// success green · requeue-after blue · rate-limited amber · error red · terminal dark red ·
/// paused violet.
inline QColor resultColour(ResultColour c)
{
    switch (c) {
    case ResultColour::Success:
        return QColor(0x2e, 0x7d, 0x32);
    case ResultColour::RequeueAfter:
        return QColor(0x15, 0x65, 0xc0);
    case ResultColour::RateLimited:
        return QColor(0xef, 0x8f, 0x00);
    case ResultColour::Error:
        return QColor(0xd3, 0x2f, 0x2f);
    case ResultColour::TerminalError:
        return QColor(0x8b, 0x00, 0x00);
    case ResultColour::Paused:
        return QColor(0x7b, 0x1f, 0xa2);
    }
    return {};
}

/// Object phases (gui.md): Running green, Pending grey, Failed red; anything else neutral grey.
inline QColor phaseColour(const QString &phase)
{
    if (phase == QLatin1String("Running") || phase == QLatin1String("Succeeded"))
        return resultColour(ResultColour::Success);
    if (phase == QLatin1String("Failed"))
        return resultColour(ResultColour::Error);
    return QColor(0x75, 0x75, 0x75);
}

} // namespace opbench::ui
