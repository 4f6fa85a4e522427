// SPDX-License-Identifier: Apache-2.0
// EngineWorker, fourth part: leader election as the Leadership panel shows it (the Lease read
// every 500 ms, this workbench's role) and the hand-off to a headless opbench-operator process.
#include "ui/session/engineworker.h"

#include "engine/api/lease.h"
#include "engine/api/status.h"
#include "engine/client/restclient.h"
#include "engine/manager/leaderelector.h"
#include "engine/manager/manager.h"
#include "ui/session/headlessoperator.h"

#include <QTimer>

namespace opbench::ui {

namespace {

constexpr int LeasePollMs = 500;

const GroupVersionResource &leasesGvr()
{
    static const GroupVersionResource gvr{QStringLiteral("coordination.k8s.io"), QStringLiteral("v1"),
                                          QStringLiteral("leases")};
    return gvr;
}

} // namespace

void EngineWorker::setHandOffAvailability(bool possible, const QString &whyNot)
{
    m_leadership.handOffPossible = possible;
    m_leadership.handOffUnavailable = possible ? QString() : whyNot;
}

void EngineWorker::startLeadership(const QString &leaseNamespace, const QString &identity)
{
    m_leadership.leaseName = defaultLeaseName();
    m_leadership.leaseNamespace = leaseNamespace;
    m_leadership.identity = identity;
    connect(m_manager.get(), &Manager::leadershipChanged, this, &EngineWorker::publishLeadership);
    if (!m_leaseTimer) {
        m_leaseTimer = new QTimer(this);
        connect(m_leaseTimer, &QTimer::timeout, this, [this] { pollLease(); });
    }
    m_leaseTimer->start(LeasePollMs);
}

void EngineWorker::stopLeadership()
{
    if (m_leaseTimer)
        m_leaseTimer->stop();
    delete m_headless; // stops a running process (it releases its lease)
    m_headless = nullptr;
}

QCoro::Task<void> EngineWorker::pollLease()
{
    if (m_leasePollBusy || !m_client)
        co_return;
    m_leasePollBusy = true;
    QPointer<EngineWorker> self(this);
    Expected<Object> got = co_await m_client->get(leasesGvr(), m_leadership.leaseNamespace, m_leadership.leaseName);
    if (!self)
        co_return;
    m_leasePollBusy = false;
    LeadershipState &s = m_leadership;
    s.leaseFound = got.ok();
    s.leaseError.clear();
    if (got) {
        const Lease lease(got.value());
        s.holder = lease.holderIdentity();
        s.acquireTime = lease.acquireTime();
        s.renewTime = lease.renewTime();
        s.leaseDurationSeconds = lease.leaseDurationSeconds();
        s.transitions = lease.leaseTransitions();
    } else if (!isNotFound(got.error())) {
        s.leaseError = tr("Reading Lease %1/%2 failed: %3").arg(s.leaseNamespace, s.leaseName, got.error().message());
    }
    publishLeadership();
}

void EngineWorker::publishLeadership()
{
    LeadershipState &s = m_leadership;
    const LeaderElector *elector = m_manager ? m_manager->elector() : nullptr;
    if (!elector)
        s.role = LeadershipState::Role::Off;
    else if (elector->handedOff())
        s.role = LeadershipState::Role::HandedOff;
    else if (elector->isLeader())
        s.role = LeadershipState::Role::Leader;
    else
        s.role = LeadershipState::Role::Candidate;
    if (m_headless) {
        if (m_headless->isStopping())
            s.headless = LeadershipState::Headless::Stopping;
        if (m_headless->pid() != 0)
            s.headlessPid = m_headless->pid();
        s.newLogLines = m_headless->takeLogLines();
    }
    Q_EMIT leadershipState(s);
    s.newLogLines.clear();
}

void EngineWorker::handOff(const HeadlessLaunch &launch)
{
    if (!m_manager || !m_manager->elector() || !m_leadership.handOffPossible) {
        Q_EMIT actionFailed(m_leadership.handOffUnavailable.isEmpty()
                                ? tr("Hand off is not possible: the workbench's operator is not running.")
                                : m_leadership.handOffUnavailable);
        return;
    }
    if (m_headless && m_headless->isRunning())
        return;
    if (!m_headless) {
        m_headless = new HeadlessOperator(this);
        connect(m_headless, &HeadlessOperator::started, this, &EngineWorker::onHeadlessStarted);
        connect(m_headless, &HeadlessOperator::finished, this, &EngineWorker::onHeadlessFinished);
    }
    HeadlessLaunch l = launch;
    l.leaseName = m_leadership.leaseName;
    l.namespaceName = m_leadership.leaseNamespace;
    m_takeBackPending = false;
    m_leadership.headlessIdentity = l.identity;
    m_leadership.headlessExitCode = 0;
    if (auto ok = m_headless->start(l); !ok) {
        m_leadership.headless = LeadershipState::Headless::None;
        m_leadership.headlessMessage = ok.error().message();
        Q_EMIT actionFailed(ok.error().message());
    } else {
        m_leadership.headless = LeadershipState::Headless::Starting;
        m_leadership.headlessMessage = tr("starting %1").arg(l.program);
    }
    publishLeadership();
}

void EngineWorker::onHeadlessStarted()
{
    m_leadership.headless = LeadershipState::Headless::Running;
    m_leadership.headlessMessage = tr("running as pid %1").arg(m_headless->pid());
    if (m_manager)
        m_manager->handOff(); // release: the headless process takes the lease on its next try
    publishLeadership();
}

void EngineWorker::onHeadlessFinished(int exitCode, bool crashed, const QString &message)
{
    m_leadership.headless = LeadershipState::Headless::Exited;
    m_leadership.headlessExitCode = exitCode;
    m_leadership.headlessMessage = message;
    if (!(m_takeBackPending && !crashed && exitCode == 0))
        Q_EMIT actionFailed(message);
    // Take back once it is gone: it released its lease on SIGTERM, so we acquire at once. A
    // process that died on its own leaves the choice to the user (Take back).
    if (m_manager && m_takeBackPending)
        m_manager->takeBack();
    m_takeBackPending = false;
    publishLeadership();
}

void EngineWorker::takeBack()
{
    if (!m_manager)
        return;
    if (m_leadership.clusterHandOff && m_leadership.deployment != LeadershipState::Deployment::None) {
        if (m_leadership.deployment != LeadershipState::Deployment::ScalingDown)
            runClusterTakeBack();
        return;
    }
    if (m_headless && m_headless->isRunning()) {
        m_takeBackPending = true;
        m_headless->stop(); // finished() takes back
        publishLeadership();
        return;
    }
    m_manager->takeBack();
    publishLeadership();
}

} // namespace opbench::ui
