// SPDX-License-Identifier: Apache-2.0
#include "engine/workbench/queueobserver.h"

#include <QTimer>

namespace opbench::workbench {

namespace {

constexpr int SampleIntervalMs = 500;

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

QueueObserver::QueueObserver(QObject *parent)
    : QObject(parent)
    , m_timer(new QTimer(this))
{
    connect(m_timer, &QTimer::timeout, this, &QueueObserver::takeSample);
    m_sessionClock.start();
    m_rateClock.start();
}

QueueObserver::~QueueObserver()
{
    if (m_queue)
        m_queue->removeListener(this);
}

void QueueObserver::observe(WorkQueue *queue)
{
    if (m_queue)
        m_queue->removeListener(this);
    m_queue = queue;
    if (!queue) {
        m_replay = false;
        m_replayLast.clear();
    }
    m_causeTotals.clear();
    m_backoffMs.clear();
    m_adds = m_retries = 0;
    m_causesFor = m_causesOwns = m_causesRequeue = 0;
    if (!queue) {
        m_timer->stop();
        Q_EMIT available(false);
        return;
    }
    queue->addListener(this);
    m_rateClock.restart();
    if (!m_replay)
        m_timer->start(SampleIntervalMs);
    Q_EMIT available(true);
    if (m_replay && m_replayLast.contains(queue->name()))
        Q_EMIT sample(m_replayLast.value(queue->name()));
}

void QueueObserver::replayed(const QString &controller, const QueueSample &s)
{
    if (!m_replay) {
        m_replay = true;
        m_timer->stop();
    }
    m_replayLast.insert(controller, s);
    if (m_queue && m_queue->name() == controller)
        Q_EMIT sample(s);
}

void QueueObserver::keyChanged(const KeyState &state)
{
    const QString key = state.key.toString();
    const int total = state.causes.total() + state.delayedCauses.total();
    const int before = m_causeTotals.value(key);
    const int fresh = total >= before ? total - before : total;
    if (fresh > 0) {
        m_adds += fresh;
        countOrigins(state, fresh);
        const Cause *last = state.causes.size() > 0 ? &state.causes.last() : nullptr;
        if (state.delayedCauses.size() > 0)
            last = &state.delayedCauses.last();
        if (last && last->kind == Cause::Kind::RateLimitedRetry)
            ++m_retries;
    }
    m_causeTotals.insert(key, total);
    if (state.waiting && state.retries > 0 && m_queue) // a failed try waits out its backoff
        m_backoffMs.insert(key,
            qMax<qint64>(0,
                std::chrono::duration_cast<std::chrono::milliseconds>(state.readyAt - m_queue->clock()->now())
                    .count()));
}

void QueueObserver::countOrigins(const KeyState &state, int fresh)
{
    // The newest `fresh` causes of the key (kept ones; dropped ones count as the newest kept).
    QList<const Cause *> all;
    for (const Cause &c : state.causes)
        all.append(&c);
    for (const Cause &c : state.delayedCauses)
        all.append(&c);
    for (int i = 0; i < fresh && !all.isEmpty(); ++i) {
        const Cause *c = all.at(std::max<qsizetype>(0, all.size() - 1 - i));
        switch (c->kind) {
        case Cause::Kind::WatchEvent:
        case Cause::Kind::InitialList:
            ++m_causesFor;
            break;
        case Cause::Kind::OwnerMapping:
            ++m_causesOwns;
            break;
        default:
            ++m_causesRequeue;
            break;
        }
    }
}

void QueueObserver::keyRemoved(const QueueKey &key)
{
    m_causeTotals.remove(key.toString());
    m_backoffMs.remove(key.toString());
}

void QueueObserver::takeSample()
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
    s.causesFor = m_causesFor;
    s.causesOwns = m_causesOwns;
    s.causesRequeue = m_causesRequeue;
    m_adds = m_retries = 0;
    const auto now = m_queue->clock()->now();
    for (const KeyState &k : m_queue->snapshot())
        s.rows.append(queueRowOf(k, now, m_backoffMs.value(k.key.toString(), -1)));
    Q_EMIT sample(s);
}

QueueRow queueRowOf(const KeyState &k, Clock::TimePoint now, qint64 backoffMs)
{
    QueueRow row;
    row.key = k.key.toString();
    row.state = queueStateName(k.state);
    row.priority = k.priority;
    row.retries = k.retries;
    row.backoffMs = k.retries > 0 ? backoffMs : -1;
    if (k.waiting)
        row.readyInMs = std::chrono::duration_cast<std::chrono::milliseconds>(k.readyAt - now).count();
    for (const Cause &c : k.causes)
        row.causes.append(c.describe());
    for (const Cause &c : k.delayedCauses)
        row.causes.append(c.describe());
    return row;
}

} // namespace opbench::workbench
