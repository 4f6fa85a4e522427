// SPDX-License-Identifier: Apache-2.0
#pragma once
// The MyApplication operator as the workbench hosts it: its setup on the Manager, the kinds the
// Cache panel shows (MyApplication → Deployment → ReplicaSet → Pod), the sample apps and the
// lease it shares with opbench-operator.

#include "engine/workbench/workbenchengine.h"

namespace opbench::ui {

workbench::OperatorSpec myApplicationSpec();

} // namespace opbench::ui
