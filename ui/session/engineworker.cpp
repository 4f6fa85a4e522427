// SPDX-License-Identifier: Apache-2.0
#include "ui/session/engineworker.h"

#include "engine/api/status.h"
#include "engine/cache/informer.h"
#include "engine/controller/controller.h"
#include "engine/cache/informercache.h"
#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"
#include "engine/manager/manager.h"
#include "engine/operator/samples.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTimer>

namespace opbench::ui {

namespace {

constexpr int FlushIntervalMs = 100;
constexpr int QueueIntervalMs = 500;
constexpr int HistoryPerKind = 2000;

GroupVersionKind gvkOf(const QString &kind)
{
    if (kind == u"MyApplication")
        return {QStringLiteral("example.com"), QStringLiteral("v1alpha1"), kind};
    if (kind == u"Pod")
        return {QString(), QStringLiteral("v1"), kind};
    return {QStringLiteral("apps"), QStringLiteral("v1"), kind};
}

ResourceMapping myApplicationMapping()
{
    ResourceMapping m;
    m.gvr = {QStringLiteral("example.com"), QStringLiteral("v1alpha1"), QStringLiteral("myapplications")};
    m.kind = QStringLiteral("MyApplication");
    m.listKind = QStringLiteral("MyApplicationList");
    m.singular = QStringLiteral("myapplication");
    m.subresources = {QStringLiteral("status")};
    return m;
}

QString queueStateName(KeyState::State s)
{
    switch (s) {
    case KeyState::State::Held:
        return QStringLiteral("held");
    case KeyState::State::Processing:
        return QStringLiteral("processing");
    case KeyState::State::Queued:
        return QStringLiteral("queued");
    case KeyState::State::Waiting:
        return QStringLiteral("waiting");
    case KeyState::State::Idle:
        return QStringLiteral("idle");
    }
    return {};
}

} // namespace

QStringList EngineWorker::watchedKinds()
{
    return {QStringLiteral("MyApplication"), QStringLiteral("Deployment"), QStringLiteral("ReplicaSet"),
            QStringLiteral("Pod")};
}

EngineWorker::EngineWorker(QObject *parent)
    : QObject(parent)
{
    m_sessionClock.start();
    m_rateClock.start();
}

EngineWorker::~EngineWorker()
{
    shutdown();
}

void EngineWorker::connectTo(const QString &kubeconfigPath, const QString &context, bool createSamples)
{
    auto config = loadConfig(kubeconfigPath, context);
    if (!config) {
        Q_EMIT failed(tr("Cannot use the cluster configuration: %1").arg(config.error().message()));
        return;
    }
    const QUrl server = config->server;
    startOperator(config.value());
    m_client = std::make_unique<RestClient>(std::move(config.value()));
    InformerCacheOptions options;
    options.client = m_client.get();
    options.mapper.add(myApplicationMapping());
    options.historyCapacity = HistoryPerKind;
    m_cache = std::make_unique<InformerCache>(std::move(options));
    startInformers();
    m_flushTimer = new QTimer(this);
    connect(m_flushTimer, &QTimer::timeout, this, &EngineWorker::flush);
    m_flushTimer->start(FlushIntervalMs);
    Q_EMIT connected(server);
    if (createSamples)
        this->createSamples();
}

void EngineWorker::startInformers()
{
    for (const QString &kind : watchedKinds()) {
        auto informer = m_cache->informerFor(gvkOf(kind));
        if (!informer) {
            Q_EMIT failed(tr("No informer for %1: %2").arg(kind, informer.error().message()));
            continue;
        }
        Informer *inf = informer.value();
        m_informers.insert(kind, inf);
        connect(inf, &Informer::changed, this, [this, kind](const CacheChange &c) { onChange(kind, c); });
        connect(inf, &Informer::synced, this, [this] { m_statesDirty = true; });
        connect(inf, &Informer::resourceVersionChanged, this, [this] { m_statesDirty = true; });
    }
    m_cache->start();
    m_statesDirty = true;
}

void EngineWorker::shutdown()
{
    stopOperator();
    if (m_flushTimer)
        m_flushTimer->stop();
    if (m_cache)
        m_cache->stop();
    m_informers.clear();
    m_cache.reset();
    m_client.reset();
}

void EngineWorker::onChange(const QString &kind, const CacheChange &change)
{
    CacheEntry entry;
    entry.kind = kind;
    entry.op = change.type == CacheChange::Type::Deleted ? CacheEntry::Op::Remove : CacheEntry::Op::Upsert;
    entry.object = change.type == CacheChange::Type::Deleted ? change.oldObject : change.newObject;
    // Coalesced per object (kind, key and uid): a delete and a re-create within one flush stay two
    // entries, so views keyed by uid (the children tree) see the old object go.
    const QString id = kind + u'|' + change.key + u'|' + entry.object.uid();
    if (!m_pending.contains(id))
        m_pendingOrder.append(id);
    m_pending.insert(id, entry);
    m_statesDirty = true;
}

QList<InformerState> EngineWorker::informerStates() const
{
    QList<InformerState> out;
    for (const QString &kind : watchedKinds()) {
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
        out.append(s);
    }
    return out;
}

void EngineWorker::flush()
{
    if (!m_pendingTraces.isEmpty()) {
        Q_EMIT reconcilesFinished(m_pendingTraces);
        m_pendingTraces.clear();
    }
    if (m_pending.isEmpty() && !m_statesDirty)
        return;
    CacheBatch batch;
    batch.entries.reserve(m_pendingOrder.size());
    for (const QString &id : std::as_const(m_pendingOrder))
        batch.entries.append(m_pending.value(id));
    m_pending.clear();
    m_pendingOrder.clear();
    batch.informers = informerStates();
    batch.oldestRv = oldestReachableRv();
    m_statesDirty = false;
    Q_EMIT cacheBatch(batch);
}

void EngineWorker::requestVersions(const QString &kind, const QString &key)
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

QString EngineWorker::oldestReachableRv() const
{
    QString oldest;
    for (const Informer *inf : m_informers) {
        const QString rv = inf->history().oldestReachable();
        if (!rv.isEmpty() && (oldest.isEmpty() || compareResourceVersions(rv, oldest) > 0))
            oldest = rv;
    }
    return oldest;
}

void EngineWorker::requestCacheAt(const QString &rv)
{
    CachePast past;
    past.resourceVersion = rv;
    for (const QString &kind : watchedKinds()) {
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

void EngineWorker::observeQueue(WorkQueue *queue)
{
    if (m_queue)
        m_queue->removeListener(this);
    m_queue = queue;
    m_causeTotals.clear();
    m_adds = m_retries = 0;
    if (!queue) {
        delete m_queueTimer;
        m_queueTimer = nullptr;
        Q_EMIT queueAvailable(false);
        return;
    }
    queue->addListener(this);
    if (!m_queueTimer) {
        m_queueTimer = new QTimer(this);
        connect(m_queueTimer, &QTimer::timeout, this, &EngineWorker::sampleQueue);
    }
    m_rateClock.restart();
    m_queueTimer->start(QueueIntervalMs);
    Q_EMIT queueAvailable(true);
}

void EngineWorker::keyChanged(const KeyState &state)
{
    const QString key = state.key.toString();
    const int total = state.causes.total() + state.delayedCauses.total();
    const int before = m_causeTotals.value(key);
    const int fresh = total >= before ? total - before : total;
    if (fresh > 0) {
        m_adds += fresh;
        const Cause *last = state.causes.size() > 0 ? &state.causes.last() : nullptr;
        if (state.delayedCauses.size() > 0)
            last = &state.delayedCauses.last();
        if (last && last->kind == Cause::Kind::RateLimitedRetry)
            ++m_retries;
    }
    m_causeTotals.insert(key, total);
}

void EngineWorker::keyRemoved(const QueueKey &key)
{
    m_causeTotals.remove(key.toString());
}

void EngineWorker::sampleQueue()
{
    if (!m_queue)
        return;
    QueueSample s;
    s.atMs = m_sessionClock.elapsed();
    s.depth = m_queue->len();
    s.processing = m_queue->processingCount();
    s.waiting = m_queue->waitingCount();
    const double seconds = qMax<qint64>(1, m_rateClock.restart()) / 1000.0;
    s.addsPerSec = m_adds / seconds;
    s.retriesPerSec = m_retries / seconds;
    m_adds = m_retries = 0;
    const auto now = m_queue->clock()->now();
    for (const KeyState &k : m_queue->snapshot()) {
        QueueRow row;
        row.key = k.key.toString();
        row.state = queueStateName(k.state);
        row.priority = k.priority;
        row.retries = k.retries;
        if (k.waiting)
            row.readyInMs = std::chrono::duration_cast<std::chrono::milliseconds>(k.readyAt - now).count();
        for (const Cause &c : k.causes)
            row.causes.append(c.describe());
        for (const Cause &c : k.delayedCauses)
            row.causes.append(c.describe());
        s.rows.append(row);
    }
    Q_EMIT queueSample(s);
}

QCoro::Task<void> EngineWorker::createSamples()
{
    QPointer<EngineWorker> self(this);
    const GroupVersionResource gvr = myApplicationMapping().gvr;
    int created = 0;
    QStringList errors;
    for (const Object &sample : myapp::sampleApplications()) {
        if (!self || !m_client)
            co_return;
        auto result = co_await m_client->create(gvr, QStringLiteral("default"), sample);
        if (!self)
            co_return;
        if (result)
            ++created;
        else if (!isAlreadyExists(result.error()))
            errors.append(result.error().message());
    }
    Q_EMIT samplesCreated(created, errors);
}

void EngineWorker::deleteObject(const QString &kind, const QString &key)
{
    runDelete(kind, key);
}

void EngineWorker::createApplication(const QString &name, const QString &image, int replicas)
{
    runCreate(name, image, replicas);
}

QCoro::Task<void> EngineWorker::runDelete(QString kind, QString key)
{
    QPointer<EngineWorker> self(this);
    const auto mapping = m_cache ? m_cache->mapper().forKind(gvkOf(kind)) : std::nullopt;
    if (!mapping || !m_client) {
        Q_EMIT actionFailed(tr("Cannot delete %1 %2: not connected, or the kind is unknown.").arg(kind, key));
        co_return;
    }
    const QueueKey k = QueueKey::fromString(key);
    auto result = co_await m_client->remove(mapping->gvr, k.ns, k.name);
    if (self && !result)
        Q_EMIT actionFailed(tr("Deleting %1 %2 failed: %3").arg(kind, key, result.error().message()));
}

QCoro::Task<void> EngineWorker::runCreate(QString name, QString image, int replicas)
{
    QPointer<EngineWorker> self(this);
    if (!m_client)
        co_return;
    QJsonObject app{{QStringLiteral("apiVersion"), QStringLiteral("example.com/v1alpha1")},
                    {QStringLiteral("kind"), QStringLiteral("MyApplication")},
                    {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}},
                    {QStringLiteral("spec"), QJsonObject{{QStringLiteral("image"), image},
                                                         {QStringLiteral("replicas"), replicas}}}};
    auto result = co_await m_client->create(myApplicationMapping().gvr, QStringLiteral("default"), Object::fromJson(app));
    if (!self)
        co_return;
    if (result) {
        Q_EMIT created(result->key());
        co_return;
    }
    const Status &error = result.error();
    const QString field = error.details().causes.isEmpty() ? QString() : error.details().causes.first().field;
    Q_EMIT createFailed(field, error.message());
}

} // namespace opbench::ui
