// SPDX-License-Identifier: Apache-2.0
#include "engine/operator/setup.h"

#include "engine/controller/builder.h"
#include "engine/controller/predicates.h"
#include "engine/manager/manager.h"
#include "engine/operator/myapplication.h"
#include "engine/operator/reconciler.h"

namespace opbench::myapp {

Expected<Controller *> setupWithManager(Manager *manager, SetupOptions options)
{
    RestMapper &mapper = manager->cache()->mapper();
    if (!mapper.forKind(kMyApplicationGvk))
        mapper.add(resourceMapping());
    auto reconciler = std::make_shared<MyApplicationReconciler>(
        manager->client(), manager->eventRecorder(QStringLiteral("myapplication-controller")));
    ControllerOptions co;
    co.maxConcurrentReconciles = options.maxConcurrentReconciles > 0 ? options.maxConcurrentReconciles
                                                                     : manager->options().maxConcurrentReconciles;
    Expected<Controller *> built = ControllerBuilder(manager->cache())
                                       .named(QStringLiteral("myapplication"))
                                       .withOptions(std::move(co))
                                       .forKind(kMyApplicationGvk, {predicates::generationChanged()})
                                       .owns(kDeploymentGvk)
                                       .build(reconciler, manager);
    if (!built)
        return built.error();
    manager->add(built.value());
    return built;
}

} // namespace opbench::myapp
