// SPDX-License-Identifier: Apache-2.0
#include "engine/workbench/leadership.h"

#include "engine/api/lease.h"
#include "engine/api/status.h"
#include "engine/client/restclient.h"
#include "engine/manager/leaderelector.h"
#include "engine/manager/manager.h"
#include "engine/recording/recording.h"
#include "engine/workbench/clusterhandoff.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTimer>

namespace opbench::workbench {

namespace {

constexpr int RefreshMs = 500;
constexpr std::chrono::seconds ReleaseTimeout{60};

const GroupVersionResource &leasesGvr()
{
    static const GroupVersionResource gvr{
        QStringLiteral("coordination.k8s.io"), QStringLiteral("v1"), QStringLiteral("leases")};
    return gvr;
}

void applyRecord(LeadershipState &s, const LeaderElectionRecord &r, bool found)
{
    s.leaseFound = found;
    s.holder = r.holderIdentity;
    s.acquireTime = r.acquireTime;
    s.renewTime = r.renewTime;
    s.leaseDurationSeconds = r.leaseDurationSeconds;
    s.transitions = r.leaseTransitions;
}

} // namespace

Leadership::Leadership(QObject *parent)
    : QObject(parent)
    , m_timer(new QTimer(this))
{
    connect(m_timer, &QTimer::timeout, this, &Leadership::refresh);
}

Leadership::~Leadership() = default;

void Leadership::attach(Manager *manager, const QString &leaseName, HandOffOptions options)
{
    if (m_manager)
        disconnect(m_manager, nullptr, this, nullptr);
    delete m_headless; // stops a running process (it releases its lease)
    m_headless = nullptr;
    m_manager = manager;
    m_options = std::move(options);
    m_state = {};
    if (!manager) {
        m_timer->stop();
        publish();
        return;
    }
    m_state.leaseName = leaseName;
    m_state.leaseNamespace = manager->options().leaderElectionNamespace;
    m_state.identity = manager->options().identity;
    m_state.handOffPossible = manager->elector() != nullptr && (m_options.embedded || !m_options.clusterCrds.isEmpty());
    m_state.handOffUnavailable = manager->elector() == nullptr ? tr("leader election is off")
        : m_state.handOffPossible                              ? QString()
                                  : tr("this operator ships no in-cluster manifests to hand off to");
    m_state.clusterHandOff = !m_options.embedded;
    m_state.defaultImage = m_options.embedded ? QString() : clusterhandoff::shippedImage();
    connect(manager, &Manager::leadershipChanged, this, &Leadership::refresh);
    m_timer->start(RefreshMs);
    refresh();
}

void Leadership::refresh()
{
    const LeaderElector *elector = m_manager ? m_manager->elector() : nullptr;
    if (elector && !elector->handedOff()) {
        const LeaderElectionRecord r = elector->observedRecord();
        applyRecord(m_state, r, !r.holderIdentity.isEmpty() || r.renewTime.isValid());
        m_state.leaseError.clear();
    } else if (elector) {
        readLease(); // the elector is stopped: see who took the lease
    }
    publish();
}

QCoro::Task<void> Leadership::readLease()
{
    if (m_readBusy || !m_manager)
        co_return;
    m_readBusy = true;
    QPointer<Leadership> self(this);
    Expected<Object> got
        = co_await m_manager->restClient()->get(leasesGvr(), m_state.leaseNamespace, m_state.leaseName);
    if (!self)
        co_return;
    m_readBusy = false;
    m_state.leaseError.clear();
    if (got)
        applyRecord(m_state, LeaderElectionRecord::fromLease(got.value()), true);
    else if (isNotFound(got.error()))
        applyRecord(m_state, {}, false);
    else
        m_state.leaseError = tr("Reading Lease %1/%2 failed: %3")
                                 .arg(m_state.leaseNamespace, m_state.leaseName, got.error().message());
}

void Leadership::publish()
{
    LeadershipState &s = m_state;
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
        s.newLogLines = m_headless->takeLogLines() + s.newLogLines; // then the recording's offer
    }
    Q_EMIT leadershipState(s);
    s.newLogLines.clear();
}

void Leadership::handOff()
{
    if (!m_manager || !m_manager->elector() || !m_state.handOffPossible) {
        Q_EMIT actionFailed(m_state.handOffUnavailable.isEmpty()
                ? tr("Hand off is not possible: the workbench's operator is not running.")
                : m_state.handOffUnavailable);
        return;
    }
    if (!m_options.embedded) {
        Q_EMIT actionFailed(tr("On a real cluster, hand off deploys the operator image: use Hand off to the cluster."));
        return;
    }
    if (m_headless && m_headless->isRunning())
        return;
    if (!m_headless) {
        m_headless = new HeadlessOperator(this);
        connect(m_headless, &HeadlessOperator::started, this, &Leadership::onHeadlessStarted);
        connect(m_headless, &HeadlessOperator::finished, this, &Leadership::onHeadlessFinished);
    }
    HeadlessLaunch l = m_options.launch;
    l.leaseName = m_state.leaseName;
    l.namespaceName = m_state.leaseNamespace;
    l.recordPath = m_recordPath = nextRecordingPath();
    m_takeBackPending = false;
    m_state.headlessIdentity = l.identity;
    m_state.headlessExitCode = 0;
    if (auto ok = m_headless->start(l); !ok) {
        m_state.headless = LeadershipState::Headless::None;
        m_state.headlessMessage = ok.error().message();
        Q_EMIT actionFailed(ok.error().message());
    } else {
        m_state.headless = LeadershipState::Headless::Starting;
        m_state.headlessMessage = tr("starting %1").arg(l.program);
    }
    publish();
}

void Leadership::onHeadlessStarted()
{
    m_state.headless = LeadershipState::Headless::Running;
    m_state.headlessMessage = tr("running as pid %1").arg(m_headless->pid());
    if (m_manager)
        m_manager->handOff(); // release: the headless process takes the lease on its next try
    publish();
}

void Leadership::onHeadlessFinished(int exitCode, bool crashed, const QString &message)
{
    m_state.headless = LeadershipState::Headless::Exited;
    m_state.headlessExitCode = exitCode;
    m_state.headlessMessage = message;
    if (!(m_takeBackPending && !crashed && exitCode == 0))
        Q_EMIT actionFailed(message);
    // Take back once it is gone: it released its lease on SIGTERM, so we acquire at once. A
    // process that died on its own leaves the choice to the user (Take back).
    if (m_manager && m_takeBackPending)
        m_manager->takeBack();
    m_takeBackPending = false;
    offerRecording();
    publish();
}

QString Leadership::nextRecordingPath()
{
    if (m_sessionRecordingDir.isEmpty()) {
        m_sessionRecordingDir = !m_options.recordingDir.isEmpty()
            ? m_options.recordingDir
            : QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation))
                  .filePath(QStringLiteral("recordings/%1-%2")
                                .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss")))
                                .arg(QCoreApplication::applicationPid()));
    }
    if (!QDir().mkpath(m_sessionRecordingDir))
        return QString(); // no recording rather than no hand-off
    const QDir dir(m_sessionRecordingDir);
    for (int i = 1;; ++i) {
        QString path = dir.filePath(QStringLiteral("headless-%1.rec").arg(i));
        if (!QFileInfo::exists(path))
            return path;
    }
}

void Leadership::offerRecording()
{
    if (m_recordPath.isEmpty() || !QFileInfo::exists(m_recordPath))
        return;
    const Recording recording = Recording::read(m_recordPath);
    if (recording.records().isEmpty())
        return; // not even a header: nothing to open
    m_state.recordingPath = m_recordPath;
    m_state.recordingReconciles = int(recording.reconciles().size());
    const int n = m_state.recordingReconciles;
    m_state.recordingMessage = n == 1 ? tr("recording available: %1 (1 reconcile)").arg(m_recordPath)
                                      : tr("recording available: %1 (%2 reconciles)").arg(m_recordPath).arg(n);
    if (!recording.ok())
        m_state.recordingMessage += tr("; read up to the damage: %1").arg(recording.error());
    m_state.newLogLines.append(m_state.recordingMessage);
    Q_EMIT recordingAvailable(m_state.recordingPath, m_state.recordingReconciles);
}

void Leadership::takeBack()
{
    if (!m_manager)
        return;
    if (m_state.clusterHandOff && m_state.deployment != LeadershipState::Deployment::None) {
        if (m_state.deployment != LeadershipState::Deployment::ScalingDown)
            runClusterTakeBack();
        return;
    }
    if (m_headless && m_headless->isRunning()) {
        m_takeBackPending = true;
        m_headless->stop(); // finished() takes back
        publish();
        return;
    }
    m_manager->takeBack();
    refresh();
}

void Leadership::setDeploymentStep(LeadershipState::Deployment step, const QString &message)
{
    m_state.deployment = step;
    m_state.deploymentMessage = message;
    if (step == LeadershipState::Deployment::Failed)
        Q_EMIT actionFailed(message);
    publish();
}

void Leadership::handOffToCluster(const QString &image)
{
    using D = LeadershipState::Deployment;
    const D step = m_state.deployment;
    if (!m_state.clusterHandOff || !m_manager || !m_manager->elector()) {
        Q_EMIT actionFailed(tr("Hand off to the cluster needs a real cluster and the workbench's operator running."));
        return;
    }
    if (step == D::Applying || step == D::ScalingDown || m_manager->elector()->handedOff())
        return;
    runClusterHandOff(image);
}

QCoro::Task<void> Leadership::runClusterHandOff(QString image)
{
    using D = LeadershipState::Deployment;
    QPointer<Leadership> self(this);
    auto docs = clusterhandoff::shippedManifests(m_options.clusterCrds);
    if (docs)
        docs = clusterhandoff::prepare(*docs, image, m_state.leaseNamespace, m_state.leaseName);
    if (!docs) {
        setDeploymentStep(D::Failed, docs.error().message());
        co_return;
    }
    setDeploymentStep(D::Applying, tr("applying the packaging/ manifests with image %1…").arg(image));
    auto applied = co_await clusterhandoff::apply(m_manager->restClient(), *docs);
    if (!self || !m_manager)
        co_return;
    if (!applied) {
        setDeploymentStep(D::Failed, applied.error().message());
        co_return;
    }
    m_manager->handOff(); // release: the Deployment's pod takes the lease once it runs
    setDeploymentStep(D::Applied,
        tr("%1; Deployment %2/%3 runs 1 replica of %4; lease released to it")
            .arg(*applied, clusterhandoff::deploymentNamespace(), clusterhandoff::deploymentName(), image));
}

QCoro::Task<void> Leadership::runClusterTakeBack()
{
    using D = LeadershipState::Deployment;
    QPointer<Leadership> self(this);
    setDeploymentStep(D::ScalingDown,
        tr("scaling Deployment %1/%2 to 0…")
            .arg(clusterhandoff::deploymentNamespace(), clusterhandoff::deploymentName()));
    auto scaled = co_await clusterhandoff::scaleToZero(m_manager->restClient());
    if (!self || !m_manager)
        co_return;
    if (!scaled) {
        setDeploymentStep(D::Failed, scaled.error().message());
        co_return;
    }
    setDeploymentStep(D::ScalingDown, tr("%1; waiting until its pods are gone or the Lease is free…").arg(*scaled));
    auto released = co_await clusterhandoff::waitForRelease(
        m_manager->restClient(), m_state.leaseNamespace, m_state.leaseName, ReleaseTimeout);
    if (!self || !m_manager)
        co_return;
    const QString why = released ? *released : released.error().message();
    m_manager->takeBack();
    setDeploymentStep(D::ScaledDown, tr("%1; %2; campaigning again").arg(*scaled, why));
}

} // namespace opbench::workbench
