// SPDX-License-Identifier: Apache-2.0
#pragma once
// QueueObserver: the Queue panel's view of a controller's work queue. Samples the queue every
// 500 ms (depth, processing, waiting, every key with its state and causes) and counts adds and
// retries between samples from the queue's listener callbacks.
//
// A replay's queue is the recording's (ReplaySession rebuilds it from the recorded queue adds and
// reconcile starts; the replay manager's own queue never runs): replayed() takes those samples
// instead, for the queue observed and for any controller shown later; from the first one until
// observe(nullptr) the live sampling is off.
//
// Lives on the engine thread; the queue is not owned (observe(nullptr) before it goes).

#include "engine/workbench/snapshots.h"

#include "engine/queue/workqueue.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>

class QTimer;

namespace opbench::workbench {

class QueueObserver : public QObject, private WorkQueueListener
{
    Q_OBJECT
public:
    explicit QueueObserver(QObject *parent = nullptr);
    ~QueueObserver() override;

    /// Observes `queue` (not owned); null stops (and ends a replay's samples). available() says which.
    void observe(WorkQueue *queue);

public Q_SLOTS:
    /// A replayed sample of `controller`'s queue (published when it is the one observed).
    void replayed(const QString &controller, const opbench::workbench::QueueSample &sample);

Q_SIGNALS:
    void available(bool available);
    void sample(const opbench::workbench::QueueSample &sample);

private:
    void keyChanged(const KeyState &state) override;
    void keyRemoved(const QueueKey &key) override;
    void takeSample();
    void countOrigins(const KeyState &state, int fresh);

    QPointer<WorkQueue> m_queue;
    QTimer *m_timer;                    // child
    QHash<QString, int> m_causeTotals;  // key -> causes seen this round (rate counting)
    QHash<QString, qint64> m_backoffMs; // key -> the last backoff of a failed try (QueueRow::backoffMs)
    int m_adds = 0;
    int m_retries = 0;
    qint64 m_causesFor = 0; // cumulative, by origin (QueueSample::causesFor …)
    qint64 m_causesOwns = 0;
    qint64 m_causesRequeue = 0;
    QElapsedTimer m_rateClock;
    QElapsedTimer m_sessionClock;
    bool m_replay = false;                    // samples come from replayed()
    QHash<QString, QueueSample> m_replayLast; // controller -> its last replayed sample
};

/// One key of a queue as the Queue panel lists it (`backoffMs`: its last backoff, -1: none).
QueueRow queueRowOf(const KeyState &key, Clock::TimePoint now, qint64 backoffMs);

} // namespace opbench::workbench
