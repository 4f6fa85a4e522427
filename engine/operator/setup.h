// SPDX-License-Identifier: Apache-2.0
#pragma once
// Wiring of the MyApplication operator into a Manager, in one step:
// ControllerBuilder(manager).forKind<MyApplication>(generationChanged).owns<Deployment>()
// .complete(reconciler). For(MyApplication) is filtered by generationChanged (the operator's
// own status writes do not queue the app again; spec changes, creates and deletes do),
// Owns(Deployment) is not (its status drives ours).

#include "engine/api/expected.h"

namespace opbench {
class Controller;
class Manager;
} // namespace opbench

namespace opbench::myapp {

struct SetupOptions
{
    /// 0: the manager's default (ManagerOptions::maxConcurrentReconciles).
    int maxConcurrentReconciles = 0;
};

/// Builds the "myapplication" controller on the manager's cache, with the manager's client and
/// Events from "myapplication-controller" injected, and adds it to the manager (it starts when
/// leading). Returns it (the workbench and the benchmark observe its reconciles).
Expected<Controller *> setupWithManager(Manager *manager, SetupOptions options = {});

} // namespace opbench::myapp
