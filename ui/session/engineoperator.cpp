// SPDX-License-Identifier: Apache-2.0
// EngineWorker, third part: the MyApplication operator running on the engine thread under a
// Manager, observed by the bridge. The workbench campaigns for the operator's lease like any
// replica would, so it can hand leadership to a headless opbench-operator and take it back.
#include "ui/session/engineworker.h"

#include "engine/manager/leaderelector.h"
#include "engine/manager/manager.h"
#include "engine/operator/setup.h"

namespace opbench::ui {

void EngineWorker::startOperator(const RestConfig &config)
{
    ManagerOptions options;
    options.restConfig = config;
    options.leaderElection = true;
    options.leaderElectionId = defaultLeaseName();
    options.leaderElectionNamespace = config.namespaceName;
    options.identity = QStringLiteral("workbench-") + defaultLeaderIdentity();
    auto manager = Manager::create(std::move(options));
    if (!manager) {
        Q_EMIT failed(tr("The operator's manager could not be created: %1").arg(manager.error().message()));
        observeController(nullptr);
        return;
    }
    m_manager = std::move(manager.value());
    auto controller = myapp::setupWithManager(m_manager.get());
    if (!controller) {
        Q_EMIT failed(tr("The MyApplication operator could not be set up: %1").arg(controller.error().message()));
        observeController(nullptr);
        return;
    }
    observeController(controller.value());
    startLeadership(m_manager->options().leaderElectionNamespace, m_manager->options().identity);
    runManager();
}

QCoro::Task<void> EngineWorker::runManager()
{
    QPointer<EngineWorker> self(this);
    auto started = co_await m_manager->start();
    if (self && !started)
        Q_EMIT failed(tr("The MyApplication operator did not start: %1").arg(started.error().message()));
}

void EngineWorker::stopOperator()
{
    stopLeadership();
    observeController(nullptr);
    if (m_manager)
        m_manager->stop();
}

} // namespace opbench::ui
