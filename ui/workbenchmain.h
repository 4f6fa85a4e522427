// SPDX-License-Identifier: Apache-2.0
#pragma once
// runWorkbench(): the desktop workbench for any operator built on opbench, in one call:
//
//   int main(int argc, char **argv) { return opbench::runWorkbench(argc, argv, guestbook::definition()); }
//
// With no flags: an embedded API server with the operator's CRDs installed and its samples
// applied, the operator running under a Manager, and every panel on it (cache, queue, reconciles
// with causes, calls and diffs, the owner tree, stepping, breakpoints, time travel, hand-off,
// faults). Flags: --kubeconfig/--context (a real cluster), --samples DIR (YAML/JSON objects to
// create on the embedded cluster; default: the definition's samples, else ./config/samples when
// it exists), --screenshot PATH --exit-after SECONDS (render the window and quit),
// --report-after SECONDS (print one JSON line saying what the panels hold, then quit: for CI),
// --create-from-form NAME (create NAME of the operator's kind from the Children panel's form once
// the cluster is ready; the report's "formCreated" says how often it was reconciled), --replay PATH
// (open a recording instead of running the operator; --play 1|10|max starts playing it).

#include "engine/sdk/operatordefinition.h"

namespace opbench {

/// Creates the QApplication, opens the workbench on `def` and runs until the window closes.
/// Returns the process exit code (2 for bad flags).
int runWorkbench(int argc, char **argv, OperatorDefinition def);

} // namespace opbench
