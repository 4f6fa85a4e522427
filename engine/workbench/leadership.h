// SPDX-License-Identifier: Apache-2.0
#pragma once
// Leadership: the Leadership panel's view of the Manager's leader elector, and the hand-off.
//
// - The Lease shown is what the Manager's own LeaderElector last observed while it campaigns or
//   leads (no second reader). Once handed off the elector is stopped, so the Lease is then read
//   through the Manager's REST client every 500 ms to show who took it.
// - Embedded cluster: handOff() starts opbench-operator in-cluster style (HeadlessOperator) and
//   releases the lease once it runs; takeBack() stops it (SIGTERM: it releases) and campaigns.
// - Real cluster: handOffToCluster() applies the CRD and packaging/manifests (clusterhandoff.h),
//   then releases; takeBack() scales that Deployment to 0, waits for the lease, campaigns.
// - The toolbar's one Hand off button (ui: MainWindow::onHandOffAction) calls takeBack() when
//   handed off, else hands off (on a real cluster after asking for the image).
//
// Lives on the engine thread; the Manager is not owned (attach(nullptr) before it goes).

#include "engine/workbench/headlessoperator.h"
#include "engine/workbench/leadershipstate.h"

#include "engine/manager/manager.h"

#include <QObject>
#include <QPointer>

#include <qcoro/qcorotask.h>

class QTimer;

namespace opbench::workbench {

struct HandOffOptions
{
    bool embedded = true;  ///< hand off to a local process (else: to the cluster)
    HeadlessLaunch launch; ///< embedded: program, server, credentials, identity
    /// Real cluster: the hosted operator's CRDs, applied with packaging/manifests (the in-cluster
    /// opbench-operator). Empty: the cluster hand-off is not offered (another operator's
    /// in-cluster manifests are not supported yet).
    QByteArrayList clusterCrds;
    /// Embedded: the folder the headless process records into (one file per hand-off, offered
    /// on take-back). "" = a folder of this session under the user's app data
    /// (QStandardPaths::AppLocalDataLocation/recordings/<start time>-<pid>).
    QString recordingDir;
};

class Leadership : public QObject
{
    Q_OBJECT
public:
    explicit Leadership(QObject *parent = nullptr);
    ~Leadership() override;

    /// Observes `manager`'s elector (not owned; null stops and ends a headless process).
    void attach(Manager *manager, const QString &leaseName, HandOffOptions options);
    const LeadershipState &state() const { return m_state; }

public Q_SLOTS:
    /// Embedded: starts the headless operator, releases once it runs. Real cluster: asks for
    /// nothing and fails (use handOffToCluster with an image).
    void handOff();
    /// Real cluster: applies the CRD and packaging/manifests with `image`, then releases.
    void handOffToCluster(const QString &image);
    /// Stops the headless operator / scales the in-cluster one to 0, then campaigns again.
    void takeBack();

Q_SIGNALS:
    /// The lease and the hand-off, every 500 ms and on every change.
    void leadershipState(const opbench::workbench::LeadershipState &state);
    void actionFailed(const QString &message);
    /// The headless process ended and left a recording: `path` (its --record file) with
    /// `reconciles` reconciles; also in the state (recordingPath, recordingMessage).
    void recordingAvailable(const QString &path, int reconciles);

private:
    void refresh();
    void publish();
    QCoro::Task<void> readLease();
    void onHeadlessStarted();
    void onHeadlessFinished(int exitCode, bool crashed, const QString &message);
    QCoro::Task<void> runClusterHandOff(QString image);
    QCoro::Task<void> runClusterTakeBack();
    void setDeploymentStep(LeadershipState::Deployment step, const QString &message);
    QString nextRecordingPath();
    void offerRecording();

    QPointer<Manager> m_manager;
    HandOffOptions m_options;
    LeadershipState m_state;
    QTimer *m_timer; // child
    bool m_readBusy = false;
    HeadlessOperator *m_headless = nullptr; // child
    bool m_takeBackPending = false;
    QString m_sessionRecordingDir; // chosen on the first hand-off
    QString m_recordPath;          // the running (or last) headless process's --record file
};

} // namespace opbench::workbench
