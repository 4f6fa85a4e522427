// SPDX-License-Identifier: Apache-2.0
// EngineWorker, fifth part: the hand-off on a real cluster. "Hand off" applies the CRD and
// packaging/manifests with the chosen image (one replica, the workbench's Lease) and releases the
// lease to the Deployment's pod; "Take back" scales that Deployment to 0, waits until its pods
// are gone or the Lease is free, and campaigns again. The steps are in clusterhandoff.h.
#include "ui/session/engineworker.h"

#include "engine/client/restclient.h"
#include "engine/manager/leaderelector.h"
#include "engine/manager/manager.h"
#include "ui/session/clusterhandoff.h"

namespace opbench::ui {

namespace {

constexpr std::chrono::seconds ReleaseTimeout{60};

} // namespace

void EngineWorker::setClusterHandOff(bool on)
{
    m_leadership.clusterHandOff = on;
    m_leadership.defaultImage = on ? clusterhandoff::shippedImage() : QString();
}

void EngineWorker::setDeploymentStep(LeadershipState::Deployment step, const QString &message)
{
    m_leadership.deployment = step;
    m_leadership.deploymentMessage = message;
    if (step == LeadershipState::Deployment::Failed)
        Q_EMIT actionFailed(message);
    publishLeadership();
}

void EngineWorker::handOffToCluster(const QString &image)
{
    using D = LeadershipState::Deployment;
    const D step = m_leadership.deployment;
    if (!m_leadership.clusterHandOff || !m_client || !m_manager || !m_manager->elector()) {
        Q_EMIT actionFailed(tr("Hand off to the cluster needs a real cluster and the workbench's operator running."));
        return;
    }
    if (step == D::Applying || step == D::ScalingDown || m_manager->elector()->handedOff())
        return;
    runClusterHandOff(image);
}

QCoro::Task<void> EngineWorker::runClusterHandOff(QString image)
{
    using D = LeadershipState::Deployment;
    QPointer<EngineWorker> self(this);
    auto docs = clusterhandoff::shippedManifests();
    if (docs)
        docs = clusterhandoff::prepare(*docs, image, m_leadership.leaseNamespace, m_leadership.leaseName);
    if (!docs) {
        setDeploymentStep(D::Failed, docs.error().message());
        co_return;
    }
    setDeploymentStep(D::Applying, tr("applying the packaging/ manifests with image %1…").arg(image));
    auto applied = co_await clusterhandoff::apply(m_client.get(), *docs);
    if (!self)
        co_return;
    if (!applied) {
        setDeploymentStep(D::Failed, applied.error().message());
        co_return;
    }
    if (m_manager)
        m_manager->handOff(); // release: the Deployment's pod takes the lease once it runs
    setDeploymentStep(D::Applied, tr("%1; Deployment %2/%3 runs 1 replica of %4; lease released to it")
                                      .arg(*applied, clusterhandoff::deploymentNamespace(),
                                           clusterhandoff::deploymentName(), image));
}

QCoro::Task<void> EngineWorker::runClusterTakeBack()
{
    using D = LeadershipState::Deployment;
    QPointer<EngineWorker> self(this);
    setDeploymentStep(D::ScalingDown, tr("scaling Deployment %1/%2 to 0…")
                                          .arg(clusterhandoff::deploymentNamespace(), clusterhandoff::deploymentName()));
    auto scaled = co_await clusterhandoff::scaleToZero(m_client.get());
    if (!self || !m_client)
        co_return;
    if (!scaled) {
        setDeploymentStep(D::Failed, scaled.error().message());
        co_return;
    }
    setDeploymentStep(D::ScalingDown, tr("%1; waiting until its pods are gone or the Lease is free…").arg(*scaled));
    auto released = co_await clusterhandoff::waitForRelease(m_client.get(), m_leadership.leaseNamespace,
                                                            m_leadership.leaseName, ReleaseTimeout);
    if (!self)
        co_return;
    const QString why = released ? *released : released.error().message();
    if (m_manager)
        m_manager->takeBack();
    setDeploymentStep(D::ScaledDown, tr("%1; %2; campaigning again").arg(*scaled, why));
}

} // namespace opbench::ui
