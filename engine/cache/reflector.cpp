// SPDX-License-Identifier: Apache-2.0
#include "engine/cache/reflector.h"

#include "engine/cache/deltasink.h"
#include "engine/client/partialobjectmetadata.h"
#include "engine/client/restclient.h"
#include "engine/client/watchstream.h"

#include <QPointer>
#include <QRandomGenerator>

namespace opbench {

using namespace std::chrono_literals;

namespace {
constexpr auto InitialBackoff = 800ms;
constexpr auto MaxBackoff = 30s;
constexpr auto BackoffResetAfter = 2min;
constexpr auto ShortWatch = 1s;
constexpr auto WatchListDeadline = 10s;

/// 504 "Too large resource version": the server has not reached the resourceVersion asked for
/// (client-go's isTooLargeResourceVersionError: the cause, or the message of older servers).
bool isTooLargeResourceVersion(const Status &s)
{
    for (const StatusCause &c : s.details().causes)
        if (c.reason == QLatin1String("ResourceVersionTooLarge"))
            return true;
    return isTimeout(s) && s.message().contains(QLatin1String("Too large resource version"));
}

/// Tells `observer` about one page of a list (or its failure).
void notifyPage(ReflectorObserver &observer, const Reflector &r, const ListOptions &opts,
    const Expected<Object::List> &page, bool fullList)
{
    ListPageInfo info;
    info.namespaceName = r.options().namespaceName;
    info.requestedRv = opts.resourceVersion;
    info.fullList = fullList;
    if (page.ok()) {
        info.resourceVersion = page->resourceVersion;
        info.continueToken = page->continueToken;
        info.items = int(page->items.size());
    } else {
        info.code = page.error().code();
        info.message = page.error().message();
    }
    observer.listPage(r, info);
}

/// The resourceVersion asked for is not available (compacted away, or not reached yet): list
/// with it unset.
bool isResourceVersionUnavailable(const Status &s) { return isGone(s) || isTooLargeResourceVersion(s); }
} // namespace

Reflector::Reflector(ReflectorOptions options, DeltaSink *sink, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_sink(sink)
    , m_clock(m_options.clock ? m_options.clock : Clock::system())
{ }

Reflector::~Reflector()
{
    if (m_timer)
        m_clock->cancel(m_timer);
    if (m_watchListTimer)
        m_clock->cancel(m_watchListTimer);
    if (m_watch)
        m_watch->cancel();
}

void Reflector::setState(State s)
{
    if (m_state == s)
        return;
    m_state = s;
    Q_EMIT stateChanged(s);
}

void Reflector::start()
{
    if (m_state != State::Idle && m_state != State::Stopped)
        return;
    list();
}

void Reflector::stop()
{
    ++m_epoch;
    if (m_timer) {
        m_clock->cancel(m_timer);
        m_timer = 0;
    }
    if (m_watchListTimer) {
        m_clock->cancel(m_watchListTimer);
        m_watchListTimer = 0;
    }
    m_inInitialEvents = false;
    if (m_watch) {
        m_watch->cancel();
        m_watch.reset();
        notifyWatchEnded(WatchEndInfo::Reason::Cancelled, std::nullopt);
    }
    setState(State::Stopped);
}

void Reflector::list()
{
    setState(State::Listing);
    if (m_options.useWatchList && !m_watchListUnsupported && !m_consistentListNeeded) {
        startWatch(true);
        return;
    }
    runList(m_epoch);
}

QCoro::Task<> Reflector::runList(quint64 epoch)
{
    QPointer<Reflector> self(this);
    ++m_lists;
    ListOptions opts;
    opts.labelSelector = m_options.labelSelector;
    opts.fieldSelector = m_options.fieldSelector;
    if (m_consistentListNeeded) {
        opts.limit = m_options.pageSize; // consistent read, paginated
    } else if (m_lastRv.isEmpty()) {
        opts.resourceVersion = QStringLiteral("0"); // first list: any version, from the watch cache
        opts.limit = m_options.pageSize;
    } else {
        opts.resourceVersion = m_lastRv; // relist: not older than what we saw
        if (m_paginatedResult)
            opts.limit = m_options.pageSize; // served without a watch cache: page it (client-go's paginatedResult)
    }
    QList<Object> items;
    QString rv;
    RestClient *client = m_options.client;
    const GroupVersionResource gvr = m_options.resource;
    const QString ns = m_options.namespaceName;
    const QString requestedRv = opts.resourceVersion;
    bool paged = false;    // following continue tokens
    bool fullList = false; // the unpaginated retry after an expired continue token
    for (;;) {
        const bool metadataOnly = m_options.metadataOnly;
        Expected<Object::List> page = Status();
        if (metadataOnly)
            page = co_await client->listMetadata(gvr, ns, opts);
        else
            page = co_await client->list(gvr, ns, opts, true);
        if (!self || epoch != m_epoch)
            co_return;
        if (m_options.observer)
            notifyPage(*m_options.observer, *this, opts, page, fullList);
        if (!page.ok()) {
            const Status error = page.error();
            if (paged && isGone(error) && !fullList) {
                // The continue token expired between pages: one unpaginated list at the original
                // resourceVersion (client-go's pager, FullListIfExpired); paging again could
                // expire again on a large, busy collection.
                m_lastError = error;
                Q_EMIT errorOccurred(error);
                fullList = true;
                paged = false;
                items.clear();
                rv.clear();
                opts.continueToken.clear();
                opts.limit = 0;
                opts.resourceVersion = requestedRv;
                continue;
            }
            if (isResourceVersionUnavailable(error) && !m_consistentListNeeded) {
                m_consistentListNeeded = true; // retry at once with resourceVersion unset
                m_lastError = error;
                Q_EMIT errorOccurred(error);
                list();
            } else {
                fail(error, Next::Relist);
            }
            co_return;
        }
        for (Object &o : page->items)
            items.append(metadataOnly ? typed(o) : std::move(o));
        if (rv.isEmpty())
            rv = page->resourceVersion; // every page carries the first page's version
        if (page->continueToken.isEmpty())
            break;
        paged = true;
        opts.continueToken = page->continueToken;
        opts.resourceVersion.clear(); // not allowed together with continue
    }
    m_consistentListNeeded = false;
    if (paged && requestedRv == QLatin1String("0"))
        m_paginatedResult = true; // a list at RV=0 came in pages: this server has no watch cache
    m_lastRv = rv;
    m_sink->replaceAll(items, rv);
    startWatch();
}

void Reflector::startWatch(bool initialEvents)
{
    ListOptions opts;
    opts.labelSelector = m_options.labelSelector;
    opts.fieldSelector = m_options.fieldSelector;
    opts.resourceVersion = m_lastRv;
    opts.allowWatchBookmarks = true;
    if (initialEvents) {
        opts.sendInitialEvents = true;
        opts.resourceVersionMatch = QStringLiteral("NotOlderThan");
        m_inInitialEvents = true;
        m_initialEvents.clear();
        armWatchListDeadline();
    }
    // A random 5–10 minute timeout spreads re-watches of many informers.
    opts.timeoutSeconds = 300 + int(QRandomGenerator::global()->bounded(300));
    if (m_options.metadataOnly) {
        m_watch = m_options.client->watchMetadata(m_options.resource, m_options.namespaceName, opts);
        connect(m_watch.get(), &WatchStream::eventReceived, this, &Reflector::onMetadataEvent);
    } else {
        m_watch = m_options.client->watch(m_options.resource, m_options.namespaceName, opts);
        connect(m_watch.get(), &WatchStream::eventReceived, this, &Reflector::onEvent);
    }
    connect(m_watch.get(), &WatchStream::decodeError, this, [this](const QString &message) {
        const Status s = Status::transport(QString::fromLatin1(StatusReason::DecodeError), message);
        m_lastError = s;
        Q_EMIT errorOccurred(s);
    });
    connect(m_watch.get(), &WatchStream::finished, this, &Reflector::onWatchFinished);
    ++m_watches;
    m_watchEvents = 0;
    m_watchStarted = m_clock->now();
    if (m_options.observer)
        m_options.observer->watchStarted(*this, m_lastRv, initialEvents);
    setState(initialEvents ? State::Listing : State::Watching);
    m_watch->start();
}

void Reflector::armWatchListDeadline()
{
    // The deadline counts from the last initial event, not from the start of the stream: a large
    // list that keeps streaming is not thrown away (client-go keeps waiting, warning every 10 s).
    if (m_watchListTimer)
        m_clock->cancel(m_watchListTimer);
    m_watchListTimer = m_clock->callAfter(WatchListDeadline, this, [this] {
        m_watchListTimer = 0;
        if (m_inInitialEvents)
            abandonWatchList();
    });
}

void Reflector::finishInitialEvents(const QString &rv)
{
    m_inInitialEvents = false;
    m_watchListStalls = 0;
    if (m_watchListTimer) {
        m_clock->cancel(m_watchListTimer);
        m_watchListTimer = 0;
    }
    ++m_watchLists;
    m_lastRv = rv;
    const QList<Object> items = std::exchange(m_initialEvents, {});
    m_sink->replaceAll(items, rv);
    setState(State::Watching);
}

void Reflector::abandonWatchList()
{
    // Nothing streamed at all, or a second stall in a row (an old server that ignores
    // sendInitialEvents sends the current objects and then never the end bookmark): LIST from
    // now on. One stall after progress: LIST this time only (client-go's fallbackToList).
    if (m_initialEvents.isEmpty() || ++m_watchListStalls >= 2)
        m_watchListUnsupported = true;
    m_inInitialEvents = false;
    m_initialEvents.clear();
    if (m_watch) {
        m_watch->cancel();
        m_watch.release()->deleteLater();
        notifyWatchEnded(WatchEndInfo::Reason::Cancelled, std::nullopt);
    }
    list();
}

namespace {

// client-go's handleWatch with an expected GVK: an object of another group, version or kind on
// this watch is reported and skipped (objects without apiVersion/kind pass).
bool hasExpectedKind(const ReflectorOptions &options, const Object &o)
{
    if (options.kind.isEmpty() || o.kind().isEmpty() || o.apiVersion().isEmpty())
        return true;
    return o.kind() == options.kind && o.apiVersion() == options.resource.groupVersion().toString();
}

} // namespace

Object Reflector::typed(const Object &partial) const
{
    if (m_options.kind.isEmpty())
        return partial; // nothing to record: it stays a PartialObjectMetadata
    return metadataOnlyAs(partial, m_options.resource.groupVersion().toString(), m_options.kind);
}

void Reflector::onMetadataEvent(WatchEvent event)
{
    if (event.type == WatchEvent::Type::Added || event.type == WatchEvent::Type::Modified
        || event.type == WatchEvent::Type::Deleted)
        event.object = typed(event.object);
    onEvent(event);
}

void Reflector::onEvent(const WatchEvent &event)
{
    if (m_options.observer)
        m_options.observer->watchEvent(*this, event);
    if ((event.type == WatchEvent::Type::Added || event.type == WatchEvent::Type::Modified
            || event.type == WatchEvent::Type::Deleted)
        && !hasExpectedKind(m_options, event.object)) {
        const QString expected
            = m_options.resource.groupVersion().toString() + QStringLiteral(", Kind=") + m_options.kind;
        const QString got = event.object.apiVersion() + QStringLiteral(", Kind=") + event.object.kind();
        Q_EMIT errorOccurred(
            Status::badRequest(QStringLiteral("%1: expected gvk %2, but watch event object had gvk %3 (%4 skipped)")
                                   .arg(m_options.resource.resource, expected, got, event.object.key())));
        return;
    }
    if (m_inInitialEvents) {
        if (event.type != WatchEvent::Type::Error)
            armWatchListDeadline(); // progress
        switch (event.type) {
        case WatchEvent::Type::Added:
        case WatchEvent::Type::Modified:
            m_initialEvents.append(event.object);
            break;
        case WatchEvent::Type::Deleted:
            m_initialEvents.removeIf([&](const Object &o) { return o.key() == event.object.key(); });
            break;
        case WatchEvent::Type::Bookmark:
            if (event.object.annotations().value(QStringLiteral("k8s.io/initial-events-end")) == QLatin1String("true"))
                finishInitialEvents(event.resourceVersion);
            return;
        case WatchEvent::Type::Error:
            return;
        }
        return;
    }
    switch (event.type) {
    case WatchEvent::Type::Added:
        m_sink->added(event.object);
        break;
    case WatchEvent::Type::Modified:
        m_sink->modified(event.object);
        break;
    case WatchEvent::Type::Deleted:
        m_sink->deleted(event.object);
        break;
    case WatchEvent::Type::Bookmark:
        m_sink->bookmark(event.resourceVersion);
        break;
    case WatchEvent::Type::Error:
        return; // finished() reports it
    }
    ++m_watchEvents;
    if (!event.resourceVersion.isEmpty())
        m_lastRv = event.resourceVersion;
}

void Reflector::onWatchFinished(const std::optional<Status> &error)
{
    // The stream is done; drop it once control has left its signal.
    if (m_watch)
        m_watch.release()->deleteLater();
    if (m_options.observer)
        notifyWatchEnded(!error                        ? WatchEndInfo::Reason::Closed
                : isResourceVersionUnavailable(*error) ? WatchEndInfo::Reason::Expired
                                                       : WatchEndInfo::Reason::Error,
            error);
    if (m_inInitialEvents) {
        m_inInitialEvents = false;
        if (m_watchListTimer) {
            m_clock->cancel(m_watchListTimer);
            m_watchListTimer = 0;
        }
        const int code = error ? error->code() : 0;
        if (error && isResourceVersionUnavailable(*error)) {
            // As client-go: the version is unavailable, so fall back to a LIST with it unset.
            m_consistentListNeeded = true;
            m_lastError = *error;
            Q_EMIT errorOccurred(*error);
            list();
            return;
        }
        if (code == 400 || code == 403 || code == 415 || code == 422) {
            m_watchListUnsupported = true; // this server does not stream lists: LIST from now on
            m_lastError = *error;
            Q_EMIT errorOccurred(*error);
            list();
            return;
        }
        fail(error ? *error
                   : Status::transport(QString::fromLatin1(StatusReason::ConnectionFailed),
                       QStringLiteral("streaming list ended before its initial-events-end bookmark")),
            Next::Relist);
        return;
    }
    if (!error) {
        if (m_watchEvents == 0 && m_clock->now() - m_watchStarted < ShortWatch) {
            fail(Status::transport(QString::fromLatin1(StatusReason::ConnectionFailed),
                     QStringLiteral("very short watch: the server closed it within 1 s with no events")),
                Next::Relist); // as client-go: ListAndWatch ends, the next round lists again after the backoff
            return;
        }
        startWatch(); // a normal close: resume from the last version, no relist
        return;
    }
    if (isResourceVersionUnavailable(*error)) {
        // Compacted away (or not reached): relist, after a backoff as client-go's ListAndWatch
        // loop does, so a server whose watches keep expiring does not get a loop of full lists.
        fail(*error, Next::Relist);
        return;
    }
    const bool transient
        = isTooManyRequests(*error) || error->reason() == QLatin1String(StatusReason::ConnectionFailed);
    fail(*error, transient ? Next::Rewatch : Next::Relist);
}

void Reflector::notifyWatchEnded(WatchEndInfo::Reason reason, const std::optional<Status> &error) const
{
    if (!m_options.observer)
        return;
    WatchEndInfo end;
    end.namespaceName = m_options.namespaceName;
    end.reason = reason;
    if (error) {
        end.code = error->code();
        end.message = error->message();
    }
    end.events = m_watchEvents;
    m_options.observer->watchEnded(*this, end);
}

void Reflector::fail(const Status &error, Next next)
{
    m_lastError = error;
    Q_EMIT errorOccurred(error);
    backoffThen(next);
}

void Reflector::backoffThen(Next next)
{
    const auto now = m_clock->now();
    if (m_backoff.count() == 0 || now - m_lastFailure > BackoffResetAfter)
        m_backoff = InitialBackoff;
    else
        m_backoff = std::min<std::chrono::milliseconds>(m_backoff * 2, MaxBackoff);
    m_lastFailure = now;
    // Jitter 1.0: wait between d and 2d.
    const auto wait
        = m_backoff + std::chrono::milliseconds(QRandomGenerator::global()->bounded(qint64(m_backoff.count()) + 1));
    m_lastBackoff = wait;
    setState(State::BackingOff);
    m_timer = m_clock->callAfter(wait, this, [this, next] {
        m_timer = 0;
        proceed(next);
    });
}

void Reflector::proceed(Next next)
{
    if (next == Next::Rewatch && !m_lastRv.isEmpty())
        startWatch();
    else
        list();
}

} // namespace opbench
