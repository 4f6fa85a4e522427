// SPDX-License-Identifier: Apache-2.0
// The Memcached controller of the Operator SDK tutorial: For(Memcached), Owns(Deployment).
//
// Reconcile(ns/name):
//   1. get the Memcached (gone: nothing to do); no conditions yet: Available Unknown;
//   2. the finalizer on; being deleted: Degraded Unknown → a Warning event "Deleting" →
//      Degraded True → the finalizer off;
//   3. ensure Deployment <name>: spec.size replicas of memcached (command, port, non-root
//      security contexts), owned by the Memcached; a failure is reported as Available False;
//   4. Available True, "Deployment for custom resource (<name>) with <size> replicas created
//      successfully".
#pragma once

#include "memcached_types.h"

namespace memcached {

inline const QString kFinalizer = "cache.example.com/finalizer";

class MemcachedReconciler final : public opbench::Reconciler
{
public:
    QCoro::Task<opbench::ReconcileOutcome> reconcile(opbench::Request req) override;

private:
    QCoro::Task<opbench::ReconcileOutcome> finalize(opbench::Request req, Memcached cr);
    /// Sets the condition and writes the status when it changed; an error to return, or none.
    QCoro::Task<std::optional<opbench::Status>> report(
        opbench::Request req, Memcached &cr, QString type, QString status, QString reason, QString message);
};

opbench::Expected<void> setupMemcachedController(opbench::Manager *manager);
opbench::OperatorDefinition definition();

} // namespace memcached
