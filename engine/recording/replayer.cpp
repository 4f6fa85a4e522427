// SPDX-License-Identifier: Apache-2.0
#include "engine/recording/replayer.h"

#include "engine/cache/informer.h"
#include "engine/controller/jsondiff.h"
#include "engine/manager/manager.h"
#include "engine/recording/recordingformat.h"
#include "engine/recording/replayclock.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>

#include <QPointer>

#include <optional>

namespace opbench {

namespace {

constexpr int kMaxDivergences = 10;

QString str(const QJsonObject &o, const char *key) { return o.value(QLatin1String(key)).toString(); }

QString callName(const QString &verb, const QString &apiVersion, const QString &kind, const QString &key)
{
    return QStringLiteral("%1 %2/%3 %4").arg(verb, apiVersion, kind, key);
}

QString resultName(const ReconcileOutcome &o)
{
    if (o.isError())
        return o.isTerminal() ? QStringLiteral("terminal_error") : QStringLiteral("error");
    const auto after = std::chrono::duration_cast<std::chrono::milliseconds>(o.result().requeueAfter).count();
    if (after > 0)
        return QStringLiteral("requeue_after %1ms").arg(after);
    return o.result().requeue ? QStringLiteral("requeue") : QStringLiteral("success");
}

QString recordedResult(const QJsonObject &end)
{
    QString r = str(end, "result");
    if (r == QLatin1String("requeue_after"))
        return QStringLiteral("requeue_after %1ms").arg(qint64(end.value(QLatin1String("afterMs")).toDouble()));
    return r;
}

/// "spec.replicas: 3" for each leaf where `a` and `b` differ (the first three), from `side`.
QString differences(const QJsonObject &a, const QJsonObject &b, bool fromA)
{
    QStringList parts;
    const QList<DiffEntry> diff = jsonDiff(a, b);
    for (const DiffEntry &e : diff) {
        if (parts.size() == 3)
            break;
        const QJsonValue v = fromA ? e.oldValue : e.newValue;
        const QByteArray text = v.isUndefined()
            ? QByteArray("(absent)")
            : QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact).mid(1).chopped(1);
        parts.append(e.path + QStringLiteral(": ") + QString::fromUtf8(text));
    }
    return parts.join(QStringLiteral(", "));
}

/// How a replayed reconcile ended (shared with the coroutine that drives it).
struct Ending
{
    bool finished = false;
    QString result; ///< resultName()
    ReconcileTrace::Result kind = ReconcileTrace::Result::Success;
    Clock::Duration requeueAfter{0};
    QString error;
    int errorCode = 0;
    bool panicked = false;
};

void fillEnding(Ending &e, const ReconcileOutcome &o)
{
    e.result = resultName(o);
    e.requeueAfter = o.result().requeueAfter;
    if (o.isError()) {
        e.kind = o.isTerminal() ? ReconcileTrace::Result::TerminalError : ReconcileTrace::Result::Error;
        e.error = o.error().message();
        e.errorCode = o.error().code();
    } else if (o.result().requeueAfter.count() > 0) {
        e.kind = ReconcileTrace::Result::RequeueAfter;
    } else if (o.result().requeue) {
        e.kind = ReconcileTrace::Result::Requeue;
    }
}

QCoro::Task<void> drive(std::shared_ptr<Reconciler> reconciler, Request req, std::shared_ptr<Ending> ending)
{
    try {
        const ReconcileOutcome outcome = co_await reconciler->reconcile(std::move(req));
        fillEnding(*ending, outcome);
    } catch (const std::exception &e) {
        ending->result = QStringLiteral("error (panic: %1)").arg(QString::fromLocal8Bit(e.what()));
        ending->kind = ReconcileTrace::Result::Error;
        ending->error = ending->result;
        ending->panicked = true;
    }
    ending->finished = true;
}

void resumeHalted(detail::ReconcileScope &scope)
{
    if (scope.halted)
        std::exchange(scope.halted, {}).resume();
}

} // namespace

struct Replayer::Live
{
    std::shared_ptr<detail::ReconcileScope> scope;
    std::shared_ptr<Ending> ending = std::make_shared<Ending>();
    std::optional<QCoro::Task<void>> task;
    QList<const RecordingRecord *> recorded;
    qint64 startMonoNs = -1; ///< the recorded clock at its start
    qint64 ranNs = 0;        ///< the reconciler's own time now (between the records that drive it)
    int started = 0;
    QStringList made;
    QList<QJsonObject> madeBodies;
};

QByteArray ReplayReport::toJsonLine() const
{
    QJsonArray list;
    for (const ReplayDivergence &d : divergences)
        list.append(
            QJsonObject{{QStringLiteral("reconcile"), d.reconcileId}, {QStringLiteral("controller"), d.controller},
                {QStringLiteral("key"), d.key}, {QStringLiteral("index"), d.index},
                {QStringLiteral("recorded"), d.recorded}, {QStringLiteral("made"), d.made}});
    QJsonObject o{{QStringLiteral("replayed"), replayed}, {QStringLiteral("diverged"), diverged},
        {QStringLiteral("skipped"), skipped},
        {QStringLiteral("reconcilesPerSecond"), seconds > 0 ? qRound64(replayed / seconds) : 0},
        {QStringLiteral("divergences"), list}};
    if (!recordingError.isEmpty())
        o.insert(QStringLiteral("recordingError"), recordingError);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

Replayer::Replayer(Recording recording, Manager *manager, ReplayClock *clock, QObject *parent)
    : QObject(parent)
    , m_recording(std::move(recording))
    , m_manager(manager)
    , m_clock(clock)
{
    for (const RecordingRecord &rec : m_recording.records()) {
        if (rec.type == QLatin1String("call"))
            m_calls[str(rec.json, "rid")].append(&rec);
        else if (rec.type == QLatin1String("qa"))
            m_queueRecorded = true;
    }
}

Replayer::~Replayer()
{
    if (m_manager && m_manager->client()->tap() == this)
        m_manager->client()->setTap(nullptr);
}

void Replayer::applyRecord(const RecordingRecord &rec)
{
    if (rec.type == QLatin1String("informer")) {
        const GroupVersionKind gvk = GroupVersionKind::fromApiVersionKind(str(rec.json, "av"), str(rec.json, "kind"));
        const bool meta = rec.json.value(QLatin1String("meta")).toBool();
        auto inf = m_manager->cache()->informerFor(gvk, meta ? ObjectProjection::Metadata : ObjectProjection::Normal);
        if (!inf)
            return;
        if (!(*inf)->hasSynced())
            (*inf)->replaceAll({}, QString());
        m_informers.insert(rec.json.value(QLatin1String("inf")).toInt(), *inf);
        return;
    }
    Informer *inf = m_informers.value(rec.json.value(QLatin1String("inf")).toInt());
    if (!inf)
        return;
    const Object obj = Object::fromJson(rec.json.value(QLatin1String("obj")).toObject());
    if (str(rec.json, "op") == QLatin1String("del"))
        inf->deleted(obj);
    else
        inf->modified(obj);
}

ReplayReport Replayer::run()
{
    begin();
    while (advance()) { }
    end();
    return m_report;
}

void Replayer::begin()
{
    m_report = {};
    m_report.recordingError = m_recording.error();
    m_pos = 0;
    m_queue = RecordedQueue();
    for (const Controller *c : m_manager->controllers())
        m_queue.setKind(c->name(), c->queue()->kind());
    m_abortWait = false;
    m_manager->client()->setTap(this);
    m_timer.start();
}

const RecordingRecord *Replayer::advance()
{
    if (atEnd() || waiting()) // waiting: an event delivered by the wait's event loop must not move the replay
        return nullptr;
    const RecordingRecord &rec = m_recording.records().at(m_pos++);
    if (rec.type == QLatin1String("informer") || rec.type == QLatin1String("ev")) {
        applyRecord(rec);
    } else if (rec.type == QLatin1String("qa")) {
        m_queue.add(rec.json);
    } else if (rec.type == QLatin1String("rs")) {
        startReconcile(rec);
    } else if (rec.type == QLatin1String("call")) {
        releaseCall(rec);
    } else if (rec.type == QLatin1String("re")) {
        endReconcile(rec, &m_report);
        m_queue.finish(rec.json);
    }
    m_report.seconds = double(m_timer.nsecsElapsed()) / 1e9;
    return &rec;
}

void Replayer::end()
{
    // Reconciles the recording does not see end (cut off): cancelled, not compared.
    for (const std::shared_ptr<Live> &live : std::as_const(m_live)) {
        if (live->ending->finished || live->scope->cancelled)
            continue;
        live->scope->cancelled = true;
        resumeHalted(*live->scope);
        ++m_skipped;
    }
    m_report.skipped = m_skipped;
    if (m_timer.isValid())
        m_report.seconds = double(m_timer.nsecsElapsed()) / 1e9;
    if (m_manager->client()->tap() == this)
        m_manager->client()->setTap(nullptr);
}

void Replayer::startReconcile(const RecordingRecord &start)
{
    const QString id = str(start.json, "id");
    const Item item = m_queue.take(start.json); // why it runs: the causes queued since its previous hand-out
    Controller *controller = nullptr;
    for (Controller *c : m_manager->controllers())
        if (c->name() == str(start.json, "ctl"))
            controller = c;
    if (!controller) {
        ++m_skipped;
        return;
    }
    m_clock->set(Clock::TimePoint(std::chrono::nanoseconds(qint64(start.json.value(QLatin1String("mono")).toDouble()))),
        QDateTime::fromMSecsSinceEpoch(qint64(start.json.value(QLatin1String("wall")).toDouble()), Qt::UTC));
    const QueueKey key = QueueKey::fromString(str(start.json, "key"));
    auto live = std::make_shared<Live>();
    live->recorded = m_calls.value(id);
    live->scope = std::make_shared<detail::ReconcileScope>();
    live->scope->trace.id = id;
    live->scope->trace.controller = controller->name();
    live->scope->trace.request = key;
    live->scope->trace.causes = item.causes;
    live->scope->trace.priority = item.priority;
    live->startMonoNs = qint64(start.json.value(QLatin1String("mono")).toDouble(-1));
    live->scope->haltBeforeCalls = true; // each call waits for its record: the cache is then as it was
    live->scope->observed = m_observed;
    live->scope->trace.startedAt = m_clock->wallNow();
    QPointer<Replayer> self(this);
    live->scope->haltHook = [self](const std::shared_ptr<detail::ReconcileScope> &scope) {
        if (self && self->m_observed) {
            scope->pending.fillRequest();
            Q_EMIT self->callHalted(scope->pending);
        }
    };
    Request req(key.ns, key.name);
    req.reconcileId = id;
    req.ctx = ReconcileContext(live->scope);
    m_live.insert(id, live);
    if (m_observed)
        Q_EMIT reconcileStarted(live->scope->trace);
    QElapsedTimer ran;
    ran.start();
    live->task.emplace(drive(controller->reconciler(), std::move(req), live->ending)); // runs to its first call
    live->ranNs += ran.nsecsElapsed();
}

void Replayer::releaseCall(const RecordingRecord &call)
{
    const std::shared_ptr<Live> live = m_live.value(str(call.json, "rid"));
    if (!live)
        return;
    const bool wasHalted = bool(live->scope->halted);
    if (m_observed && wasHalted)
        Q_EMIT callReleased(live->scope->trace.id, live->scope->pending.index);
    QElapsedTimer ran;
    ran.start();
    resumeHalted(*live->scope);
    live->ranNs += ran.nsecsElapsed();
    if (m_observed && wasHalted)
        Q_EMIT reconcileProgress(live->scope->trace);
}

void Replayer::waitToFinish(Live &live)
{
    // Only on what nothing answers. advance() refuses meanwhile (waiting()): the records stay in
    // order and no second wait can start inside this one.
    QElapsedTimer waited;
    waited.start();
    ++m_waitDepth;
    while (!live.ending->finished && !m_abortWait && waited.elapsed() < 10000)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    if (--m_waitDepth == 0)
        m_abortWait = false;
}

void Replayer::endReconcile(const RecordingRecord &end, ReplayReport *report)
{
    const QString id = str(end.json, "id");
    const std::shared_ptr<Live> live = m_live.value(id);
    if (!live)
        return;                           // started before the recording did
    live->scope->haltBeforeCalls = false; // calls beyond those recorded: let them run
    QElapsedTimer ran;
    ran.start();
    resumeHalted(*live->scope);
    if (!live->ending->finished)
        waitToFinish(*live);
    live->ranNs += ran.nsecsElapsed();
    if (!live->ending->finished) {
        live->scope->cancelled = true;
        live->ending->result = QStringLiteral("(did not finish)");
    }
    ++report->replayed;
    const std::optional<ReplayDivergence> d = compare(*live, end);
    if (d) {
        ++report->diverged;
        if (report->divergences.size() < kMaxDivergences)
            report->divergences.append(*d);
    }
    if (m_observed)
        publishEnd(*live, end, d);
    if (live->ending->finished)
        m_live.remove(id); // an unfinished one stays (its frame still runs) until the replayer goes
}

CauseList Replayer::causesOf(const Live &live, const RecordingRecord &end) const
{
    // The causes rebuilt from the queue adds, unless the recorded end says otherwise (a queue with
    // another cause limit, a file without queue adds): then its own list.
    const QJsonArray recorded = end.json.value(QLatin1String("causes")).toArray();
    const CauseList &rebuilt = live.scope->trace.causes;
    bool same = m_queueRecorded && rebuilt.size() == recorded.size();
    for (int i = 0; same && i < rebuilt.size(); ++i)
        same = rebuilt.at(i).describe() == recorded.at(i).toString();
    if (same)
        return rebuilt;
    CauseList parsed;
    for (const QJsonValue c : recorded)
        parsed.merge(recording::causeFromText(c.toString()), int(recorded.size()));
    return parsed;
}

std::optional<ReplayDivergence> Replayer::compare(const Live &live, const RecordingRecord &end) const
{
    ReplayDivergence d{live.scope->trace.id, str(end.json, "ctl"), str(end.json, "key"), -1, {}, {}};
    const int n = int(std::max(live.recorded.size(), live.made.size()));
    for (int i = 0; i < n && d.index < 0; ++i) {
        const QJsonObject *rec = i < live.recorded.size() ? &live.recorded.at(i)->json : nullptr;
        const QString recName = rec ? callName(str(*rec, "verb"), str(*rec, "av"), str(*rec, "kind"), str(*rec, "key"))
                                    : QStringLiteral("(none)");
        const QString madeName = i < live.made.size() ? live.made.at(i) : QStringLiteral("(none)");
        const QJsonObject recBody
            = rec ? recording::withoutVolatile(rec->value(QLatin1String("sent")).toObject()) : QJsonObject();
        const QJsonObject madeBody = i < live.madeBodies.size() ? live.madeBodies.at(i) : QJsonObject();
        if (recName == madeName && recBody == madeBody)
            continue;
        d.index = i;
        d.recorded = recName;
        d.made = madeName;
        if (recName == madeName) {
            d.recorded += QStringLiteral(" (") + differences(recBody, madeBody, true) + u')';
            d.made += QStringLiteral(" (") + differences(recBody, madeBody, false) + u')';
        }
    }
    const QString was = recordedResult(end.json);
    if (d.index < 0 && was != live.ending->result) {
        d.recorded = QStringLiteral("result ") + was;
        d.made = QStringLiteral("result ") + live.ending->result;
    } else if (d.index < 0) {
        return std::nullopt;
    }
    return d;
}

void Replayer::publishEnd(const Live &live, const RecordingRecord &end, const std::optional<ReplayDivergence> &d)
{
    ReconcileTrace t = live.scope->trace;
    const Ending &e = *live.ending;
    t.finished = true;
    t.result = e.kind;
    t.requeueAfter = e.requeueAfter;
    t.error = e.finished ? e.error : e.result;
    t.errorCode = e.errorCode;
    t.panicked = e.panicked;
    t.worker = end.json.value(QLatin1String("worker")).toInt();
    t.retries = end.json.value(QLatin1String("retries")).toInt();
    t.priority = end.json.value(QLatin1String("prio")).toInt();
    t.causes = causesOf(live, end);
    const QJsonValue endMono = end.json.value(QLatin1String("mono"));
    t.duration = endMono.isDouble() && live.startMonoNs >= 0
        ? Clock::Duration(std::max<qint64>(0, qint64(endMono.toDouble()) - live.startMonoNs))
        : Clock::Duration(live.ranNs); // a file without end readings
    QString divergence;
    if (d) {
        divergence = d->index < 0
            ? QStringLiteral("the result differs: recorded %1, made %2").arg(d->recorded, d->made)
            : QStringLiteral("call %1 differs: recorded %2, made %3").arg(d->index).arg(d->recorded, d->made);
    }
    Q_EMIT reconcileEnded(t, divergence, live.ranNs);
}

Replayer::Live *Replayer::liveOf(const ReconcileContext &ctx) const
{
    return ctx.isBackground() ? nullptr : m_live.value(ctx.reconcileId()).get();
}

void Replayer::callStarting(const ReconcileContext &ctx, const PendingCall &call)
{
    Live *live = liveOf(ctx);
    if (!live)
        return;
    ++live->started;
    if (call.fromCache) { // a kind the recording has no informer for reads as empty, never waits
        auto inf = m_manager->cache()->informerFor(call.gvk);
        if (inf && !(*inf)->hasSynced())
            (*inf)->replaceAll({}, QString());
    }
}

bool Replayer::answer(
    const ReconcileContext &ctx, const TraceCall &call, const Object &sent, Expected<DeleteResult> *reply)
{
    Q_UNUSED(sent);
    const QString made = callName(call.verb, call.gvk.apiVersion(), call.gvk.kind, call.key);
    const Live *live = liveOf(ctx);
    const int i = live ? live->started - 1 : -1;
    if (i < 0 || i >= live->recorded.size()) {
        *reply
            = Status(500, QStringLiteral("InternalError"), QStringLiteral("replay: nothing recorded answers ") + made);
        return true;
    }
    const QJsonObject &rec = live->recorded.at(i)->json;
    if (callName(str(rec, "verb"), str(rec, "av"), str(rec, "kind"), str(rec, "key")) != made) {
        *reply = Status(500, QStringLiteral("InternalError"),
            QStringLiteral("replay: %1 was recorded where %2 is made").arg(str(rec, "verb"), made));
        return true;
    }
    const int code = rec.value(QLatin1String("code")).toInt();
    if (code < 200 || code >= 300) {
        *reply = Status(code, str(rec, "reason"), str(rec, "msg"));
        return true;
    }
    const QJsonObject body = rec.value(QLatin1String("reply")).toObject();
    *reply = DeleteResult{body.isEmpty() ? Object() : Object::fromJson(body), Status()};
    return true;
}

void Replayer::callFinished(const ReconcileContext &ctx, const TraceCall &call, const Object &sent, const Object &reply)
{
    Q_UNUSED(reply);
    Live *live = liveOf(ctx);
    if (!live)
        return;
    live->made.append(callName(call.verb, call.gvk.apiVersion(), call.gvk.kind, call.key));
    live->madeBodies.append(
        sent.isNull() ? QJsonObject() : recording::withoutVolatile(recording::redacted(sent.json())));
}

} // namespace opbench
