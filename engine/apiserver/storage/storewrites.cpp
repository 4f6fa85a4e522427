// SPDX-License-Identifier: Apache-2.0
// Store: the write path (create, update, updateStatus, remove) and its rules.
#include "engine/apiserver/apply/fieldmanager.h"
#include "engine/apiserver/storage/store.h"
#include "engine/apiserver/validation/defaults.h"
#include "engine/apiserver/validation/objectrules.h"
#include "engine/apiserver/validation/servicedefaults.h"

#include "engine/api/validation.h"
#include "engine/base/clock.h"

#include <QDateTime>
#include <QJsonArray>
#include <QUuid>

#include <chrono>

namespace opbench::apiserver {

namespace {

const QLatin1String kMetadata("metadata");
const QLatin1String kStatus("status");
const GroupVersionResource kNamespaces{QString(), QStringLiteral("v1"), QStringLiteral("namespaces")};

QJsonObject metaOf(const QJsonObject &o) { return o.value(kMetadata).toObject(); }

QString metaString(const QJsonObject &o, const char *key) { return metaOf(o).value(QLatin1String(key)).toString(); }

void setMeta(QJsonObject &o, const QJsonObject &meta) { o.insert(kMetadata, meta); }

void stampKind(const ResourceType &type, QJsonObject &o)
{
    // Stored objects carry the storage version (events.k8s.io Events live as core/v1 Events).
    o.insert(QLatin1String("apiVersion"), type.storageApiVersion());
    o.insert(QLatin1String("kind"), type.kind());
}

/// Copies a metadata field from `from` to `to` (removing it when absent in `from`).
void keepField(QJsonObject &to, const QJsonObject &from, const char *key)
{
    const QLatin1String k(key);
    if (const auto it = from.constFind(k); it != from.constEnd())
        to.insert(k, it.value()); // one lookup in `from`, not two
    else
        to.remove(k);
}

/// Update bookkeeping of metadata.managedFields for a write with a field manager.
void recordManagedFields(const ResourceType &type, const QJsonObject &old, QJsonObject &next,
    const WriteOptions &options, const QString &subresource, const Clock *clock)
{
    if (options.managedFieldsSet)
        return;
    if (options.fieldManager.isEmpty()) {
        // no manager (internal writers): a body without managedFields keeps the stored ones
        const QJsonObject oldMeta = metaOf(old);
        QJsonObject meta = metaOf(next);
        if (meta.value(QLatin1String("managedFields")).toArray().isEmpty()
            && oldMeta.contains(QLatin1String("managedFields"))) {
            meta.insert(QLatin1String("managedFields"), oldMeta.value(QLatin1String("managedFields")));
            setMeta(next, meta);
        }
        return;
    }
    // managedFields times have a one-second resolution: format once per second, not per write
    static thread_local std::pair<qint64, QString> lastTime{-1, QString()};
    const qint64 secs = (clock ? clock->wallNow() : QDateTime::currentDateTimeUtc()).toSecsSinceEpoch();
    if (secs != lastTime.first)
        lastTime = {secs, QDateTime::fromSecsSinceEpoch(secs, Qt::UTC).toString(Qt::ISODate)};
    recordUpdate(type, old, next,
        FieldManagerWrite{options.fieldManager, options.apiVersion.isEmpty() ? type.apiVersion() : options.apiVersion,
            subresource, lastTime.second});
}

bool isService(const ResourceType &type)
{
    return !type.custom && type.gvr().group.isEmpty() && type.gvr().resource == QLatin1String("services");
}

/// The cluster IPs and node ports of the stored Services (`services`, keyed "ns/name") other
/// than `key`.
void usedServiceAddresses(
    const QMap<QString, Object> &services, const QString &key, QSet<QString> &ips, QSet<int> &ports)
{
    for (auto it = services.cbegin(); it != services.cend(); ++it) {
        if (it.key() == key)
            continue;
        const QJsonObject other = it.value().json().value(QLatin1String("spec")).toObject();
        for (const QJsonValue &ip : other.value(QLatin1String("clusterIPs")).toArray())
            ips.insert(ip.toString());
        for (const QJsonValue &p : other.value(QLatin1String("ports")).toArray())
            ports.insert(int(p.toObject().value(QLatin1String("nodePort")).toInteger()));
    }
}

/// The cluster IP and node ports Service `key` still lacks, allocated against the other stored
/// Services.
void allocateServiceAddresses(const QMap<QString, Object> &services, const QString &key, QJsonObject &service)
{
    const QLatin1String kNodePort("nodePort");
    QJsonObject spec = service.value(QLatin1String("spec")).toObject();
    QJsonArray ports = spec.value(QLatin1String("ports")).toArray();
    const bool needIp = defaults::needsClusterIp(spec);
    QSet<int> usedPorts;
    bool needPorts = false;
    for (const QJsonValue &p : std::as_const(ports)) {
        const int port = int(p.toObject().value(kNodePort).toInteger());
        usedPorts.insert(port);
        needPorts = needPorts || (port == 0 && defaults::needsNodePorts(spec));
    }
    if (!needIp && !needPorts)
        return;
    QSet<QString> usedIps;
    usedServiceAddresses(services, key, usedIps, usedPorts);
    if (needIp) {
        const QString ip = defaults::allocateClusterIp(key, usedIps);
        spec.insert(QLatin1String("clusterIP"), ip);
        spec.insert(QLatin1String("clusterIPs"), QJsonArray{ip});
    }
    for (qsizetype i = 0; needPorts && i < ports.size(); ++i) {
        QJsonObject p = ports.at(i).toObject();
        if (p.value(kNodePort).toInteger() != 0)
            continue;
        const int port = defaults::allocateNodePort(key + u'/' + QString::number(i), usedPorts);
        usedPorts.insert(port);
        p.insert(kNodePort, port);
        ports.replace(i, p);
    }
    if (needPorts)
        spec.insert(QLatin1String("ports"), ports);
    service.insert(QLatin1String("spec"), spec);
}

} // namespace

Expected<void> Store::checkNamespace(const ResourceType &type, const QString &ns) const
{
    if (!type.namespaced())
        return {};
    const Object nsObj = m_objects.value(kNamespaces).value(ns);
    if (nsObj.isNull())
        return Status::notFound(QString(), QStringLiteral("namespaces"), ns);
    if (nsObj.isBeingDeleted()) {
        return Status::forbidden(type.gvr().group, type.gvr().resource, QString(),
            QStringLiteral("unable to create new content in namespace %1 because it is being terminated").arg(ns));
    }
    return {};
}

Expected<Object> Store::create(
    const GroupVersionResource &gvr, const QString &ns, QJsonObject object, const WriteOptions &options)
{
    auto type = typeFor(gvr);
    if (!type)
        return type.error();
    QJsonObject meta = metaOf(object);
    if (type->namespaced()) {
        const QString bodyNs = meta.value(QLatin1String("namespace")).toString();
        if (!ns.isEmpty() && !bodyNs.isEmpty() && bodyNs != ns)
            return Status::badRequest(QStringLiteral(
                "the namespace of the provided object does not match the namespace sent on the request"));
        meta.insert(QLatin1String("namespace"), bodyNs.isEmpty() ? ns : bodyNs);
    } else {
        meta.remove(QLatin1String("namespace"));
    }
    const QString objNs = meta.value(QLatin1String("namespace")).toString();
    static const QMap<QString, Object> empty;
    const auto bit = m_objects.constFind(type->storage);
    const QMap<QString, Object> &bucket = bit == m_objects.cend() ? empty : *bit; // no copy: commit() inserts below
    if (meta.value(QLatin1String("name")).toString().isEmpty()
        && !meta.value(QLatin1String("generateName")).toString().isEmpty()) {
        meta.insert(QLatin1String("name"),
            rules::generateName(meta.value(QLatin1String("generateName")).toString(),
                [&](const QString &n) { return bucket.contains(objectKey(objNs, n)); }));
    }
    const QString name = meta.value(QLatin1String("name")).toString();
    if (const QList<StatusCause> causes = rules::validateMeta(*type, meta); !causes.isEmpty())
        return Status::invalid(type->gvr().group, type->kind(), name, causes);
    if (auto nsOk = checkNamespace(*type, objNs); !nsOk)
        return nsOk.error();
    if (bucket.contains(objectKey(objNs, name)))
        return Status::alreadyExists(gvr.group, gvr.resource, name);
    meta.insert(QLatin1String("uid"), QUuid::createUuid().toString(QUuid::WithoutBraces));
    meta.insert(QLatin1String("creationTimestamp"), rules::timestamp(m_clock));
    for (const char *k : {"resourceVersion", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink"})
        meta.remove(QLatin1String(k));
    if (type->tracksGeneration)
        meta.insert(QLatin1String("generation"), 1);
    else
        meta.remove(QLatin1String("generation"));
    setMeta(object, meta);
    stampKind(*type, object);
    defaults::applyDefaults(*type, object);
    if (isService(*type))
        allocateServiceAddresses(bucket, objectKey(objNs, name), object);
    rules::applyCreateDefaults(*type, object);
    if (auto ok = runHooks(*type, object, QJsonObject(), QString()); !ok)
        return ok.error();
    recordManagedFields(*type, QJsonObject(), object, options, QString(), m_clock);
    if (options.dryRun)
        return Object::fromJson(object);
    return commit(EventType::Added, *type, object, Object());
}

Expected<Object> Store::update(const GroupVersionResource &gvr, const QString &ns, const QString &name,
    QJsonObject object, const WriteOptions &options)
{
    auto type = typeFor(gvr);
    if (!type)
        return type.error();
    auto old = get(gvr, ns, name);
    if (!old)
        return old.error();
    QJsonObject meta = metaOf(object);
    const QString bodyName = meta.value(QLatin1String("name")).toString();
    if (!bodyName.isEmpty() && bodyName != name)
        return Status::badRequest(
            QStringLiteral("the name of the object (%1) does not match the name on the URL (%2)").arg(bodyName, name));
    const QString bodyNs = meta.value(QLatin1String("namespace")).toString();
    if (type->namespaced() && !bodyNs.isEmpty() && bodyNs != ns)
        return Status::badRequest(
            QStringLiteral("the namespace of the provided object does not match the namespace sent on the request"));
    meta.insert(QLatin1String("name"), name);
    if (type->namespaced())
        meta.insert(QLatin1String("namespace"), ns);
    const QString uid = meta.value(QLatin1String("uid")).toString();
    if (!uid.isEmpty() && uid != old->uid()) {
        // the body's uid is a precondition (kube-apiserver's defaultUpdatedObjectInfo): 409
        return Status::conflict(gvr.group, gvr.resource, name,
            QStringLiteral("Precondition failed: UID in precondition: %1, UID in object meta: %2")
                .arg(uid, old->uid()));
    }
    setMeta(object, meta);
    const QJsonObject oldJson = jsonOf(*old); // decoded once for every check below
    if (type->statusSubresource)
        keepField(object, oldJson, "status");
    return finishUpdate(*type, *old, oldJson, object, options, QString());
}

Expected<Object> Store::updateStatus(const GroupVersionResource &gvr, const QString &ns, const QString &name,
    QJsonObject object, const WriteOptions &options)
{
    auto type = typeFor(gvr);
    if (!type)
        return type.error();
    if (!type->statusSubresource)
        return Status(404, QString::fromLatin1(StatusReason::NotFound),
            QStringLiteral("the server could not find the requested resource"));
    auto old = get(gvr, ns, name);
    if (!old)
        return old.error();
    const QString bodyName = metaString(object, "name");
    if (!bodyName.isEmpty() && bodyName != name)
        return Status::badRequest(
            QStringLiteral("the name of the object (%1) does not match the name on the URL (%2)").arg(bodyName, name));
    const QJsonObject oldJson = jsonOf(*old);
    QJsonObject next = oldJson; // shares the unchanged parts with oldJson: cheap comparisons
    QJsonObject meta = metaOf(next);
    keepField(meta, metaOf(object), "resourceVersion");
    setMeta(next, meta);
    keepField(next, object, "status");
    return finishUpdate(*type, *old, oldJson, next, options, QStringLiteral("status"));
}

Expected<Object> Store::finishUpdate(const ResourceType &type, const Object &old, const QJsonObject &oldJson,
    QJsonObject object, const WriteOptions &options, const QString &subresource)
{
    const QJsonObject oldMeta = metaOf(oldJson);
    QJsonObject meta = metaOf(object);
    const QString gr = type.gvr().group;
    const QString bodyRv = meta.value(QLatin1String("resourceVersion")).toString();
    if (bodyRv.isEmpty() && type.custom) {
        return Status::invalid(gr, type.kind(), old.name(),
            {fielderror::invalidRaw(QStringLiteral("metadata.resourceVersion"), QStringLiteral("0x0"),
                QStringLiteral("must be specified for an update"))});
    }
    if (!bodyRv.isEmpty() && bodyRv != old.resourceVersion())
        return Status::modifiedConflict(gr, type.gvr().resource, old.name());
    for (const char *k : {"uid", "creationTimestamp", "generation", "deletionTimestamp", "deletionGracePeriodSeconds",
             "resourceVersion"})
        keepField(meta, oldMeta, k);
    meta.remove(QLatin1String("selfLink"));
    if (old.isBeingDeleted()) {
        if (const QList<StatusCause> causes = rules::checkFinalizerAdditions(oldMeta, meta); !causes.isEmpty())
            return Status::invalid(gr, type.kind(), old.name(), causes);
    }
    if (const QList<StatusCause> causes = rules::validateMeta(type, meta); !causes.isEmpty())
        return Status::invalid(gr, type.kind(), old.name(), causes);
    setMeta(object, meta);
    stampKind(type, object);
    if (!type.custom && type.gvr().resource == QLatin1String("secrets"))
        rules::defaultSecret(object);
    if (isService(type))
        defaults::keepAllocatedServiceFields(object, oldJson);
    defaults::applyDefaults(type, object); // before the generation and no-op checks below
    if (isService(type))
        allocateServiceAddresses(m_objects.value(type.storage), old.key(), object);
    if (auto ok = runHooks(type, object, oldJson, subresource); !ok)
        return ok.error();
    if (type.tracksGeneration && rules::specChanged(type, oldJson, object)) {
        meta = metaOf(object);
        meta.insert(QLatin1String("generation"), oldMeta.value(QLatin1String("generation")).toInteger() + 1);
        setMeta(object, meta);
    }
    recordManagedFields(type, oldJson, object, options, subresource, m_clock);
    if (object == oldJson)
        return old; // a no-op: no RV change, no event
    const bool removeNow = old.isBeingDeleted() && rules::readyToRemove(object);
    if (options.dryRun)
        return Object::fromJson(object);
    if (removeNow)
        return commit(EventType::Deleted, type, object, old); // the write that drops the last finalizer removes it
    return commit(EventType::Modified, type, object, old);
}

Expected<DeleteResult> Store::remove(
    const GroupVersionResource &gvr, const QString &ns, const QString &name, const DeleteOptions &options)
{
    auto type = typeFor(gvr);
    if (!type)
        return type.error();
    auto old = get(gvr, ns, name);
    if (!old)
        return old.error();
    if (!options.preconditionUid.isEmpty() && options.preconditionUid != old->uid()) {
        return Status::conflict(gvr.group, gvr.resource, name,
            QStringLiteral("Precondition failed: UID in precondition: %1, UID in object meta: %2")
                .arg(options.preconditionUid, old->uid()));
    }
    if (!options.preconditionResourceVersion.isEmpty()
        && options.preconditionResourceVersion != old->resourceVersion()) {
        return Status::conflict(gvr.group, gvr.resource, name,
            QStringLiteral(
                "Precondition failed: ResourceVersion in precondition: %1, ResourceVersion in object meta: %2")
                .arg(options.preconditionResourceVersion, old->resourceVersion()));
    }
    const QString policy = options.propagationPolicy;
    if (!policy.isEmpty() && policy != QLatin1String("Background") && policy != QLatin1String("Foreground")
        && policy != QLatin1String("Orphan")) {
        return Status::invalid(gvr.group, type->kind(), name,
            {fielderror::notSupported(QStringLiteral("propagationPolicy"), policy,
                {QStringLiteral("Foreground"), QStringLiteral("Background"), QStringLiteral("Orphan"),
                    QStringLiteral("nil")})});
    }
    if (old->isBeingDeleted())
        return DeleteResult{*old, false}; // already terminating: nothing changes
    QJsonObject object = jsonOf(*old);
    QJsonObject meta = metaOf(object);
    QJsonArray finalizers = meta.value(QLatin1String("finalizers")).toArray();
    const QString extra = policy == QLatin1String("Foreground") ? QStringLiteral("foregroundDeletion")
        : policy == QLatin1String("Orphan")                     ? QStringLiteral("orphan")
                                                                : QString();
    if (!extra.isEmpty() && !finalizers.contains(extra))
        finalizers.append(extra);
    if (!finalizers.isEmpty())
        meta.insert(QLatin1String("finalizers"), finalizers);
    setMeta(object, meta);
    qint64 grace = 0;
    if (!type->custom && gvr.resource == QLatin1String("pods")) {
        const QJsonValue specGrace
            = object.value(QLatin1String("spec")).toObject().value(QLatin1String("terminationGracePeriodSeconds"));
        grace = options.gracePeriodSeconds.value_or(specGrace.isDouble() ? specGrace.toInteger() : 30);
    }
    if (!rules::readyToRemove(object) || grace > 0)
        return markTerminating(*type, *old, object, grace, options.dryRun);
    if (options.dryRun)
        return DeleteResult{*old, true};
    return DeleteResult{commit(EventType::Deleted, *type, jsonOf(*old), *old), true};
}

Expected<DeleteResult> Store::markTerminating(
    const ResourceType &type, const Object &old, QJsonObject object, qint64 graceSeconds, bool dryRun)
{
    QJsonObject meta = metaOf(object);
    meta.insert(QLatin1String("deletionTimestamp"), rules::timestamp(m_clock, graceSeconds));
    meta.insert(QLatin1String("deletionGracePeriodSeconds"), graceSeconds);
    if (meta.contains(QLatin1String("generation")))
        meta.insert(QLatin1String("generation"), meta.value(QLatin1String("generation")).toInteger() + 1);
    setMeta(object, meta);
    if (type.gvr().resource == QLatin1String("namespaces") && !type.custom) {
        QJsonObject status = object.value(kStatus).toObject();
        status.insert(QLatin1String("phase"), QStringLiteral("Terminating"));
        object.insert(kStatus, status);
    }
    if (dryRun)
        return DeleteResult{Object::fromJson(object), false};
    const Object updated = commit(EventType::Modified, type, object, old);
    if (graceSeconds > 0)
        scheduleKubeletRemoval(type, updated, graceSeconds);
    return DeleteResult{updated, false};
}

void Store::scheduleKubeletRemoval(const ResourceType &type, const Object &pod, qint64 graceSeconds)
{
    // Without a real kubelet, containers "stop" quickly: the pod goes after a short delay (at most
    // its grace period), once it has no finalizers left.
    const auto delay = std::chrono::milliseconds(qMin<qint64>(graceSeconds * 1000, 100));
    const ObjectRef ref{type.storage, pod.namespaceName(), pod.name()};
    const QString uid = pod.uid();
    m_clock->callAfter(delay, this, [this, type, ref, uid]() {
        const Object current = find(ref);
        if (current.isNull() || current.uid() != uid || !current.isBeingDeleted())
            return;
        if (rules::readyToRemove(current.json()))
            commit(EventType::Deleted, type, current.json(), current);
    });
}

} // namespace opbench::apiserver
