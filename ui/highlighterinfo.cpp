// SPDX-License-Identifier: Apache-2.0
#include "ui/highlighterinfo.h"

namespace opbench::ui {
QString highlighterName() { return QStringLiteral(OPBENCH_HIGHLIGHTER_NAME); }
} // namespace opbench::ui
