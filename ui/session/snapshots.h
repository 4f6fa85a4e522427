// SPDX-License-Identifier: Apache-2.0
#pragma once
// The bridge's vocabulary as the UI sees it: the immutable values the engine side
// (engine/workbench) publishes, usable unqualified in opbench::ui
// through the using-declarations below.

#include "engine/workbench/leadershipstate.h"
#include "engine/workbench/snapshots.h"

namespace opbench::ui {
// Named one by one (not a using-directive) so a reader sees which engine values the UI uses.
using workbench::CacheBatch;
using workbench::CacheEntry;
using workbench::CachePast;
using workbench::ClusterInfo;
using workbench::ControlState;
using workbench::CurrentReconcile;
using workbench::InformerState;
using workbench::LeadershipState;
using workbench::ObjectVersions;
using workbench::QueueRow;
using workbench::QueueSample;
} // namespace opbench::ui
