// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/storage/watchhub.h"

#include "engine/apiserver/storage/freshness.h"
#include "engine/apiserver/transform/partialmetadata.h"
#include "engine/apiserver/transform/tables.h"
#include "engine/apiserver/validation/conversion.h"
#include "engine/base/clock.h"

#include <QJsonDocument>
#include <QLoggingCategory>
#include <QPointer>

#include <deque>

namespace opbench::apiserver {

namespace {

/// An event waiting for its conversion (or a ready line queued behind one).
struct PendingEvent
{
    QString type;
    Object object;
    QByteArray line; // set: written as is
};

} // namespace

struct WatchHub::Watcher
{
    quint64 id = 0;
    Responder responder{nullptr};
    WatchRequest request;
    quint64 startRv = 0; // events at or below this RV are not sent
    bool tableHeaderSent = false;
    QMetaObject::Connection disconnected;
    std::unique_ptr<QTimer> timeout;
    std::unique_ptr<QTimer> deadlineBookmark;
    bool converts = false;   // the type has a conversion webhook: events go through `pending`
    bool converting = false; // the front of `pending` is at the webhook
    std::deque<PendingEvent> pending;
};

namespace {

Q_LOGGING_CATEGORY(lcWatch, "opbench.apiserver.watch")

/// A watch with bookmarks and a timeout gets a BOOKMARK this long before its deadline.
constexpr int kBookmarkBeforeDeadlineSeconds = 2;

QByteArray eventLine(const QString &type, const QByteArray &objectJson)
{
    return "{\"type\":\"" + type.toLatin1() + "\",\"object\":" + objectJson + "}\n";
}

bool matches(const WatchRequest &r, const Object &o)
{
    if (o.isNull())
        return false;
    if (!r.namespaceName.isEmpty() && o.namespaceName() != r.namespaceName)
        return false;
    return !r.filter || r.filter(o);
}

/// `o` with metadata.resourceVersion set to `rv`.
Object withRv(const Object &o, quint64 rv)
{
    if (o.resourceVersion() == QString::number(rv))
        return o;
    QJsonObject json = o.json();
    QJsonObject meta = json.value(QLatin1String("metadata")).toObject();
    meta.insert(QLatin1String("resourceVersion"), QString::number(rv));
    json.insert(QLatin1String("metadata"), meta);
    return Object::fromJson(json);
}

} // namespace

WatchHub::WatchHub(Store *store, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_bookmarks(this)
{
    connect(store, &Store::committed, this, &WatchHub::onCommitted);
    m_bookmarks.setInterval(60000);
    connect(&m_bookmarks, &QTimer::timeout, this, [this]() {
        for (auto &[id, w] : m_watchers)
            if (w->request.allowBookmarks)
                sendBookmark(*w, false);
    });
    m_bookmarks.start();
}

WatchHub::~WatchHub() { closeAll(); }

void WatchHub::setBookmarkInterval(int ms) { m_bookmarks.start(qMax(10, ms)); }

void WatchHub::start(Responder responder, const WatchRequest &request)
{
    auto w = std::make_unique<Watcher>();
    w->id = m_nextId++;
    w->responder = responder;
    w->request = request;
    w->converts = m_convert && usesConversionWebhook(request.type);
    w->startRv = m_store->resourceVersion();
    const QString &rv = request.resourceVersion;
    const bool fromNow = rv.isEmpty() || rv == QLatin1String("0");
    QList<StoreEvent> replay;
    if (!fromNow) {
        bool ok = false;
        const quint64 n = rv.toULongLong(&ok);
        if (!ok) {
            responder.sendStatus(Status::badRequest(QStringLiteral("invalid resource version \"%1\"").arg(rv)));
            return;
        }
        if (n > m_store->resourceVersion() && request.sendInitialEvents.value_or(false)) {
            whenFresh(m_store, n, m_freshnessWait, this, [this, responder, request, n](bool fresh) {
                if (fresh)
                    return start(responder, request);
                if (Responder r = responder; r.beginChunked(200, "application/json")) {
                    r.writeChunk(eventLine(
                        QStringLiteral("ERROR"), tooLargeResourceVersion(n, m_store->resourceVersion()).toJsonBytes()));
                    r.endChunked();
                }
            });
            return;
        }
        auto since = m_store->eventsSince(n, request.type.storage);
        if (!since) {
            // Errors found once the RV is parsed go out as one ERROR event on a 200 stream.
            if (responder.beginChunked(200, "application/json")) {
                responder.writeChunk(eventLine(QStringLiteral("ERROR"), since.error().toJsonBytes()));
                responder.endChunked();
            }
            return;
        }
        replay = *since;
        w->startRv = n;
    }
    if (!responder.beginChunked(200, "application/json"))
        return;
    QHash<QString, QByteArray> noCache;
    const bool initial = request.sendInitialEvents.value_or(fromNow);
    if (initial) {
        ListOptions lo;
        lo.namespaceName = request.namespaceName;
        lo.filter = request.filter;
        if (auto list = m_store->list(request.type.gvr(), lo)) {
            for (const Object &o : list->items)
                send(*w, QStringLiteral("ADDED"), o, 0, nullptr);
        }
        w->startRv = m_store->resourceVersion();
        if (request.sendInitialEvents.value_or(false) && request.allowBookmarks)
            sendBookmark(*w, true);
    }
    for (const StoreEvent &e : std::as_const(replay))
        deliver(*w, e, noCache);
    if (request.timeoutSeconds > 0) {
        w->timeout = std::make_unique<QTimer>();
        w->timeout->setSingleShot(true);
        const quint64 id = w->id;
        connect(w->timeout.get(), &QTimer::timeout, this, [this, id]() { finish(id, false); });
        w->timeout->start(request.timeoutSeconds * 1000);
        if (request.allowBookmarks && request.timeoutSeconds > kBookmarkBeforeDeadlineSeconds) {
            // As the watch cache does: a BOOKMARK shortly before the deadline, so the client
            // rewatches from a fresh resourceVersion instead of one that may have expired.
            w->deadlineBookmark = std::make_unique<QTimer>();
            w->deadlineBookmark->setSingleShot(true);
            connect(w->deadlineBookmark.get(), &QTimer::timeout, this, [this, id]() {
                if (auto it = m_watchers.find(id); it != m_watchers.end() && it->second->responder.alive())
                    sendBookmark(*it->second, false);
            });
            w->deadlineBookmark->start((request.timeoutSeconds - kBookmarkBeforeDeadlineSeconds) * 1000);
        }
    }
    const quint64 id = w->id;
    w->disconnected = connect(responder.socket(), &QTcpSocket::disconnected, this, [this, id]() { finish(id, false); });
    m_watchers.emplace(id, std::move(w));
    Q_EMIT countChanged(count());
}

void WatchHub::onCommitted(const StoreEvent &event)
{
    QHash<QString, QByteArray> cache; // encoded lines shared by watchers seeing the same event
    QList<quint64> gone;
    QList<quint64> slow;
    for (auto &[id, w] : m_watchers) {
        if (w->request.type.storage != event.gvr)
            continue;
        if (!w->responder.alive()) {
            gone << id;
            continue;
        }
        deliver(*w, event, cache);
        if (const QTcpSocket *s = w->responder.socket(); s && s->bytesToWrite() > m_sendBufferLimit)
            slow << id;
    }
    for (quint64 id : gone)
        finish(id, false);
    for (quint64 id : slow)
        closeSlow(id);
}

void WatchHub::closeSlow(quint64 id)
{
    auto it = m_watchers.find(id);
    if (it == m_watchers.end())
        return;
    const QTcpSocket *s = it->second->responder.socket();
    qCWarning(lcWatch) << "Forcing watcher close due to unresponsiveness:"
                       << it->second->request.type.gvr().groupResource() << (s ? s->bytesToWrite() : 0)
                       << "bytes unsent";
    Responder responder = it->second->responder;
    ++m_slowClosed;
    finish(id, false); // forgets the watcher (its terminating chunk would only queue behind the rest)
    responder.abort(); // and frees everything buffered for it
}

void WatchHub::deliver(Watcher &w, const StoreEvent &event, QHash<QString, QByteArray> &cache)
{
    if (event.resourceVersion <= w.startRv)
        return;
    const bool was = event.type != EventType::Added && matches(w.request, event.previous);
    const bool is = event.type != EventType::Deleted && matches(w.request, event.object);
    const bool deletedMatch = event.type == EventType::Deleted && matches(w.request, event.object);
    if (deletedMatch)
        send(w, QStringLiteral("DELETED"), event.object, event.resourceVersion, &cache);
    else if (is && was)
        send(w, QStringLiteral("MODIFIED"), event.object, event.resourceVersion, &cache);
    else if (is)
        send(w, QStringLiteral("ADDED"), event.object, event.resourceVersion, &cache);
    else if (was)
        send(w, QStringLiteral("DELETED"), withRv(event.previous, event.resourceVersion), event.resourceVersion,
            nullptr);
}

QByteArray WatchHub::encodeObject(const Watcher &w, const Object &object)
{
    const Object served = toServed(w.request.type, object);
    if (w.request.metadataOnly)
        return QJsonDocument(partialObjectMetadata(served)).toJson(QJsonDocument::Compact);
    if (!w.request.table)
        return served.toJsonBytes();
    const QJsonObject table = makeTable(w.request.type, {served}, served.resourceVersion(), QString(),
        m_store->clock()->wallNow(), !w.tableHeaderSent, w.request.tableObject);
    return QJsonDocument(table).toJson(QJsonDocument::Compact);
}

bool WatchHub::send(
    Watcher &w, const QString &type, const Object &object, quint64 rv, QHash<QString, QByteArray> *cache)
{
    if (w.converts) {
        w.pending.push_back(PendingEvent{type, object, {}});
        pump(w);
        return true;
    }
    QByteArray line;
    // one encoding per event and served version, shared by every watcher of that version
    const bool cacheable = cache && !w.request.table;
    const QString key = type + QString::number(rv) + u' ' + w.request.type.apiVersion()
        + (w.request.metadataOnly ? QStringLiteral(" m") : QString());
    if (cacheable && cache->contains(key)) {
        line = cache->value(key);
    } else {
        line = eventLine(type, encodeObject(w, object));
        if (cacheable)
            cache->insert(key, line);
    }
    w.tableHeaderSent = true;
    return w.responder.writeChunk(line);
}

void WatchHub::sendBookmark(Watcher &w, bool initialEventsEnd)
{
    QJsonObject meta{{QStringLiteral("resourceVersion"), QString::number(m_store->resourceVersion())}};
    if (initialEventsEnd)
        meta.insert(QStringLiteral("annotations"),
            QJsonObject{{QStringLiteral("k8s.io/initial-events-end"), QStringLiteral("true")}});
    const QJsonObject obj{{QStringLiteral("kind"),
                              w.request.metadataOnly ? QStringLiteral("PartialObjectMetadata") : w.request.type.kind()},
        {QStringLiteral("apiVersion"),
            w.request.metadataOnly ? QStringLiteral("meta.k8s.io/v1") : w.request.type.apiVersion()},
        {QStringLiteral("metadata"), meta}};
    const QByteArray line = eventLine(QStringLiteral("BOOKMARK"), QJsonDocument(obj).toJson(QJsonDocument::Compact));
    if (w.converts && !w.pending.empty())
        return w.pending.push_back(PendingEvent{{}, Object(), line}); // after the events before it
    w.responder.writeChunk(line);
}

void WatchHub::pump(Watcher &w)
{
    while (!w.converting && !w.pending.empty()) {
        const PendingEvent &next = w.pending.front();
        if (!next.line.isEmpty()) {
            w.responder.writeChunk(next.line);
        } else if (next.object.apiVersion() == w.request.type.apiVersion()) {
            w.responder.writeChunk(eventLine(next.type, encodeObject(w, next.object)));
            w.tableHeaderSent = true;
        } else {
            w.converting = true;
            QPointer<WatchHub> self(this);
            const quint64 id = w.id;
            m_convert(w.request.type, {next.object.json()}, w.request.type.apiVersion(),
                [self, id](const Expected<QList<QJsonObject>> &result) {
                    if (self)
                        self->converted(id, result);
                });
            return; // `w` may be gone now
        }
        w.pending.pop_front();
    }
}

void WatchHub::converted(quint64 id, const Expected<QList<QJsonObject>> &result)
{
    auto it = m_watchers.find(id);
    if (it == m_watchers.end())
        return;
    Watcher &w = *it->second;
    if (!w.converting || w.pending.empty())
        return;
    w.converting = false;
    const PendingEvent event = w.pending.front();
    w.pending.pop_front();
    if (!result) {
        // kube-apiserver's watch ends with an InternalError event when an object cannot be decoded
        w.responder.writeChunk(
            eventLine(QStringLiteral("ERROR"), Status::internalError(result.error().message()).toJsonBytes()));
        return finish(id, false);
    }
    w.responder.writeChunk(eventLine(event.type, encodeObject(w, Object::fromJson(result->first()))));
    w.tableHeaderSent = true;
    pump(w);
}

void WatchHub::finish(quint64 id, bool closeConnection)
{
    auto it = m_watchers.find(id);
    if (it == m_watchers.end())
        return;
    std::unique_ptr<Watcher> w = std::move(it->second);
    m_watchers.erase(it);
    disconnect(w->disconnected);
    if (w->timeout) {
        w->timeout->stop();
        w->timeout.release()->deleteLater(); // may be running its own timeout signal right now
    }
    if (w->deadlineBookmark) {
        w->deadlineBookmark->stop();
        w->deadlineBookmark.release()->deleteLater();
    }
    if (w->responder.alive()) {
        w->responder.endChunked();
        if (closeConnection)
            w->responder.socket()->disconnectFromHost();
    }
    Q_EMIT countChanged(count());
}

void WatchHub::dropAll()
{
    QList<quint64> ids;
    for (const auto &[id, w] : m_watchers)
        ids << id;
    for (quint64 id : ids)
        finish(id, true);
}

void WatchHub::closeAll()
{
    QList<quint64> ids;
    for (const auto &[id, w] : m_watchers)
        ids << id;
    for (quint64 id : ids)
        finish(id, false);
}

} // namespace opbench::apiserver
