// SPDX-License-Identifier: Apache-2.0
#pragma once
// CacheHistory: a bounded ring of the changes an informer applied to its store, so the GUI can
// show an object's versions and the whole cache as it was at an earlier resourceVersion
// ("time travel"). Reconstruction walks back from the current content, undoing newer changes.

#include "engine/api/object.h"

#include <QDateTime>
#include <QHash>

#include <deque>

namespace opbench {

struct CacheChange
{
    enum class Type { Added, Modified, Deleted };
    Type type = Type::Added;
    QString key;
    QString resourceVersion; // the version the change produced (the deletion's RV for Deleted)
    QDateTime time;          // when the informer applied it
    Object oldObject;        // the state before: null for Added, the last known state for Deleted
    Object newObject;        // the state after: null for Deleted
};

class CacheHistory
{
public:
    /// Keeps at most `capacity` changes (oldest dropped first). 0 disables recording.
    explicit CacheHistory(int capacity = 0)
        : m_capacity(capacity)
    { }

    void setCapacity(int capacity);
    int capacity() const { return m_capacity; }
    void record(CacheChange change);
    void clear() { m_changes.clear(); }

    const std::deque<CacheChange> &changes() const { return m_changes; }
    /// Every recorded version of one object, oldest first.
    QList<CacheChange> changesFor(const QString &key) const;
    /// The oldest resourceVersion the history can rebuild (the RV before its first change), or
    /// empty when nothing is recorded.
    QString oldestReachable() const;
    /// The content at resourceVersion `rv` (the state after every change with RV <= rv), given the
    /// current content. Returns nullopt when `rv` is older than the history reaches.
    std::optional<QHash<QString, Object>> contentAt(const QString &rv, QHash<QString, Object> current) const;

private:
    int m_capacity;
    std::deque<CacheChange> m_changes; // in application order; RVs non-decreasing
};

/// Compares resourceVersions numerically (they are decimal integers on every real server);
/// falls back to string order for non-numeric values.
int compareResourceVersions(const QString &a, const QString &b);

} // namespace opbench
