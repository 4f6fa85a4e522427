// SPDX-License-Identifier: Apache-2.0
#pragma once
// Event handlers: turn watch events into requests in a controller's queue (controller-runtime's
// handler package). Each request carries a Cause: the event type, the source kind and key, and
// its resourceVersion (an owner mapping names the child it came from).
//
// Priority (priority queue only): creates from the initial list and resyncs are queued at
// LowPriority, so real changes overtake them.
//
// Ready-made handlers:
// - enqueueRequestForObject(): the object itself (For);
// - enqueueRequestForOwner(): the owner named by the object's ownerReferences, matched by group
//   and kind (the version is ignored); updates queue the owners of the old and the new object;
// - enqueueRequestsFromMapFunc(): whatever a function maps the object to (old and new on update).

#include "engine/controller/predicates.h"
#include "engine/queue/workqueue.h"

#include <qcoro/qcorotask.h>

#include <memory>

namespace opbench {

/// Where handlers put requests: a work queue plus the priority rule.
class RequestQueue
{
public:
    explicit RequestQueue(WorkQueue *queue)
        : m_queue(queue)
    { }
    /// Adds `key`; with `lowPriority`, at LowPriority in a priority queue.
    void add(const QueueKey &key, Cause cause, bool lowPriority = false);
    [[nodiscard]] WorkQueue *queue() const { return m_queue; }

private:
    WorkQueue *m_queue;
};

class EventHandler
{
public:
    virtual ~EventHandler() = default;
    virtual void handle(const ObjectEvent &event, RequestQueue &queue) = 0;

protected:
    EventHandler() = default;
    EventHandler(const EventHandler &) = default;
    EventHandler &operator=(const EventHandler &) = default;
};

std::unique_ptr<EventHandler> enqueueRequestForObject();

/// `ownerKind`'s group and kind are matched (not its version). `ownerNamespaced`: false when the
/// owner kind is cluster-scoped (the request then has no namespace). `onlyController`: only the
/// ownerReference with controller=true (the Owns() default); false matches every owner.
std::unique_ptr<EventHandler> enqueueRequestForOwner(
    const GroupVersionKind &ownerKind, bool ownerNamespaced = true, bool onlyController = true);

using MapFunc = std::function<QList<QueueKey>(const Object &)>;
std::unique_ptr<EventHandler> enqueueRequestsFromMapFunc(MapFunc fn);

/// A map function that may await, e.g. a cached read (`co_await client->list(...)`, as
/// controller-runtime's map functions call client.List). Its keys are queued when it returns;
/// requests from different events may then arrive out of event order (reconciles are
/// level-based). The function object is kept alive while calls are in flight; keys of a call
/// that finishes after its controller was destroyed are dropped.
using AsyncMapFunc = std::function<QCoro::Task<QList<QueueKey>>(Object)>;
std::unique_ptr<EventHandler> enqueueRequestsFromAsyncMapFunc(AsyncMapFunc fn);

/// The Cause::EventType of a watch event.
Cause::EventType causeEventType(const ObjectEvent &event);

} // namespace opbench
