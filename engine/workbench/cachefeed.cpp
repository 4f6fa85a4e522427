// SPDX-License-Identifier: Apache-2.0
#include "engine/workbench/cachefeed.h"

#include "engine/cache/informer.h"
#include "engine/cache/informercache.h"

#include <QTimer>

namespace opbench::workbench {

namespace {

constexpr int FlushIntervalMs = 100;

} // namespace

CacheFeed::CacheFeed(QObject *parent)
    : QObject(parent)
    , m_flushTimer(new QTimer(this))
{
    connect(m_flushTimer, &QTimer::timeout, this, &CacheFeed::flush);
}

CacheFeed::~CacheFeed() = default;

void CacheFeed::observe(InformerCache *cache, const QList<GroupVersionKind> &kinds)
{
    stop();
    for (const GroupVersionKind &gvk : kinds) {
        auto informer = cache->informerFor(gvk);
        if (!informer) {
            Q_EMIT failed(tr("No informer for %1: %2").arg(gvk.toString(), informer.error().message()));
            continue;
        }
        Informer *inf = informer.value();
        const QString kind = gvk.kind;
        m_kindOrder.append(kind);
        m_informers.insert(kind, inf);
        connect(inf, &Informer::changed, this, [this, kind](const CacheChange &c) { onChange(kind, c); });
        connect(inf, &Informer::synced, this, [this] { m_statesDirty = true; });
        connect(inf, &Informer::resourceVersionChanged, this, [this] { m_statesDirty = true; });
        // What the informer already holds (it may have synced before we looked).
        for (const Object &o : inf->store().list())
            onChange(kind, CacheChange{CacheChange::Type::Added, o.key(), o.resourceVersion(), {}, {}, o});
    }
    m_statesDirty = true;
    m_flushTimer->start(FlushIntervalMs);
}

void CacheFeed::stop()
{
    m_flushTimer->stop();
    for (const auto &inf : std::as_const(m_informers))
        if (inf)
            disconnect(inf, nullptr, this, nullptr);
    m_informers.clear();
    m_kindOrder.clear();
    m_pending.clear();
    m_pendingOrder.clear();
    m_events.clear();
    m_lastSyncRv.clear();
    m_relists.clear();
}

void CacheFeed::onChange(const QString &kind, const CacheChange &change)
{
    CacheEntry entry;
    entry.kind = kind;
    entry.op = change.type == CacheChange::Type::Deleted ? CacheEntry::Op::Remove : CacheEntry::Op::Upsert;
    entry.object = change.type == CacheChange::Type::Deleted ? change.oldObject : change.newObject;
    // Coalesced per object (kind, key and uid): a delete and a re-create within one flush stay two
    // entries, so views keyed by uid (the children tree) see the old object go.
    ++m_events[kind];
    const QString id = kind + u'|' + change.key + u'|' + entry.object.uid();
    if (!m_pending.contains(id))
        m_pendingOrder.append(id);
    m_pending.insert(id, entry);
    m_statesDirty = true;
}

void CacheFeed::countRelists()
{
    // Every LIST gives the informer a new last-sync resourceVersion; the first one is the sync.
    for (const QString &kind : std::as_const(m_kindOrder)) {
        const Informer *inf = m_informers.value(kind);
        if (!inf)
            continue;
        const QString rv = inf->lastSyncResourceVersion();
        QString &seen = m_lastSyncRv[kind];
        if (!seen.isEmpty() && !rv.isEmpty() && rv != seen)
            ++m_relists[kind];
        if (!rv.isEmpty())
            seen = rv;
    }
}

QList<InformerState> CacheFeed::informerStates() const
{
    QList<InformerState> out;
    for (const QString &kind : m_kindOrder) {
        const Informer *inf = m_informers.value(kind);
        if (!inf)
            continue;
        InformerState s;
        s.kind = kind;
        s.synced = inf->hasSynced();
        s.lastSyncRv = inf->lastSyncResourceVersion();
        const auto &changes = inf->history().changes();
        s.latestRv = changes.empty() ? s.lastSyncRv : changes.back().resourceVersion;
        s.count = int(inf->store().size());
        s.events = m_events.value(kind);
        s.relists = m_relists.value(kind);
        out.append(s);
    }
    return out;
}

void CacheFeed::flush()
{
    if (m_pending.isEmpty() && !m_statesDirty)
        return;
    CacheBatch b;
    b.entries.reserve(m_pendingOrder.size());
    for (const QString &id : std::as_const(m_pendingOrder))
        b.entries.append(m_pending.value(id));
    m_pending.clear();
    m_pendingOrder.clear();
    countRelists();
    b.informers = informerStates();
    b.oldestRv = oldestReachableRv();
    m_statesDirty = false;
    Q_EMIT batch(b);
}

void CacheFeed::requestVersions(const QString &kind, const QString &key)
{
    ObjectVersions v;
    v.kind = kind;
    v.key = key;
    if (const Informer *inf = m_informers.value(kind)) {
        v.changes = inf->history().changesFor(key);
        v.current = inf->store().get(key);
    }
    Q_EMIT versionsReady(v);
}

QString CacheFeed::oldestReachableRv() const
{
    QString oldest;
    for (const auto &inf : m_informers) {
        if (!inf)
            continue;
        const QString rv = inf->history().oldestReachable();
        if (!rv.isEmpty() && (oldest.isEmpty() || compareResourceVersions(rv, oldest) > 0))
            oldest = rv;
    }
    return oldest;
}

void CacheFeed::requestCacheAt(const QString &rv)
{
    CachePast past;
    past.resourceVersion = rv;
    for (const QString &kind : std::as_const(m_kindOrder)) {
        const Informer *inf = m_informers.value(kind);
        if (!inf)
            continue;
        QHash<QString, Object> current;
        for (const Object &o : inf->store().list())
            current.insert(o.key(), o);
        const auto then = inf->history().contentAt(rv, std::move(current));
        if (!then) {
            past.error = tr("The %1 history does not reach back to resourceVersion %2 (oldest: %3).")
                             .arg(kind, rv, inf->history().oldestReachable());
            past.batch = {};
            break;
        }
        for (const Object &o : *then)
            past.batch.entries.append({CacheEntry::Op::Upsert, kind, o});
    }
    past.batch.informers = informerStates();
    Q_EMIT cacheAt(past);
}

} // namespace opbench::workbench
