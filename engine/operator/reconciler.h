// SPDX-License-Identifier: Apache-2.0
#pragma once
// MyApplicationReconciler: drives a Deployment per MyApplication and reports its status.
//
// Reconcile(ns/name):
// 1. get the app from the cache (gone or being deleted → done; the Deployment is garbage
//    collected through its owner reference);
// 2. create or update the Deployment of the same name: labels app.kubernetes.io/name,
//    /instance, /managed-by=opbench, spec.replicas, container "app" with spec.image, the app as
//    controller owner; fields set by others are kept (the cached object is edited in place);
// 3. status from the Deployment: available == replicas → Running; Progressing=False with
//    ProgressDeadlineExceeded → Failed; else Pending; the Ready condition says the same
//    (setStatusCondition); written only when it changed;
// 4. Events "Created"/"Updated" on the app when the Deployment was written.
// Every read and write goes through the injected Client (ControllerBuilder::complete), so each
// shows in the reconcile's trace with its diff.
// A 409 Conflict ends the reconcile with a requeue (backoff), not an error.

#include "engine/api/deployment.h"
#include "engine/controller/client.h"
#include "engine/controller/reconciler.h"
#include "engine/operator/myapplication.h"

namespace opbench::myapp {

class MyApplicationReconciler final : public Reconciler
{
public:
    QCoro::Task<ReconcileOutcome> reconcile(Request req) override;

    /// The labels put on the Deployment and its pods.
    static Labels labelsFor(const QString &appName);
    /// True when `d` already has everything desiredDeployment would set.
    static bool deploymentInSync(const MyApplication &app, const Deployment &d);
    /// Edits `d` (the cached Deployment, or a bare one) to the desired state of `app`, keeping
    /// fields set by others; leaves it untouched when it is in sync (no re-encoding).
    static Expected<void> desiredDeployment(const MyApplication &app, Deployment &d);
    /// The Ready condition `app` should have given its Deployment.
    static Condition readyCondition(const MyApplication &app, const Deployment &d);
    /// status.phase for that condition: Running, Failed (progress deadline exceeded) or Pending.
    static QString phaseOf(const Condition &ready);

private:
    /// A requeue when no Deployment is cached for `app` and the live app is gone or has another
    /// uid: the cached app is stale, and a Deployment created for it would belong to a deleted
    /// owner (the garbage collector deletes it, the stale reconcile creates it again). An error
    /// when a read fails; nothing when the reconcile may go on.
    QCoro::Task<std::optional<ReconcileOutcome>> staleApp(Request req, const MyApplication &app);
    /// "Created"/"Updated" Events on the app when the Deployment was written.
    void recordEvent(const MyApplication &app, OperationResult result) const;
};

} // namespace opbench::myapp
