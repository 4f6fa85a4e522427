// SPDX-License-Identifier: Apache-2.0
// ControllerBuilder's one-step form (engine/controller/builder.h): the parts that need the
// Manager live here, in the manager's library, so the controller library does not depend on it.
#include "engine/controller/builder.h"
#include "engine/manager/eventrecorder.h"
#include "engine/manager/manager.h"
#include "engine/webhook/webhookbuilder.h"

namespace opbench {

ControllerBuilder::ControllerBuilder(Manager *manager)
    : ControllerBuilder(manager ? manager->cache() : nullptr)
{
    m_manager = manager;
    if (manager)
        m_options.maxConcurrentReconciles = manager->options().maxConcurrentReconciles;
}

Expected<void> ControllerBuilder::complete(std::shared_ptr<Reconciler> reconciler)
{
    if (!m_manager)
        return Status::badRequest(QStringLiteral("ControllerBuilder::complete() needs a builder made from a manager: "
                                                 "ControllerBuilder(manager)"));
    Reconciler *target = reconciler.get();
    Expected<Controller *> built = build(std::move(reconciler), m_manager);
    if (!built)
        return built.error();
    Controller *controller = *built;
    EventRecorder *events = m_manager->eventRecorder(controller->name() + QStringLiteral("-controller"));
    target->inject(m_manager->client(), events->recorder());
    m_manager->add(controller);
    return {};
}

// WebhookBuilder's one-step form (engine/webhook/webhookbuilder.h): the manager's webhook server.
WebhookBuilder::WebhookBuilder(Manager *manager)
    : WebhookBuilder(manager ? manager->webhookServer() : nullptr)
{ }

} // namespace opbench
