// SPDX-License-Identifier: Apache-2.0
#include "engine/controller/client.h"

#include <QJsonDocument>

namespace opbench {

namespace {

Status cancelledStatus(const ReconcileContext &ctx)
{
    return Status::transport(QString::fromLatin1(StatusReason::Cancelled), ctx.cancelReason());
}

/// A request made for `ctx` gives up once the reconcile is cancelled.
std::function<bool()> cancelCheck(const ReconcileContext &ctx)
{
    if (ctx.isBackground())
        return {}; // never cancelled
    return [ctx] { return ctx.isCancelled(); };
}

TraceCall makeCall(const PendingCall &p, Clock *clock)
{
    TraceCall c;
    c.verb = p.verb;
    c.gvk = p.gvk;
    c.key = p.key;
    c.fromCache = p.fromCache;
    c.startedAt = clock->wallNow();
    return c;
}

QCoro::Task<Expected<DeleteResult>> answered(Expected<DeleteResult> r) { co_return r; }

QCoro::Task<Expected<Object>> answeredObject(Expected<DeleteResult> r)
{
    if (!r.ok())
        co_return Status(r.error());
    co_return Object(r->object);
}

void setError(TraceCall &c, const Status &s)
{
    c.code = s.code();
    c.reason = s.reason();
    c.message = s.message();
}

} // namespace

Client::Client(InformerCache *cache, RestClient *rest, Clock *clock, QObject *parent)
    : QObject(parent)
    , m_cache(cache)
    , m_rest(rest)
    , m_clock(clock ? clock : Clock::system())
    , m_apiReader(this)
{ }

Client::~Client() = default;

Expected<ResourceMapping> Client::mappingFor(const GroupVersionKind &gvk) const
{
    if (auto m = m_cache->mapper().forKind(gvk))
        return *m;
    return Status(404, QString::fromLatin1(StatusReason::NotFound),
        QStringLiteral("no matches for kind \"%1\" in version \"%2\"").arg(gvk.kind, gvk.apiVersion()));
}

Object Client::cached(const GroupVersionKind &gvk, const QString &key) const
{
    if (!m_cache->kinds().contains(gvk))
        return {};
    auto inf = m_cache->informerFor(gvk);
    return inf.ok() ? (*inf)->store().get(key) : Object();
}

QCoro::Task<std::optional<Status>> Client::gate(ReconcileContext ctx, PendingCall call)
{
    QPointer<Client> self(this);
    if (m_tap)
        m_tap->callStarting(ctx, call);
    co_await ctx.beforeCall(std::move(call));
    if (!self)
        co_return Status::transport(QString::fromLatin1(StatusReason::Cancelled), QStringLiteral("client destroyed"));
    if (ctx.isCancelled())
        co_return cancelledStatus(ctx);
    co_return std::nullopt;
}

QCoro::Task<Expected<Object>> Client::get(ReconcileContext ctx, GroupVersionKind gvk, QString ns, QString name)
{
    return cachedGet(std::move(ctx), std::move(gvk), std::move(ns), std::move(name), ObjectProjection::Normal);
}

QCoro::Task<Expected<QList<Object>>> Client::list(ReconcileContext ctx, GroupVersionKind gvk, CacheListOptions opts)
{
    return cachedList(std::move(ctx), std::move(gvk), std::move(opts), ObjectProjection::Normal);
}

QCoro::Task<Expected<Object>> Client::getMetadata(ReconcileContext ctx, GroupVersionKind gvk, QString ns, QString name)
{
    return cachedGet(std::move(ctx), std::move(gvk), std::move(ns), std::move(name), ObjectProjection::Metadata);
}

QCoro::Task<Expected<QList<Object>>> Client::listMetadata(
    ReconcileContext ctx, GroupVersionKind gvk, CacheListOptions opts)
{
    return cachedList(std::move(ctx), std::move(gvk), std::move(opts), ObjectProjection::Metadata);
}

QCoro::Task<Expected<Object>> Client::cachedGet(
    ReconcileContext ctx, GroupVersionKind gvk, QString ns, QString name, ObjectProjection projection)
{
    QPointer<Client> self(this);
    const PendingCall p{{}, {}, 0, QStringLiteral("get"), gvk, objectKey(ns, name), true, {}, {}, {}};
    TraceCall call = makeCall(p, m_clock);
    if (std::optional<Status> err = co_await admit(ctx, p, &call))
        co_return Status(*err);
    const auto t0 = m_clock->now();
    std::function<bool()> cancelled = cancelCheck(ctx); // ends a wait for the cache's sync
    Expected<Object> r = Status();
    if (projection == ObjectProjection::Metadata)
        r = co_await m_cache->getMetadata(gvk, ns, name, std::move(cancelled));
    else
        r = co_await m_cache->get(gvk, ns, name, std::move(cancelled));
    if (r.ok())
        call.resourceVersion = r->resourceVersion();
    if (r.ok() && ctx.isObserved())
        call.object = *r;
    if (self)
        finishCall(ctx, call, t0, r.ok() ? nullptr : &r.error());
    co_return r;
}

QCoro::Task<Expected<QList<Object>>> Client::cachedList(
    ReconcileContext ctx, GroupVersionKind gvk, CacheListOptions opts, ObjectProjection projection)
{
    QPointer<Client> self(this);
    const PendingCall p{{}, {}, 0, QStringLiteral("list"), gvk, opts.namespaceName, true, {}, {}, {}};
    TraceCall call = makeCall(p, m_clock);
    if (std::optional<Status> err = co_await admit(ctx, p, &call))
        co_return Status(*err);
    const auto t0 = m_clock->now();
    std::function<bool()> cancelled = cancelCheck(ctx);
    Expected<QList<Object>> r = Status();
    if (projection == ObjectProjection::Metadata)
        r = co_await m_cache->listMetadata(gvk, opts, std::move(cancelled));
    else
        r = co_await m_cache->list(gvk, opts, std::move(cancelled));
    if (r.ok())
        call.items = int(r->size());
    if (self)
        finishCall(ctx, call, t0, r.ok() ? nullptr : &r.error());
    co_return r;
}

Expected<Object> Client::objectOf(Expected<DeleteResult> r)
{
    if (!r.ok())
        return r.error();
    return r->object;
}

QCoro::Task<Expected<Object>> Client::create(ReconcileContext ctx, Object obj, WriteOptions opts)
{
    Write w{QStringLiteral("create"), std::move(obj), std::move(opts), {}, {}, {}};
    Expected<DeleteResult> r = co_await write(std::move(ctx), std::move(w));
    co_return objectOf(std::move(r));
}

QCoro::Task<Expected<Object>> Client::update(ReconcileContext ctx, Object obj, WriteOptions opts)
{
    Write w{QStringLiteral("update"), std::move(obj), std::move(opts), {}, {}, {}};
    Expected<DeleteResult> r = co_await write(std::move(ctx), std::move(w));
    co_return objectOf(std::move(r));
}

QCoro::Task<Expected<Object>> Client::updateStatus(ReconcileContext ctx, Object obj, WriteOptions opts)
{
    Write w{QStringLiteral("updateStatus"), std::move(obj), std::move(opts), {}, {}, {}};
    Expected<DeleteResult> r = co_await write(std::move(ctx), std::move(w));
    co_return objectOf(std::move(r));
}

QCoro::Task<Expected<Object>> Client::patch(ReconcileContext ctx, Object obj, Patch patch, PatchOptions opts)
{
    Write w{QStringLiteral("patch"), std::move(obj), {}, std::move(opts), {}, std::move(patch)};
    Expected<DeleteResult> r = co_await write(std::move(ctx), std::move(w));
    co_return objectOf(std::move(r));
}

QCoro::Task<Expected<Object>> Client::patchStatus(ReconcileContext ctx, Object obj, Patch patch, PatchOptions opts)
{
    opts.subresource = QStringLiteral("status");
    Write w{QStringLiteral("patchStatus"), std::move(obj), {}, std::move(opts), {}, std::move(patch)};
    Expected<DeleteResult> r = co_await write(std::move(ctx), std::move(w));
    co_return objectOf(std::move(r));
}

QCoro::Task<Expected<DeleteResult>> Client::remove(ReconcileContext ctx, Object obj, DeleteOptions opts)
{
    Write w{QStringLiteral("delete"), std::move(obj), {}, {}, std::move(opts), {}};
    Expected<DeleteResult> r = co_await write(std::move(ctx), std::move(w));
    co_return r;
}

QCoro::Task<Expected<DeleteResult>> Client::write(ReconcileContext ctx, Write w)
{
    QPointer<Client> self(this);
    const GroupVersionKind gvk = w.obj.gvk();
    const Expected<ResourceMapping> mapping = mappingFor(gvk);
    const QString ns = mapping.ok() && mapping->namespaced ? w.obj.namespaceName() : QString();
    const QString key = objectKey(ns, w.obj.name());
    const Object before = cached(gvk, key);
    PendingCall p{{}, {}, 0, w.verb, gvk, key, false, {}, {}, {}};
    const bool sendsObject = w.verb != QLatin1String("delete") && !w.patch;
    // Body and diff are shown only when the call halts (stepping into it, or a call breakpoint):
    // they are filled then from these (PendingCall::fillRequest), not on every write.
    if (w.patch && ctx.haltsBeforeCalls())
        p.body = QJsonObject{{QStringLiteral("patch"), QString::fromUtf8(w.patch->data())}};
    else if (sendsObject)
        p.sends = w.obj;
    p.replaces = before;
    TraceCall call = makeCall(p, m_clock);
    if (w.patch)
        call.patch = w.patch->data();
    if (!mapping.ok()) {
        setError(call, mapping.error());
        recordCall(ctx, call, w.obj);
        co_return mapping.error();
    }
    if (std::optional<Status> err = co_await admit(ctx, p, &call))
        co_return Status(*err);
    if (std::optional<Status> refused = m_writeFence ? m_writeFence() : std::nullopt) {
        setError(call, *refused);
        recordCall(ctx, call, w.obj);
        co_return Status(*refused);
    }
    const auto t0 = m_clock->now();
    // The request is cancellable by the reconcile (its timeout, the controller's shutdown): the
    // scope is read as the call starts, and closed before anything else can start a call.
    // A replayer (ClientTap::answer) answers from a recording instead of the server.
    Expected<DeleteResult> reply = Status();
    const bool replied = m_tap && m_tap->answer(ctx, call, w.obj, &reply);
    QCoro::Task<Expected<DeleteResult>> sending = [&] {
        if (replied)
            return answered(std::move(reply));
        RestClient::CancelScope scope(m_rest, cancelCheck(ctx));
        return send(*mapping, ns, w);
    }();
    Expected<DeleteResult> r = co_await std::move(sending);
    if (!self)
        co_return r;
    call.latency = m_clock->now() - t0;
    if (r.ok()) {
        call.code = w.verb == QLatin1String("create") ? 201 : 200;
        if (!r->object.isNull())
            call.resourceVersion = r->object.resourceVersion();
        call.diffBefore = before;
        call.diffAfter = r->object;
        call.hasDiff = true;
    } else {
        setError(call, r.error());
        if (!before.isNull() && sendsObject) {
            call.diffBefore = before;
            call.diffAfter = w.obj;
            call.hasDiff = true;
        }
    }
    if (ctx.isObserved()) {
        call.sent = w.obj;
        if (r.ok())
            call.object = r->object;
    }
    recordCall(ctx, call, w.obj, r.ok() ? r->object : Object());
    if (m_writeObserver)
        m_writeObserver(call, w.obj);
    co_return r;
}

QCoro::Task<Expected<DeleteResult>> Client::send(ResourceMapping mapping, QString ns, Write w)
{
    // One awaited call per branch, arguments moved from locals: g++ 12 mis-destroys temporaries
    // and reassigned results around co_await in branchy coroutines.
    const GroupVersionResource gvr = mapping.gvr;
    if (w.verb == QLatin1String("delete")) {
        QString name = w.obj.name();
        Expected<DeleteResult> d = co_await m_rest->remove(gvr, ns, std::move(name), std::move(w.deleteOptions));
        co_return d;
    }
    Expected<Object> r = co_await sendObject(gvr, std::move(ns), std::move(w));
    if (!r.ok())
        co_return r.error();
    co_return DeleteResult{*r, Status()};
}

QCoro::Task<Expected<Object>> Client::sendObject(GroupVersionResource gvr, QString ns, Write w)
{
    if (w.verb == QLatin1String("create")) {
        Expected<Object> r = co_await m_rest->create(gvr, ns, std::move(w.obj), std::move(w.writeOptions));
        co_return r;
    }
    if (w.verb == QLatin1String("update")) {
        Expected<Object> r = co_await m_rest->update(gvr, ns, std::move(w.obj), std::move(w.writeOptions));
        co_return r;
    }
    if (w.verb == QLatin1String("updateStatus")) {
        Expected<Object> r = co_await m_rest->updateStatus(gvr, ns, std::move(w.obj), std::move(w.writeOptions));
        co_return r;
    }
    QString name = w.obj.name();
    const PatchType type = w.patch->type();
    QByteArray data = w.patch->data();
    Expected<Object> r
        = co_await m_rest->patch(gvr, ns, std::move(name), type, std::move(data), std::move(w.patchOptions));
    co_return r;
}

QCoro::Task<std::optional<Status>> Client::admit(ReconcileContext ctx, PendingCall p, TraceCall *call)
{
    QPointer<Client> self(this);
    std::optional<Status> err = co_await gate(ctx, p);
    if (!err && !self)
        err = cancelledStatus(ctx);
    if (err) {
        setError(*call, *err);
        recordCall(ctx, *call);
    }
    co_return err;
}

QCoro::Task<Expected<ResourceMapping>> Client::admitLive(ReconcileContext ctx, PendingCall p, TraceCall *call)
{
    Expected<ResourceMapping> mapping = mappingFor(p.gvk);
    if (!mapping.ok()) {
        setError(*call, mapping.error());
        recordCall(ctx, *call);
        co_return Status(mapping.error());
    }
    if (std::optional<Status> err = co_await admit(ctx, p, call))
        co_return Status(*err);
    co_return mapping;
}

void Client::finishCall(
    const ReconcileContext &ctx, TraceCall &call, Clock::TimePoint t0, const Status *error, const Object &reply) const
{
    call.latency = m_clock->now() - t0;
    if (error)
        setError(call, *error);
    else
        call.code = 200;
    recordCall(ctx, call, {}, reply);
}

void Client::recordCall(
    const ReconcileContext &ctx, const TraceCall &call, const Object &sent, const Object &reply) const
{
    ctx.record(call);
    if (m_tap)
        m_tap->callFinished(ctx, call, sent, reply);
}

QCoro::Task<Expected<Object>> Client::liveGet(ReconcileContext ctx, GroupVersionKind gvk, QString ns, QString name)
{
    QPointer<Client> self(this);
    const PendingCall p{{}, {}, 0, QStringLiteral("get"), gvk, objectKey(ns, name), false, {}, {}, {}};
    TraceCall call = makeCall(p, m_clock);
    Expected<ResourceMapping> mapping = co_await admitLive(ctx, p, &call);
    if (!mapping.ok())
        co_return Status(mapping.error());
    const auto t0 = m_clock->now();
    QString scope = mapping->namespaced ? ns : QString();
    GroupVersionResource gvr = mapping->gvr;
    Expected<DeleteResult> reply = Status();
    const bool replied = m_tap && m_tap->answer(ctx, call, Object(), &reply);
    QCoro::Task<Expected<Object>> getting = [&] {
        if (replied)
            return answeredObject(std::move(reply));
        RestClient::CancelScope cancel(m_rest, cancelCheck(ctx));
        return m_rest->get(std::move(gvr), std::move(scope), std::move(name));
    }();
    Expected<Object> r = co_await std::move(getting);
    if (r.ok())
        call.resourceVersion = r->resourceVersion();
    if (r.ok() && ctx.isObserved())
        call.object = *r;
    if (self)
        finishCall(ctx, call, t0, r.ok() ? nullptr : &r.error(), r.ok() ? *r : Object());
    co_return r;
}

QCoro::Task<Expected<QList<Object>>> Client::liveList(
    ReconcileContext ctx, GroupVersionKind gvk, QString ns, ListOptions opts)
{
    QPointer<Client> self(this);
    const PendingCall p{{}, {}, 0, QStringLiteral("list"), gvk, ns, false, {}, {}, {}};
    TraceCall call = makeCall(p, m_clock);
    Expected<ResourceMapping> mapping = co_await admitLive(ctx, p, &call);
    if (!mapping.ok())
        co_return Status(mapping.error());
    const auto t0 = m_clock->now();
    QString scope = mapping->namespaced ? ns : QString();
    GroupVersionResource gvr = mapping->gvr;
    QCoro::Task<Expected<Object::List>> listing = [&] {
        RestClient::CancelScope cancel(m_rest, cancelCheck(ctx));
        return m_rest->list(std::move(gvr), std::move(scope), std::move(opts), true);
    }();
    Expected<Object::List> r = co_await std::move(listing);
    if (!r.ok()) {
        if (self)
            finishCall(ctx, call, t0, &r.error());
        co_return Status(r.error());
    }
    call.items = int(r->items.size());
    if (self)
        finishCall(ctx, call, t0, nullptr);
    co_return QList<Object>(r->items);
}

namespace detail {

QCoro::Task<Expected<void>> withoutValue(QCoro::Task<Expected<DeleteResult>> task)
{
    Expected<DeleteResult> r = co_await std::move(task);
    if (!r.ok())
        co_return Status(r.error());
    co_return Expected<void>();
}

} // namespace detail

QCoro::Task<Expected<Object>> ApiReader::get(ReconcileContext ctx, GroupVersionKind gvk, QString ns, QString name) const
{
    return m_client->liveGet(std::move(ctx), std::move(gvk), std::move(ns), std::move(name));
}

QCoro::Task<Expected<QList<Object>>> ApiReader::list(
    ReconcileContext ctx, GroupVersionKind gvk, QString ns, ListOptions opts) const
{
    return m_client->liveList(std::move(ctx), std::move(gvk), std::move(ns), std::move(opts));
}

} // namespace opbench
