// SPDX-License-Identifier: Apache-2.0
// The Guestbook controller: For(Guestbook), Owns(ConfigMap), Owns(Service).
//
// Reconcile(ns/name), level-based and idempotent:
//   1. get the Guestbook from the cache (gone: nothing to do);
//   2. being deleted: remove its entry from the namespace's "guestbook-registry" ConfigMap — an
//      object outside its owner tree, which garbage collection would never clean — then drop the
//      finalizer so the deletion completes;
//   3. make sure the finalizer is there before anything is registered;
//   4. ensure the children: ConfigMap <name> (title, entries) and Service <name> (port → 8080),
//      both owned by the Guestbook (garbage-collected with it);
//   5. ensure the registry entry <name>: <title>;
//   6. status: phase Ready, the number of entries, observedGeneration (written when it differs).
#pragma once

#include "guestbook_types.h"

namespace guestbook {

inline const QString kRegistryFinalizer = "webapp.example.org/registry";
inline const QString kRegistryName = "guestbook-registry";

class GuestbookReconciler final : public opbench::Reconciler
{
public:
    QCoro::Task<opbench::ReconcileOutcome> reconcile(opbench::Request req) override;

private:
    QCoro::Task<opbench::ReconcileOutcome> finalize(opbench::Request req, Guestbook book);
};

opbench::Expected<void> setupGuestbookController(opbench::Manager *manager);

} // namespace guestbook
