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
// The object may be destroyed at any time, including from a slot connected to its signals.

#include "engine/client/requestoptions.h"
#include "engine/client/restconfig.h"
#include "engine/client/watchdecoder.h"

#include <QObject>
#include <QPointer>

#include <memory>
#include <optional>

class QTimer;

namespace opbench {

namespace detail {
class HttpClient;
class HttpReply;
}

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
    void deliver(const QList<WatchEvent> &events);
    void finish(std::optional<Status> error);
    void dropReply();

    RestConfig m_config;
    QString m_path;
    QueryParams m_query;
    detail::HttpClient *m_http; // child
    QPointer<detail::HttpReply> m_reply;
    QTimer *m_timer;              // child: header / overall deadline
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
