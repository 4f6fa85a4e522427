// SPDX-License-Identifier: Apache-2.0
#include "engine/operator/setup.h"

#include "engine/api/deployment.h"
#include "engine/controller/builder.h"
#include "engine/controller/predicates.h"
#include "engine/manager/manager.h"
#include "engine/operator/myapplication.h"
#include "engine/operator/reconciler.h"

namespace opbench::myapp {

Expected<Controller *> setupWithManager(Manager *manager, SetupOptions options)
{
    RestMapper &mapper = manager->cache()->mapper();
    if (!mapper.forKind(gvkOf<MyApplication>()))
        mapper.add(resourceMapping()); // the CRD's names and status subresource, not only the plural
    ControllerBuilder builder(manager);
    if (options.maxConcurrentReconciles > 0) {
        ControllerOptions co;
        co.maxConcurrentReconciles = options.maxConcurrentReconciles;
        builder.withOptions(std::move(co));
    }
    Expected<void> done = builder.forKind<MyApplication>({predicates::generationChanged()})
                              .owns<Deployment>()
                              .complete(std::make_shared<MyApplicationReconciler>());
    if (!done)
        return done.error();
    return manager->controllers().constLast();
}

} // namespace opbench::myapp
