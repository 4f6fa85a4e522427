// SPDX-License-Identifier: Apache-2.0
#include "engine/client/watchstream.h"

#include "engine/client/auth.h"
#include "engine/client/httpclient.h"
#include "engine/client/partialobjectmetadata.h"
#include "engine/client/transport.h"

#include <QTimer>

#include <qcoro/qcorotask.h>

namespace opbench {

WatchStream::WatchStream(RestConfig config, QString path, QueryParams query, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_path(std::move(path))
    , m_query(std::move(query))
    , m_http(detail::makeHttpClient(m_config, this))
    , m_timer(new QTimer(this))
    , m_clock(m_config.clock ? m_config.clock : Clock::system())
{
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, &WatchStream::onTimeout);
    for (const auto &[k, v] : m_query)
        if (k == QLatin1String("allowWatchBookmarks"))
            m_expectsBookmarks = v == QLatin1String("true") || v == QLatin1String("1");
}

WatchStream::~WatchStream()
{
    if (m_idleCheck)
        m_clock->cancel(m_idleCheck);
    dropReply();
}

void WatchStream::armIdleCheck(Clock::TimePoint at)
{
    if (m_idleCheck)
        m_clock->cancel(m_idleCheck);
    // One wake-up per idle period (not one per chunk): it re-arms itself while data keeps coming.
    m_idleCheck = m_clock->callAt(at, this, [this] {
        m_idleCheck = 0;
        if (!m_running)
            return;
        const Clock::TimePoint deadline = m_lastData + m_idleTimeout;
        if (m_clock->now() < deadline) {
            armIdleCheck(deadline);
            return;
        }
        finish(Status::transport(StatusReason::Timeout,
            QStringLiteral(
                "GET %1: nothing received for %2 s on a watch with bookmarks: the connection is presumed dead")
                .arg(m_path)
                .arg(double(m_idleTimeout.count()) / 1000.0)));
    });
}

void WatchStream::start()
{
    if (m_running)
        return;
    m_running = true;
    m_headersSeen = false;
    m_httpCode = 0;
    m_errorBody.clear();
    m_lastError.reset();
    m_decoder = WatchDecoder(); // nothing left over from an earlier run
    const quint64 generation = ++m_generation;
    m_timer->start(m_config.timeout);
    if (!m_config.auth) {
        open(Credentials());
        return;
    }
    // The callback keeps the provider alive; it runs only while this stream exists.
    std::shared_ptr<AuthProvider> keep = m_config.auth;
    QCoro::connect(keep->credentials(), this, [this, keep, generation](const Expected<Credentials> &c) {
        if (!m_running || generation != m_generation)
            return; // cancelled (and maybe restarted) meanwhile
        if (!c)
            finish(c.error());
        else
            open(*c);
    });
}

void WatchStream::open(const Credentials &creds)
{
    m_reply = m_http->send("GET", detail::requestUrl(m_config, m_path, encodeQuery(m_query)),
        detail::requestHeaders(
            m_config, creds, {}, m_metadataOnly ? QByteArray(PartialObjectMetadataAccept) : QByteArray()),
        {}, detail::sslConfiguration(m_config, creds));
    // Read on this thread as the loop gets to it: a busy loop leaves the bytes in the socket
    // (TCP flow control) instead of buffering the stream whole.
    m_reply->setStreaming(true);
    connect(m_reply, &detail::HttpReply::headersReceived, this, &WatchStream::onHeaders);
    connect(m_reply, &detail::HttpReply::readyRead, this, &WatchStream::onReadyRead);
    connect(m_reply, &detail::HttpReply::finished, this, &WatchStream::onFinished);
}

void WatchStream::onHeaders()
{
    if (m_headersSeen || !m_reply || !m_reply->headersComplete())
        return;
    m_headersSeen = true;
    m_httpCode = m_reply->statusCode();
    if (m_httpCode == 0)
        return; // a transport failure; onFinished reports it
    detail::countRequest(m_httpCode, "GET", m_config.server);
    int timeoutSeconds = 0;
    for (const auto &[k, v] : m_query)
        if (k == QLatin1String("timeoutSeconds"))
            timeoutSeconds = v.toInt();
    // Headers are in: an idle watch is healthy. Only a requested timeout bounds it now, and,
    // when bookmarks were asked for, a silence longer than the idle timeout.
    if (timeoutSeconds > 0)
        m_timer->start(std::chrono::seconds(timeoutSeconds) + m_config.timeout);
    else
        m_timer->stop();
    if (m_expectsBookmarks && m_idleTimeout.count() > 0) {
        m_lastData = m_clock->now();
        armIdleCheck(m_lastData + m_idleTimeout);
    }
}

void WatchStream::onReadyRead()
{
    if (!m_reply)
        return;
    onHeaders();
    if (!m_running)
        return;
    const QByteArray data = m_reply->readAll();
    if (data.isEmpty())
        return;
    m_lastData = m_clock->now(); // heard from the server (the idle check reads it)
    if (m_httpCode != 200)
        m_errorBody += data;
    else
        deliver(m_decoder.feed(data));
}

void WatchStream::deliver(const QList<WatchEvent> &events)
{
    QPointer<WatchStream> self(this);
    for (const QString &e : m_decoder.takeErrors()) {
        Q_EMIT decodeError(e);
        if (!self || !m_running)
            return;
    }
    for (WatchEvent ev : events) {
        ++m_events;
        if (m_metadataOnly && ev.type != WatchEvent::Type::Bookmark && ev.type != WatchEvent::Type::Error)
            ev.object = toPartialObjectMetadata(ev.object);
        if (ev.type == WatchEvent::Type::Error)
            m_lastError = ev.error;
        Q_EMIT eventReceived(ev);
        if (!self || !m_running)
            return; // destroyed or cancelled by a slot
    }
}

void WatchStream::onFinished()
{
    QPointer<WatchStream> self(this);
    if (!m_reply || !m_running)
        return;
    onHeaders();
    onReadyRead();
    if (!self || !m_running || !m_reply)
        return;
    const int code = m_reply->statusCode();
    if (code == 0) { // no response: a transport failure (a body cut short ends the stream cleanly)
        detail::countRequest(0, "GET", m_config.server);
        finish(detail::transportError(*m_reply, "GET", m_config));
        return;
    }
    if (code != 200) {
        if (code == 401 && m_config.auth)
            m_config.auth->invalidate(); // the caller's rewatch gets fresh credentials
        const Status error = Status::fromHttp(code, m_errorBody);
        finish(m_metadataOnly
                ? metadataNotAcceptable(error, QStringLiteral("GET ") + m_path + QStringLiteral(" (watch)"))
                : error);
        return;
    }
    deliver(m_decoder.finish());
    if (!self || !m_running)
        return;
    finish(m_lastError);
}

void WatchStream::onTimeout()
{
    if (!m_running)
        return;
    finish(detail::timeoutError("GET", m_path, m_config.timeout));
}

void WatchStream::finish(std::optional<Status> error)
{
    dropReply();
    m_running = false;
    m_timer->stop();
    if (m_idleCheck)
        m_clock->cancel(m_idleCheck);
    m_idleCheck = 0;
    Q_EMIT finished(error);
}

void WatchStream::cancel()
{
    ++m_generation;
    m_running = false;
    m_timer->stop();
    if (m_idleCheck)
        m_clock->cancel(m_idleCheck);
    m_idleCheck = 0;
    dropReply();
}

void WatchStream::dropReply()
{
    if (!m_reply)
        return;
    detail::HttpReply *r = m_reply.data();
    m_reply.clear();
    r->disconnect(this);
    r->abort();
    r->deleteLater();
}

} // namespace opbench
