// SPDX-License-Identifier: Apache-2.0
#include "engine/recording/replayer.h"

#include "engine/cache/informer.h"
#include "engine/controller/jsondiff.h"
#include "engine/manager/manager.h"
#include "engine/recording/recordingformat.h"
#include "engine/recording/replayclock.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>

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
    const QString r = str(end, "result");
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

} // namespace

struct Replayer::Current
{
    QString id;
    QList<const RecordingRecord *> recorded;
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
        const QString id = rec.type == QLatin1String("call") ? str(rec.json, "rid") : str(rec.json, "id");
        if (rec.type == QLatin1String("re"))
            m_ends.insert(id, &rec);
        else if (rec.type == QLatin1String("call"))
            m_calls[id].append(&rec);
    }
}

Replayer::~Replayer()
{
    if (m_manager && m_manager->client()->tap() == this)
        m_manager->client()->setTap(nullptr);
}

Informer *Replayer::informerOf(int id) { return m_informers.value(id); }

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
    if (rec.type != QLatin1String("ev"))
        return;
    Informer *inf = informerOf(rec.json.value(QLatin1String("inf")).toInt());
    if (!inf)
        return;
    const Object obj = Object::fromJson(rec.json.value(QLatin1String("obj")).toObject());
    if (str(rec.json, "op") == QLatin1String("del"))
        inf->deleted(obj);
    else
        inf->modified(obj);
}

void Replayer::applyUpTo(qint64 seq)
{
    const QList<RecordingRecord> &records = m_recording.records();
    while (m_cursor < records.size() && records.at(m_cursor).seq < seq)
        applyRecord(records.at(m_cursor++));
}

QCoro::Task<ReplayReport> Replayer::run()
{
    QPointer<Replayer> self(this);
    ReplayReport report;
    report.recordingError = m_recording.error();
    m_manager->client()->setTap(this);
    QElapsedTimer timer;
    timer.start();
    const QList<int> starts = m_recording.reconciles();
    for (const int position : starts) {
        const bool replayed = co_await replayOne(position, &report);
        if (!self)
            co_return report;
        if (replayed)
            ++report.replayed;
        else
            ++report.skipped;
    }
    report.seconds = double(timer.nsecsElapsed()) / 1e9;
    m_manager->client()->setTap(nullptr);
    co_return report;
}

QCoro::Task<bool> Replayer::replayOne(int position, ReplayReport *report)
{
    const RecordingRecord &start = m_recording.records().at(position);
    applyUpTo(start.seq);
    const QString id = str(start.json, "id");
    const RecordingRecord *end = m_ends.value(id);
    Controller *controller = nullptr;
    for (Controller *c : m_manager->controllers())
        if (c->name() == str(start.json, "ctl"))
            controller = c;
    if (!end || !controller)
        co_return false;
    m_clock->set(Clock::TimePoint(std::chrono::nanoseconds(qint64(start.json.value(QLatin1String("mono")).toDouble()))),
        QDateTime::fromMSecsSinceEpoch(qint64(start.json.value(QLatin1String("wall")).toDouble()), Qt::UTC));
    const QueueKey key = QueueKey::fromString(str(start.json, "key"));
    auto scope = std::make_shared<detail::ReconcileScope>();
    scope->trace.id = id;
    scope->trace.controller = controller->name();
    scope->trace.request = key;
    Request req(key.ns, key.name);
    req.reconcileId = id;
    req.retries = end->json.value(QLatin1String("retries")).toInt();
    req.priority = end->json.value(QLatin1String("prio")).toInt();
    req.ctx = ReconcileContext(scope);
    m_current = std::make_unique<Current>();
    m_current->id = id;
    m_current->recorded = m_calls.value(id);
    std::shared_ptr<Reconciler> reconciler = controller->reconciler();
    ReconcileOutcome outcome;
    try {
        outcome = co_await reconciler->reconcile(std::move(req));
    } catch (const std::exception &e) {
        outcome = ReconcileOutcome::error(QStringLiteral("panic: ") + QString::fromLocal8Bit(e.what()));
    }
    compare(*end, resultName(outcome), report);
    m_current.reset();
    co_return true;
}

void Replayer::compare(const RecordingRecord &end, const QString &result, ReplayReport *report)
{
    const Current &c = *m_current;
    ReplayDivergence d{c.id, str(end.json, "ctl"), str(end.json, "key"), -1, {}, {}};
    const int n = int(std::max(c.recorded.size(), c.made.size()));
    for (int i = 0; i < n && d.index < 0; ++i) {
        const QJsonObject *rec = i < c.recorded.size() ? &c.recorded.at(i)->json : nullptr;
        const QString recName = rec ? callName(str(*rec, "verb"), str(*rec, "av"), str(*rec, "kind"), str(*rec, "key"))
                                    : QStringLiteral("(none)");
        const QString madeName = i < c.made.size() ? c.made.at(i) : QStringLiteral("(none)");
        const QJsonObject recBody
            = rec ? recording::withoutVolatile(rec->value(QLatin1String("sent")).toObject()) : QJsonObject();
        const QJsonObject madeBody = i < c.madeBodies.size() ? c.madeBodies.at(i) : QJsonObject();
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
    if (d.index < 0 && was != result) {
        d.recorded = QStringLiteral("result ") + was;
        d.made = QStringLiteral("result ") + result;
    } else if (d.index < 0) {
        return;
    }
    ++report->diverged;
    if (report->divergences.size() < kMaxDivergences)
        report->divergences.append(d);
}

void Replayer::callStarting(const ReconcileContext &ctx, const PendingCall &call)
{
    if (!m_current || ctx.reconcileId() != m_current->id)
        return;
    const int i = m_current->started++;
    if (i < m_current->recorded.size())
        applyUpTo(m_current->recorded.at(i)->seq);
    if (call.fromCache) { // a kind the recording has no informer for reads as empty, never waits
        auto inf = m_manager->cache()->informerFor(call.gvk);
        if (inf && !(*inf)->hasSynced())
            (*inf)->replaceAll({}, QString());
    }
}

std::optional<Expected<DeleteResult>> Replayer::answer(
    const ReconcileContext &ctx, const TraceCall &call, const Object &sent)
{
    Q_UNUSED(sent);
    const QString made = callName(call.verb, call.gvk.apiVersion(), call.gvk.kind, call.key);
    const int i = m_current && ctx.reconcileId() == m_current->id ? m_current->started - 1 : -1;
    if (i < 0 || i >= m_current->recorded.size())
        return Expected<DeleteResult>(
            Status(500, QStringLiteral("InternalError"), QStringLiteral("replay: nothing recorded answers ") + made));
    const QJsonObject &rec = m_current->recorded.at(i)->json;
    if (callName(str(rec, "verb"), str(rec, "av"), str(rec, "kind"), str(rec, "key")) != made)
        return Expected<DeleteResult>(Status(500, QStringLiteral("InternalError"),
            QStringLiteral("replay: %1 was recorded where %2 is made").arg(str(rec, "verb"), made)));
    const int code = rec.value(QLatin1String("code")).toInt();
    if (code < 200 || code >= 300)
        return Expected<DeleteResult>(Status(code, str(rec, "reason"), str(rec, "msg")));
    const QJsonObject reply = rec.value(QLatin1String("reply")).toObject();
    return Expected<DeleteResult>(DeleteResult{reply.isEmpty() ? Object() : Object::fromJson(reply), Status()});
}

void Replayer::callFinished(const ReconcileContext &ctx, const TraceCall &call, const Object &sent, const Object &reply)
{
    Q_UNUSED(reply);
    if (!m_current || ctx.reconcileId() != m_current->id)
        return;
    m_current->made.append(callName(call.verb, call.gvk.apiVersion(), call.gvk.kind, call.key));
    m_current->madeBodies.append(
        sent.isNull() ? QJsonObject() : recording::withoutVolatile(recording::redacted(sent.json())));
}

} // namespace opbench
