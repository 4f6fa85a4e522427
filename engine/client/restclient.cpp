// SPDX-License-Identifier: Apache-2.0
#include "engine/client/restclient.h"

#include "engine/client/auth.h"
#include "engine/client/awaitsignal.h"
#include "engine/client/httpclient.h"
#include "engine/client/liststreamdecoder.h"
#include "engine/client/partialobjectmetadata.h"
#include "engine/client/ratelimiter.h"
#include "engine/client/transport.h"
#include "engine/client/watchstream.h"

#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QMutex>
#include <QPointer>
#include <QScopeGuard>
#include <QSet>

#include <algorithm>
#include <coroutine>
#include <map>

namespace opbench {

Q_LOGGING_CATEGORY(lcClient, "opbench.client")

namespace detail {

/// The calls of one RestClient sleeping on its clock, so its destructor can wake them.
struct PendingSleeps
{
    struct Entry
    {
        std::coroutine_handle<> handle;
        quint64 timer = 0;
        bool *woken = nullptr; // set when the destructor resumes the sleeper
    };
    std::map<quint64, Entry> entries;
    quint64 nextKey = 1;
};

namespace {

/// `co_await InterruptibleSleep(...)`: resumes after `d` on `clock`, or (returning false) when the
/// owning client is destroyed.
class InterruptibleSleep
{
public:
    InterruptibleSleep(Clock *clock, Clock::Duration d, QObject *context, std::shared_ptr<PendingSleeps> sleeps)
        : m_clock(clock)
        , m_d(d)
        , m_context(context)
        , m_sleeps(std::move(sleeps))
    { }
    // Movable only before it is awaited (the compiler may move the temporary into place).
    InterruptibleSleep(InterruptibleSleep &&o) noexcept
        : m_clock(o.m_clock)
        , m_d(o.m_d)
        , m_context(o.m_context)
        , m_sleeps(o.m_sleeps)
    { }
    InterruptibleSleep(const InterruptibleSleep &) = delete;
    InterruptibleSleep &operator=(const InterruptibleSleep &) = delete;
    InterruptibleSleep &operator=(InterruptibleSleep &&) = delete;
    /// A frame destroyed while it sleeps (its Task dropped) unregisters itself.
    ~InterruptibleSleep()
    {
        if (!m_key)
            return;
        const auto it = m_sleeps->entries.find(m_key);
        if (it == m_sleeps->entries.end())
            return;
        m_clock->cancel(it->second.timer);
        m_sleeps->entries.erase(it);
    }
    bool await_ready() const noexcept { return m_d.count() <= 0; }
    void await_suspend(std::coroutine_handle<> h)
    {
        const quint64 key = m_sleeps->nextKey++;
        m_key = key;
        PendingSleeps::Entry &e = m_sleeps->entries[key];
        e.handle = h;
        e.woken = &m_woken;
        std::weak_ptr<PendingSleeps> weak = m_sleeps;
        e.timer = m_clock->callAfter(m_d, m_context, [weak, key] {
            const std::shared_ptr<PendingSleeps> sleeps = weak.lock();
            if (!sleeps)
                return;
            const auto it = sleeps->entries.find(key);
            if (it == sleeps->entries.end())
                return;
            const std::coroutine_handle<> handle = it->second.handle;
            sleeps->entries.erase(it);
            handle.resume();
        });
    }
    /// False when woken by the client's destruction.
    bool await_resume() const noexcept { return !m_woken; }

private:
    Clock *m_clock;
    Clock::Duration m_d;
    QObject *m_context;
    std::shared_ptr<PendingSleeps> m_sleeps;
    quint64 m_key = 0;
    bool m_woken = false;
};

} // namespace
} // namespace detail

namespace {

struct Attempt
{
    int code = 0;
    QByteArray body;
    QByteArray contentType;
    int retryAfter = -1;
};

Status cancelled(const QByteArray &method, const QString &path)
{
    return Status::transport(StatusReason::Cancelled,
        QStringLiteral("%1 %2 was cancelled: the client was destroyed").arg(QString::fromLatin1(method), path));
}

Status callCancelled(const QByteArray &method, const QString &path)
{
    return Status::transport(
        StatusReason::Cancelled, QStringLiteral("%1 %2 was cancelled").arg(QString::fromLatin1(method), path));
}

/// How often a cancellable call checks its predicate while it waits.
constexpr std::chrono::milliseconds kCancelPoll{100};

/// One HTTP exchange, bounded by cfg.timeout, written and read by this thread. HTTP replies of
/// any code are values; transport failures are Status. With `isCancelled`, the wait is sliced and
/// the request aborted once it returns true.
QCoro::Task<Expected<Attempt>> exchange(QPointer<detail::HttpClient> http, RestConfig cfg, QByteArray method,
    QString path, QByteArray query, QByteArray body, QByteArray contentType, Credentials creds,
    std::function<bool()> isCancelled, ListStreamDecoder *listSink, QByteArray accept)
{
    if (!http)
        co_return cancelled(method, path);
    const QSslConfiguration ssl = detail::sslConfiguration(cfg, creds);
    QPointer<detail::HttpReply> reply = http->send(method, detail::requestUrl(cfg, path, query),
        detail::requestHeaders(cfg, creds, contentType, accept), body, ssl);
    // A list is decoded as its body arrives (a 2xx body only: errors keep theirs for the Status).
    QMetaObject::Connection streaming;
    if (listSink) {
        reply->setStreaming(true);
        streaming = QObject::connect(
            reply.data(), &detail::HttpReply::readyRead, reply.data(), [r = reply.data(), listSink]() {
                if (r->statusCode() >= 200 && r->statusCode() < 300)
                    listSink->feed(r->takeView()); // two buffers alternate: no allocation per read
            });
    }
    const auto release = qScopeGuard([reply, streaming]() {
        QObject::disconnect(streaming);
        if (reply)
            reply->deleteLater();
    });
    const QDeadlineTimer deadline
        = cfg.timeout.count() < 0 ? QDeadlineTimer(QDeadlineTimer::Forever) : QDeadlineTimer(cfg.timeout);
    detail::WaitOutcome outcome = detail::WaitOutcome::TimedOut;
    for (;;) {
        if (reply && reply->isFinished()) {
            outcome = detail::WaitOutcome::Signalled;
            break;
        }
        const auto remaining = std::chrono::milliseconds(deadline.isForever() ? -1 : deadline.remainingTime());
        auto slice = remaining;
        if (isCancelled && (remaining.count() < 0 || remaining > kCancelPoll))
            slice = kCancelPoll;
        outcome = co_await detail::SignalWait(reply.data(), &detail::HttpReply::finished, slice);
        if (outcome != detail::WaitOutcome::TimedOut || !reply || reply->isFinished() || !isCancelled
            || deadline.hasExpired())
            break;
        if (isCancelled()) {
            reply->abort();
            detail::countRequest(0, method, cfg.server);
            co_return callCancelled(method, path);
        }
    }
    if (outcome == detail::WaitOutcome::Destroyed || !reply)
        co_return cancelled(method, path);
    if (outcome == detail::WaitOutcome::TimedOut && !reply->isFinished()) {
        reply->abort();
        detail::countRequest(0, method, cfg.server);
        co_return detail::timeoutError(method, path, cfg.timeout);
    }
    if (reply->error() != detail::HttpReply::Error::None || reply->statusCode() == 0) {
        detail::countRequest(0, method, cfg.server);
        co_return detail::transportError(*reply, method, cfg);
    }
    Attempt a;
    a.code = reply->statusCode();
    a.body = reply->readAll();
    if (listSink && a.code >= 200 && a.code < 300)
        listSink->feed(std::exchange(a.body, {}));
    a.contentType = reply->rawHeader("Content-Type");
    a.retryAfter = detail::retryAfterSeconds(*reply);
    detail::countRequest(a.code, method, cfg.server);
    co_return a;
}

/// A server asking for a longer pause still gets retried after this many seconds, so no call
/// waits unboundedly.
constexpr int kMaxRetryAfterSeconds = 60;

bool isRetryable(const Attempt &a) { return a.retryAfter >= 0 && (a.code == 429 || a.code >= 500); }

/// insecure-skip-tls-verify: said once per server and process, as a warning (client-go logs the
/// same choice only at high verbosity; a silent MITM-able connection should not go unnoticed).
void warnIfUnverified(const RestConfig &cfg)
{
    if (!cfg.tls.insecure || cfg.server.scheme() != QLatin1String("https"))
        return;
    static QMutex mutex;
    static QSet<QString> warned;
    const QString server = cfg.server.toString(QUrl::RemoveUserInfo | QUrl::RemoveQuery | QUrl::RemoveFragment);
    {
        QMutexLocker lock(&mutex);
        if (warned.contains(server))
            return;
        warned.insert(server);
    }
    qCWarning(lcClient).noquote() << QStringLiteral(
        "TLS verification is off for %1 (insecure-skip-tls-verify): the server's "
        "certificate is not checked, so the connection and its credentials can be intercepted")
                                         .arg(server);
}

} // namespace

RestClient::CancelScope::CancelScope(RestClient *client, std::function<bool()> cancelled)
    : m_client(client)
{
    if (m_client)
        m_previous = std::exchange(m_client->m_cancelled, std::move(cancelled));
}

RestClient::CancelScope::~CancelScope()
{
    if (m_client)
        m_client->m_cancelled = std::move(m_previous);
}

RestClient::RestClient(RestConfig config, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_clock(m_config.clock ? m_config.clock : Clock::system())
    , m_http(detail::makeHttpClient(m_config, this))
    , m_sleeps(std::make_shared<detail::PendingSleeps>())
{
    warnIfUnverified(m_config);
    if (m_config.qps > 0)
        m_limiter = std::make_unique<TokenBucket>(m_config.qps, m_config.burst, m_clock);
}

RestClient::~RestClient()
{
    // Finish every pending call now, while the members are intact: a frame left suspended would
    // leak (and with it whatever its callers hold). Each resumed call sees *m_alive false and
    // returns Cancelled without touching the client; code it resumes may start new calls, which
    // fail at once. Sleepers first, then the replies (deleting the HTTP client aborts and deletes them:
    // their waits resume with Destroyed).
    *m_alive = false;
    while (!m_sleeps->entries.empty()) {
        const auto it = m_sleeps->entries.begin();
        const detail::PendingSleeps::Entry e = it->second;
        m_sleeps->entries.erase(it);
        m_clock->cancel(e.timer);
        *e.woken = true;
        e.handle.resume();
    }
    delete m_http; // aborts and deletes the replies: their waits resume with Destroyed
    m_http = nullptr;
}

auto RestClient::pause(Clock::Duration d, std::function<bool()> isCancelled) -> QCoro::Task<PauseOutcome>
{
    // Sliced when the call is cancellable, so the predicate is checked every kCancelPoll.
    const std::shared_ptr<detail::PendingSleeps> sleeps = m_sleeps;
    const std::shared_ptr<bool> alive = m_alive;
    Clock *clock = m_clock;
    const auto until = clock->now() + d;
    for (;;) {
        if (isCancelled && isCancelled())
            co_return PauseOutcome::Cancelled;
        const auto now = clock->now();
        if (now >= until)
            co_return PauseOutcome::Slept;
        Clock::Duration step = until - now;
        if (isCancelled)
            step = std::min<Clock::Duration>(step, kCancelPoll);
        const bool slept = co_await detail::InterruptibleSleep(clock, step, this, sleeps);
        if (!slept || !*alive)
            co_return PauseOutcome::Destroyed;
    }
}

QCoro::Task<Expected<RawResponse>> RestClient::send(QByteArray method, QString path, QueryParams query, QByteArray body,
    QByteArray contentType, ListStreamDecoder *listSink, QByteArray accept)
{
    // Everything read from `this` is copied before the first suspension; after each one, *alive
    // says whether the client still exists (false from the start of its destructor).
    const std::shared_ptr<bool> alive = m_alive;
    if (!*alive)
        co_return cancelled(method, path);
    const std::function<bool()> isCancelled = m_cancelled;
    const RestConfig cfg = m_config; // keeps the auth provider alive across awaits
    const QByteArray q = encodeQuery(query);
    bool authRetried = false;
    int retries = 0;
    for (;;) {
        if (isCancelled && isCancelled())
            co_return callCancelled(method, path);
        if (m_limiter) {
            const PauseOutcome waited = co_await pause(m_limiter->reserve(), isCancelled);
            if (waited == PauseOutcome::Destroyed || !*alive)
                co_return cancelled(method, path);
            if (waited == PauseOutcome::Cancelled)
                co_return callCancelled(method, path);
        }
        Credentials creds;
        if (cfg.auth) {
            Expected<Credentials> c = co_await cfg.auth->credentials();
            if (!*alive)
                co_return cancelled(method, path);
            if (!c)
                co_return c.error();
            creds = *c;
        }
        std::function<bool()> exchangeCheck = isCancelled;
        Expected<Attempt> a = co_await exchange(
            m_http, cfg, method, path, q, body, contentType, creds, std::move(exchangeCheck), listSink, accept);
        if (!*alive)
            co_return cancelled(method, path);
        if (!a)
            co_return a.error();
        if (a->code >= 200 && a->code < 300)
            co_return RawResponse{a->code, a->body, a->contentType};
        if (a->code == 401 && cfg.auth && !authRetried && cfg.auth->invalidate()) {
            authRetried = true;
            continue;
        }
        if (isRetryable(*a) && retries < m_maxRetries) {
            ++retries;
            const Clock::Duration retryAfter = std::chrono::seconds(std::min(a->retryAfter, kMaxRetryAfterSeconds));
            const PauseOutcome retried = co_await pause(retryAfter, isCancelled);
            if (retried == PauseOutcome::Destroyed || !*alive)
                co_return cancelled(method, path);
            if (retried == PauseOutcome::Cancelled)
                co_return callCancelled(method, path);
            continue;
        }
        co_return Status::fromHttp(a->code, a->body);
    }
}

QCoro::Task<Expected<RawResponse>> RestClient::raw(
    QByteArray method, QString path, QueryParams query, QByteArray body, QByteArray contentType)
{
    co_return co_await send(
        std::move(method), std::move(path), std::move(query), std::move(body), std::move(contentType));
}

QCoro::Task<Expected<Object>> RestClient::sendForObject(
    QByteArray method, QString path, QueryParams query, QByteArray body, QByteArray contentType)
{
    Expected<RawResponse> r
        = co_await send(std::move(method), std::move(path), std::move(query), std::move(body), std::move(contentType));
    if (!r)
        co_return r.error();
    co_return Object::parse(r->body);
}

QCoro::Task<Expected<Object>> RestClient::get(GroupVersionResource gvr, QString ns, QString name, GetOptions opts)
{
    QueryParams q;
    opts.addTo(q);
    co_return co_await sendForObject("GET", resourcePath(gvr, ns, name, opts.subresource), q, {}, {});
}

QCoro::Task<Expected<Object::List>> RestClient::list(
    GroupVersionResource gvr, QString ns, ListOptions opts, bool stripManagedFields)
{
    QueryParams q;
    opts.addTo(q);
    // Decoded while it arrives: a list at resourceVersion=0 is one unpaginated body (20 MB for
    // 10,000 Deployments) that is never held whole.
    ListStreamDecoder decoder(gvr.groupVersion().toString(), stripManagedFields);
    Expected<RawResponse> r = co_await send("GET", resourcePath(gvr, ns), q, {}, {}, &decoder);
    if (!r)
        co_return r.error();
    co_return decoder.finish();
}

QCoro::Task<Expected<Object>> RestClient::create(GroupVersionResource gvr, QString ns, Object obj, WriteOptions opts)
{
    QueryParams q;
    opts.addTo(q);
    const QString target = ns.isEmpty() ? obj.namespaceName() : ns;
    co_return co_await sendForObject("POST", resourcePath(gvr, target), q, obj.toJsonBytes(), "application/json");
}

QCoro::Task<Expected<Object>> RestClient::update(GroupVersionResource gvr, QString ns, Object obj, WriteOptions opts)
{
    co_return co_await updateSubresource(std::move(gvr), std::move(ns), std::move(obj), QString(), std::move(opts));
}

QCoro::Task<Expected<Object>> RestClient::updateSubresource(
    GroupVersionResource gvr, QString ns, Object obj, QString subresource, WriteOptions opts)
{
    QueryParams q;
    opts.addTo(q);
    const QString target = ns.isEmpty() ? obj.namespaceName() : ns;
    co_return co_await sendForObject(
        "PUT", resourcePath(gvr, target, obj.name(), subresource), q, obj.toJsonBytes(), "application/json");
}

QCoro::Task<Expected<Object>> RestClient::updateStatus(
    GroupVersionResource gvr, QString ns, Object obj, WriteOptions opts)
{
    co_return co_await updateSubresource(
        std::move(gvr), std::move(ns), std::move(obj), QStringLiteral("status"), std::move(opts));
}

QCoro::Task<Expected<Object>> RestClient::patch(
    GroupVersionResource gvr, QString ns, QString name, PatchType type, QByteArray body, PatchOptions opts)
{
    if (type == PatchType::Apply && opts.fieldManager.isEmpty())
        co_return Status::badRequest(QStringLiteral("PatchOptions.fieldManager is required for apply patch"));
    QueryParams q;
    opts.addTo(q);
    co_return co_await sendForObject(
        "PATCH", resourcePath(gvr, ns, name, opts.subresource), q, body, patchContentType(type));
}

QCoro::Task<Expected<DeleteResult>> RestClient::remove(
    GroupVersionResource gvr, QString ns, QString name, DeleteOptions opts)
{
    QueryParams q;
    if (opts.dryRun)
        q.append({QStringLiteral("dryRun"), QStringLiteral("All")});
    Expected<RawResponse> r
        = co_await send("DELETE", resourcePath(gvr, ns, name), q, opts.toJson(), "application/json");
    if (!r)
        co_return r.error();
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(r->body, &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject())
        co_return Status::transport(StatusReason::DecodeError,
            QStringLiteral("DELETE %1: the response is not a JSON object").arg(resourcePath(gvr, ns, name)));
    DeleteResult result;
    if (doc.object().value(QLatin1String("kind")).toString() == QLatin1String("Status"))
        result.status = Status::fromJson(doc.object(), r->code);
    else
        result.object = Object::fromJson(doc.object());
    co_return result;
}

QCoro::Task<Expected<Object>> RestClient::deleteCollection(
    GroupVersionResource gvr, QString ns, ListOptions list, DeleteOptions opts)
{
    QueryParams q;
    list.addTo(q);
    if (opts.dryRun)
        q.append({QStringLiteral("dryRun"), QStringLiteral("All")});
    co_return co_await sendForObject("DELETE", resourcePath(gvr, ns), q, opts.toJson(), "application/json");
}

QCoro::Task<Expected<Object>> RestClient::getMetadata(
    GroupVersionResource gvr, QString ns, QString name, GetOptions opts)
{
    QueryParams q;
    opts.addTo(q);
    const QString path = resourcePath(gvr, ns, name, opts.subresource);
    Expected<RawResponse> r = co_await send("GET", path, q, {}, {}, nullptr, PartialObjectMetadataAccept);
    if (!r)
        co_return metadataNotAcceptable(r.error(), QStringLiteral("GET ") + path);
    Expected<Object> obj = Object::parse(r->body);
    if (!obj)
        co_return obj.error();
    co_return toPartialObjectMetadata(*obj);
}

QCoro::Task<Expected<Object::List>> RestClient::listMetadata(GroupVersionResource gvr, QString ns, ListOptions opts)
{
    QueryParams q;
    opts.addTo(q);
    const QString path = resourcePath(gvr, ns);
    ListStreamDecoder decoder(gvr.groupVersion().toString(), true);
    Expected<RawResponse> r = co_await send("GET", path, q, {}, {}, &decoder, PartialObjectMetadataListAccept);
    if (!r)
        co_return metadataNotAcceptable(r.error(), QStringLiteral("GET ") + path);
    Expected<Object::List> list = decoder.finish();
    if (!list)
        co_return list.error();
    for (Object &o : list->items)
        o = toPartialObjectMetadata(o);
    co_return list;
}

std::unique_ptr<WatchStream> RestClient::watchMetadata(
    const GroupVersionResource &gvr, const QString &ns, const ListOptions &opts) const
{
    std::unique_ptr<WatchStream> w = watch(gvr, ns, opts);
    w->setMetadataOnly(true);
    return w;
}

std::unique_ptr<WatchStream> RestClient::watch(
    const GroupVersionResource &gvr, const QString &ns, const ListOptions &opts) const
{
    QueryParams q;
    opts.addTo(q);
    q.append({QStringLiteral("watch"), QStringLiteral("true")});
    return std::make_unique<WatchStream>(m_config, resourcePath(gvr, ns), q);
}

} // namespace opbench
