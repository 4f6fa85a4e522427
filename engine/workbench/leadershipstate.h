// SPDX-License-Identifier: Apache-2.0
#pragma once
// LeadershipState: what the engine thread publishes about leader election and the headless
// hand-off (Leadership panel, status bar). An immutable value, sent through queued signals.

#include <QDateTime>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace opbench::workbench {

struct LeadershipState
{
    /// Where this workbench stands in the election.
    enum class Role {
        Off,       ///< no operator runs (not connected, or it failed to start)
        Candidate, ///< campaigning; someone else holds the lease (or nobody yet)
        Leader,    ///< this workbench holds the lease and reconciles
        HandedOff, ///< released on purpose: the headless operator should lead
    };
    /// The headless opbench-operator process started by "Hand off".
    enum class Headless { None, Starting, Running, Stopping, Exited };

    Role role = Role::Off;
    QString identity; ///< this workbench's identity

    // The Lease as last read from the API server.
    QString leaseName;
    QString leaseNamespace;
    bool leaseFound = false;
    QString holder; ///< "" when released or never held
    QDateTime acquireTime;
    QDateTime renewTime;
    int leaseDurationSeconds = 0;
    int transitions = 0;
    QString leaseError; ///< why the last read failed, in words ("" when it worked)

    // Hand-off.
    bool handOffPossible = false; ///< an operator running (embedded: a process; real: manifests)
    QString handOffUnavailable;   ///< why not, when !handOffPossible
    Headless headless = Headless::None;
    QString headlessIdentity;
    qint64 headlessPid = 0;
    int headlessExitCode = 0; ///< valid when headless == Exited
    QString headlessMessage;  ///< "exited with code 0", "crashed (signal)", start errors
    QStringList newLogLines;  ///< the process's stdout/stderr lines since the previous state
    /// The recording the headless process made while it ran (its --record file), offered once it
    /// ended: "" until then. recordingMessage: "recording available: PATH (N reconciles)".
    QString recordingPath;
    int recordingReconciles = 0;
    QString recordingMessage;

    /// Hand-off on a real cluster: the packaging/ manifests applied, an in-cluster Deployment.
    enum class Deployment {
        None,        ///< nothing applied by this workbench
        Applying,    ///< applying the manifests
        Applied,     ///< applied with replicas 1; the lease was released to its pod
        ScalingDown, ///< Take back: scaling to 0 and waiting for the lease to be free
        ScaledDown,  ///< scaled to 0; campaigning again
        Failed,      ///< a step failed (deploymentMessage says which and why)
    };
    bool clusterHandOff = false; ///< real cluster: Hand off applies the manifests (no process)
    QString defaultImage;        ///< the image the shipped Deployment names (the prompt's default)
    Deployment deployment = Deployment::None;
    QString deploymentMessage; ///< the last step's outcome in words ("applied 9 objects (…)")

    bool leadsHere() const { return role == Role::Leader; }
    /// Whether Hand off is offered now (an operator runs here, nothing handed off or under way).
    bool canHandOff() const
    {
        if (!handOffPossible || role == Role::Off || role == Role::HandedOff)
            return false;
        if (clusterHandOff)
            return !deploymentBusy();
        return !headlessUp();
    }
    /// Whether Take back is offered now (handed off, or a headless process runs or starts).
    bool canTakeBack() const
    {
        if (clusterHandOff)
            return role == Role::HandedOff && !deploymentBusy();
        return role == Role::HandedOff || (headlessUp() && headless != Headless::Stopping);
    }
    bool headlessUp() const
    {
        return headless == Headless::Starting || headless == Headless::Running || headless == Headless::Stopping;
    }
    bool deploymentBusy() const { return deployment == Deployment::Applying || deployment == Deployment::ScalingDown; }
};

} // namespace opbench::workbench

Q_DECLARE_METATYPE(opbench::workbench::LeadershipState)
