// SPDX-License-Identifier: Apache-2.0
#include "engine/client/transport.h"

#include "engine/base/metrics.h"
#include "engine/client/httpclient.h"

#include <QNetworkProxy>
#include <QSslConfiguration>

namespace opbench::detail {

namespace {

QNetworkProxy proxyFor(const RestConfig &cfg)
{
    if (cfg.proxyUrl.isEmpty())
        return QNetworkProxy(QNetworkProxy::NoProxy);
    // An HTTP proxy is asked to CONNECT to the server (for https and http servers alike).
    const QUrl &p = cfg.proxyUrl;
    const auto type = p.scheme() == QLatin1String("socks5") ? QNetworkProxy::Socks5Proxy : QNetworkProxy::HttpProxy;
    return QNetworkProxy(
        type, p.host(), quint16(p.port(type == QNetworkProxy::Socks5Proxy ? 1080 : 80)), p.userName(), p.password());
}

} // namespace

HttpClient *makeHttpClient(const RestConfig &cfg, QObject *parent)
{
    return new HttpClient(cfg.server, cfg.tls.serverName, proxyFor(cfg), parent);
}

QSslConfiguration sslConfiguration(const RestConfig &cfg, const Credentials &creds)
{
    if (cfg.server.scheme() != QLatin1String("https"))
        return {};
    const TlsConfig &tls = cfg.tls;
    QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
    ssl.setProtocol(QSsl::TlsV1_2OrLater);
    if (!tls.caCertificates.isEmpty())
        ssl.setCaCertificates(tls.caCertificates);
    if (tls.insecure)
        ssl.setPeerVerifyMode(QSslSocket::VerifyNone);
    const bool execCert = !creds.clientCertificate.isNull();
    const QSslCertificate cert = execCert ? creds.clientCertificate : tls.clientCertificate;
    const QSslKey key = execCert ? creds.clientKey : tls.clientKey;
    if (!cert.isNull()) {
        ssl.setLocalCertificate(cert);
        ssl.setPrivateKey(key);
    }
    return ssl;
}

QUrl requestUrl(const RestConfig &cfg, const QString &path, const QByteArray &query)
{
    QUrl url = cfg.server;
    QString base = url.path();
    if (base.endsWith(u'/'))
        base.chop(1);
    url.setPath(base + path);
    url.setQuery(query.isEmpty() ? QString() : QString::fromLatin1(query), QUrl::StrictMode);
    return url;
}

QByteArray requestHeaders(
    const RestConfig &cfg, const Credentials &creds, const QByteArray &contentType, const QByteArray &accept)
{
    QByteArray h;
    h.reserve(160 + creds.authorization.size() + accept.size());
    h.append("User-Agent: ").append(cfg.userAgent.toUtf8()).append("\r\nAccept: ");
    h.append(accept.isEmpty() ? QByteArrayView("application/json") : QByteArrayView(accept)).append("\r\n");
    if (!contentType.isEmpty())
        h.append("Content-Type: ").append(contentType).append("\r\n");
    if (!creds.authorization.isEmpty())
        h.append("Authorization: ").append(creds.authorization).append("\r\n");
    return h;
}

Status transportError(const HttpReply &reply, const QByteArray &method, const RestConfig &cfg)
{
    const QString target = QString::fromLatin1(method) + u' ' + reply.url().toString(QUrl::RemoveQuery);
    if (reply.error() == HttpReply::Error::Tls || !reply.tlsErrors().isEmpty()) {
        const QString name = cfg.tls.serverName.isEmpty() ? reply.url().host() : cfg.tls.serverName;
        const QString trust = cfg.tls.caSource.isEmpty() ? QStringLiteral("the system trust store") : cfg.tls.caSource;
        const QString why
            = reply.tlsErrors().isEmpty() ? reply.errorString() : reply.tlsErrors().join(QStringLiteral("; "));
        return Status::transport(StatusReason::TlsError,
            QStringLiteral("TLS verification failed for %1 (expected server name \"%2\", trusted CAs "
                           "from %3): %4")
                .arg(target, name, trust, why));
    }
    if (reply.error() == HttpReply::Error::Aborted)
        return Status::transport(StatusReason::Cancelled, QStringLiteral("%1 was cancelled").arg(target));
    return Status::transport(
        StatusReason::ConnectionFailed, QStringLiteral("%1 failed: %2").arg(target, reply.errorString()));
}

Status timeoutError(const QByteArray &method, const QString &path, std::chrono::milliseconds timeout)
{
    return Status::transport(StatusReason::Timeout,
        QStringLiteral("%1 %2 did not complete within %3 ms")
            .arg(QString::fromLatin1(method), path)
            .arg(timeout.count()));
}

void countRequest(int code, const QByteArray &method, const QUrl &server)
{
    static CounterFamily *family = MetricsRegistry::global().counter(QStringLiteral("rest_client_requests_total"),
        QStringLiteral("Number of HTTP requests, partitioned by status code, method, and host."),
        {QStringLiteral("code"), QStringLiteral("method"), QStringLiteral("host")});
    const QString host
        = server.port() > 0 ? QStringLiteral("%1:%2").arg(server.host()).arg(server.port()) : server.host();
    family->labels({code > 0 ? QString::number(code) : QStringLiteral("<error>"), QString::fromLatin1(method), host})
        ->inc();
}

int retryAfterSeconds(const HttpReply &reply)
{
    if (!reply.hasRawHeader("Retry-After"))
        return -1;
    bool ok = false;
    const int s = reply.rawHeader("Retry-After").trimmed().toInt(&ok);
    return ok && s >= 0 ? s : -1;
}

} // namespace opbench::detail
