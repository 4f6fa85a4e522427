// SPDX-License-Identifier: Apache-2.0
#pragma once
// For the engine/workbench suites: they must run in a build without the GUI, so the process may
// not have loaded Qt Widgets or Qt Gui (the engine has no such dependency; a test that pulled one
// in would hide a regression there). Checked from the loaded libraries (Linux: /proc/self/maps).

#include <QFile>
#include <QTest>

namespace opbench::testing {

inline void verifyNoGuiLibrariesLoaded()
{
    QFile maps(QStringLiteral("/proc/self/maps"));
    if (!maps.open(QIODevice::ReadOnly))
        QSKIP("/proc/self/maps is not readable here: cannot list the loaded libraries");
    const QByteArray loaded = maps.readAll();
    QVERIFY2(!loaded.contains("libQt6Widgets"), "the workbench engine's test loaded Qt Widgets");
    QVERIFY2(!loaded.contains("libQt6Gui"), "the workbench engine's test loaded Qt Gui");
}

} // namespace opbench::testing
