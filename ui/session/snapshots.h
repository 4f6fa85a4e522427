// SPDX-License-Identifier: Apache-2.0
#pragma once
// The bridge's vocabulary as the UI sees it: the immutable values the engine side
// (engine/workbench) publishes, usable unqualified in opbench::ui.

#include "engine/workbench/leadershipstate.h"
#include "engine/workbench/snapshots.h"

namespace opbench::ui {
using namespace opbench::workbench;
}
