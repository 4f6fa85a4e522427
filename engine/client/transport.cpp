// SPDX-License-Identifier: Apache-2.0
#include "engine/client/transport.h"

#include "engine/api/metrics.h"

#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QSslConfiguration>
#include <QSslError>

namespace opbench::detail {

static QSslConfiguration sslConfiguration(const TlsConfig &tls, const Credentials &creds)
{
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

QNetworkRequest buildRequest(const RestConfig &cfg, const QString &path, const QByteArray &query,
                             const Credentials &creds, const QByteArray &contentType)
{
    QUrl url = cfg.server;
    QString base = url.path();
    if (base.endsWith(u'/'))
        base.chop(1);
    url.setPath(base + path);
    url.setQuery(query.isEmpty() ? QString() : QString::fromLatin1(query), QUrl::StrictMode);
    QNetworkRequest req(url);
    req.setHeader(QNetworkRequest::UserAgentHeader, cfg.userAgent);
    req.setRawHeader("Accept", "application/json");
    if (!contentType.isEmpty())
        req.setRawHeader("Content-Type", contentType);
    if (!creds.authorization.isEmpty())
        req.setRawHeader("Authorization", creds.authorization);
    req.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    req.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    req.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    if (url.scheme() == QLatin1String("https")) {
        req.setSslConfiguration(sslConfiguration(cfg.tls, creds));
        if (!cfg.tls.serverName.isEmpty())
            req.setPeerVerifyName(cfg.tls.serverName);
    }
    return req;
}

void configureManager(QNetworkAccessManager *nam, const RestConfig &cfg)
{
    nam->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    nam->setAutoDeleteReplies(false);
    if (cfg.proxyUrl.isEmpty()) {
        nam->setProxy(QNetworkProxy(QNetworkProxy::NoProxy));
        return;
    }
    const QUrl &p = cfg.proxyUrl;
    const auto type = p.scheme() == QLatin1String("socks5") ? QNetworkProxy::Socks5Proxy : QNetworkProxy::HttpProxy;
    nam->setProxy(QNetworkProxy(type, p.host(), quint16(p.port(type == QNetworkProxy::Socks5Proxy ? 1080 : 80)),
                                p.userName(), p.password()));
}

std::shared_ptr<QStringList> collectTlsErrors(QNetworkReply *reply)
{
    auto errors = std::make_shared<QStringList>();
    QObject::connect(reply, &QNetworkReply::sslErrors, reply, [errors](const QList<QSslError> &list) {
        for (const QSslError &e : list) {
            QString text = e.errorString();
            if (!e.certificate().isNull())
                text += QStringLiteral(" (server certificate \"%1\", issued by \"%2\")")
                            .arg(e.certificate().subjectDisplayName(), e.certificate().issuerDisplayName());
            if (!errors->contains(text))
                errors->append(text);
        }
    });
    return errors;
}

Status transportError(QNetworkReply *reply, const QByteArray &method, const RestConfig &cfg, const QStringList &tlsErrors)
{
    const QString target = QString::fromLatin1(method) + u' ' + reply->url().toString(QUrl::RemoveQuery);
    const QNetworkReply::NetworkError err = reply->error();
    if (err == QNetworkReply::SslHandshakeFailedError || !tlsErrors.isEmpty()) {
        const QString name = cfg.tls.serverName.isEmpty() ? reply->url().host() : cfg.tls.serverName;
        const QString trust = cfg.tls.caSource.isEmpty() ? QStringLiteral("the system trust store") : cfg.tls.caSource;
        const QString why = tlsErrors.isEmpty() ? reply->errorString() : tlsErrors.join(QStringLiteral("; "));
        return Status::transport(StatusReason::TlsError,
                                 QStringLiteral("TLS verification failed for %1 (expected server name \"%2\", trusted CAs "
                                                "from %3): %4").arg(target, name, trust, why));
    }
    if (err == QNetworkReply::TimeoutError)
        return Status::transport(StatusReason::Timeout, QStringLiteral("%1 timed out: %2").arg(target, reply->errorString()));
    if (err == QNetworkReply::OperationCanceledError)
        return Status::transport(StatusReason::Cancelled, QStringLiteral("%1 was cancelled").arg(target));
    return Status::transport(StatusReason::ConnectionFailed,
                             QStringLiteral("%1 failed: %2").arg(target, reply->errorString()));
}

Status timeoutError(const QByteArray &method, const QString &path, std::chrono::milliseconds timeout)
{
    return Status::transport(StatusReason::Timeout, QStringLiteral("%1 %2 did not complete within %3 ms")
                                                        .arg(QString::fromLatin1(method), path).arg(timeout.count()));
}

void countRequest(int code, const QByteArray &method, const QUrl &server)
{
    static CounterFamily *family = MetricsRegistry::global().counter(
        QStringLiteral("rest_client_requests_total"),
        QStringLiteral("Number of HTTP requests, partitioned by status code, method, and host."),
        {QStringLiteral("code"), QStringLiteral("method"), QStringLiteral("host")});
    const QString host = server.port() > 0 ? QStringLiteral("%1:%2").arg(server.host()).arg(server.port()) : server.host();
    family->labels({code > 0 ? QString::number(code) : QStringLiteral("<error>"), QString::fromLatin1(method), host})->inc();
}

int retryAfterSeconds(QNetworkReply *reply)
{
    if (!reply->hasRawHeader("Retry-After"))
        return -1;
    bool ok = false;
    const int s = reply->rawHeader("Retry-After").trimmed().toInt(&ok);
    return ok && s >= 0 ? s : -1;
}

} // namespace opbench::detail
