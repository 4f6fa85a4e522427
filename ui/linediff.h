// SPDX-License-Identifier: Apache-2.0
#pragma once
// A line diff for the object panel ("diff vs previous version"): longest common subsequence
// over lines, printed as "  same", "- removed", "+ added". Unchanged runs longer than
// 2 * `context` lines are folded to "  …".

#include <QStringList>

namespace opbench::ui {

QStringList lineDiff(const QStringList &before, const QStringList &after, int context = 3);

} // namespace opbench::ui
