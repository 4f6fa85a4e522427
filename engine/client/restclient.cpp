// SPDX-License-Identifier: Apache-2.0
#include "engine/client/restclient.h"

#include "engine/client/auth.h"
#include "engine/client/awaitsignal.h"
#include "engine/client/httpclient.h"
#include "engine/client/liststreamdecoder.h"
#include "engine/client/ratelimiter.h"
#include "engine/client/transport.h"
#include "engine/client/watchstream.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QDeadlineTimer>
#include <QPointer>
#include <QScopeGuard>

#include <algorithm>

namespace opbench {

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
    return Status::transport(StatusReason::Cancelled, QStringLiteral("%1 %2 was cancelled").arg(QString::fromLatin1(method), path));
}

/// How often a cancellable call checks its predicate while it waits.
constexpr std::chrono::milliseconds kCancelPoll{100};

/// One HTTP exchange, bounded by cfg.timeout, written and read by this thread. HTTP replies of
/// any code are values; transport failures are Status. With `isCancelled`, the wait is sliced and
/// the request aborted once it returns true.
QCoro::Task<Expected<Attempt>> exchange(QPointer<detail::HttpClient> http, RestConfig cfg, QByteArray method,
                                              QString path, QByteArray query, QByteArray body, QByteArray contentType,
                                              Credentials creds, std::function<bool()> isCancelled,
                                              ListStreamDecoder *listSink)
{
    if (!http)
        co_return cancelled(method, path);
    const QSslConfiguration ssl = detail::sslConfiguration(cfg, creds);
    QPointer<detail::HttpReply> reply = http->send(method, detail::requestUrl(cfg, path, query),
                                                   detail::requestHeaders(cfg, creds, contentType), body, ssl);
    // A list is decoded as its body arrives (a 2xx body only: errors keep theirs for the Status).
    QMetaObject::Connection streaming;
    if (listSink) {
        reply->setStreaming(true);
        streaming = QObject::connect(reply.data(), &detail::HttpReply::readyRead, reply.data(), [r = reply.data(), listSink]() {
            if (r->statusCode() >= 200 && r->statusCode() < 300)
                listSink->feed(r->readAll());
        });
    }
    const auto release = qScopeGuard([reply, streaming]() {
        QObject::disconnect(streaming);
        if (reply)
            reply->deleteLater();
    });
    const QDeadlineTimer deadline = cfg.timeout.count() < 0 ? QDeadlineTimer(QDeadlineTimer::Forever) : QDeadlineTimer(cfg.timeout);
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
        if (outcome != detail::WaitOutcome::TimedOut || !reply || reply->isFinished() || !isCancelled || deadline.hasExpired())
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

/// Sleeps `d` on `clock`, in slices when the call is cancellable; false when cancelled.
QCoro::Task<bool> pause(Clock *clock, Clock::Duration d, QObject *context, std::function<bool()> isCancelled)
{
    if (!isCancelled) {
        co_await detail::ClockSleep(clock, d, context);
        co_return true;
    }
    const auto until = clock->now() + d;
    while (clock->now() < until) {
        if (isCancelled())
            co_return false;
        co_await detail::ClockSleep(clock, std::min<Clock::Duration>(until - clock->now(), kCancelPoll), context);
    }
    co_return !isCancelled();
}

} // namespace

RestClient::CancelScope::CancelScope(RestClient *client, std::function<bool()> cancelled) : m_client(client)
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
    : QObject(parent), m_config(std::move(config)), m_clock(m_config.clock ? m_config.clock : Clock::system()),
      m_http(detail::makeHttpClient(m_config, this))
{
    if (m_config.qps > 0)
        m_limiter = std::make_unique<TokenBucket>(m_config.qps, m_config.burst, m_clock);
}

RestClient::~RestClient() = default;

QCoro::Task<Expected<RawResponse>> RestClient::send(QByteArray method, QString path, QueryParams query,
                                                    QByteArray body, QByteArray contentType, ListStreamDecoder *listSink)
{
    const std::function<bool()> isCancelled = m_cancelled; // before the first suspension
    QPointer<RestClient> self(this);
    const RestConfig cfg = m_config; // keeps the auth provider alive across awaits
    const QByteArray q = encodeQuery(query);
    bool authRetried = false;
    int retries = 0;
    for (;;) {
        if (isCancelled && isCancelled())
            co_return callCancelled(method, path);
        if (m_limiter) {
            const Clock::Duration slot = m_limiter->reserve();
            std::function<bool()> slotCheck = isCancelled;
            const bool waited = co_await pause(m_clock, slot, this, std::move(slotCheck));
            if (!self)
                co_return cancelled(method, path);
            if (!waited)
                co_return callCancelled(method, path);
        }
        Credentials creds;
        if (cfg.auth) {
            Expected<Credentials> c = co_await cfg.auth->credentials();
            if (!self)
                co_return cancelled(method, path);
            if (!c)
                co_return c.error();
            creds = *c;
        }
        std::function<bool()> exchangeCheck = isCancelled;
        Expected<Attempt> a = co_await exchange(m_http, cfg, method, path, q, body, contentType, creds, std::move(exchangeCheck),
                                                listSink);
        if (!self)
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
            std::function<bool()> retryCheck = isCancelled;
            const bool retried = co_await pause(m_clock, retryAfter, this, std::move(retryCheck));
            if (!self)
                co_return cancelled(method, path);
            if (!retried)
                co_return callCancelled(method, path);
            continue;
        }
        co_return Status::fromHttp(a->code, a->body);
    }
}

QCoro::Task<Expected<RawResponse>> RestClient::raw(QByteArray method, QString path, QueryParams query, QByteArray body,
                                                   QByteArray contentType)
{
    co_return co_await send(std::move(method), std::move(path), std::move(query), std::move(body), std::move(contentType));
}

QCoro::Task<Expected<Object>> RestClient::sendForObject(QByteArray method, QString path, QueryParams query,
                                                        QByteArray body, QByteArray contentType)
{
    Expected<RawResponse> r = co_await send(std::move(method), std::move(path), std::move(query), std::move(body),
                                            std::move(contentType));
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

QCoro::Task<Expected<Object::List>> RestClient::list(GroupVersionResource gvr, QString ns, ListOptions opts,
                                                     bool stripManagedFields)
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

QCoro::Task<Expected<Object>> RestClient::updateSubresource(GroupVersionResource gvr, QString ns, Object obj,
                                                            QString subresource, WriteOptions opts)
{
    QueryParams q;
    opts.addTo(q);
    const QString target = ns.isEmpty() ? obj.namespaceName() : ns;
    co_return co_await sendForObject("PUT", resourcePath(gvr, target, obj.name(), subresource), q, obj.toJsonBytes(),
                                     "application/json");
}

QCoro::Task<Expected<Object>> RestClient::updateStatus(GroupVersionResource gvr, QString ns, Object obj, WriteOptions opts)
{
    co_return co_await updateSubresource(std::move(gvr), std::move(ns), std::move(obj), QStringLiteral("status"),
                                         std::move(opts));
}

QCoro::Task<Expected<Object>> RestClient::patch(GroupVersionResource gvr, QString ns, QString name, PatchType type,
                                                QByteArray body, PatchOptions opts)
{
    if (type == PatchType::Apply && opts.fieldManager.isEmpty())
        co_return Status::badRequest(QStringLiteral("PatchOptions.fieldManager is required for apply patch"));
    QueryParams q;
    opts.addTo(q);
    co_return co_await sendForObject("PATCH", resourcePath(gvr, ns, name, opts.subresource), q, body,
                                     patchContentType(type));
}

QCoro::Task<Expected<DeleteResult>> RestClient::remove(GroupVersionResource gvr, QString ns, QString name, DeleteOptions opts)
{
    QueryParams q;
    if (opts.dryRun)
        q.append({QStringLiteral("dryRun"), QStringLiteral("All")});
    Expected<RawResponse> r = co_await send("DELETE", resourcePath(gvr, ns, name), q, opts.toJson(), "application/json");
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

QCoro::Task<Expected<Object>> RestClient::deleteCollection(GroupVersionResource gvr, QString ns, ListOptions list,
                                                           DeleteOptions opts)
{
    QueryParams q;
    list.addTo(q);
    if (opts.dryRun)
        q.append({QStringLiteral("dryRun"), QStringLiteral("All")});
    co_return co_await sendForObject("DELETE", resourcePath(gvr, ns), q, opts.toJson(), "application/json");
}

std::unique_ptr<WatchStream> RestClient::watch(const GroupVersionResource &gvr, const QString &ns, const ListOptions &opts) const
{
    QueryParams q;
    opts.addTo(q);
    q.append({QStringLiteral("watch"), QStringLiteral("true")});
    return std::make_unique<WatchStream>(m_config, resourcePath(gvr, ns), q);
}

} // namespace opbench
