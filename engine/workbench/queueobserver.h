// SPDX-License-Identifier: Apache-2.0
#pragma once
// QueueObserver: the Queue panel's view of a controller's work queue. Samples the queue every
// 500 ms (depth, processing, waiting, every key with its state and causes) and counts adds and
// retries between samples from the queue's listener callbacks.
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

    /// Observes `queue` (not owned); null stops. available() says which.
    void observe(WorkQueue *queue);

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
};

} // namespace opbench::workbench
