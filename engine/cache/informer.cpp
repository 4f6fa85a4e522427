// SPDX-License-Identifier: Apache-2.0
#include "engine/cache/informer.h"

#include "engine/cache/reflector.h"

namespace opbench {

namespace {
constexpr std::chrono::milliseconds MinimumResync{1000};
}

/// Feeds one namespace's reflector into the shared store: its lists replace that namespace only.
class Informer::NamespaceSink final : public DeltaSink
{
public:
    NamespaceSink(Informer *informer, QString ns)
        : m_informer(informer)
        , m_ns(std::move(ns))
    { }
    void replaceAll(const QList<Object> &items, const QString &rv) override { m_informer->replaceIn(&m_ns, items, rv); }
    void added(const Object &obj) override { m_informer->added(obj); }
    void modified(const Object &obj) override { m_informer->modified(obj); }
    void deleted(const Object &obj) override { m_informer->deleted(obj); }
    void bookmark(const QString &rv) override { m_informer->bookmark(rv); }

private:
    Informer *m_informer;
    QString m_ns;
};

Informer::Informer(InformerOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_clock(m_options.clock ? m_options.clock : Clock::system())
    , m_history(m_options.historyCapacity)
{
    if (!m_options.transform)
        m_options.transform = [](const Object &o) { return o.withoutManagedFields(); };
}

Informer::~Informer()
{
    if (m_resyncTimer)
        m_clock->cancel(m_resyncTimer);
}

Informer::HandlerId Informer::addEventHandler(ResourceEventHandler *handler, std::chrono::milliseconds resyncPeriod)
{
    if (resyncPeriod.count() == 0)
        resyncPeriod = m_options.resyncPeriod;
    if (resyncPeriod.count() > 0 && resyncPeriod < MinimumResync)
        resyncPeriod = MinimumResync;
    const HandlerId id = m_nextHandlerId++;
    m_handlers.push_back({id, handler, resyncPeriod, m_clock->now() + resyncPeriod});
    // A late handler catches up with what the cache already holds (until it is removed).
    const quint64 removals = m_removals;
    for (const Object &obj : m_store.list()) {
        if (m_removals != removals && !isRegistered(id))
            break;
        handler->onAdd(obj, true);
    }
    scheduleResync();
    return id;
}

void Informer::removeEventHandler(HandlerId id)
{
    if (std::erase_if(m_handlers, [id](const Handler &h) { return h.id == id; }) > 0)
        ++m_removals;
}

bool Informer::isRegistered(HandlerId id) const
{
    return std::any_of(m_handlers.begin(), m_handlers.end(), [id](const Handler &h) { return h.id == id; });
}

void Informer::start()
{
    if (m_reflector || !m_options.client)
        return;
    ReflectorOptions ro;
    ro.client = m_options.client;
    ro.resource = m_options.resource;
    ro.kind = m_options.kind;
    ro.namespaceName = m_options.namespaceName;
    ro.labelSelector = m_options.labelSelector;
    ro.fieldSelector = m_options.fieldSelector;
    ro.clock = m_clock;
    ro.useWatchList = m_options.useWatchList;
    ro.pageSize = m_options.pageSize;
    ro.metadataOnly = m_options.metadataOnly;
    ro.observer = m_reflectorObserver;
    if (m_options.namespaces.size() < 2) {
        if (m_options.namespaces.size() == 1)
            ro.namespaceName = m_options.namespaces.first();
        m_reflector = std::make_unique<Reflector>(std::move(ro), this);
        m_reflector->start();
        return;
    }
    if (!m_synced)
        m_unlistedNamespaces = QSet<QString>(m_options.namespaces.cbegin(), m_options.namespaces.cend());
    for (const QString &ns : m_options.namespaces) {
        ReflectorOptions nro = ro;
        nro.namespaceName = ns;
        m_namespaceSinks.push_back(std::make_unique<NamespaceSink>(this, ns));
        auto reflector = std::make_unique<Reflector>(std::move(nro), m_namespaceSinks.back().get());
        if (!m_reflector)
            m_reflector = std::move(reflector);
        else
            m_moreReflectors.push_back(std::move(reflector));
    }
    m_reflector->start();
    for (auto &r : m_moreReflectors)
        r->start();
}

void Informer::setReflectorObserver(ReflectorObserver *observer)
{
    m_reflectorObserver = observer;
    if (m_reflector)
        m_reflector->setObserver(observer);
    for (auto &r : m_moreReflectors)
        r->setObserver(observer);
}

void Informer::stop()
{
    m_reflector.reset();
    m_moreReflectors.clear();
    m_namespaceSinks.clear();
}

bool Informer::isRunning() const { return m_reflector != nullptr; }

bool Informer::handlerHasSynced(HandlerId id) const
{
    // Delivery is synchronous: a registered handler has seen everything once the informer synced.
    return m_synced && std::any_of(m_handlers.begin(), m_handlers.end(), [id](const Handler &h) { return h.id == id; });
}

Object Informer::transformed(const Object &obj) const { return m_options.transform(obj); }

void Informer::setResourceVersion(const QString &rv)
{
    if (rv.isEmpty() || rv == m_lastSyncRv)
        return;
    m_lastSyncRv = rv;
    Q_EMIT resourceVersionChanged(rv);
}

void Informer::markSynced()
{
    if (m_synced || !m_unlistedNamespaces.isEmpty())
        return;
    m_synced = true;
    Q_EMIT synced();
}

void Informer::apply(
    CacheChange::Type type, const Object &oldObj, const Object &newObj, const QString &rv, bool initial, bool unknown)
{
    const bool isDelete = type == CacheChange::Type::Deleted;
    CacheChange change{
        type, isDelete ? oldObj.key() : newObj.key(), rv, m_clock->wallNow(), oldObj, isDelete ? Object() : newObj};
    m_history.record(change);
    // Copy: a handler may add or remove handlers while we deliver. One removed meanwhile (its
    // owner may be gone: a controller destroyed by another handler) is not called any more.
    const std::vector<Handler> handlers = m_handlers;
    const quint64 removals = m_removals;
    for (const Handler &h : handlers) {
        if (m_removals != removals && !isRegistered(h.id))
            continue;
        switch (type) {
        case CacheChange::Type::Added:
            h.handler->onAdd(newObj, initial);
            break;
        case CacheChange::Type::Modified:
            h.handler->onUpdate(oldObj, newObj);
            break;
        case CacheChange::Type::Deleted:
            h.handler->onDelete(oldObj, unknown);
            break;
        }
    }
    Q_EMIT changed(change);
}

void Informer::replaceAll(const QList<Object> &items, const QString &rv)
{
    if (intercepted({Delta::Type::Replace, {}, items, rv}))
        return;
    replaceIn(nullptr, items, rv);
}

bool Informer::intercepted(Delta delta)
{
    if (m_replaying || (!m_deltaFilter && m_heldDeltas.empty()))
        return false;
    const DeltaAction action
        = m_heldDeltas.empty() ? (m_deltaFilter ? m_deltaFilter(delta) : DeltaAction::Apply) : DeltaAction::Hold;
    if (action == DeltaAction::Hold)
        m_heldDeltas.push_back(std::move(delta));
    return action != DeltaAction::Apply;
}

void Informer::releaseHeldDeltas()
{
    std::vector<Delta> held;
    held.swap(m_heldDeltas);
    m_replaying = true;
    for (const Delta &d : held) {
        switch (d.type) {
        case Delta::Type::Replace:
            replaceAll(d.items, d.resourceVersion);
            break;
        case Delta::Type::Added:
            added(d.object);
            break;
        case Delta::Type::Modified:
            modified(d.object);
            break;
        case Delta::Type::Deleted:
            deleted(d.object);
            break;
        case Delta::Type::Bookmark:
            bookmark(d.resourceVersion);
            break;
        }
    }
    m_replaying = false;
}

void Informer::replaceIn(const QString *ns, const QList<Object> &items, const QString &rv)
{
    const bool initial = !m_synced;
    // Objects the list no longer has were deleted while we were not watching. Their tombstones
    // go out first, then the adds and updates (client-go's RealFIFO, the default since 1.33), so
    // handlers never see the old and the new set at once.
    if (m_store.size() > 0) {
        ObjectSet listed;
        listed.reserve(size_t(items.size()));
        for (const Object &raw : items)
            listed.insert(raw); // keyed by namespace/name, as client-go keys the raw list items
        for (const Object &cached : ns ? m_store.listNamespace(*ns) : m_store.list()) {
            if (listed.contains(cached))
                continue;
            const Object last = m_store.remove(cached.key());
            apply(CacheChange::Type::Deleted, last, {}, rv, false, true);
        }
    }
    for (const Object &raw : items) {
        const Object obj = transformed(raw);
        const Object old = m_store.find(obj);
        if (!old.isNull() && old.resourceVersion() == obj.resourceVersion())
            continue; // unchanged: nothing to tell (resyncs are the timer's job)
        m_store.upsert(obj);
        if (old.isNull())
            apply(CacheChange::Type::Added, {}, obj, obj.resourceVersion(), initial, false);
        else
            apply(CacheChange::Type::Modified, old, obj, obj.resourceVersion(), false, false);
    }
    setResourceVersion(rv);
    if (ns)
        m_unlistedNamespaces.remove(*ns);
    markSynced();
}

void Informer::added(const Object &raw)
{
    modified(raw); // an ADDED for a known key (after a rewatch) is an update
}

void Informer::modified(const Object &raw)
{
    if (intercepted({Delta::Type::Modified, raw, {}, raw.resourceVersion()}))
        return;
    const Object obj = transformed(raw);
    const Object old = m_store.upsert(obj);
    if (old.isNull())
        apply(CacheChange::Type::Added, {}, obj, obj.resourceVersion(), false, false);
    else
        apply(CacheChange::Type::Modified, old, obj, obj.resourceVersion(), false, false);
    setResourceVersion(obj.resourceVersion());
    markSynced();
}

void Informer::deleted(const Object &raw)
{
    if (intercepted({Delta::Type::Deleted, raw, {}, raw.resourceVersion()}))
        return;
    const Object obj = transformed(raw);
    const Object old = m_store.remove(obj.key());
    setResourceVersion(obj.resourceVersion());
    // The DELETED event carries the last state with the deletion's resourceVersion. Handlers hear
    // of it even when the cache never held the key (client-go's RealFIFO: an ADDED that was
    // missed, or an object created and deleted between a list and its watch).
    apply(CacheChange::Type::Deleted, obj, {}, obj.resourceVersion(), false, false);
}

void Informer::bookmark(const QString &rv)
{
    if (intercepted({Delta::Type::Bookmark, {}, {}, rv}))
        return;
    setResourceVersion(rv);
}

void Informer::scheduleResync()
{
    Clock::TimePoint next = Clock::TimePoint::max();
    for (const Handler &h : m_handlers)
        if (h.resyncPeriod.count() > 0)
            next = std::min(next, h.nextResync);
    if (m_resyncTimer) {
        m_clock->cancel(m_resyncTimer);
        m_resyncTimer = 0;
    }
    if (next != Clock::TimePoint::max())
        m_resyncTimer = m_clock->callAt(next, this, [this] {
            m_resyncTimer = 0;
            runResync();
        });
}

void Informer::runResync()
{
    const auto now = m_clock->now();
    const QList<Object> objects = m_store.list();
    const std::vector<Handler> handlers = m_handlers;
    const quint64 removals = m_removals;
    for (const Handler &h : handlers) {
        if (h.resyncPeriod.count() <= 0 || h.nextResync > now)
            continue;
        for (const Object &obj : objects) {
            if (m_removals != removals && !isRegistered(h.id))
                break;
            h.handler->onUpdate(obj, obj);
        }
        for (Handler &live : m_handlers)
            if (live.id == h.id)
                live.nextResync = now + h.resyncPeriod;
    }
    scheduleResync();
}

} // namespace opbench
