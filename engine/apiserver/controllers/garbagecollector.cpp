// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/controllers/garbagecollector.h"

#include "engine/apiserver/storage/store.h"

#include <QJsonArray>
#include <QLoggingCategory>

namespace opbench::apiserver {

namespace {

Q_LOGGING_CATEGORY(lcGc, "opbench.apiserver.gc")

const QString kForeground = QStringLiteral("foregroundDeletion");
const QString kOrphan = QStringLiteral("orphan");

bool hasPropagationFinalizer(const Object &o)
{
    return o.isBeingDeleted() && (o.finalizers().contains(kForeground) || o.finalizers().contains(kOrphan));
}

// A write failed: conflicts and vanished objects are normal races (retried or moot).
bool isRace(const Status &s) { return isConflict(s) || isNotFound(s); }

} // namespace

GarbageCollector::OwnerState GarbageCollector::ownerState(const Object &dependent, const OwnerReference &ref) const
{
    const GroupVersion gv = GroupVersion::parse(ref.apiVersion);
    const auto type = m_store->registry()->findKind({gv.group, gv.version, ref.kind});
    if (!type)
        return OwnerState::Unresolvable; // a kind this server does not serve: never collected for it
    if (type->namespaced() && dependent.namespaceName().isEmpty())
        return OwnerState::Dangling; // a cluster-scoped dependent cannot have a namespaced owner
    // The owner is looked up where it must live: the dependent's namespace (or cluster scope),
    // by kind and name; a same-uid object elsewhere is not the owner.
    const auto owner = m_store->get(type->gvr(), type->namespaced() ? dependent.namespaceName() : QString(), ref.name);
    if (!owner || owner->uid() != ref.uid)
        return OwnerState::Dangling;
    if (owner->isBeingDeleted() && owner->finalizers().contains(kForeground))
        return OwnerState::Waiting;
    return OwnerState::Solid;
}

GarbageCollector::GarbageCollector(Store *store, Clock *clock, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_clock(clock)
{
    connect(m_store, &Store::committed, this, &GarbageCollector::onCommitted);
}

GarbageCollector::~GarbageCollector() = default;

void GarbageCollector::resyncAll()
{
    for (const GroupVersionResource &gvr : m_store->populatedResources()) {
        const auto list = m_store->list(gvr);
        if (!list)
            continue;
        for (const Object &o : list->items) {
            if (!o.ownerReferences().isEmpty())
                m_dirtyDependents.insert(o.uid());
            if (hasPropagationFinalizer(o))
                m_dirtyOwners.insert(o.uid());
        }
    }
    schedule();
}

void GarbageCollector::onCommitted(const StoreEvent &event)
{
    const Object &o = event.object;
    if (event.type == EventType::Deleted) {
        m_dirtyOwners.insert(o.uid()); // its dependents may now dangle
        for (const OwnerReference &r : o.ownerReferences())
            m_dirtyOwners.insert(r.uid); // a foreground owner may be waiting for it
    } else {
        const bool refsChanged = event.previous.isNull() || event.previous.ownerReferences() != o.ownerReferences();
        if (refsChanged && !o.ownerReferences().isEmpty())
            m_dirtyDependents.insert(o.uid());
        if (refsChanged && !event.previous.isNull()) {
            for (const OwnerReference &r : event.previous.ownerReferences())
                m_dirtyOwners.insert(r.uid); // a foreground owner may have lost its last blocker
        }
        if (hasPropagationFinalizer(o))
            m_dirtyOwners.insert(o.uid());
        if (o.isBeingDeleted()) {
            for (const OwnerReference &r : o.ownerReferences())
                m_dirtyOwners.insert(r.uid);
        }
    }
    schedule();
}

void GarbageCollector::schedule()
{
    if (m_scheduled || (m_dirtyOwners.isEmpty() && m_dirtyDependents.isEmpty()))
        return;
    m_scheduled = true;
    QMetaObject::invokeMethod(this, &GarbageCollector::processQueued, Qt::QueuedConnection);
}

void GarbageCollector::processQueued()
{
    m_scheduled = false;
    const QSet<QString> owners = std::exchange(m_dirtyOwners, {});
    const QSet<QString> dependents = std::exchange(m_dirtyDependents, {});
    for (const QString &uid : owners)
        processOwner(uid);
    for (const QString &uid : dependents)
        processDependent(uid);
    schedule(); // retries queued by failed writes
}

void GarbageCollector::processOwner(const QString &ownerUid)
{
    const std::optional<ObjectRef> ref = m_store->findByUid(ownerUid);
    if (!ref) {
        for (const ObjectRef &dep : m_store->dependentsOf(ownerUid))
            processDependent(m_store->find(dep).uid());
        return;
    }
    const Object owner = m_store->find(*ref);
    if (!owner.isBeingDeleted())
        return;
    if (owner.finalizers().contains(kOrphan))
        handleOrphan(ownerUid);
    else if (owner.finalizers().contains(kForeground))
        handleForeground(ownerUid);
}

void GarbageCollector::processDependent(const QString &dependentUid)
{
    // kube-controller-manager's attemptToDeleteItem: owners are solid, waiting for their
    // dependents' deletion (foreground), or dangling (absent, another uid, wrong namespace).
    const std::optional<ObjectRef> ref = m_store->findByUid(dependentUid);
    if (!ref)
        return;
    const Object dep = m_store->find(*ref);
    QSet<QString> dangling;
    QSet<QString> waiting;
    bool solid = false;
    for (const OwnerReference &r : dep.ownerReferences()) {
        switch (ownerState(dep, r)) {
        case OwnerState::Solid:
        case OwnerState::Unresolvable:
            solid = true;
            break;
        case OwnerState::Waiting:
            waiting.insert(r.uid);
            break;
        case OwnerState::Dangling:
            dangling.insert(r.uid);
            break;
        }
    }
    if (dangling.isEmpty() && waiting.isEmpty())
        return;
    if (solid) { // another owner keeps it: only the references to the others go
        stripOwner(dependentUid, dangling | waiting);
        return;
    }
    if (dep.isBeingDeleted())
        return;
    DeleteOptions options;
    options.preconditionUid = dep.uid();
    if (!waiting.isEmpty() && !m_store->dependentsOf(dep.uid()).isEmpty())
        options.propagationPolicy = QStringLiteral("Foreground"); // its own dependents go first
    else
        options.propagationPolicy = QStringLiteral("Background");
    const auto result = m_store->remove(ref->gvr, ref->namespaceName, ref->name, options);
    if (result) {
        ++m_deleted;
    } else if (!isRace(result.error())) {
        qCWarning(lcGc) << "cannot delete dependent" << ref->gvr.groupResource() << ref->name << ":"
                        << result.error().message();
    }
}

void GarbageCollector::handleForeground(const QString &ownerUid)
{
    // processDeletingDependentsItem: every dependent is considered (one with another solid owner
    // only loses its reference to this owner); the owner goes once no dependent with
    // blockOwnerDeletion=true references it any more.
    bool blockingLeft = false;
    for (const ObjectRef &depRef : m_store->dependentsOf(ownerUid)) {
        const Object dep = m_store->find(depRef);
        if (dep.isNull())
            continue;
        processDependent(dep.uid());
        const Object after = m_store->find(depRef);
        for (const OwnerReference &r : after.ownerReferences())
            blockingLeft = blockingLeft || (r.uid == ownerUid && r.blockOwnerDeletion);
    }
    if (!blockingLeft)
        removeFinalizer(ownerUid, kForeground);
}

void GarbageCollector::handleOrphan(const QString &ownerUid)
{
    bool allStripped = true;
    for (const ObjectRef &depRef : m_store->dependentsOf(ownerUid)) {
        const Object dep = m_store->find(depRef);
        if (!dep.isNull())
            allStripped = stripOwner(dep.uid(), {ownerUid}) && allStripped;
    }
    if (allStripped)
        removeFinalizer(ownerUid, kOrphan);
    else
        m_dirtyOwners.insert(ownerUid); // retried on the next pass
}

bool GarbageCollector::removeFinalizer(const QString &uid, const QString &finalizer)
{
    const std::optional<ObjectRef> ref = m_store->findByUid(uid);
    if (!ref)
        return true;
    QJsonObject json = m_store->jsonOf(m_store->find(*ref));
    QJsonObject meta = json.value(QLatin1String("metadata")).toObject();
    QJsonArray finalizers;
    for (const QJsonValue &f : meta.value(QLatin1String("finalizers")).toArray()) {
        if (f.toString() != finalizer)
            finalizers.append(f);
    }
    if (finalizers.isEmpty())
        meta.remove(QLatin1String("finalizers"));
    else
        meta.insert(QLatin1String("finalizers"), finalizers);
    json.insert(QLatin1String("metadata"), meta);
    const auto result = m_store->update(ref->gvr, ref->namespaceName, ref->name, json);
    if (result)
        return true;
    if (isConflict(result.error()))
        m_dirtyOwners.insert(uid);
    else if (!isNotFound(result.error()))
        qCWarning(lcGc) << "cannot remove finalizer" << finalizer << "from" << ref->name << ":"
                        << result.error().message();
    return false;
}

bool GarbageCollector::stripOwner(const QString &dependentUid, const QSet<QString> &ownerUids)
{
    const std::optional<ObjectRef> ref = m_store->findByUid(dependentUid);
    if (!ref)
        return true;
    QJsonObject json = m_store->jsonOf(m_store->find(*ref));
    QJsonObject meta = json.value(QLatin1String("metadata")).toObject();
    QJsonArray kept;
    int removed = 0;
    for (const QJsonValue &r : meta.value(QLatin1String("ownerReferences")).toArray()) {
        if (ownerUids.contains(r.toObject().value(QLatin1String("uid")).toString()))
            ++removed;
        else
            kept.append(r);
    }
    if (removed == 0)
        return true;
    if (kept.isEmpty())
        meta.remove(QLatin1String("ownerReferences"));
    else
        meta.insert(QLatin1String("ownerReferences"), kept);
    json.insert(QLatin1String("metadata"), meta);
    const auto result = m_store->update(ref->gvr, ref->namespaceName, ref->name, json);
    if (result) {
        m_stripped += removed;
        return true;
    }
    if (isConflict(result.error()))
        m_dirtyDependents.insert(dependentUid);
    else if (!isNotFound(result.error()))
        qCWarning(lcGc) << "cannot strip owner references from" << ref->name << ":" << result.error().message();
    return isNotFound(result.error());
}

} // namespace opbench::apiserver
