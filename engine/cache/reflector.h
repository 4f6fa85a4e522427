// SPDX-License-Identifier: Apache-2.0
#pragma once
// Reflector: keeps a DeltaSink (the informer) in step with one collection on the API server,
// as client-go's reflector does:
// - LIST first with resourceVersion=0 and limit=500 (following `continue` when the server pages),
//   then WATCH from the list's resourceVersion with bookmarks and a random 5–10 minute timeout;
// - a normal close re-watches from the last resourceVersion seen, without relisting;
// - a watch ending 410 Gone/Expired (or 504 "Too large resource version") → back off, then relist
//   from the last resourceVersion; a list answered 410 or 504 "Too large resource version" → at
//   once a consistent list with resourceVersion unset (the same for a streaming list);
// - a continue token that expired between pages → one unpaginated list at the original
//   resourceVersion (client-go's pager, FullListIfExpired);
// - 429 and connection failures → back off, then re-watch; other errors → back off, then relist;
//   a watch that ends within 1 s having delivered nothing counts as an error;
// - backoff starts at 800 ms, doubles up to 30 s, with jitter 1.0 (each wait is d..2d), and
//   resets after 2 minutes without failures;
// - with `useWatchList`, the initial state comes from one WATCH with sendInitialEvents=true
//   (client-go's WatchList): ADDED events up to a BOOKMARK annotated
//   k8s.io/initial-events-end=true, applied as one replaceAll, then the same stream goes on. A
//   server that refuses it (400/403/415/422), or that sends no end bookmark within 10 s, makes the
//   reflector fall back to LIST + WATCH for good.
// Destroying the reflector cancels its watch; an in-flight list finishes and is ignored.

#include "engine/api/gvk.h"
#include "engine/api/object.h"
#include "engine/api/status.h"
#include "engine/base/clock.h"
#include "engine/cache/reflectorobserver.h"

#include <QObject>

#include <qcoro/qcorotask.h>

#include <chrono>
#include <memory>
#include <optional>

namespace opbench {

class DeltaSink;
class RestClient;
class WatchStream;
struct WatchEvent;

struct ReflectorOptions
{
    RestClient *client = nullptr; // not owned
    GroupVersionResource resource;
    QString kind;          // item kind, for list items without one
    QString namespaceName; // "" = all namespaces
    QString labelSelector;
    QString fieldSelector;
    Clock *clock = nullptr; // defaults to Clock::system()
    /// Page size of the first list (client-go: 500).
    qint64 pageSize = 500;
    /// Stream the initial list through a watch (sendInitialEvents) when the server supports it.
    bool useWatchList = false;
    /// List and watch PartialObjectMetadata (RestClient::listMetadata / watchMetadata): the sink
    /// gets metadata-only objects carrying the resource's apiVersion and `kind`, as
    /// controller-runtime's metadata informers (its GVK fix-up of list items and watch events).
    bool metadataOnly = false;
    /// Sees every list page, watch start and end and raw watch event (not owned; may be null).
    ReflectorObserver *observer = nullptr;
};

class Reflector : public QObject
{
    Q_OBJECT
public:
    enum class State { Idle, Listing, Watching, BackingOff, Stopped };
    Q_ENUM(State)

    Reflector(ReflectorOptions options, DeltaSink *sink, QObject *parent = nullptr);
    ~Reflector() override;

    void start();
    void stop();
    /// Replaces the observer (null: none); see ReflectorOptions::observer.
    void setObserver(ReflectorObserver *observer) { m_options.observer = observer; }
    [[nodiscard]] const ReflectorOptions &options() const { return m_options; }

    [[nodiscard]] State state() const { return m_state; }
    [[nodiscard]] QString lastSyncResourceVersion() const { return m_lastRv; }
    [[nodiscard]] std::optional<Status> lastError() const { return m_lastError; }
    [[nodiscard]] int listCount() const { return m_lists; }
    [[nodiscard]] int watchCount() const { return m_watches; }
    /// Initial states received through a streaming list (WatchList).
    [[nodiscard]] int watchListCount() const { return m_watchLists; }
    /// Objects taken so far from a streaming list still under way (0 once it ended); lets tests
    /// move a FakeClock only after an event was handled.
    [[nodiscard]] int initialEventCount() const { return int(m_initialEvents.size()); }
    /// True once the server refused streaming lists (the reflector then lists).
    [[nodiscard]] bool watchListUnsupported() const { return m_watchListUnsupported; }
    /// The wait of the current or last backoff.
    [[nodiscard]] std::chrono::milliseconds lastBackoff() const { return m_lastBackoff; }

Q_SIGNALS:
    void stateChanged(opbench::Reflector::State state);
    /// Something failed; the reflector recovers by itself (the Status says what).
    void errorOccurred(const opbench::Status &error);

private:
    enum class Next { Relist, Rewatch };
    void setState(State s);
    void list();
    QCoro::Task<> runList(quint64 epoch);
    void startWatch(bool initialEvents = false);
    void finishInitialEvents(const QString &rv);
    void abandonWatchList();
    void armWatchListDeadline();
    void onEvent(const WatchEvent &event);
    void onMetadataEvent(WatchEvent event);
    /// A metadata-only object with the resource's apiVersion and kind.
    Object typed(const Object &partial) const;
    void onWatchFinished(const std::optional<Status> &error);
    void notifyWatchEnded(WatchEndInfo::Reason reason, const std::optional<Status> &error) const;
    void fail(const Status &error, Next next);
    void backoffThen(Next next);
    void proceed(Next next);

    ReflectorOptions m_options;
    DeltaSink *m_sink;
    Clock *m_clock;
    std::unique_ptr<WatchStream> m_watch;
    State m_state = State::Idle;
    QString m_lastRv;
    bool m_consistentListNeeded = false; // the last list answered 410: list with RV unset
    bool m_paginatedResult = false;      // the RV=0 list came in pages (no watch cache): page relists too
    std::optional<Status> m_lastError;
    std::chrono::milliseconds m_backoff{0};
    std::chrono::milliseconds m_lastBackoff{0};
    Clock::TimePoint m_lastFailure{};
    Clock::TimePoint m_watchStarted{};
    qint64 m_watchEvents = 0;
    quint64 m_timer = 0; // pending Clock callback
    quint64 m_epoch = 0; // bumped by stop(): stale list results are dropped
    int m_lists = 0;
    int m_watches = 0;
    int m_watchLists = 0;
    bool m_watchListUnsupported = false;
    bool m_inInitialEvents = false; // a streaming list is delivering its initial ADDED events
    QList<Object> m_initialEvents;  // collected until the end bookmark
    quint64 m_watchListTimer = 0;   // fallback if the end bookmark never comes
    int m_watchListStalls = 0;      // streaming lists in a row that stalled after progress
};

} // namespace opbench
