// SPDX-License-Identifier: Apache-2.0
#include "engine/cache/informercache.h"

#include "engine/client/restclient.h"

#include <QPointer>
#include <QRandomGenerator>
#include <QTimer>
#include <algorithm>

#include <qcoro/qcorosignal.h>
#include <qcoro/qcorotimer.h>

namespace opbench {

namespace {
const QString AllNamespaces = QStringLiteral("__all_namespaces");
constexpr auto UnknownNamespaceReason = "UnknownNamespace";

Status unknownNamespace(const QString &what)
{
    return Status(0, QString::fromLatin1(UnknownNamespaceReason),
        what + QStringLiteral(" because of unknown namespace for the cache"));
}
/// How sync messages name a kind's cache.
QString cacheName(const GroupVersionKind &gvk, ObjectProjection projection)
{
    return projection == ObjectProjection::Metadata ? gvk.toString() + QStringLiteral(" (metadata-only)")
                                                    : gvk.toString();
}
} // namespace

QStringList CacheScope::cachedNamespaces() const
{
    if (!namespaces.isEmpty())
        return namespaces;
    return namespaceName.isEmpty() ? QStringList() : QStringList{namespaceName};
}

bool isUnknownNamespace(const Status &s)
{
    return s.code() == 0 && s.reason() == QLatin1String(UnknownNamespaceReason);
}

QString fieldIndexName(const QString &field) { return QStringLiteral("field:") + field; }

InformerCache::InformerCache(InformerCacheOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_clock(m_options.clock ? m_options.clock : Clock::system())
{ }

InformerCache::~InformerCache() = default;

void InformerCache::start()
{
    m_started = true;
    forEachInformer([](Informer *inf) { inf->start(); });
}

void InformerCache::stop()
{
    m_started = false;
    forEachInformer([](Informer *inf) { inf->stop(); });
}

Expected<Informer *> InformerCache::informerFor(const GroupVersionKind &gvk, ObjectProjection projection)
{
    const QString key = gvk.toString();
    std::map<QString, Informer *> &informers = informerMap(projection);
    if (auto it = informers.find(key); it != informers.end())
        return it->second;
    const auto mapping = m_options.mapper.forKind(gvk);
    if (!mapping)
        return Status(404, QString::fromLatin1(StatusReason::NotFound),
            QStringLiteral("no matches for kind \"%1\" in version \"%2\"")
                .arg(gvk.kind, gvk.groupVersion().toString()));
    const CacheScope scope = scopeOf(gvk);
    InformerOptions io;
    io.resource = mapping->gvr;
    io.kind = mapping->kind;
    if (mapping->namespaced) {
        const QStringList namespaces = scope.cachedNamespaces();
        if (namespaces.size() == 1)
            io.namespaceName = namespaces.first();
        else
            io.namespaces = namespaces;
    }
    io.labelSelector = scope.labelSelector;
    io.fieldSelector = scope.fieldSelector;
    io.transform = scope.transform;
    io.historyCapacity = m_options.historyCapacity;
    io.clock = m_clock;
    io.client = m_options.client;
    io.metadataOnly = projection == ObjectProjection::Metadata;
    if (m_options.syncPeriod.count() > 0) {
        // ±10 % jitter so that informers do not resync together.
        const double factor = 0.9 + 0.2 * QRandomGenerator::global()->generateDouble();
        io.resyncPeriod = std::chrono::milliseconds(qint64(double(m_options.syncPeriod.count()) * factor));
    }
    auto *inf = new Informer(std::move(io), this);
    informers.emplace(key, inf);
    Q_EMIT informerCreated(inf, gvk);
    if (m_started)
        inf->start();
    return inf;
}

QList<Informer *> InformerCache::informers() const
{
    QList<Informer *> out;
    forEachInformer([&out](Informer *inf) { out.append(inf); });
    return out;
}

QList<GroupVersionKind> InformerCache::metadataKinds() const
{
    QList<GroupVersionKind> out;
    for (const auto &[key, inf] : m_metadataInformers)
        out.append({inf->options().resource.group, inf->options().resource.version, inf->options().kind});
    return out;
}

QList<GroupVersionKind> InformerCache::kinds() const
{
    QList<GroupVersionKind> out;
    for (const auto &[key, inf] : m_informers)
        out.append({inf->options().resource.group, inf->options().resource.version, inf->options().kind});
    return out;
}

Expected<void> InformerCache::indexField(const GroupVersionKind &gvk, const QString &field,
    std::function<QStringList(const Object &)> extract, ObjectProjection projection)
{
    auto inf = informerFor(gvk, projection);
    if (!inf.ok())
        return inf.error();
    IndexFunc fn = [extract = std::move(extract)](const Object &o) {
        QStringList out;
        for (const QString &v : extract(o)) {
            if (!o.namespaceName().isEmpty())
                out << o.namespaceName() + u'/' + v;
            out << AllNamespaces + u'/' + v;
        }
        return out;
    };
    return (*inf)->indexer().addIndexers({{fieldIndexName(field), fn}});
}

bool InformerCache::hasSynced() const
{
    bool synced = true;
    forEachInformer([&synced](Informer *inf) { synced = synced && inf->hasSynced(); });
    return synced;
}

QCoro::Task<bool> InformerCache::waitForCacheSync(std::chrono::milliseconds timeout)
{
    QPointer<InformerCache> self(this);
    Clock *clock = m_clock;
    const Clock::TimePoint deadline = clock->now() + timeout; // on the cache's clock (FakeClock in tests)
    // Polls every 100 ms, like client-go's WaitForCacheSync. A stop() of a cache that was
    // running when the wait began ends the wait (false); an unstarted cache is waited for.
    const bool wasStarted = m_started;
    const auto stopped = [&] { return wasStarted && !m_started; };
    while (self && !stopped() && !hasSynced()) {
        if (clock->now() >= deadline)
            co_return false;
        QTimer timer;
        timer.setSingleShot(true);
        timer.start(std::chrono::milliseconds(100));
        co_await timer;
    }
    co_return self && !stopped() && hasSynced();
}

QCoro::Task<Expected<Informer *>> InformerCache::syncedInformer(
    GroupVersionKind gvk, ObjectProjection projection, std::function<bool()> cancelled)
{
    QPointer<InformerCache> self(this);
    auto inf = informerFor(gvk, projection);
    if (!inf.ok())
        co_return inf.error();
    QPointer<Informer> informer = *inf;
    if (!m_started)
        informer->start(); // a read before start() still works, as the cached client's does
    // The timeout runs on the cache's clock (a FakeClock in tests); the wait is sliced so that
    // the clock and `cancelled` are looked at every 100 ms (controller-runtime passes the
    // reconcile's context into the cache read).
    Clock *clock = m_clock;
    const Clock::TimePoint deadline = clock->now() + m_options.syncTimeout;
    while (!informer->hasSynced() && clock->now() < deadline) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock->now());
        const auto wait = std::clamp(left, std::chrono::milliseconds(1), std::chrono::milliseconds(100));
        co_await qCoro(informer.data(), &Informer::synced, wait);
        if (!self || !informer)
            co_return Status::transport(QString::fromLatin1(StatusReason::Cancelled), QStringLiteral("cache stopped"));
        if (!informer->hasSynced() && cancelled && cancelled())
            co_return Status::transport(QString::fromLatin1(StatusReason::Cancelled),
                QStringLiteral("gave up waiting for the %1 cache to sync: cancelled").arg(cacheName(gvk, projection)));
    }
    if (!informer->hasSynced())
        co_return Status(504, QString::fromLatin1(StatusReason::Timeout),
            QStringLiteral("timed out waiting for the %1 cache to sync").arg(cacheName(gvk, projection)));
    co_return informer.data();
}

CacheScope InformerCache::scopeOf(const GroupVersionKind &gvk) const
{
    return m_options.byKind.value(gvk.toString(), m_options.defaultScope);
}

bool InformerCache::outOfScope(const GroupVersionKind &gvk, const QString &ns) const
{
    if (ns.isEmpty())
        return false;
    const auto mapping = m_options.mapper.forKind(gvk);
    if (!mapping || !mapping->namespaced)
        return false;
    const QStringList namespaces = scopeOf(gvk).cachedNamespaces();
    return !namespaces.isEmpty() && !namespaces.contains(ns);
}

QCoro::Task<Expected<Object>> InformerCache::get(
    GroupVersionKind gvk, QString ns, QString name, std::function<bool()> cancelled)
{
    co_return co_await read(
        std::move(gvk), std::move(ns), std::move(name), ObjectProjection::Normal, std::move(cancelled));
}

QCoro::Task<Expected<Object>> InformerCache::getMetadata(
    GroupVersionKind gvk, QString ns, QString name, std::function<bool()> cancelled)
{
    co_return co_await read(
        std::move(gvk), std::move(ns), std::move(name), ObjectProjection::Metadata, std::move(cancelled));
}

QCoro::Task<Expected<Object>> InformerCache::read(
    GroupVersionKind gvk, QString ns, QString name, ObjectProjection projection, std::function<bool()> cancelled)
{
    if (const auto mapping = m_options.mapper.forKind(gvk); mapping && !mapping->namespaced)
        ns.clear(); // a cluster-scoped object has no namespace, whatever the caller passed
    if (outOfScope(gvk, ns))
        co_return unknownNamespace(QStringLiteral("unable to get: %1/%2").arg(ns, name));
    auto inf = co_await syncedInformer(gvk, projection, std::move(cancelled));
    if (!inf.ok())
        co_return inf.error();
    const Object obj = (*inf)->store().get(objectKey(ns, name));
    if (obj.isNull()) {
        const auto mapping = m_options.mapper.forKind(gvk);
        co_return Status::notFound(gvk.group, mapping ? mapping->gvr.resource : gvk.kind.toLower(), name);
    }
    co_return obj;
}

QList<Object> InformerCache::select(const Informer &inf, const CacheListOptions &opts, Status *error) const
{
    const Store &store = inf.store();
    const QString scope = opts.namespaceName.isEmpty() ? AllNamespaces : opts.namespaceName;
    const auto isMetaField = [](const QString &f) {
        return f == QLatin1String("metadata.name") || f == QLatin1String("metadata.namespace");
    };
    // Every field requirement must be a metadata field or an indexed one (controller-runtime
    // refuses the rest); the first indexed exact match narrows the candidates.
    QList<Object> candidates;
    bool narrowed = false;
    QList<std::pair<FieldRequirement, QSet<QString>>> indexed; // requirement -> keys matching its value
    for (const FieldRequirement &r : opts.fieldSelector.requirements()) {
        if (isMetaField(r.field))
            continue;
        const QString index = fieldIndexName(r.field);
        if (!store.hasIndex(index)) {
            *error
                = Status::badRequest(QStringLiteral("field selector \"%1\": field \"%2\" is not indexed in the cache; "
                                                    "add it with indexField()")
                                         .arg(opts.fieldSelector.toString(), r.field));
            return {};
        }
        const QStringList keys = store.indexKeys(index, scope + u'/' + r.value);
        if (!narrowed && !r.notEquals) {
            candidates = store.byIndex(index, scope + u'/' + r.value);
            narrowed = true;
        }
        indexed.append({r, QSet<QString>(keys.cbegin(), keys.cend())});
    }
    if (!narrowed)
        candidates = store.listNamespace(opts.namespaceName);
    QList<Object> out;
    for (const Object &o : std::as_const(candidates)) {
        if (!opts.namespaceName.isEmpty() && o.namespaceName() != opts.namespaceName)
            continue;
        if (!opts.labelSelector.matches(o.labels()))
            continue;
        bool ok = true;
        if (!opts.fieldSelector.isEmpty()) {
            const QHash<QString, QString> meta = fieldsOf(o);
            for (const FieldRequirement &r : opts.fieldSelector.requirements())
                if (isMetaField(r.field))
                    ok = ok && ((meta.value(r.field) == r.value) != r.notEquals);
        }
        for (const auto &[r, keys] : std::as_const(indexed))
            ok = ok && (keys.contains(o.key()) != r.notEquals);
        if (!ok)
            continue;
        out.append(o);
        if (opts.limit > 0 && out.size() >= opts.limit)
            break;
    }
    return out;
}

QCoro::Task<Expected<QList<Object>>> InformerCache::list(
    GroupVersionKind gvk, CacheListOptions opts, std::function<bool()> cancelled)
{
    co_return co_await readList(std::move(gvk), std::move(opts), ObjectProjection::Normal, std::move(cancelled));
}

QCoro::Task<Expected<QList<Object>>> InformerCache::listMetadata(
    GroupVersionKind gvk, CacheListOptions opts, std::function<bool()> cancelled)
{
    co_return co_await readList(std::move(gvk), std::move(opts), ObjectProjection::Metadata, std::move(cancelled));
}

QCoro::Task<Expected<QList<Object>>> InformerCache::readList(
    GroupVersionKind gvk, CacheListOptions opts, ObjectProjection projection, std::function<bool()> cancelled)
{
    if (const auto mapping = m_options.mapper.forKind(gvk); mapping && !mapping->namespaced)
        opts.namespaceName.clear();
    if (outOfScope(gvk, opts.namespaceName))
        co_return unknownNamespace(QStringLiteral("unable to list: %1").arg(opts.namespaceName));
    auto inf = co_await syncedInformer(gvk, projection, std::move(cancelled));
    if (!inf.ok())
        co_return inf.error();
    Status error;
    QList<Object> out = select(**inf, opts, &error);
    if (error.code() != 0)
        co_return error;
    co_return out;
}

} // namespace opbench
