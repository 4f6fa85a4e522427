// SPDX-License-Identifier: Apache-2.0
#pragma once
// WebhookServer: controller-runtime's webhook.Server. Serves registered paths over HTTPS with
// the serving certificate `tls.crt` / `tls.key` from a certificate folder, reloaded when the
// files change (cert-manager rotates them): the next TLS handshake presents the new certificate.
//
//     WebhookServer server(WebhookServerOptions{});          // :9443, <tmp>/k8s-webhook-server/serving-certs
//     server.registerHandler(QStringLiteral("/validate-x"), handler);
//     server.start();                                        // errors name the file or the port
//
// Each request is one exchange (keep-alive connections are reused); bodies larger than
// maxBodyBytes (3 MiB) are refused with 413 before they are read. Every served request is
// counted with controller-runtime's metric names, labelled with the path:
// controller_runtime_webhook_requests_total{webhook,code},
// controller_runtime_webhook_latency_seconds{webhook,code} and
// controller_runtime_webhook_requests_in_flight{webhook}.
//
// A handler answers at once (WebhookHandler) or later (AsyncWebhookHandler: it gets a
// WebhookResponder and may keep it while the event loop runs; the connection waits, later
// requests on it queue behind). An interceptor (setInterceptor(); the workbench's WebhookGate)
// sees each request to a registered path before its handler and decides when the handler runs.

#include "engine/api/expected.h"
#include "engine/api/gvk.h"

#include <QByteArray>
#include <QHostAddress>
#include <QObject>
#include <QSslCertificate>
#include <QString>

#include <functional>
#include <map>
#include <memory>

namespace opbench {

class Clock;
class MetricsRegistry;

struct WebhookServerOptions
{
    WebhookServerOptions() = default;
    /// The address to listen on; "" = all interfaces (controller-runtime's Host).
    QString host;
    /// 9443 as controller-runtime; 0 = any free port (tests).
    int port = 9443;
    /// "" = <QDir::tempPath()>/k8s-webhook-server/serving-certs.
    QString certDir;
    QString certName = QStringLiteral("tls.crt");
    QString keyName = QStringLiteral("tls.key");
    /// Larger request bodies get 413 (the API server's own request limit is 3 MiB).
    qint64 maxBodyBytes = qint64(3) * 1024 * 1024;
    Clock *clock = nullptr;             ///< latency; nullptr = Clock::system()
    MetricsRegistry *metrics = nullptr; ///< nullptr = MetricsRegistry::global()

    /// The certificate folder with the default applied.
    [[nodiscard]] QString effectiveCertDir() const;
};

/// One HTTP request as a handler sees it.
struct WebhookRequest
{
    QByteArray method;
    QString path;
    QByteArray contentType;
    QByteArray body;
};

/// A handler's answer (HTTP status, body).
struct WebhookReply
{
    WebhookReply() = default;
    WebhookReply(int status, QByteArray payload, QByteArray type = QByteArrayLiteral("application/json"))
        : code(status)
        , body(std::move(payload))
        , contentType(std::move(type))
    { }
    int code = 200;
    QByteArray body;
    QByteArray contentType = QByteArrayLiteral("application/json");
};

/// What WebhookBuilder registered at a path: the kind's defaulter, its validator, or /convert for
/// a hub kind (`gvk` the hub). Read by the SDK to register the webhooks with an embedded cluster.
struct ServedWebhook
{
    enum class Type { Defaulting, Validating, Conversion };
    Type type = Type::Defaulting;
    QString path;
    GroupVersionKind gvk;
};

/// Runs on the server's thread; may throw (answered with 500, the server keeps serving).
using WebhookHandler = std::function<WebhookReply(const WebhookRequest &)>;

/// Answers one request, now or later, once (later answers are ignored). Copies share the
/// request; when the last copy goes unanswered the request is answered 500, so a dropped request
/// never leaves its client waiting for a timeout. Use it on the server's thread.
class WebhookResponder
{
public:
    WebhookResponder() = default;
    explicit WebhookResponder(std::function<void(const WebhookReply &)> deliver);
    void reply(const WebhookReply &answer) const;
    [[nodiscard]] bool answered() const;
    [[nodiscard]] bool isNull() const { return !d; }

private:
    struct State;
    std::shared_ptr<State> d;
};

/// Answers through `respond`, at once or later; may throw before answering (answered with 500).
using AsyncWebhookHandler = std::function<void(const WebhookRequest &, WebhookResponder)>;
/// Runs the path's handler for the intercepted request, answering through the given responder.
using WebhookRun = std::function<void(WebhookResponder)>;
/// Sees each request to a registered path before its handler: calls `run(respond)` now or later
/// (or answers `respond` itself).
using WebhookInterceptor = std::function<void(const WebhookRequest &, WebhookResponder respond, WebhookRun run)>;

class WebhookServer : public QObject
{
    Q_OBJECT
public:
    explicit WebhookServer(WebhookServerOptions options = {}, QObject *parent = nullptr);
    ~WebhookServer() override;
    Q_DISABLE_COPY_MOVE(WebhookServer)

    /// Adds `handler` at `path` (exact match). Errors: a path registered twice, a path not
    /// starting with '/'.
    Expected<void> registerHandler(const QString &path, WebhookHandler handler);
    /// Adds a handler that may answer later (same errors).
    Expected<void> registerAsyncHandler(const QString &path, AsyncWebhookHandler handler);
    /// Puts `interceptor` before every handler (empty: none). The workbench's gate uses it.
    void setInterceptor(WebhookInterceptor interceptor) { m_interceptor = std::move(interceptor); }
    [[nodiscard]] bool hasHandlers() const { return !m_handlers.empty(); }
    [[nodiscard]] QStringList paths() const;
    /// Records what a registered path serves (WebhookBuilder does it); listed by servedWebhooks().
    void noteServed(const ServedWebhook &webhook) { m_served.append(webhook); }
    [[nodiscard]] const QList<ServedWebhook> &servedWebhooks() const { return m_served; }

    /// Reads the certificate and key, starts watching them and listens. Errors name the file
    /// that cannot be read or the address that cannot be bound.
    Expected<void> start();
    /// Stops listening and closes every connection. Idempotent.
    void stop();

    [[nodiscard]] bool isServing() const;
    /// The bound port (0 before start()).
    [[nodiscard]] quint16 port() const;
    /// The certificate new handshakes present.
    [[nodiscard]] QSslCertificate certificate() const;
    /// controller-runtime's StartedChecker: fails with "webhook server has not been started
    /// yet" until the server listens with a certificate loaded.
    [[nodiscard]] std::function<Expected<void>()> startedChecker() const;
    const WebhookServerOptions &options() const { return m_options; }

    /// Internal (connections): serves one request, with metrics and exception containment;
    /// `respond` gets the answer (maybe before this returns).
    void dispatch(const WebhookRequest &request, const WebhookResponder &respond);

Q_SIGNALS:
    /// The certificate files changed and the new pair is served.
    void certificateReloaded();
    /// The files changed but could not be read (the previous pair stays served).
    void certificateReloadFailed(const QString &reason);

private:
    struct Private;
    WebhookServerOptions m_options;
    void runHandler(const WebhookRequest &request, const WebhookResponder &respond) const;

    std::map<QString, AsyncWebhookHandler> m_handlers;
    WebhookInterceptor m_interceptor;
    QList<ServedWebhook> m_served;
    std::unique_ptr<Private> d;
};

} // namespace opbench
