// SPDX-License-Identifier: Apache-2.0
#pragma once
// RestClient: coroutine REST calls against one API server (client-go's rest.Interface +
// dynamic client), over keep-alive HTTP/1.1 connections written and read on the caller's thread
// (detail::HttpClient, at most 32 at a time).
//
// Every call is bounded by RestConfig::timeout (default 30 s). Errors are Status: the server's
// Status body for non-2xx replies; code 0 with reason ConnectionFailed / TLSError / Timeout /
// Cancelled for transport failures (Cancelled also when the client is destroyed mid-call).
// 429 (and 5xx carrying Retry-After) are retried after Retry-After seconds (measured on the
// config's Clock, capped at 60 s), at most 10 times, then the last Status is returned. A 401 drops cached
// credentials and retries once when the auth provider can refresh (token file, exec plugin).
// Each response increments rest_client_requests_total{code,method,host}.
//
// Cancellation: a call started while a CancelScope is open on the client (the scope is read
// synchronously when the call starts, before its first suspension) checks the scope's predicate
// every 100 ms while it waits for a reply, a rate-limit slot or a Retry-After pause; once it
// returns true the request is aborted and the call fails with reason Cancelled. The server may
// or may not have applied a write aborted in flight (as with a cancelled context in client-go).
//
// Destruction: every call still pending (waiting for a reply, a rate-limit slot or a Retry-After
// pause) finishes with Cancelled while the destructor runs, so no coroutine frame is left
// suspended; a call started while the client is being destroyed fails with Cancelled at once.
//
// Live on one thread; call from that thread. Long-lived watches use WatchStream (a connection
// of its own each).

#include "engine/api/expected.h"
#include "engine/api/gvk.h"
#include "engine/api/object.h"
#include "engine/base/clock.h"
#include "engine/client/requestoptions.h"
#include "engine/client/restconfig.h"

#include <QObject>

#include <qcoro/qcorotask.h>

#include <functional>
#include <memory>

namespace opbench {

namespace detail {
class HttpClient;
}
class ListStreamDecoder;
class TokenBucket;
class WatchStream;
namespace detail {
struct PendingSleeps;
}

struct RawResponse
{
    int code = 0;
    QByteArray body;
    QByteArray contentType;
};

/// The result of a delete: the object when it is still present (finalizers, foreground
/// deletion, graceful pods: deletionTimestamp set), or the success Status when it is gone.
struct DeleteResult
{
    Object object;
    Status status;
    bool gone() const { return object.isNull(); }
};

class RestClient : public QObject
{
    Q_OBJECT
public:
    explicit RestClient(RestConfig config, QObject *parent = nullptr);
    ~RestClient() override;

    const RestConfig &config() const { return m_config; }

    /// Makes the calls started while it lives cancellable by `cancelled` (see above).
    class CancelScope
    {
    public:
        CancelScope(RestClient *client, std::function<bool()> cancelled);
        ~CancelScope();
        CancelScope(const CancelScope &) = delete;
        CancelScope &operator=(const CancelScope &) = delete;

    private:
        RestClient *m_client;
        std::function<bool()> m_previous;
    };
    /// Retries for 429 / Retry-After replies (default 10, as client-go).
    void setMaxRetries(int n) { m_maxRetries = n; }

    QCoro::Task<Expected<Object>> get(GroupVersionResource gvr, QString ns, QString name, GetOptions opts = {});
    /// One page (opts.limit / continueToken). Items lacking apiVersion/kind get them from the
    /// list. With `stripManagedFields`, metadata.managedFields is dropped while decoding.
    QCoro::Task<Expected<Object::List>> list(
        GroupVersionResource gvr, QString ns, ListOptions opts = {}, bool stripManagedFields = false);
    /// POST to the collection of `ns` (the object's own namespace when `ns` is empty).
    QCoro::Task<Expected<Object>> create(GroupVersionResource gvr, QString ns, Object obj, WriteOptions opts = {});
    /// PUT; the object's resourceVersion is the precondition (409 on mismatch).
    QCoro::Task<Expected<Object>> update(GroupVersionResource gvr, QString ns, Object obj, WriteOptions opts = {});
    QCoro::Task<Expected<Object>> updateSubresource(
        GroupVersionResource gvr, QString ns, Object obj, QString subresource, WriteOptions opts = {});
    QCoro::Task<Expected<Object>> updateStatus(
        GroupVersionResource gvr, QString ns, Object obj, WriteOptions opts = {});
    /// PATCH with the type's Content-Type. Apply needs opts.fieldManager.
    QCoro::Task<Expected<Object>> patch(
        GroupVersionResource gvr, QString ns, QString name, PatchType type, QByteArray body, PatchOptions opts = {});
    QCoro::Task<Expected<DeleteResult>> remove(
        GroupVersionResource gvr, QString ns, QString name, DeleteOptions opts = {});
    /// DELETE on the collection (selectors from `list`); returns the server's response document.
    QCoro::Task<Expected<Object>> deleteCollection(
        GroupVersionResource gvr, QString ns, ListOptions list = {}, DeleteOptions opts = {});
    /// Any request (discovery, /version, tests). Non-2xx replies are Status errors.
    QCoro::Task<Expected<RawResponse>> raw(
        QByteArray method, QString path, QueryParams query = {}, QByteArray body = {}, QByteArray contentType = {});

    /// A watch on the collection (not started: connect its signals, then call start()).
    std::unique_ptr<WatchStream> watch(
        const GroupVersionResource &gvr, const QString &ns, const ListOptions &opts) const;

    /// Metadata-only reads (client-go's metadata client; see partialobjectmetadata.h): the
    /// objects are meta.k8s.io/v1 PartialObjectMetadata, a full object from a server that ignores
    /// the request reduced to its metadata; a 406 reply says what was refused. Lists drop
    /// metadata.managedFields while decoding.
    QCoro::Task<Expected<Object>> getMetadata(GroupVersionResource gvr, QString ns, QString name, GetOptions opts = {});
    QCoro::Task<Expected<Object::List>> listMetadata(GroupVersionResource gvr, QString ns, ListOptions opts = {});
    std::unique_ptr<WatchStream> watchMetadata(
        const GroupVersionResource &gvr, const QString &ns, const ListOptions &opts) const;

private:
    QCoro::Task<Expected<RawResponse>> send(QByteArray method, QString path, QueryParams query, QByteArray body,
        QByteArray contentType, ListStreamDecoder *listSink = nullptr, QByteArray accept = {});
    QCoro::Task<Expected<Object>> sendForObject(
        QByteArray method, QString path, QueryParams query, QByteArray body, QByteArray contentType);
    /// Sleeps `d` on the clock (a rate-limit slot or a Retry-After pause); Cancelled when
    /// `isCancelled` turns true, Destroyed when the client is destroyed meanwhile (then the caller
    /// must not touch the client any more).
    enum class PauseOutcome { Slept, Cancelled, Destroyed };
    QCoro::Task<PauseOutcome> pause(Clock::Duration d, std::function<bool()> isCancelled);

    RestConfig m_config;
    std::function<bool()> m_cancelled; // of the open CancelScope, read by each call as it starts
    Clock *m_clock;
    detail::HttpClient *m_http; // child: keep-alive connections to the server
    std::unique_ptr<TokenBucket> m_limiter;
    int m_maxRetries = 10;
    /// False from the start of the destructor: calls resumed by it (or started from code it
    /// resumes) finish with Cancelled without touching the client.
    std::shared_ptr<bool> m_alive = std::make_shared<bool>(true);
    /// Calls sleeping on the clock; the destructor wakes them so their frames finish.
    std::shared_ptr<detail::PendingSleeps> m_sleeps;
};

} // namespace opbench
