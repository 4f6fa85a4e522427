// SPDX-License-Identifier: Apache-2.0
#pragma once
// WatchHub: every open watch stream of the API server.
//
// A watch is a chunked HTTP 200 response, headers flushed first, one compact JSON event per
// line: {"type":"ADDED|MODIFIED|DELETED|BOOKMARK|ERROR","object":{...}}. From RV unset or "0"
// the current matching objects come first as ADDED; from N only later events (replayed from the
// store's history; older than the window → one ERROR 410 Expired event, then the stream ends).
// Objects moving into / out of the selector arrive as ADDED / DELETED. BOOKMARKs only when the
// client asked (allowWatchBookmarks), then also one 2 s before timeoutSeconds, which ends the
// stream cleanly. Every socket is
// held through a QPointer: a client that leaves is simply forgotten. A client that does not keep
// up — more than the send-buffer limit of its events still unsent — is cut off (the connection
// is aborted, its buffer freed), as kube-apiserver forces unresponsive watchers closed; it
// rewatches like after any dropped watch. A custom resource with a conversion webhook has every
// event not at the watched version converted for each watcher, one ConversionReview per event in
// order (the events behind wait); a failed conversion ends the stream with an ERROR event (500
// InternalError), as kube-apiserver's watch does when it cannot decode an object.

#include "engine/apiserver/http/exchange.h"
#include "engine/apiserver/storage/selectors.h"
#include "engine/apiserver/storage/store.h"
#include "engine/apiserver/transform/tables.h"
#include "engine/apiserver/validation/conversion.h"

#include <QObject>
#include <QTimer>

#include <chrono>
#include <map>
#include <memory>
#include <optional>

namespace opbench::apiserver {

struct WatchRequest
{
    ResourceType type;
    QString namespaceName;   // empty: all namespaces
    ObjectFilter filter;     // label/field selectors
    QString resourceVersion; // "", "0" or "N"
    bool allowBookmarks = false;
    int timeoutSeconds = 0;                          // 0: until the client leaves (or the server stops)
    bool table = false;                              // events carry one-row Tables
    bool metadataOnly = false;                       // events carry PartialObjectMetadata (partialmetadata.h)
    TableObject tableObject = TableObject::Metadata; // what each row's object carries
    /// Streaming list: true → ADDED for current objects then (with bookmarks) an initial-events-end
    /// BOOKMARK, whatever the RV; false → none; unset → initial ADDED only from RV ""/"0".
    std::optional<bool> sendInitialEvents;
};

class WatchHub : public QObject
{
    Q_OBJECT
public:
    explicit WatchHub(Store *store, QObject *parent = nullptr);
    ~WatchHub() override;

    /// Starts a stream on `responder` (which must not have been used yet).
    void start(Responder responder, const WatchRequest &request);
    /// Conversion through a CRD's conversion webhook (conversion.h); none: apiVersion only.
    void setConverter(AsyncConverter convert) { m_convert = std::move(convert); }
    /// Number of open streams.
    int count() const { return int(m_watchers.size()); }
    /// Ends every stream (terminating chunk) and closes its connection: a dropped watch.
    void dropAll();
    /// Ends every stream cleanly (server shutdown).
    void closeAll();
    /// Interval of periodic BOOKMARKs for streams that asked (default 60 s).
    void setBookmarkInterval(int ms);
    /// How long a streaming-list watch (sendInitialEvents=true) from a resourceVersion newer than
    /// the store's waits for it before its ERROR 504 event (default 3 s; see freshness.h). A plain
    /// watch from a future RV opens at once and delivers only events after it.
    void setFreshnessWait(std::chrono::milliseconds wait) { m_freshnessWait = wait; }
    /// Unsent bytes a stream may have buffered before it is closed (default 32 MiB).
    void setSendBufferLimit(qint64 bytes) { m_sendBufferLimit = bytes; }
    /// Streams closed so far because their client did not keep up.
    int slowWatchersClosed() const { return m_slowClosed; }

Q_SIGNALS:
    void countChanged(int count);

private:
    struct Watcher;
    void onCommitted(const StoreEvent &event);
    void deliver(Watcher &w, const StoreEvent &event, QHash<QString, QByteArray> &cache);
    bool send(Watcher &w, const QString &type, const Object &object, quint64 rv, QHash<QString, QByteArray> *cache);
    void sendBookmark(Watcher &w, bool initialEventsEnd);
    void finish(quint64 id, bool closeConnection);
    /// Closes a stream whose client does not read: aborts the connection, dropping what is buffered.
    void closeSlow(quint64 id);
    QByteArray encodeObject(const Watcher &w, const Object &object);
    /// Writes the queued events of a converting watcher, converting them one at a time.
    void pump(Watcher &w);
    void converted(quint64 id, const Expected<QList<QJsonObject>> &result);

    Store *m_store;
    std::map<quint64, std::unique_ptr<Watcher>> m_watchers;
    quint64 m_nextId = 1;
    QTimer m_bookmarks;
    std::chrono::milliseconds m_freshnessWait{3000};
    qint64 m_sendBufferLimit = 32 * 1024 * 1024;
    int m_slowClosed = 0;
    AsyncConverter m_convert;
};

} // namespace opbench::apiserver
