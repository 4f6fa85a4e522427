// SPDX-License-Identifier: Apache-2.0
#pragma once
// Cause: why a key was put into a work queue. client-go's queue de-duplicates keys and forgets the
// trigger; ours keeps every cause of a key while it waits and hands the merged list out with the
// item, so a reconcile can say why it ran (the "why did it reconcile?" question, CR #1186).

#include "engine/api/clock.h"

#include <QList>
#include <QString>

namespace opbench {

struct Cause
{
    enum class Kind : quint8 {
        Unspecified,      ///< the caller said nothing
        WatchEvent,       ///< an informer event on the object itself (For)
        OwnerMapping,     ///< an event on a child, mapped to its owner (Owns / map functions)
        RequeueAfter,     ///< the reconciler asked to run again after `delay`
        RateLimitedRetry, ///< the reconcile failed; retried with backoff (attempt, error)
        Manual,           ///< a person asked (GUI "reconcile now")
        InitialList,      ///< the object was in the informer's initial list
    };
    enum class EventType : quint8 { None, Added, Modified, Deleted, Sync };

    /// Marks a cause whose time the queue fills in when it is added.
    static constexpr Clock::TimePoint Unstamped = Clock::TimePoint::min();

    Kind kind = Kind::Unspecified;
    EventType event = EventType::None; ///< WatchEvent, OwnerMapping, InitialList
    int attempt = 0;                   ///< RateLimitedRetry: 1 for the first retry
    Clock::Duration delay{0};          ///< RequeueAfter: the requested delay; RateLimitedRetry: the backoff
    QString sourceGvk;                 ///< GVK string of the object whose event this is (the child for OwnerMapping)
    QString sourceKey;                 ///< "ns/name" of that object
    QString resourceVersion;           ///< its resourceVersion in the event
    QString text;                      ///< RateLimitedRetry: the error text; Manual: an optional note
    Clock::TimePoint at = Unstamped;   ///< when it happened (Clock time); stamped by the queue if unset

    static Cause watchEvent(EventType type, QString gvk, QString key, QString rv);
    static Cause ownerMapping(EventType type, QString childGvk, QString childKey, QString rv);
    static Cause requeueAfter(Clock::Duration d);
    static Cause rateLimitedRetry(int attempt, QString error);
    static Cause manual(QString note = {});
    static Cause initialList(QString gvk, QString key, QString rv);

    /// One line for logs and the GUI, e.g. "watch MODIFIED MyApplication.v1.example.com default/web rv 41".
    [[nodiscard]] QString describe() const;
    [[nodiscard]] static QString kindName(Kind k);
    [[nodiscard]] static QString eventName(EventType e);

    friend bool operator==(const Cause &, const Cause &) = default;
};

/// The causes merged for one hand-out of a key: the first `limit` in arrival order, plus how
/// many more were dropped. A value type (implicitly shared list): copying is cheap.
struct CauseList
{
    QList<Cause> causes; ///< arrival order; size() <= the queue's limit
    int dropped = 0;     ///< causes that arrived after the list was full

    /// Total number of causes merged (kept + dropped).
    [[nodiscard]] int total() const { return int(causes.size()) + dropped; }
    [[nodiscard]] bool isEmpty() const { return causes.isEmpty() && dropped == 0; }
    /// Appends `c`, or counts it as dropped when `limit` causes are already kept.
    void merge(Cause c, int limit)
    {
        if (causes.size() < limit)
            causes.append(std::move(c));
        else
            ++dropped;
    }
    /// Appends all of `other` (respecting `limit`); `other`'s dropped count carries over.
    void mergeAll(CauseList &&other, int limit);
    void clear()
    {
        causes.clear();
        dropped = 0;
    }
};

} // namespace opbench
