// SPDX-License-Identifier: Apache-2.0
#include "engine/workbench/replaysession.h"

#include "engine/api/status.h"
#include "engine/cache/informer.h"
#include "engine/cache/informercache.h"
#include "engine/controller/controller.h"
#include "engine/manager/manager.h"
#include "engine/recording/replayclock.h"
#include "engine/recording/replayer.h"
#include "engine/sdk/recordingflags.h"

#include <QDateTime>
#include <QTimer>

namespace opbench::workbench {

namespace {

constexpr int kMaxGapMs = 2000; // play: a longer idle gap in the recording is shortened to this
constexpr int kBatch = 200;     // play at max: records applied per turn of the event loop
constexpr int kRetryMs = 20;    // an intent arriving while a reconcile's wait runs: tried again after

bool isType(const RecordingRecord &rec, const char *type) { return rec.type == QLatin1String(type); }

qint64 number(const RecordingRecord &rec, const char *key)
{
    return qint64(rec.json.value(QLatin1String(key)).toDouble());
}

QString text(const RecordingRecord &rec, const char *key) { return rec.json.value(QLatin1String(key)).toString(); }

/// Milliseconds since the epoch of "2026-12-04T15:00:00Z"-like text or a plain number; -1 when neither.
qint64 parseTime(const QString &when)
{
    bool ok = false;
    const qint64 ms = when.trimmed().toLongLong(&ok);
    if (ok)
        return ms;
    QDateTime t = QDateTime::fromString(when.trimmed(), Qt::ISODateWithMs);
    if (!t.isValid())
        t = QDateTime::fromString(when.trimmed(), Qt::ISODate);
    return t.isValid() ? t.toMSecsSinceEpoch() : -1;
}

} // namespace

ReplaySession::ReplaySession(QObject *parent)
    : QObject(parent)
    , m_timer(new QTimer(this))
{
    qRegisterMetaType<ReplayState>();
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, &ReplaySession::tick);
}

ReplaySession::~ReplaySession() { close(); }

Expected<void> ReplaySession::open(const QString &path, OperatorDefinition &def, int cacheHistory)
{
    close();
    Recording recording = Recording::read(path);
    if (recording.records().isEmpty())
        return Status::badRequest(recording.error().isEmpty() ? tr("%1 holds no record").arg(path) : recording.error());
    auto clock = std::make_unique<ReplayClock>();
    auto manager = replayManager(def, clock.get(), cacheHistory);
    if (!manager)
        return manager.error();
    m_clock = std::move(clock);
    m_manager = std::move(*manager);
    m_recording = std::move(recording);
    m_state = {};
    m_state.open = true;
    m_state.path = path;
    m_state.operatorName = m_recording.header().value(QLatin1String("operator")).toString();
    m_state.started = m_recording.header().value(QLatin1String("start")).toString();
    m_state.damage = m_recording.error();
    m_state.records = int(m_recording.records().size());
    m_state.reconciles = int(m_recording.reconciles().size());
    m_firstMonoNs = -1;
    for (const RecordingRecord &rec : m_recording.records()) {
        if (rec.json.value(QLatin1String("mono")).isDouble()) {
            m_firstMonoNs = number(rec, "mono");
            break;
        }
    }
    m_sampleBaseMs = 0;
    m_lastSampleAtMs = -1;
    restart();
    publish();
    return {};
}

void ReplaySession::close()
{
    m_timer->stop();
    m_state.playing = false;
    if (m_replayer && m_replayer->waiting()) {
        // This came from the event loop of a reconcile's wait, which is still on the stack: end the
        // wait, and free the replay once it has unwound.
        m_replayer->abortWait();
        struct Retired
        {
            std::unique_ptr<ReplayClock> clock;
            std::unique_ptr<Manager> manager;
            std::unique_ptr<Replayer> replayer;
        };
        auto retired
            = std::make_shared<Retired>(Retired{std::move(m_clock), std::move(m_manager), std::move(m_replayer)});
        auto sweep = std::make_shared<std::function<void()>>();
        *sweep = [retired, sweep] {
            if (retired->replayer && retired->replayer->waiting()) {
                QTimer::singleShot(kRetryMs, *sweep);
                return;
            }
            retired->replayer.reset();
            retired->manager.reset();
            retired->clock.reset();
            *sweep = nullptr; // breaks the cycle
        };
        QTimer::singleShot(0, *sweep);
        return;
    }
    if (m_replayer)
        m_replayer->end();
    m_replayer.reset();
    m_manager.reset();
    m_clock.reset();
}

bool ReplaySession::deferredWhileWaiting(std::function<void()> intent)
{
    if (!m_replayer || !m_replayer->waiting())
        return false;
    QTimer::singleShot(kRetryMs, this, std::move(intent));
    return true;
}

Controller *ReplaySession::controllerNamed(const QString &name) const
{
    if (m_manager)
        for (Controller *c : m_manager->controllers())
            if (c->name() == name)
                return c;
    return nullptr;
}

void ReplaySession::restart()
{
    Q_EMIT aboutToRestart();
    if (m_replayer)
        m_replayer->end();
    m_replayer.reset();
    // The cache starts empty again (the views see every object go); its history stays.
    for (Informer *inf : m_manager->cache()->informers())
        if (inf->hasSynced() && inf->store().size() > 0)
            inf->replaceAll({}, QString());
    m_replayer = std::make_unique<Replayer>(m_recording, m_manager.get(), m_clock.get());
    m_replayer->setObserved(true);
    forwardToControllers();
    m_replayer->begin();
    m_into.clear();
    m_halted.clear();
    m_keys.clear();
    m_lastMonoNs = -1;
    m_waited = false;
    m_passAt = -1;
    m_state.position = 0;
    m_state.replayed = 0;
    m_state.diverged = 0;
    m_state.at.clear();
    m_state.resourceVersion.clear();
    m_state.breakpoint.clear();
    m_state.finished = m_replayer->atEnd();
    // The queues start empty again; their samples go on in time after the ones shown.
    if (m_lastSampleAtMs >= 0)
        m_sampleBaseMs = m_lastSampleAtMs + 1000;
    m_lastSampleNs = -1;
    m_lastAdds.clear();
    m_lastRetries.clear();
    m_queueChanged = true;
    resumeControllers();
    Q_EMIT restarted();
}

void ReplaySession::forwardToControllers()
{
    // Each replayed reconcile reaches the observers through its controller's own signals.
    Replayer *r = m_replayer.get();
    connect(r, &Replayer::reconcileStarted, this, [this](const ReconcileTrace &t) {
        m_keys.insert(t.id, t.request.toString());
        if (Controller *c = controllerNamed(t.controller)) {
            Q_EMIT c->reconcileStarted(t.id, t.request.toString());
            Q_EMIT c->reconcileProgress(t);
        }
    });
    connect(r, &Replayer::callHalted, this, [this](const PendingCall &call) {
        m_halted.insert(call.reconcileId);
        if (Controller *c = controllerNamed(call.controller))
            Q_EMIT c->callPending(call);
        checkCallBreakpoint(call);
    });
    connect(r, &Replayer::callReleased, this, [this](const QString &id, int index) {
        m_halted.remove(id);
        for (Controller *c : m_manager->controllers()) // the observer keeps only its reconcile's
            Q_EMIT c->callResumed(id, index);
    });
    connect(r, &Replayer::reconcileProgress, this, [this](const ReconcileTrace &t) {
        if (Controller *c = controllerNamed(t.controller))
            Q_EMIT c->reconcileProgress(t);
    });
    connect(r, &Replayer::reconcileEnded, this,
        [this](const ReconcileTrace &t, const QString &divergence, qint64 reexecutedNs) {
            m_halted.remove(t.id);
            m_keys.remove(t.id);
            if (t.id == m_into)
                m_into.clear();
            if (Controller *c = controllerNamed(t.controller))
                Q_EMIT c->reconcileFinished(t);
            Q_EMIT replayedDuration(t.id, std::chrono::nanoseconds(t.duration).count(), reexecutedNs);
            if (!divergence.isEmpty())
                Q_EMIT this->divergence(t.id, divergence);
            checkErrorBreakpoint(t);
        });
}

const RecordingRecord *ReplaySession::advanceOne()
{
    const RecordingRecord *rec = m_replayer ? m_replayer->advance() : nullptr;
    if (!rec)
        return nullptr;
    if (isType(*rec, "rs")) {
        m_lastMonoNs = number(*rec, "mono");
        m_state.at = QDateTime::fromMSecsSinceEpoch(number(*rec, "wall"), Qt::UTC).toString(Qt::ISODateWithMs);
    } else if (isType(*rec, "ev")) {
        m_state.resourceVersion = text(*rec, "rv");
    }
    if (isType(*rec, "qa") || isType(*rec, "rs") || isType(*rec, "re")) {
        m_queueChanged = true;
        sampleQueues(false);
    }
    return rec;
}

void ReplaySession::advanceUntil(const std::function<bool(const RecordingRecord &)> &stopAfter)
{
    while (const RecordingRecord *rec = advanceOne())
        if (stopAfter(*rec))
            return;
}

void ReplaySession::publish()
{
    if (m_replayer) {
        m_state.position = m_replayer->position();
        m_state.replayed = m_replayer->report().replayed;
        m_state.diverged = m_replayer->report().diverged;
        m_state.finished = m_replayer->atEnd();
        sampleQueues(true);
    }
    m_state.stepping = m_into;
    Q_EMIT replayState(m_state);
}

void ReplaySession::play(double speed)
{
    if (!m_replayer || deferredWhileWaiting([this, speed] { play(speed); }))
        return;
    m_state.speed = std::max(0.0, speed);
    m_state.playing = !m_replayer->atEnd();
    m_state.breakpoint.clear();
    m_into.clear(); // a reconcile halted by step into runs on as recorded
    m_waited = false;
    resumeControllers();
    if (m_state.playing)
        m_timer->start(0);
    publish();
}

void ReplaySession::pause()
{
    m_timer->stop();
    m_state.playing = false;
    publish();
}

void ReplaySession::playRecords()
{
    // Up to the next reconcile start (at max: a batch), stopping where a breakpoint stops.
    const QList<RecordingRecord> &records = m_recording.records();
    const auto next = [&]() -> const RecordingRecord * {
        const int pos = m_replayer ? m_replayer->position() : int(records.size());
        return pos < records.size() ? &records.at(pos) : nullptr;
    };
    for (int i = 0; m_state.playing && next(); ++i) {
        const bool start = isType(*next(), "rs");
        if (start && ((m_state.speed > 0 && i > 0) || breaksBefore(m_replayer->position())))
            return;
        if (m_state.speed <= 0 && i >= kBatch)
            return;
        if (!advanceOne())
            return;
    }
}

void ReplaySession::tick()
{
    if (!m_state.playing || !m_replayer)
        return;
    if (m_replayer->waiting()) { // this turn came from a reconcile's wait: go on after it
        m_timer->start(kRetryMs);
        return;
    }
    const QList<RecordingRecord> &records = m_recording.records();
    const int pos = m_replayer->position();
    if (m_state.speed > 0 && pos < records.size() && isType(records.at(pos), "rs") && !m_waited && m_lastMonoNs >= 0) {
        // Wait the recorded gap since the previous reconcile start (at the speed asked).
        const double gapMs = double(number(records.at(pos), "mono") - m_lastMonoNs) / 1e6 / m_state.speed;
        m_waited = true;
        m_timer->start(int(std::clamp(gapMs, 0.0, double(kMaxGapMs))));
        publish();
        return;
    }
    m_waited = false;
    playRecords();
    if (!m_replayer)
        return; // closed meanwhile
    m_state.playing = m_state.playing && !m_replayer->atEnd();
    if (m_state.playing)
        m_timer->start(0);
    publish();
}

void ReplaySession::step()
{
    if (!m_replayer || deferredWhileWaiting([this] { step(); }))
        return;
    m_timer->stop();
    m_state.playing = false;
    const QString into = m_into;
    if (!into.isEmpty() && m_halted.contains(into)) // one call goes out
        advanceUntil([&](const RecordingRecord &r) { return isType(r, "call") && text(r, "rid") == into; });
    else if (!into.isEmpty()) // the reconcile stepped into ends
        advanceUntil([&](const RecordingRecord &r) { return isType(r, "re") && text(r, "id") == into; });
    else
        advanceUntil([](const RecordingRecord &r) { return isType(r, "re"); });
    publish();
}

void ReplaySession::stepInto()
{
    if (!m_replayer || deferredWhileWaiting([this] { stepInto(); }))
        return;
    if (!m_into.isEmpty()) {
        step();
        return;
    }
    m_timer->stop();
    m_state.playing = false;
    QString started;
    advanceUntil([&](const RecordingRecord &r) {
        if (!isType(r, "rs"))
            return false;
        started = text(r, "id");
        return true;
    });
    // The reconcile started and halted before its first call (when it makes one: m_halted).
    m_into = started;
    publish();
}

void ReplaySession::seekToTime(const QString &when)
{
    if (deferredWhileWaiting([this, when] { seekToTime(when); }))
        return;
    const qint64 ms = parseTime(when);
    if (!m_replayer || ms < 0) {
        Q_EMIT seekFailed(
            tr("Cannot seek to \"%1\": give a time (ISO 8601, UTC) or milliseconds since the epoch.").arg(when));
        return;
    }
    pause();
    restart();
    const QList<RecordingRecord> &records = m_recording.records();
    while (m_replayer && !m_replayer->atEnd()) {
        const RecordingRecord &next = records.at(m_replayer->position());
        if (isType(next, "rs") && number(next, "wall") >= ms)
            break;
        if (!advanceOne())
            break;
    }
    if (m_replayer && m_replayer->atEnd())
        Q_EMIT seekFailed(tr("No reconcile started at or after %1 in the recording.").arg(when));
    publish();
}

void ReplaySession::seekToResourceVersion(const QString &rv)
{
    if (deferredWhileWaiting([this, rv] { seekToResourceVersion(rv); }))
        return;
    bool ok = false;
    const qint64 target = rv.trimmed().toLongLong(&ok);
    if (!m_replayer || !ok) {
        Q_EMIT seekFailed(tr("Cannot seek to \"%1\": a resourceVersion is a number.").arg(rv));
        return;
    }
    pause();
    restart();
    bool reached = false;
    advanceUntil([&](const RecordingRecord &r) {
        reached = isType(r, "ev") && text(r, "rv").toLongLong() >= target;
        return reached;
    });
    const QList<RecordingRecord> &records = m_recording.records();
    while (reached && m_replayer && !m_replayer->atEnd() && !isType(records.at(m_replayer->position()), "rs"))
        if (!advanceOne())
            break;
    if (!reached)
        Q_EMIT seekFailed(tr("No informer event reached resourceVersion %1 in the recording.").arg(rv));
    publish();
}

} // namespace opbench::workbench
