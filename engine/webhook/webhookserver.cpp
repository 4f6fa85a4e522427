// SPDX-License-Identifier: Apache-2.0
#include "engine/webhook/webhookserver.h"

#include "engine/base/clock.h"
#include "engine/base/logger.h"
#include "engine/base/metrics.h"
#include "engine/webhook/certwatcher.h"
#include "engine/webhook/webhookconnection_p.h"

#include <QDir>
#include <QPointer>
#include <QSslConfiguration>
#include <QSslServer>

#include <chrono>

namespace opbench {

QString WebhookServerOptions::effectiveCertDir() const
{
    return certDir.isEmpty() ? QDir(QDir::tempPath()).filePath(QStringLiteral("k8s-webhook-server/serving-certs"))
                             : certDir;
}

struct WebhookServer::Private
{
    std::unique_ptr<QSslServer> server;
    std::unique_ptr<CertWatcher> certs;
    Clock *clock = nullptr;
    CounterFamily *requests = nullptr;
    HistogramFamily *latency = nullptr;
    GaugeFamily *inFlight = nullptr;
    std::shared_ptr<bool> serving = std::make_shared<bool>(false);
};

namespace {

QSslConfiguration servingConfiguration(const CertWatcher &certs)
{
    QSslConfiguration config = QSslConfiguration::defaultConfiguration();
    config.setLocalCertificate(certs.certificate());
    config.setPrivateKey(certs.key());
    config.setPeerVerifyMode(QSslSocket::VerifyNone);
    config.setProtocol(QSsl::TlsV1_2OrLater);
    return config;
}

Status configError(const QString &message)
{
    return Status(0, QString::fromLatin1(StatusReason::ConfigError), message);
}

} // namespace

WebhookServer::WebhookServer(WebhookServerOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , d(std::make_unique<Private>())
{
    d->clock = m_options.clock ? m_options.clock : Clock::system();
    MetricsRegistry &registry = m_options.metrics ? *m_options.metrics : MetricsRegistry::global();
    // controller-runtime's pkg/webhook/internal/metrics: names, help texts and labels.
    d->requests = registry.counter(QStringLiteral("controller_runtime_webhook_requests_total"),
        QStringLiteral("Total number of admission requests by HTTP status code."),
        {QStringLiteral("webhook"), QStringLiteral("code")});
    d->latency = registry.histogram(QStringLiteral("controller_runtime_webhook_latency_seconds"),
        QStringLiteral("Histogram of the latency of processing admission requests"),
        {QStringLiteral("webhook"), QStringLiteral("code")},
        {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}); // Prometheus' DefBuckets
    d->inFlight = registry.gauge(QStringLiteral("controller_runtime_webhook_requests_in_flight"),
        QStringLiteral("Current number of admission requests being served."), {QStringLiteral("webhook")});
}

WebhookServer::~WebhookServer() { stop(); }

struct WebhookResponder::State
{
    explicit State(std::function<void(const WebhookReply &)> f)
        : deliver(std::move(f))
    { }
    ~State()
    {
        if (!done && deliver)
            deliver(WebhookReply(500, QByteArrayLiteral("internal error: the handler dropped the request unanswered\n"),
                QByteArrayLiteral("text/plain; charset=utf-8")));
    }
    State(const State &) = delete;
    State &operator=(const State &) = delete;
    State(State &&) = delete;
    State &operator=(State &&) = delete;

    std::function<void(const WebhookReply &)> deliver;
    bool done = false;
};

WebhookResponder::WebhookResponder(std::function<void(const WebhookReply &)> deliver)
    : d(std::make_shared<State>(std::move(deliver)))
{ }

void WebhookResponder::reply(const WebhookReply &answer) const
{
    if (!d || d->done)
        return;
    d->done = true;
    if (d->deliver)
        d->deliver(answer);
}

bool WebhookResponder::answered() const { return d && d->done; }

Expected<void> WebhookServer::registerHandler(const QString &path, WebhookHandler handler)
{
    if (!handler)
        return registerAsyncHandler(path, {});
    return registerAsyncHandler(
        path, [handler = std::move(handler)](const WebhookRequest &request, const WebhookResponder &respond) {
            respond.reply(handler(request));
        });
}

Expected<void> WebhookServer::registerAsyncHandler(const QString &path, AsyncWebhookHandler handler)
{
    if (!path.startsWith(u'/'))
        return Status::badRequest(QStringLiteral("webhook path \"%1\" must start with '/'").arg(path));
    if (m_handlers.count(path))
        return Status::badRequest(QStringLiteral("can't register duplicate path: %1").arg(path));
    m_handlers.emplace(path, std::move(handler));
    Logger()
        .withName(QStringLiteral("controller-runtime.webhook"))
        .info(QStringLiteral("Registering webhook"), {{QStringLiteral("path"), path}});
    return {};
}

QStringList WebhookServer::paths() const
{
    QStringList out;
    for (const auto &entry : m_handlers)
        out << entry.first;
    return out;
}

Expected<void> WebhookServer::start()
{
    if (d->server)
        return {};
    const QDir dir(m_options.effectiveCertDir());
    d->certs = std::make_unique<CertWatcher>(dir.filePath(m_options.certName), dir.filePath(m_options.keyName));
    if (Expected<void> ok = d->certs->read(); !ok)
        return ok.error();
    d->certs->watch();
    d->server = std::make_unique<QSslServer>();
    d->server->setSslConfiguration(servingConfiguration(*d->certs));
    Logger log = Logger().withName(QStringLiteral("controller-runtime.webhook"));
    connect(d->certs.get(), &CertWatcher::changed, this, [this, log] {
        if (d->server)
            d->server->setSslConfiguration(servingConfiguration(*d->certs));
        log.info(QStringLiteral("Updated current TLS certificate"),
            {{QStringLiteral("subject"), d->certs->certificate().subjectDisplayName()}});
        Q_EMIT certificateReloaded();
    });
    connect(d->certs.get(), &CertWatcher::readFailed, this, [this, log](const QString &why) {
        log.error(why, QStringLiteral("error re-reading certificate"));
        Q_EMIT certificateReloadFailed(why);
    });
    connect(d->server.get(), &QSslServer::pendingConnectionAvailable, this, [this] {
        while (d->server && d->server->hasPendingConnections())
            if (auto *socket = qobject_cast<QSslSocket *>(d->server->nextPendingConnection()))
                new WebhookConnection(socket, this);
    });
    const QHostAddress host = m_options.host.isEmpty() ? QHostAddress(QHostAddress::Any) : QHostAddress(m_options.host);
    if (host.isNull() && !m_options.host.isEmpty()) {
        stop();
        return configError(QStringLiteral("webhook server: host \"%1\" is not an IP address").arg(m_options.host));
    }
    if (!d->server->listen(host, quint16(m_options.port))) {
        const QString why = d->server->errorString();
        stop();
        return configError(QStringLiteral("webhook server: cannot listen on %1:%2: %3")
                               .arg(m_options.host.isEmpty() ? QStringLiteral("*") : m_options.host)
                               .arg(m_options.port)
                               .arg(why));
    }
    *d->serving = true;
    log.info(QStringLiteral("Serving webhook server"),
        {{QStringLiteral("host"), m_options.host}, {QStringLiteral("port"), int(port())}});
    log.info(QStringLiteral("Starting certificate watcher"));
    return {};
}

void WebhookServer::stop()
{
    *d->serving = false;
    if (d->server) {
        d->server->close();
        d->server.reset(); // the accepted sockets are its children
    }
    d->certs.reset();
}

bool WebhookServer::isServing() const { return *d->serving; }
quint16 WebhookServer::port() const { return d->server ? d->server->serverPort() : 0; }
QSslCertificate WebhookServer::certificate() const { return d->certs ? d->certs->certificate() : QSslCertificate(); }

std::function<Expected<void>()> WebhookServer::startedChecker() const
{
    return [serving = d->serving]() -> Expected<void> {
        if (!*serving)
            return Status(0, QString::fromLatin1(StatusReason::ConfigError),
                QStringLiteral("webhook server has not been started yet"));
        return {};
    };
}

void WebhookServer::runHandler(const WebhookRequest &request, const WebhookResponder &respond) const
{
    const auto it = m_handlers.find(request.path);
    if (it == m_handlers.end()) {
        respond.reply(WebhookReply(
            404, QByteArrayLiteral("404 page not found\n"), QByteArrayLiteral("text/plain; charset=utf-8")));
        return;
    }
    try {
        it->second(request, respond);
    } catch (const std::exception &e) {
        respond.reply(WebhookReply(500, QByteArrayLiteral("internal error: ") + e.what() + '\n',
            QByteArrayLiteral("text/plain; charset=utf-8")));
    } catch (...) {
        respond.reply(WebhookReply(500, QByteArrayLiteral("internal error: unknown exception\n"),
            QByteArrayLiteral("text/plain; charset=utf-8")));
    }
}

void WebhookServer::dispatch(const WebhookRequest &request, const WebhookResponder &respond)
{
    if (!m_handlers.count(request.path)) {
        respond.reply(WebhookReply(
            404, QByteArrayLiteral("404 page not found\n"), QByteArrayLiteral("text/plain; charset=utf-8")));
        return;
    }
    Gauge *inFlight = d->inFlight->labels({request.path});
    inFlight->add(1);
    const Clock::TimePoint started = d->clock->now();
    QPointer<WebhookServer> self(this);
    const QString path = request.path;
    const WebhookResponder counted([self, path, inFlight, started, respond](const WebhookReply &reply) {
        inFlight->add(-1);
        if (self) {
            if (reply.code == 500 && reply.contentType.startsWith("text/plain"))
                Logger()
                    .withName(QStringLiteral("controller-runtime.webhook"))
                    .error(QString::fromUtf8(reply.body.trimmed()), QStringLiteral("webhook handler failed"),
                        {{QStringLiteral("webhook"), path}});
            const double seconds = std::chrono::duration<double>(self->d->clock->now() - started).count();
            const QString code = QString::number(reply.code);
            self->d->latency->labels({path, code})->observe(seconds);
            self->d->requests->labels({path, code})->inc();
        }
        respond.reply(reply);
    });
    if (!m_interceptor) {
        runHandler(request, counted);
        return;
    }
    m_interceptor(request, counted, [self, request](const WebhookResponder &r) {
        if (self)
            self->runHandler(request, r);
        else
            r.reply(WebhookReply(503, QByteArrayLiteral("the webhook server stopped\n"),
                QByteArrayLiteral("text/plain; charset=utf-8")));
    });
}

} // namespace opbench
