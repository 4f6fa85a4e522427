// SPDX-License-Identifier: Apache-2.0
#pragma once
// WorkQueue: what a controller's workers take keys from. Two implementations share this interface:
//
// - RateLimitingQueue: client-go's workqueue (FIFO + dirty/processing sets, delaying layer with
//   one Clock wake-up over a min-heap, rate-limited retries). makeWorkQueue(Kind::Plain, …).
// - PriorityQueue: controller-runtime's (≥ v0.23 default) priority queue: each key kept once with
//   the higher priority and the earlier ready time, highest priority first. makeWorkQueue(Kind::Priority, …).
//
// Guarantees (both):
// - Deduplicating: a key waiting to be handed out is there once; adding it again only merges its cause.
// - Never concurrent per key: a key handed out by tryGet() is not handed out again before done(key);
//   adds meanwhile are kept for the next round (with their causes).
// - Causes: every add carries a Cause; all causes of a key since its last hand-out come out with it
//   (bounded: the first `maxCausesPerKey`, and a count of the rest).
// - Single-threaded: everything runs on the thread of the queue's event loop (the engine thread).
//   Nothing blocks: consumers call tryGet() and, when it gives nothing, wait for itemsAvailable()
//   (or shutDownStarted()); a consumer must call tryGet() again before it waits, since
//   itemsAvailable() is only emitted when the number of ready items goes from zero to non-zero.
// - Observable: snapshot() lists every key the queue knows; listeners get each change.

#include "engine/base/clock.h"
#include "engine/queue/cause.h"
#include "engine/queue/queuekey.h"
#include "engine/queue/ratelimiter.h"

#include <QObject>

#include <memory>
#include <optional>
#include <vector>

namespace opbench {

class MetricsRegistry;
class WorkQueue;

/// Priority used by handlers for initial-list creates and resyncs (controller-runtime's
/// handler.LowPriority), so that real changes overtake them.
inline constexpr int LowPriority = -100;

/// Options of WorkQueue::addWithOpts (controller-runtime's AddOpts).
struct AddOpts
{
    /// Wait this long before the key is ready; <= 0 means now.
    Clock::Duration after{0};
    /// Also ask the rate limiter; the smaller of `after` (when > 0) and the limiter's delay wins.
    bool rateLimited = false;
    /// Higher goes first (PriorityQueue only; the plain queue ignores it). An existing entry keeps
    /// the higher of its priority and this one.
    int priority = 0;
};

/// A key handed out by tryGet(), with everything known about why and how long it waited.
struct Item
{
    QueueKey key;
    CauseList causes;            ///< every cause since the previous hand-out, in arrival order
    int priority = 0;            ///< PriorityQueue: the entry's priority; plain queue: 0
    int retries = 0;             ///< the limiter's numRequeues(key) as of the last addRateLimited/forget
    Clock::TimePoint queuedAt{}; ///< the first add since the previous hand-out (start of queue duration)
};

/// One key's state, for the GUI. A key can be handed out and queued again at the same time.
struct KeyState
{
    enum class State : quint8 {
        Held,       ///< handed out AND added again: the new round waits for done() (precedence 1)
        Processing, ///< handed out, done() not called yet (precedence 2)
        Queued,     ///< ready, waiting for a worker (precedence 3)
        Waiting,    ///< only a delayed add, until `readyAt` (precedence 4)
        Idle,       ///< known only for its retry count
    };
    QueueKey key;
    State state = State::Idle; ///< the most telling of the flags below (see State)
    bool queued = false;       ///< in the ready FIFO / ready set
    bool processing = false;
    bool requeued = false;      ///< processing and added again: goes back to the queue on done()
    bool waiting = false;       ///< has a pending delayed add
    Clock::TimePoint readyAt{}; ///< when waiting: when it becomes ready
    int priority = 0;
    int retries = 0;
    Clock::TimePoint queuedAt{};  ///< when queued/requeued: the first add of this round
    Clock::TimePoint startedAt{}; ///< when processing: the hand-out time
    CauseList causes;             ///< causes for the next hand-out
    CauseList delayedCauses;      ///< plain queue: causes of the pending delayed add (join `causes` when it fires)

    [[nodiscard]] static QString stateName(State s);
};

/// Receives every change of a key. Called synchronously from the queue operation that made it:
/// keep it cheap (the GUI bridge coalesces). A queue with no listener builds no KeyState at all.
class WorkQueueListener
{
public:
    virtual ~WorkQueueListener() = default;
    /// `state` is the key's state after the change.
    virtual void keyChanged(const KeyState &state) = 0;
    /// The queue forgot `key` entirely (finished and not re-added, no retry history).
    virtual void keyRemoved(const QueueKey &key) = 0;

protected:
    WorkQueueListener() = default;
    WorkQueueListener(const WorkQueueListener &) = default;
    WorkQueueListener &operator=(const WorkQueueListener &) = default;
};

/// How an add was made (WorkQueueAddObserver).
struct QueueAddInfo
{
    Clock::Duration delay{0}; ///< before the key is ready (0: now; rate-limited: the limiter's delay)
    bool rateLimited = false;
    int priority = 0;
};

/// Sees every add a queue accepts (none after shutDown()), with its cause as given: the tap of a
/// run recorder (engine/recording), which the queue does not know. Called synchronously from the
/// add, before the key is merged: keep it cheap.
class WorkQueueAddObserver
{
public:
    virtual ~WorkQueueAddObserver() = default;
    virtual void keyAdded(const WorkQueue &queue, const QueueKey &key, const Cause &cause, const QueueAddInfo &how) = 0;

protected:
    WorkQueueAddObserver() = default;
    WorkQueueAddObserver(const WorkQueueAddObserver &) = default;
    WorkQueueAddObserver &operator=(const WorkQueueAddObserver &) = default;
    WorkQueueAddObserver(WorkQueueAddObserver &&) = default;
    WorkQueueAddObserver &operator=(WorkQueueAddObserver &&) = default;
};

struct WorkQueueOptions
{
    /// Metrics name (the controller name); empty = no metrics, as in client-go.
    QString name;
    /// Time source for delays, durations and the limiter bucket. Defaults to Clock::system().
    Clock *clock = nullptr;
    /// Where metrics go. Defaults to MetricsRegistry::global().
    MetricsRegistry *metrics = nullptr;
    /// Used by addRateLimited. Defaults to defaultControllerRateLimiter(clock) for the plain queue
    /// and defaultPriorityQueueRateLimiter() for the priority queue.
    std::unique_ptr<RateLimiter> rateLimiter;
    /// Causes kept per key and hand-out; later ones are only counted (CauseList::dropped).
    int maxCausesPerKey = 32;
};

class WorkQueue : public QObject
{
    Q_OBJECT
public:
    enum class Kind { Plain, Priority };
    ~WorkQueue() override;

    [[nodiscard]] virtual Kind kind() const = 0;
    [[nodiscard]] const QString &name() const { return m_name; }
    [[nodiscard]] Clock *clock() const { return m_clock; }
    [[nodiscard]] RateLimiter *rateLimiter() const { return m_limiter.get(); }

    /// Queues `key` now. Ignored after shutDown().
    virtual void add(const QueueKey &key, Cause cause = {}) = 0;
    /// Queues `key` after `delay` (<= 0: now). A pending delayed add of the same key keeps the
    /// earlier time.
    virtual void addAfter(const QueueKey &key, Clock::Duration delay, Cause cause = {}) = 0;
    /// addAfter(key, rateLimiter()->when(key)). A RateLimitedRetry cause gets its attempt number
    /// (when 0) and its delay filled in.
    virtual void addRateLimited(const QueueKey &key, Cause cause = {}) = 0;
    /// controller-runtime's AddWithOpts. The plain queue ignores the priority.
    virtual void addWithOpts(const QueueKey &key, const AddOpts &opts, Cause cause = {}) = 0;

    /// The next ready key, or nullopt when there is none (or the queue is shut down and has
    /// nothing left to hand out: see isShutDown()). The caller must call done(key) later.
    [[nodiscard]] virtual std::optional<Item> tryGet() = 0;
    /// Hands out `key` if it is ready (ahead of its turn: the GUI's "step this one").
    [[nodiscard]] virtual std::optional<Item> tryGetKey(const QueueKey &key) = 0;
    /// The key tryGet() would hand out now, without handing it out.
    [[nodiscard]] virtual std::optional<QueueKey> peek() const = 0;
    /// Marks the hand-out of `key` finished. A key re-added meanwhile becomes ready again.
    virtual void done(const QueueKey &key) = 0;

    /// Clears the limiter's history of `key` (call it when a reconcile succeeded).
    virtual void forget(const QueueKey &key) = 0;
    /// The limiter's failure count for `key`.
    [[nodiscard]] int numRequeues(const QueueKey &key) const { return m_limiter->numRequeues(key); }

    /// Ready items not handed out (plain queue: the FIFO length; priority queue: ready items,
    /// including ones held back behind an unfinished hand-out).
    [[nodiscard]] virtual int len() const = 0;
    /// Keys handed out and not done yet.
    [[nodiscard]] virtual int processingCount() const = 0;
    /// Keys with a pending delayed add.
    [[nodiscard]] virtual int waitingCount() const = 0;

    /// Stops accepting adds and discards delayed adds. Plain queue: tryGet() still hands out what
    /// is queued, then reports nothing. Priority queue: tryGet() gives nothing from now on.
    virtual void shutDown() = 0;
    /// shutDown(), then drained() once nothing is being processed (at once if nothing is).
    /// A later shutDown() ends the wait (drained() is emitted then). Priority queue: same as
    /// shutDown() followed by drained() (controller-runtime does not drain).
    virtual void shutDownWithDrain() = 0;
    [[nodiscard]] bool isShutDown() const { return m_shutDown; }

    /// Every key the queue knows, sorted by key.
    [[nodiscard]] virtual std::vector<KeyState> snapshot() const = 0;
    /// One key's state (Idle with no causes when unknown).
    [[nodiscard]] virtual KeyState state(const QueueKey &key) const = 0;

    /// Listeners are not owned; remove them before they die.
    void addListener(WorkQueueListener *listener);
    void removeListener(WorkQueueListener *listener);
    /// The one add observer (not owned; null: none).
    void setAddObserver(WorkQueueAddObserver *observer) { m_addObserver = observer; }
    [[nodiscard]] WorkQueueAddObserver *addObserver() const { return m_addObserver; }

Q_SIGNALS:
    /// The number of ready items went from zero to non-zero.
    void itemsAvailable();
    /// shutDown() or shutDownWithDrain() was called: waiting consumers should look again.
    void shutDownStarted();
    /// After shutDownWithDrain(): nothing is being processed any more.
    void drained();

protected:
    WorkQueue(WorkQueueOptions &options, std::unique_ptr<RateLimiter> defaultLimiter, QObject *parent);

    [[nodiscard]] bool hasListeners() const { return !m_listeners.empty(); }
    void notifyChanged(const KeyState &state) const;
    void notifyRemoved(const QueueKey &key) const;
    void notifyAdded(const QueueKey &key, const Cause &cause, const QueueAddInfo &how) const
    {
        if (m_addObserver)
            m_addObserver->keyAdded(*this, key, cause, how);
    }

    QString m_name;
    Clock *m_clock;
    MetricsRegistry *m_registry;
    std::unique_ptr<RateLimiter> m_limiter;
    int m_maxCauses;
    bool m_shutDown = false;

private:
    std::vector<WorkQueueListener *> m_listeners;
    WorkQueueAddObserver *m_addObserver = nullptr;
};

/// Creates a plain (client-go) or priority (controller-runtime) queue.
[[nodiscard]] std::unique_ptr<WorkQueue> makeWorkQueue(
    WorkQueue::Kind kind, WorkQueueOptions options = {}, QObject *parent = nullptr);

} // namespace opbench
