// SPDX-License-Identifier: Apache-2.0
#pragma once
// MyApplicationReconciler: drives a Deployment per MyApplication and reports its status.
//
// Reconcile(ns/name):
// 1. get the app from the cache (gone or being deleted → done; the Deployment is garbage
//    collected through its owner reference);
// 2. create or update the Deployment of the same name: labels app.kubernetes.io/name,
//    /instance, /managed-by=opbench, spec.replicas, container "app" with spec.image, the app as
//    controller owner; fields set by others are kept (read-modify-write of the cached object);
// 3. status from the Deployment: available == replicas → Running; Progressing=False with
//    ProgressDeadlineExceeded → Failed; else Pending; written only when it differs;
// 4. Events "Created"/"Updated" on the app when the Deployment was written.
// Every read and write goes through the Client (createOrUpdate, the status writer), so each
// shows in the reconcile's trace with its diff.
// A 409 Conflict ends the reconcile with a requeue (backoff), not an error.

#include "engine/controller/client.h"
#include "engine/controller/clientutil.h"
#include "engine/controller/reconciler.h"
#include "engine/operator/myapplication.h"

namespace opbench {
class EventRecorder;
}

namespace opbench::myapp {

class MyApplicationReconciler final : public Reconciler
{
public:
    /// `client` is required; `recorder` may be null (no Events). Neither is owned.
    MyApplicationReconciler(Client *client, EventRecorder *recorder);
    QCoro::Task<ReconcileOutcome> reconcile(Request request) override;

    /// The labels put on the Deployment and its pods.
    static Labels labelsFor(const QString &appName);
    /// True when `deployment` already has everything mutateDeployment would set.
    static bool deploymentInSync(const Object &app, const Object &deployment);
    /// Applies the desired state of `app` onto `deployment` (existing or bare); returns it
    /// unchanged when it is in sync.
    static Expected<Object> mutateDeployment(const Object &app, const Object &deployment);
    /// The status `app` should have given its Deployment (null when the Deployment is missing).
    static MyApplicationStatus desiredStatus(const MyApplication &app, const Object &deployment);

private:
    /// createOrUpdate of the app's Deployment (the mutate keeps fields others set).
    QCoro::Task<Expected<OperationOutcome>> ensureDeployment(ReconcileContext ctx, Object appObj);
    /// False when the cache has no Deployment for `appObj` and the live app is gone or has
    /// another uid: the cached app is stale, and a Deployment created for it would belong to a
    /// deleted owner (the garbage collector deletes it, the stale reconcile creates it again).
    QCoro::Task<Expected<bool>> ownerIsLive(ReconcileContext ctx, Object appObj);
    /// "Created"/"Updated" Events on the app when the Deployment was written.
    void recordEvent(const Object &appObj, OperationResult result) const;

    Client *m_client;
    EventRecorder *m_recorder;
};

} // namespace opbench::myapp
