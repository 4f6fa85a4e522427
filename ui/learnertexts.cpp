// SPDX-License-Identifier: Apache-2.0
#include "ui/learnertexts.h"

#include <QCoreApplication>

namespace opbench::ui {

QString learnerText(Panel panel)
{
    const char *ctx = "LearnerText";
    switch (panel) {
    case Panel::Cache:
        return QCoreApplication::translate(ctx,
            "This is the informer cache: for each kind, one LIST and then a WATCH keep a copy of the objects in "
            "memory, "
            "so the controller reads locally instead of asking the API server. It is eventually consistent: an object "
            "you just wrote may not be here yet, and a reconcile may read it stale; the next watch event fixes that.");
    case Panel::Reconciles:
        return QCoreApplication::translate(ctx,
            "Each row is one call of Reconcile(namespace/name). Reconcile is level-triggered, not edge-triggered: it "
            "compares the whole desired state with the whole actual state instead of reacting to the event that woke "
            "it, so it gives the same answer however many events were merged into one call.");
    case Panel::Queue:
        return QCoreApplication::translate(ctx,
            "The work queue holds keys (namespace/name), not events. Adding a key that is already waiting does not "
            "add a second entry: the queue de-duplicates and only merges the causes. A failed key comes back after a "
            "growing backoff (a rate-limited retry).");
    case Panel::Object:
        return QCoreApplication::translate(ctx,
            "The selected object exactly as the cache holds it. Every change gives it a new resourceVersion; the "
            "history slider goes back through the versions the informer saw and the diff shows what each one changed.");
    case Panel::Children:
        return QCoreApplication::translate(ctx,
            "For each object of its kind the operator creates the objects it owns (a MyApplication's Deployment, a "
            "Guestbook's ConfigMap) and points their owner references at it. Owner references let the garbage "
            "collector delete children with their parent, and let the controller "
            "map an event on a child back to its owner's key.");
    case Panel::Leadership:
        return QCoreApplication::translate(ctx,
            "Only one copy of an operator may reconcile at a time. The copies compete for a Lease object: the holder "
            "renews it every few seconds, and another copy takes over only after the holder stops renewing.");
    case Panel::Faults:
        return QCoreApplication::translate(ctx,
            "Break the embedded API server on purpose. A dropped watch makes the reflector watch again (or LIST again "
            "after 410 Gone); errors and throttling make the client retry with backoff. The cache must end up right "
            "anyway.");
    case Panel::Pipeline:
        return QCoreApplication::translate(ctx,
            "The whole controller at once: a change on the API server travels through the watch into the cache, the "
            "event handlers turn it into a key, the work queue hands the key to a worker, and the reconciler's writes "
            "go back to the API server. The counts shrink along the way on purpose: many events merge into one "
            "queue item, and one reconcile answers them all. Click a stage to open the panel that shows it.");
    case Panel::CurrentReconcile:
        return QCoreApplication::translate(ctx,
            "The reconcile you are stepping, call by call: why it runs, what it read (and whether from the informer "
            "cache or the API server, at which resourceVersion), and the call it is halted before. A read from the "
            "cache can be older than the server: the cache is eventually consistent, and a write with a stale "
            "resourceVersion comes back 409 Conflict. Step over sends one call, Step out finishes the reconcile.");
    }
    return {};
}

} // namespace opbench::ui
