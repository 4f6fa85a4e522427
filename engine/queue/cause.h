// SPDX-License-Identifier: Apache-2.0
#pragma once
// Cause: why a key was put into a work queue. client-go's queue de-duplicates keys and forgets the
// trigger; ours keeps every cause of a key while it waits and hands the merged list out with the
// item, so a reconcile can say why it ran (the "why did it reconcile?" question, CR #1186).

#include "engine/base/clock.h"

#include <QList>
#include <QString>

#include <iterator>
#include <utility>

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
    /// The rate-limited retry of a reconcile that asked for it (Result{requeue: true}), not
    /// one after an error; isRequestedRequeue() recognises it (the GUI's blue "requeue N" chip).
    static Cause requestedRequeue(int attempt);
    [[nodiscard]] bool isRequestedRequeue() const;
    static Cause manual(QString note = {});
    static Cause initialList(QString gvk, QString key, QString rv);

    /// One line for logs and the GUI, e.g. "watch MODIFIED MyApplication.v1.example.com default/web rv 41".
    [[nodiscard]] QString describe() const;
    [[nodiscard]] static QString kindName(Kind k);
    [[nodiscard]] static QString eventName(EventType e);

    friend bool operator==(const Cause &, const Cause &) = default;
};

/// The causes merged for one hand-out of a key: the first `limit` in arrival order, plus how
/// many more were dropped. A value type; the first cause is stored inline (most keys have one),
/// so a queue round-trip with a single cause allocates nothing.
class CauseList
{
public:
    CauseList() = default;
    CauseList(const CauseList &) = default;
    CauseList &operator=(const CauseList &) = default;
    /// Moving leaves `other` empty.
    CauseList(CauseList &&other) noexcept
        : m_first(std::move(other.m_first))
        , m_rest(std::move(other.m_rest))
        , m_size(std::exchange(other.m_size, 0))
        , m_dropped(std::exchange(other.m_dropped, 0))
    { }
    CauseList &operator=(CauseList &&other) noexcept
    {
        m_first = std::move(other.m_first);
        m_rest = std::move(other.m_rest);
        m_size = std::exchange(other.m_size, 0);
        m_dropped = std::exchange(other.m_dropped, 0);
        return *this;
    }
    ~CauseList() = default;

    /// Number of causes kept (<= the queue's limit).
    [[nodiscard]] int size() const { return m_size; }
    [[nodiscard]] bool isEmpty() const { return m_size == 0 && m_dropped == 0; }
    /// Causes that arrived after the list was full.
    [[nodiscard]] int dropped() const { return m_dropped; }
    /// Total number of causes merged (kept + dropped).
    [[nodiscard]] int total() const { return m_size + m_dropped; }
    /// The i-th kept cause, in arrival order (0 <= i < size()).
    [[nodiscard]] const Cause &at(int i) const { return i == 0 ? m_first : m_rest.at(i - 1); }
    [[nodiscard]] const Cause &operator[](int i) const { return at(i); }
    [[nodiscard]] const Cause &first() const { return at(0); }
    [[nodiscard]] const Cause &last() const { return at(m_size - 1); }
    [[nodiscard]] QList<Cause> toList() const;

    /// Appends `c`, or counts it as dropped when `limit` causes are already kept.
    void merge(Cause c, int limit)
    {
        if (m_size >= limit) {
            ++m_dropped;
        } else if (m_size == 0) {
            m_first = std::move(c);
            m_size = 1;
        } else {
            m_rest.append(std::move(c));
            ++m_size;
        }
    }
    /// Appends all of `other` (respecting `limit`); `other`'s dropped count carries over.
    void mergeAll(CauseList &&other, int limit);
    void clear() { *this = CauseList(); }

    class const_iterator
    {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Cause;
        using difference_type = std::ptrdiff_t;
        using pointer = const Cause *;
        using reference = const Cause &;
        const_iterator(const CauseList *l, int i)
            : m_list(l)
            , m_i(i)
        { }
        reference operator*() const { return m_list->at(m_i); }
        pointer operator->() const { return &m_list->at(m_i); }
        const_iterator &operator++()
        {
            ++m_i;
            return *this;
        }
        const_iterator operator++(int)
        {
            const_iterator t = *this;
            ++m_i;
            return t;
        }
        friend bool operator==(const const_iterator &a, const const_iterator &b) { return a.m_i == b.m_i; }

    private:
        const CauseList *m_list;
        int m_i;
    };
    [[nodiscard]] const_iterator begin() const { return {this, 0}; }
    [[nodiscard]] const_iterator end() const { return {this, m_size}; }

    friend bool operator==(const CauseList &a, const CauseList &b)
    {
        if (a.m_size != b.m_size || a.m_dropped != b.m_dropped)
            return false;
        for (int i = 0; i < a.m_size; ++i) {
            if (!(a.at(i) == b.at(i)))
                return false;
        }
        return true;
    }

private:
    Cause m_first;       // valid when m_size >= 1
    QList<Cause> m_rest; // causes 2..m_size
    int m_size = 0;
    int m_dropped = 0;
};

} // namespace opbench
