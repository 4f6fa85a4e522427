// SPDX-License-Identifier: Apache-2.0
#pragma once
// CacheFeed: the Cache panel's view of the Manager's own informer cache — the cache the
// reconciler reads — as immutable batches. It observes the informers of the kinds it is given
// (one watch per kind, shared with the controllers), coalesces their changes per object and
// emits batch() every 100 ms when something changed. It also answers the time-travel queries
// (an object's recorded versions, the whole cache at a resourceVersion) from the informers'
// histories (ManagerOptions::cacheHistory).
//
// Lives on the engine thread, owns nothing it observes. The UI connects to its signals and
// posts its slots (queued).

#include "engine/workbench/snapshots.h"

#include "engine/cache/informer.h"

#include "engine/api/gvk.h"

#include <QHash>
#include <QObject>
#include <QPointer>

class QTimer;

namespace opbench {
class InformerCache;
}

namespace opbench::workbench {

class CacheFeed : public QObject
{
    Q_OBJECT
public:
    explicit CacheFeed(QObject *parent = nullptr);
    ~CacheFeed() override;

    /// Observes `cache`'s informers for `kinds` (created through InformerCache::informerFor, so
    /// the kind is watched once whoever asks for it). Display names are the kinds' `kind`.
    /// Errors (a kind the cache cannot map) are reported through failed().
    void observe(InformerCache *cache, const QList<GroupVersionKind> &kinds);
    /// Stops observing (the cache is about to go).
    void stop();
    /// The kinds observed, in display order.
    QStringList kinds() const { return m_kindOrder; }

public Q_SLOTS:
    /// Replies with versionsReady() for the object `key` ("ns/name") of `kind`.
    void requestVersions(const QString &kind, const QString &key);
    /// Replies with cacheAt(): every observed kind's content at resourceVersion `rv`.
    void requestCacheAt(const QString &rv);

Q_SIGNALS:
    void batch(const opbench::workbench::CacheBatch &batch);
    void versionsReady(const opbench::workbench::ObjectVersions &versions);
    void cacheAt(const opbench::workbench::CachePast &past);
    void failed(const QString &message);

private:
    void onChange(const QString &kind, const CacheChange &change);
    void flush();
    /// Counts the LISTs since the previous flush (InformerState::relists).
    void countRelists();
    QList<InformerState> informerStates() const;
    QString oldestReachableRv() const;

    QStringList m_kindOrder;
    QHash<QString, QPointer<Informer>> m_informers; // kind -> informer (owned by the cache)
    QHash<QString, CacheEntry> m_pending;           // kind|key|uid -> latest entry (coalescing)
    QList<QString> m_pendingOrder;
    QHash<QString, qint64> m_events;      // kind -> changes seen
    QHash<QString, QString> m_lastSyncRv; // kind -> the last LIST's resourceVersion seen
    QHash<QString, int> m_relists;        // kind -> LISTs after the first
    bool m_statesDirty = false;
    QTimer *m_flushTimer; // child
};

} // namespace opbench::workbench
