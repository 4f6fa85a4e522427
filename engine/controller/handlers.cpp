// SPDX-License-Identifier: Apache-2.0
#include "engine/controller/handlers.h"

#include <array>

namespace opbench {

namespace {

bool isLowPriority(const ObjectEvent &e)
{
    return (e.type == ObjectEvent::Type::Create && e.isInInitialList) || e.isResync();
}

class ForObjectHandler final : public EventHandler
{
public:
    void handle(const ObjectEvent &e, RequestQueue &queue) override
    {
        const Object &obj = e.object.isNull() ? e.oldObject : e.object;
        if (obj.isNull())
            return;
        const QString gvk = e.gvk.toString();
        Cause cause = e.type == ObjectEvent::Type::Create && e.isInInitialList
            ? Cause::initialList(gvk, obj.key(), obj.resourceVersion())
            : Cause::watchEvent(causeEventType(e), gvk, obj.key(), obj.resourceVersion());
        queue.add({obj.namespaceName(), obj.name()}, std::move(cause), isLowPriority(e));
    }
};

class ForOwnerHandler final : public EventHandler
{
public:
    ForOwnerHandler(const GroupVersionKind &owner, bool namespaced, bool onlyController)
        : m_group(owner.group)
        , m_kind(owner.kind)
        , m_namespaced(namespaced)
        , m_onlyController(onlyController)
    { }

    void handle(const ObjectEvent &e, RequestQueue &queue) override
    {
        QList<QueueKey> keys;
        collect(e.oldObject, keys);
        collect(e.object, keys);
        const Object &child = e.object.isNull() ? e.oldObject : e.object;
        for (const QueueKey &k : std::as_const(keys))
            queue.add(k, Cause::ownerMapping(causeEventType(e), e.gvk.toString(), child.key(), child.resourceVersion()),
                isLowPriority(e));
    }

private:
    void collect(const Object &child, QList<QueueKey> &keys) const
    {
        if (child.isNull())
            return;
        for (const OwnerReference &ref : child.ownerReferences()) {
            if (m_onlyController && !ref.controller)
                continue;
            if (ref.kind != m_kind || GroupVersion::parse(ref.apiVersion).group != m_group)
                continue;
            const QueueKey key{m_namespaced ? child.namespaceName() : QString(), ref.name};
            if (!keys.contains(key))
                keys.append(key);
        }
    }

    QString m_group;
    QString m_kind;
    bool m_namespaced;
    bool m_onlyController;
};

class MapFuncHandler final : public EventHandler
{
public:
    explicit MapFuncHandler(MapFunc fn)
        : m_fn(std::move(fn))
    { }

    void handle(const ObjectEvent &e, RequestQueue &queue) override
    {
        QList<QueueKey> keys;
        for (const Object *o : {&e.oldObject, &e.object}) {
            if (o->isNull())
                continue;
            for (const QueueKey &k : m_fn(*o))
                if (!keys.contains(k))
                    keys.append(k);
        }
        const Object &src = e.object.isNull() ? e.oldObject : e.object;
        for (const QueueKey &k : std::as_const(keys))
            queue.add(k, Cause::ownerMapping(causeEventType(e), e.gvk.toString(), src.key(), src.resourceVersion()),
                isLowPriority(e));
    }

private:
    MapFunc m_fn;
};

class AsyncMapFuncHandler final : public EventHandler
{
public:
    explicit AsyncMapFuncHandler(AsyncMapFunc fn)
        : m_fn(std::make_shared<AsyncMapFunc>(std::move(fn)))
    { }
    ~AsyncMapFuncHandler() override { *m_alive = false; }

    void handle(const ObjectEvent &e, RequestQueue &queue) override
    {
        const Object &src = e.object.isNull() ? e.oldObject : e.object;
        run(m_fn, m_alive, {e.oldObject, e.object}, queue,
            Cause::ownerMapping(causeEventType(e), e.gvk.toString(), src.key(), src.resourceVersion()),
            isLowPriority(e));
    }

private:
    // Detached; everything it uses is held by value (the queue only while the handler lives).
    static QCoro::Task<void> run(std::shared_ptr<AsyncMapFunc> fn, std::shared_ptr<bool> alive,
        std::array<Object, 2> objects, RequestQueue queue, Cause cause, bool lowPriority)
    {
        QList<QueueKey> keys;
        for (const Object &o : objects) {
            if (o.isNull())
                continue;
            const QList<QueueKey> mapped = co_await (*fn)(o);
            if (!*alive)
                co_return;
            for (const QueueKey &k : mapped)
                if (!keys.contains(k))
                    keys.append(k);
        }
        for (const QueueKey &k : std::as_const(keys))
            queue.add(k, cause, lowPriority);
    }

    std::shared_ptr<AsyncMapFunc> m_fn;
    std::shared_ptr<bool> m_alive = std::make_shared<bool>(true);
};

} // namespace

void RequestQueue::add(const QueueKey &key, Cause cause, bool lowPriority)
{
    if (lowPriority && m_queue->kind() == WorkQueue::Kind::Priority) {
        AddOpts opts;
        opts.priority = LowPriority;
        m_queue->addWithOpts(key, opts, std::move(cause));
        return;
    }
    m_queue->add(key, std::move(cause));
}

Cause::EventType causeEventType(const ObjectEvent &event)
{
    switch (event.type) {
    case ObjectEvent::Type::Create:
        return Cause::EventType::Added;
    case ObjectEvent::Type::Update:
        return event.isResync() ? Cause::EventType::Sync : Cause::EventType::Modified;
    case ObjectEvent::Type::Delete:
        return Cause::EventType::Deleted;
    case ObjectEvent::Type::Generic:
        return Cause::EventType::None;
    }
    return Cause::EventType::None;
}

std::unique_ptr<EventHandler> enqueueRequestForObject() { return std::make_unique<ForObjectHandler>(); }

std::unique_ptr<EventHandler> enqueueRequestForOwner(
    const GroupVersionKind &ownerKind, bool ownerNamespaced, bool onlyController)
{
    return std::make_unique<ForOwnerHandler>(ownerKind, ownerNamespaced, onlyController);
}

std::unique_ptr<EventHandler> enqueueRequestsFromMapFunc(MapFunc fn)
{
    return std::make_unique<MapFuncHandler>(std::move(fn));
}

std::unique_ptr<EventHandler> enqueueRequestsFromAsyncMapFunc(AsyncMapFunc fn)
{
    return std::make_unique<AsyncMapFuncHandler>(std::move(fn));
}

} // namespace opbench
