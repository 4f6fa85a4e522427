// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QString>

namespace opbench::ui {
/// Which syntax highlighter this build uses (shown in the About box).
QString highlighterName();
} // namespace opbench::ui
