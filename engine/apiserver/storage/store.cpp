// SPDX-License-Identifier: Apache-2.0
// Store: reads, the commit path, watch history and persistence. The write rules live in
// storewrites.cpp.
#include "engine/apiserver/storage/store.h"

#include "engine/apiserver/storage/freshness.h"
#include "engine/apiserver/validation/defaults.h"
#include "engine/base/clock.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace opbench::apiserver {

namespace {

const QLatin1String kMetadata("metadata");

QString encodeContinue(quint64 rv, const QString &startAfter)
{
    const QJsonObject o{{QStringLiteral("rv"), QString::number(rv)}, {QStringLiteral("start"), startAfter}};
    return QString::fromLatin1(QJsonDocument(o).toJson(QJsonDocument::Compact).toBase64(QByteArray::Base64UrlEncoding));
}

bool decodeContinue(const QString &token, quint64 *rv, QString *startAfter)
{
    const QByteArray raw = QByteArray::fromBase64(token.toLatin1(), QByteArray::Base64UrlEncoding);
    const QJsonObject o = QJsonDocument::fromJson(raw).object();
    bool ok = false;
    *rv = o.value(QLatin1String("rv")).toString().toULongLong(&ok);
    *startAfter = o.value(QLatin1String("start")).toString();
    return ok && !startAfter->isEmpty();
}

Status tooOld(quint64 requested, quint64 oldest)
{
    return Status::expired(QStringLiteral("too old resource version: %1 (%2)").arg(requested).arg(oldest));
}

} // namespace

QString eventTypeName(EventType t)
{
    switch (t) {
    case EventType::Added:
        return QStringLiteral("ADDED");
    case EventType::Modified:
        return QStringLiteral("MODIFIED");
    case EventType::Deleted:
        return QStringLiteral("DELETED");
    }
    return {};
}

Store::Store(Clock *clock, QObject *parent)
    : QObject(parent)
    , m_registry(new ResourceRegistry(this))
    , m_clock(clock ? clock : Clock::system())
{
    qRegisterMetaType<StoreEvent>();
    const GroupVersionResource ns{QString(), QStringLiteral("v1"), QStringLiteral("namespaces")};
    for (const char *name : {"default", "kube-system", "kube-public"}) {
        QJsonObject o{{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QString::fromLatin1(name)}}}};
        (void)create(ns, QString(), o);
    }
}

Store::~Store() = default;

Expected<ResourceType> Store::typeFor(const GroupVersionResource &gvr) const
{
    auto t = m_registry->find(gvr);
    if (!t || t->reviewOnly)
        return Status(404, QString::fromLatin1(StatusReason::NotFound),
            QStringLiteral("the server could not find the requested resource"));
    return *t;
}

Expected<Object> Store::get(const GroupVersionResource &gvr, const QString &ns, const QString &name) const
{
    auto type = typeFor(gvr);
    if (!type)
        return type.error();
    const Object o = m_objects.value(type->storage).value(objectKey(type->namespaced() ? ns : QString(), name));
    if (o.isNull())
        return Status::notFound(gvr.group, gvr.resource, name);
    return o;
}

Expected<ListResult> Store::list(const GroupVersionResource &gvr, const ListOptions &options) const
{
    auto type = typeFor(gvr);
    if (!type)
        return type.error();
    ListResult result;
    result.resourceVersion = m_rv;
    const QString &rvParam = options.resourceVersion;
    const QString &match = options.resourceVersionMatch;
    if (!match.isEmpty() && rvParam.isEmpty())
        return Status::badRequest(
            QStringLiteral("resourceVersionMatch is forbidden unless resourceVersion is provided"));
    if (!match.isEmpty() && match != QLatin1String("NotOlderThan") && match != QLatin1String("Exact"))
        return Status::badRequest(QStringLiteral("resourceVersionMatch \"%1\" is not supported").arg(match));
    if (match == QLatin1String("Exact") && rvParam == QLatin1String("0"))
        return Status::badRequest(
            QStringLiteral("resourceVersionMatch \"Exact\" is forbidden for resourceVersion \"0\""));
    if (!rvParam.isEmpty() && rvParam != QLatin1String("0")) {
        bool ok = false;
        const quint64 n = rvParam.toULongLong(&ok);
        if (!ok)
            return Status::badRequest(QStringLiteral("invalid resource version \"%1\"").arg(rvParam));
        if (n > m_rv)
            return tooLargeResourceVersion(n, m_rv); // callers wait first (freshness.h)
        const bool exact = match == QLatin1String("Exact") || (match.isEmpty() && options.limit > 0);
        if (exact && n != m_rv) {
            // Serve an exact older RV only when nothing of this resource changed since.
            auto since = eventsSince(n, type->storage);
            if (!since || !since->isEmpty())
                return tooOld(n, m_rv);
            result.resourceVersion = n;
        }
    }
    // RV=0 is served from kube-apiserver's watch cache, which ignores limit: one page, no token
    // (client-go's reflector then stays out of its paginated relist mode).
    const qint64 limit = rvParam == QLatin1String("0") && options.continueToken.isEmpty() ? 0 : options.limit;
    QString startAfter;
    if (!options.continueToken.isEmpty()) {
        quint64 tokenRv = 0;
        if (!decodeContinue(options.continueToken, &tokenRv, &startAfter))
            return Status::badRequest(QStringLiteral("continue key is not valid: %1").arg(options.continueToken));
        if (tokenRv < m_compactedRv) {
            Status s = Status::expired(QStringLiteral(
                "The provided continue parameter is too old to display a consistent list result. You can start a new "
                "list "
                "without the continue parameter, or use the continue token in this response to retrieve the remainder "
                "of the "
                "results. Continuing with the provided token results in an inconsistent list - objects that were "
                "created, "
                "modified, or deleted between the time the first chunk was returned and now may show up in the list."));
            s.setContinueToken(encodeContinue(m_rv, startAfter));
            return s;
        }
        result.resourceVersion = tokenRv;
    }
    static const QMap<QString, Object> empty;
    const auto bit = m_objects.constFind(type->storage);
    const QMap<QString, Object> &bucket = bit == m_objects.cend() ? empty : *bit;
    const QString prefix
        = type->namespaced() && !options.namespaceName.isEmpty() ? options.namespaceName + u'/' : QString();
    auto it = startAfter.isEmpty() ? (prefix.isEmpty() ? bucket.cbegin() : bucket.lowerBound(prefix))
                                   : bucket.upperBound(startAfter);
    for (; it != bucket.cend(); ++it) {
        if (!prefix.isEmpty() && !it.key().startsWith(prefix))
            break;
        if (options.filter && !options.filter(it.value()))
            continue;
        if (limit > 0 && result.items.size() >= limit) {
            result.continueToken = encodeContinue(result.resourceVersion, result.items.last().key());
            if (!options.filter) {
                qint64 remaining = 0;
                for (; it != bucket.cend() && (prefix.isEmpty() || it.key().startsWith(prefix)); ++it)
                    ++remaining;
                result.remainingItemCount = remaining;
            }
            break;
        }
        result.items.append(it.value());
    }
    return result;
}

Object Store::find(const ObjectRef &ref) const
{
    return m_objects.value(ref.gvr).value(objectKey(ref.namespaceName, ref.name));
}

QJsonObject Store::jsonOf(const Object &o) const
{
    if (o.isNull())
        return {};
    for (const Decoded &d : m_decoded) {
        if (d.object == o) // a pointer comparison, or the packed bytes (canonical)
            return d.json;
    }
    Decoded &slot = m_decoded[m_nextDecoded++ % m_decoded.size()];
    slot = {o, o.json()};
    return slot.json;
}

std::optional<ObjectRef> Store::findByUid(const QString &uid) const
{
    auto it = m_byUid.constFind(uid);
    if (it == m_byUid.cend())
        return std::nullopt;
    return *it;
}

QList<ObjectRef> Store::dependentsOf(const QString &ownerUid) const
{
    QList<ObjectRef> out;
    for (auto it = m_dependents.constFind(ownerUid); it != m_dependents.cend() && it.key() == ownerUid; ++it) {
        if (auto ref = findByUid(it.value()))
            out << *ref;
    }
    return out;
}

QList<GroupVersionResource> Store::populatedResources() const
{
    QList<GroupVersionResource> out;
    for (auto it = m_objects.cbegin(); it != m_objects.cend(); ++it)
        if (!it.value().isEmpty())
            out << it.key();
    return out;
}

qsizetype Store::count(const GroupVersionResource &gvr) const
{
    auto type = m_registry->find(gvr);
    return m_objects.value(type ? type->storage : gvr).size();
}

int Store::purge(const GroupVersionResource &gvr)
{
    const QList<Object> objects = m_objects.value(gvr).values();
    ResourceType rt;
    rt.storage = gvr;
    for (const Object &o : objects)
        commit(EventType::Deleted, rt, o.json(), o);
    return int(objects.size());
}

void Store::addAdmissionHook(AdmissionHook hook) { m_hooks.append(std::move(hook)); }

Expected<void> Store::runHooks(
    const ResourceType &type, QJsonObject &object, const QJsonObject &old, const QString &sub) const
{
    for (const AdmissionHook &hook : m_hooks) {
        Expected<void> r = hook(type, object, old, sub);
        if (!r)
            return r;
    }
    return {};
}

Object Store::commit(EventType et, const ResourceType &rt, QJsonObject object, const Object &previous)
{
    const quint64 rv = ++m_rv;
    QJsonObject meta = object.value(kMetadata).toObject();
    meta.insert(QLatin1String("resourceVersion"), QString::number(rv));
    object.insert(kMetadata, meta);
    const Object o = Object::fromJson(object);
    QMap<QString, Object> &bucket = m_objects[rt.storage];
    const QString key = o.key();
    if (et == EventType::Deleted) {
        bucket.remove(key);
        index(rt.storage, previous, Object());
    } else {
        bucket.insert(key, o);
        index(rt.storage, previous, o);
        // The document just packed is what jsonOf(o) would decode: the writers (the simulator,
        // the handlers answering the write) read it back at once, so keep it decoded.
        m_decoded[m_nextDecoded++ % m_decoded.size()] = {o, object};
    }
    StoreEvent ev{et, rt.storage, o, previous, rv};
    m_history.push_back(ev);
    while (int(m_history.size()) > m_historyLimit)
        evictOldest();
    deliver(ev);
    return o;
}

void Store::index(const GroupVersionResource &storage, const Object &previous, const Object &current)
{
    if (!previous.isNull()) {
        m_byUid.remove(previous.uid());
        for (const OwnerReference &r : previous.ownerReferences())
            m_dependents.remove(r.uid, previous.uid());
    }
    if (!current.isNull()) {
        m_byUid.insert(current.uid(), ObjectRef{storage, current.namespaceName(), current.name()});
        for (const OwnerReference &r : current.ownerReferences())
            m_dependents.insert(r.uid, current.uid());
    }
}

void Store::deliver(const StoreEvent &event)
{
    if (m_emitting) {
        m_pending.push_back(event);
        return;
    }
    m_emitting = true;
    Q_EMIT committed(event);
    while (!m_pending.empty()) {
        const StoreEvent next = m_pending.front();
        m_pending.pop_front();
        Q_EMIT committed(next);
    }
    m_emitting = false;
    Q_EMIT contentChanged();
}

void Store::evictOldest()
{
    const StoreEvent &front = m_history.front();
    m_compactedRv = front.resourceVersion;
    m_evictedRv.insert(front.gvr, front.resourceVersion);
    m_history.pop_front();
}

void Store::setHistoryLimit(int events)
{
    m_historyLimit = qMax(1, events);
    while (int(m_history.size()) > m_historyLimit)
        evictOldest();
}

Expected<QList<StoreEvent>> Store::eventsSince(quint64 rv, const GroupVersionResource &gvr) const
{
    if (gvr.resource.isEmpty()) {
        if (rv < m_compactedRv)
            return tooOld(rv, m_compactedRv);
    } else {
        // Per resource, as the watch cache: only an evicted event of this resource after rv
        // makes rv too old; other kinds' churn does not.
        if (rv < m_clearedRv)
            return tooOld(rv, m_clearedRv);
        const quint64 evicted = m_evictedRv.value(gvr, 0);
        if (evicted > rv)
            return tooOld(rv, evicted);
    }
    QList<StoreEvent> out;
    // History is in RV order: find the first event after rv from the back.
    auto it = m_history.end();
    while (it != m_history.begin() && std::prev(it)->resourceVersion > rv)
        --it;
    for (; it != m_history.end(); ++it)
        if (gvr.resource.isEmpty() || it->gvr == gvr)
            out << *it;
    return out;
}

void Store::compact()
{
    m_history.clear();
    m_evictedRv.clear();
    m_compactedRv = m_rv;
    m_clearedRv = m_rv;
}

QJsonObject Store::snapshot() const
{
    QJsonArray resources;
    for (auto it = m_objects.cbegin(); it != m_objects.cend(); ++it) {
        if (it.value().isEmpty())
            continue;
        QJsonArray items;
        for (const Object &o : it.value())
            items.append(o.json());
        resources.append(
            QJsonObject{{QStringLiteral("group"), it.key().group}, {QStringLiteral("version"), it.key().version},
                {QStringLiteral("resource"), it.key().resource}, {QStringLiteral("items"), items}});
    }
    return QJsonObject{
        {QStringLiteral("resourceVersion"), QString::number(m_rv)}, {QStringLiteral("resources"), resources}};
}

Expected<void> Store::restore(const QJsonObject &snapshot)
{
    bool ok = false;
    const quint64 rv = snapshot.value(QLatin1String("resourceVersion")).toString().toULongLong(&ok);
    if (!ok || !snapshot.value(QLatin1String("resources")).isArray())
        return Status::badRequest(
            QStringLiteral("state snapshot lacks a resourceVersion counter or a resources array"));
    QHash<GroupVersionResource, QMap<QString, Object>> objects;
    for (const QJsonValue &rv2 : snapshot.value(QLatin1String("resources")).toArray()) {
        const QJsonObject r = rv2.toObject();
        const GroupVersionResource gvr{r.value(QLatin1String("group")).toString(),
            r.value(QLatin1String("version")).toString(), r.value(QLatin1String("resource")).toString()};
        if (gvr.resource.isEmpty() || (gvr.version.isEmpty() && gvr.group.isEmpty()))
            return Status::badRequest(QStringLiteral("state snapshot has a resource entry without version/resource"));
        const auto type = typeFor(gvr);
        for (const QJsonValue &item : r.value(QLatin1String("items")).toArray()) {
            QJsonObject json = item.toObject();
            if (type)
                defaults::applyDefaults(*type, json); // as the real server defaults what it reads from etcd
            const Object o = Object::fromJson(json);
            if (o.name().isEmpty() || o.resourceVersion().toULongLong() > rv)
                return Status::badRequest(
                    QStringLiteral("state snapshot holds an invalid %1 object").arg(gvr.resource));
            objects[gvr].insert(o.key(), o);
        }
    }
    m_objects = objects;
    m_byUid.clear();
    m_dependents.clear();
    for (const auto &bucket : std::as_const(m_objects))
        for (const Object &o : bucket) {
            if (o.kind() == QLatin1String("CustomResourceDefinition"))
                (void)m_registry->registerCrd(o.json());
        }
    // Custom resources saved by older versions under {group, version, plural}: one bucket now.
    for (const GroupVersionResource &key : m_objects.keys()) {
        if (key.version.isEmpty())
            continue;
        const GroupVersionResource versionless{key.group, QString(), key.resource};
        if (!m_registry->find(versionless))
            continue;
        const QMap<QString, Object> moved = m_objects.take(key);
        QMap<QString, Object> &bucket = m_objects[versionless];
        for (auto it = moved.cbegin(); it != moved.cend(); ++it)
            bucket.insert(it.key(), it.value());
    }
    for (auto it = m_objects.cbegin(); it != m_objects.cend(); ++it)
        for (const Object &o : it.value())
            index(it.key(), Object(), o);
    m_rv = rv;
    m_history.clear();
    m_evictedRv.clear();
    m_compactedRv = rv;
    m_clearedRv = rv;
    return {};
}

} // namespace opbench::apiserver
