// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/admission/webhookcaller.h"

#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QTimer>
#include <QUrl>

#include <memory>

namespace opbench::apiserver {

namespace {

using Failure = WebhookCallRecord::Failure;

/// How a POST that got no HTTP answer failed.
Failure failureOf(QNetworkReply *reply)
{
    switch (reply->error()) {
    case QNetworkReply::SslHandshakeFailedError:
        return Failure::Tls;
    case QNetworkReply::ConnectionRefusedError:
    case QNetworkReply::HostNotFoundError:
    case QNetworkReply::NetworkSessionFailedError:
    case QNetworkReply::TemporaryNetworkFailureError:
    case QNetworkReply::UnknownNetworkError:
        return Failure::Unreachable;
    default: // e.g. the connection closed without an answer
        return Failure::BadResponse;
    }
}

/// The error text Go's net/http gives for a failed POST.
QString describe(QNetworkReply *reply, const QUrl &url)
{
    const QString hostPort = QStringLiteral("%1:%2").arg(url.host()).arg(url.port(443));
    switch (reply->error()) {
    case QNetworkReply::ConnectionRefusedError:
        return QStringLiteral("dial tcp %1: connect: connection refused").arg(hostPort);
    case QNetworkReply::SslHandshakeFailedError:
        return QStringLiteral("tls: failed to verify certificate: x509: certificate signed by unknown authority");
    case QNetworkReply::HostNotFoundError:
        return QStringLiteral("dial tcp: lookup %1: no such host").arg(url.host());
    default:
        return reply->errorString();
    }
}

} // namespace

WebhookCaller::WebhookCaller(QHash<QString, QString> services, int msPerSecond, QObject *parent)
    : QObject(parent)
    , m_services(std::move(services))
    , m_msPerSecond(msPerSecond)
{ }

QString WebhookCaller::urlFor(const QJsonObject &hook, QString *error) const
{
    const QJsonObject cc = hook.value(QLatin1String("clientConfig")).toObject();
    const int timeout = hook.value(QLatin1String("timeoutSeconds")).toInt(10);
    QUrl url(cc.value(QLatin1String("url")).toString());
    if (cc.value(QLatin1String("service")).isObject()) {
        const QJsonObject svc = cc.value(QLatin1String("service")).toObject();
        const QString ns = svc.value(QLatin1String("namespace")).toString();
        const QString name = svc.value(QLatin1String("name")).toString();
        const int port = svc.value(QLatin1String("port")).toInt(443);
        url = QUrl(QStringLiteral("https://%1.%2.svc:%3%4")
                       .arg(name, ns)
                       .arg(port)
                       .arg(svc.value(QLatin1String("path")).toString()));
        const QString target = m_services.value(QStringLiteral("%1/%2:%3").arg(ns, name).arg(port),
            m_services.value(QStringLiteral("%1/%2").arg(ns, name)));
        if (target.isEmpty() && error)
            *error = QStringLiteral("service \"%1\" not found").arg(name);
    }
    url.setQuery(QStringLiteral("timeout=%1s").arg(timeout));
    return url.toString();
}

void WebhookCaller::call(const QJsonObject &hook, const QJsonObject &review, std::function<void(WebhookAnswer)> done)
{
    post(hook, review, [done](const WebhookReply &reply) {
        if (!reply.error.isEmpty())
            return done(WebhookAnswer{QStringLiteral("failed to call webhook: ") + reply.error, {}, reply.failure});
        const QJsonObject answer = QJsonDocument::fromJson(reply.body).object();
        if (reply.code < 200 || reply.code >= 300 || !answer.value(QLatin1String("response")).isObject())
            return done(WebhookAnswer{QStringLiteral("received invalid webhook response: HTTP %1: %2")
                                          .arg(reply.code)
                                          .arg(QString::fromUtf8(reply.body.left(200))),
                {}, Failure::BadResponse});
        done(WebhookAnswer{QString(), answer.value(QLatin1String("response")).toObject()});
    });
}

QNetworkRequest WebhookCaller::requestFor(const QJsonObject &hook, const QString &urlText) const
{
    const QJsonObject cc = hook.value(QLatin1String("clientConfig")).toObject();
    QUrl url(urlText);
    QNetworkRequest request(url);
    if (cc.value(QLatin1String("service")).isObject()) {
        const QJsonObject svc = cc.value(QLatin1String("service")).toObject();
        const QString ns = svc.value(QLatin1String("namespace")).toString();
        const QString name = svc.value(QLatin1String("name")).toString();
        const QString target = m_services.value(QStringLiteral("%1/%2:%3").arg(ns, name).arg(url.port(443)),
            m_services.value(QStringLiteral("%1/%2").arg(ns, name)));
        request.setPeerVerifyName(url.host());
        const qsizetype colon = target.lastIndexOf(u':');
        url.setHost(target.left(colon));
        url.setPort(target.mid(colon + 1).toInt());
        request.setUrl(url);
    }
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    const QByteArray caBundle = QByteArray::fromBase64(cc.value(QLatin1String("caBundle")).toString().toLatin1());
    if (!caBundle.isEmpty())
        tls.setCaCertificates(QSslCertificate::fromData(caBundle, QSsl::Pem));
    request.setSslConfiguration(tls);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    return request;
}

void WebhookCaller::post(const QJsonObject &hook, const QJsonObject &review, std::function<void(WebhookReply)> done)
{
    QString error;
    const QString urlText = urlFor(hook, &error);
    const QString prefix = QStringLiteral("Post \"%1\": ").arg(urlText);
    if (!error.isEmpty())
        return done(WebhookReply{prefix + error, 0, {}, Failure::Unreachable});
    const QNetworkRequest request = requestFor(hook, urlText);
    const QUrl url = request.url();
    // One network manager per call: Qt's connection cache is keyed by host and port, not by the
    // TLS configuration, so a reused connection would skip this webhook's caBundle check.
    auto *network = new QNetworkAccessManager(this);
    QNetworkReply *reply = network->post(request, QJsonDocument(review).toJson(QJsonDocument::Compact));
    auto timedOut = std::make_shared<bool>(false);
    auto *timer = new QTimer(reply);
    timer->setSingleShot(true);
    const QString uid = review.value(QLatin1String("request")).toObject().value(QLatin1String("uid")).toString();
    auto wasHeld = std::make_shared<bool>(false);
    connect(timer, &QTimer::timeout, reply, [reply, timer, timedOut, wasHeld, held = m_held, uid]() {
        // Workbench only: a call its debugger holds waits, then gets a whole timeout again.
        if (held && !uid.isEmpty()) {
            const bool heldNow = held(uid);
            if (heldNow || *wasHeld) {
                *wasHeld = heldNow;
                timer->start();
                return;
            }
        }
        *timedOut = true;
        reply->abort();
    });
    timer->start(hook.value(QLatin1String("timeoutSeconds")).toInt(10) * m_msPerSecond);
    connect(reply, &QNetworkReply::finished, this, [network, reply, timedOut, prefix, url, done]() {
        network->deleteLater(); // deletes the reply too
        if (*timedOut)
            return done(WebhookReply{prefix + QStringLiteral("context deadline exceeded"), 0, {}, Failure::Timeout});
        const int code = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (reply->error() != QNetworkReply::NoError && code == 0)
            return done(WebhookReply{prefix + describe(reply, url), 0, {}, failureOf(reply)});
        done(WebhookReply{QString(), code, reply->readAll()});
    });
}

} // namespace opbench::apiserver
