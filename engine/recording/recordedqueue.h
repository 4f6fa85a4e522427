// SPDX-License-Identifier: Apache-2.0
#pragma once
// RecordedQueue: the controllers' work queues rebuilt from a recording's queue records
// (docs/recording.md), as WorkQueue kept them live: each `qa` add queues its key with its cause
// (a delayed or rate-limited add waits until the recorded clock passes its ready time; a key
// added while it is being reconciled is held for the next round), a reconcile start (`rs`) hands
// the key out with every cause added since its previous hand-out, and its end (`re`) finishes it.
// Each queue follows its kind's rules (setKind(); controllers default to the priority queue): the
// priority queue keeps one entry per key, so a delayed add's cause goes out with the next
// hand-out whatever made the key ready; the plain queue keeps a delayed add apart until it fires.
// The Replayer keeps one: a replayed reconcile then says why it ran, and the workbench shows each
// queue's depth and items as they were at every record. Clock times are the recorded monotonic
// readings (`mono`); records without one (older files) take the last reading seen.

#include "engine/queue/workqueue.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace opbench {

/// Counts since the queue was built (a viewer's rates and origins).
struct RecordedQueueCounts
{
    qint64 adds = 0;
    qint64 retries = 0;       ///< adds whose cause is a rate-limited retry
    qint64 causesFor = 0;     ///< watch events and initial lists of the object itself
    qint64 causesOwns = 0;    ///< a child's event mapped to its owner
    qint64 causesRequeue = 0; ///< requeues, retries and the rest
};

class RecordedQueue
{
public:
    /// `maxCausesPerKey`: causes kept per hand-out, as the queue's option (later ones are counted).
    explicit RecordedQueue(int maxCausesPerKey = 32);

    /// A `qa` record: the add of its key to its controller's queue.
    void add(const QJsonObject &qa);
    /// An `rs` record: its key handed out, with every cause since its previous hand-out.
    Item take(const QJsonObject &rs);
    /// An `re` record: its key finished (queued again when it was added meanwhile).
    void finish(const QJsonObject &re);
    /// The kind of `controller`'s queue (WorkQueue::Kind::Priority unless said).
    void setKind(const QString &controller, WorkQueue::Kind kind) { m_kinds.insert(controller, kind); }

    /// The recorded clock: the last monotonic reading seen.
    [[nodiscard]] Clock::TimePoint now() const { return m_now; }
    /// True once a record carried a reading.
    [[nodiscard]] bool hasClock() const { return m_hasClock; }
    /// Controllers that have had a key, in the order first seen.
    [[nodiscard]] const QStringList &controllers() const { return m_order; }
    /// The keys `controller`'s queue knows now (queued, waiting, being reconciled), in order of
    /// arrival; each with its state, causes and, when waiting, its ready time.
    [[nodiscard]] QList<KeyState> snapshot(const QString &controller) const;
    /// Ready keys not handed out (WorkQueue::len()), keys handed out, keys waiting.
    [[nodiscard]] int len(const QString &controller) const;
    [[nodiscard]] int processingCount(const QString &controller) const;
    [[nodiscard]] int waitingCount(const QString &controller) const;
    /// The backoff (ms) of `key`'s last rate-limited add; -1 when none.
    [[nodiscard]] qint64 backoffMs(const QString &controller, const QString &key) const;
    [[nodiscard]] const RecordedQueueCounts &counts(const QString &controller) const;

private:
    struct Entry
    {
        KeyState state;
        qint64 backoffMs = -1;
        qint64 order = 0; ///< arrival (snapshot order)
    };
    struct Queue
    {
        QHash<QString, Entry> keys; ///< by key ("ns/name")
        RecordedQueueCounts counts;
    };
    Entry &entry(const QJsonObject &rec);
    void clockFrom(const QJsonObject &rec);
    void fireDue(Queue &q);
    void queueNow(KeyState &k);
    [[nodiscard]] bool isPriority(const QString &controller) const
    {
        return m_kinds.value(controller, WorkQueue::Kind::Priority) == WorkQueue::Kind::Priority;
    }
    void dropIfIdle(Queue &q, const QString &key);

    int m_limit;
    qint64 m_arrivals = 0;
    Clock::TimePoint m_now{};
    bool m_hasClock = false;
    QHash<QString, Queue> m_queues;
    QHash<QString, WorkQueue::Kind> m_kinds;
    QStringList m_order;
};

} // namespace opbench
