// SPDX-License-Identifier: Apache-2.0
#pragma once
// WatchStream: one long-lived watch request, decoded into events delivered in order.
//
// Each stream has a connection of its own (watches do not take the connections of ordinary
// requests), read on the stream's thread. Signal-based:
//   eventReceived(event)  for every decoded event, in order (ERROR events included);
//   decodeError(message)  for a malformed line (skipped; the stream goes on);
//   finished(error)       once, when the stream ends: nullopt for a clean end of stream, the
//                         Status of an HTTP error, a transport failure, or the last ERROR event.
// Headers must arrive within RestConfig::timeout; with timeoutSeconds set, the whole stream is
// bounded by timeoutSeconds + RestConfig::timeout. cancel() stops it silently (no finished()).
// Half-open connections: a watch that asked for bookmarks (allowWatchBookmarks=true) hears from
// a live server at least about once a minute (kube-apiserver and opbench-apiserver send a
// bookmark every 60 s), so when nothing at all arrives for idleTimeout() (default 150 s, on
// RestConfig::clock) the connection is presumed dead (a crashed node, a NAT that dropped the
// flow) and the stream finishes with reason Timeout; the reflector then watches again from its
// last resourceVersion. (client-go relies on TCP keepalive or HTTP/2 pings for this;
// opbench's HTTP/1.1 connections have neither.) A watch without bookmarks may be silent for
// good and has no idle bound.
// The object may be destroyed at any time, including from a slot connected to its signals.

#include "engine/base/clock.h"
#include "engine/client/requestoptions.h"
#include "engine/client/restconfig.h"
#include "engine/client/watchdecoder.h"

#include <QObject>
#include <QPointer>

#include <chrono>
#include <memory>
#include <optional>

class QTimer;

namespace opbench {

namespace detail {
class HttpClient;
class HttpReply;
} // namespace detail

struct Credentials;

class WatchStream : public QObject
{
    Q_OBJECT
public:
    /// `path` is the collection path; `query` must include watch=true (RestClient::watch does).
    WatchStream(RestConfig config, QString path, QueryParams query, QObject *parent = nullptr);
    ~WatchStream() override;

    void start();
    /// Aborts the request; no signal is emitted afterwards.
    void cancel();
    bool isRunning() const { return m_running; }
    /// Events delivered so far.
    qint64 eventCount() const { return m_events; }
    /// How long a watch with bookmarks may receive nothing before it is presumed dead (see
    /// above); 0 disables. Set before start().
    void setIdleTimeout(std::chrono::milliseconds timeout) { m_idleTimeout = timeout; }
    /// Asks for PartialObjectMetadata events (RestClient::watchMetadata; see
    /// partialobjectmetadata.h): every event's object is reduced to its metadata, and a 406 reply
    /// says that the metadata-only watch was refused. Set before start().
    void setMetadataOnly(bool on) { m_metadataOnly = on; }
    bool isMetadataOnly() const { return m_metadataOnly; }
    std::chrono::milliseconds idleTimeout() const { return m_idleTimeout; }

Q_SIGNALS:
    void eventReceived(const opbench::WatchEvent &event);
    void decodeError(const QString &message);
    void finished(const std::optional<opbench::Status> &error);

private:
    void open(const Credentials &creds);
    void onHeaders();
    void onReadyRead();
    void onFinished();
    void onTimeout();
    void armIdleCheck(Clock::TimePoint at);
    void deliver(const QList<WatchEvent> &events);
    void finish(std::optional<Status> error);
    void dropReply();

    RestConfig m_config;
    QString m_path;
    QueryParams m_query;
    detail::HttpClient *m_http; // child
    QPointer<detail::HttpReply> m_reply;
    QTimer *m_timer; // child: header / overall deadline
    Clock *m_clock;
    std::chrono::milliseconds m_idleTimeout{150000};
    bool m_expectsBookmarks = false;
    bool m_metadataOnly = false;
    quint64 m_idleCheck = 0;       // the pending idle check on m_clock (0: none)
    Clock::TimePoint m_lastData{}; // when the server was last heard from
    WatchDecoder m_decoder;
    std::optional<Status> m_lastError;
    int m_httpCode = 0;
    QByteArray m_errorBody;
    bool m_running = false;
    bool m_headersSeen = false;
    qint64 m_events = 0;
    quint64 m_generation = 0; // bumped by start() and cancel(): stale credential callbacks are ignored
};

} // namespace opbench
