// SPDX-License-Identifier: Apache-2.0
#pragma once
// Object events as controllers see them (controller-runtime's event package: one value per
// informer callback, the Object shared, not copied), and predicates that filter them before a
// handler enqueues anything (its predicate package). Not the client's WatchEvent
// (engine/client/watchdecoder.h), which is the decoded wire event.
//
// There are no default predicates: without a filter, a controller's own status writes queue
// its object again (harmless when reconcile is idempotent). generationChanged() is the usual
// filter for the For kind of a CRD with a status subresource.

#include "engine/api/gvk.h"
#include "engine/api/labelselector.h"
#include "engine/api/object.h"

#include <QList>

#include <functional>

namespace opbench {

struct ObjectEvent
{
    enum class Type : quint8 { Create, Update, Delete, Generic };
    Type type = Type::Generic;
    Object object;                   ///< the object (the new one for updates)
    Object oldObject;                ///< updates: the previous state
    GroupVersionKind gvk;            ///< the watched kind
    bool isInInitialList = false;    ///< creates from the informer's first list
    bool deleteStateUnknown = false; ///< deletes noticed by a relist (last known state)

    /// An update carrying the same resourceVersion (an informer resync).
    [[nodiscard]] bool isResync() const
    {
        return type == Type::Update && oldObject.resourceVersion() == object.resourceVersion();
    }
};

/// Returns true to let the event through.
using Predicate = std::function<bool(const ObjectEvent &)>;

namespace predicates {

/// Updates pass only when metadata.generation changed (drops status-only writes and resyncs);
/// other event types pass.
Predicate generationChanged();
/// Updates pass only when metadata.resourceVersion changed; other types pass.
Predicate resourceVersionChanged();
/// Updates pass only when the labels changed; other types pass.
Predicate labelChanged();
/// Updates pass only when the annotations changed; other types pass.
Predicate annotationChanged();
/// Every event type: the object's labels match `selector`.
Predicate labelSelector(const LabelSelector &selector);
/// All of `ps` pass (true when empty).
Predicate allOf(QList<Predicate> ps);
/// Any of `ps` passes (false when empty).
Predicate anyOf(QList<Predicate> ps);
/// The opposite of `p`.
Predicate negate(Predicate p);

} // namespace predicates

} // namespace opbench
