// SPDX-License-Identifier: Apache-2.0
#pragma once
// WebhookCaller: the API server's outbound HTTPS client for admission webhooks. POSTs an
// AdmissionReview to the webhook's clientConfig (a `url`, or a `service` resolved through the
// server's NAMESPACE/NAME[:PORT] → HOST:PORT map, TLS name NAME.NAMESPACE.svc) with
// `?timeout=Ns`, verifies TLS against `caBundle` (system roots when empty), and gives up after
// timeoutSeconds. Failures are worded as kube-apiserver's `failed to call webhook: Post "URL": …`.
// post() is the bare exchange, shared with CRD conversion webhooks (conversionwebhook.h).

#include "engine/apiserver/admission/webhookcallrecord.h"

#include <QHash>
#include <QJsonObject>
#include <QNetworkRequest>
#include <QObject>

#include <functional>

namespace opbench::apiserver {

struct WebhookAnswer
{
    QString error;        // non-empty: the call failed ("failed to call webhook: ...")
    QJsonObject response; // the AdmissionReview's response
    WebhookCallRecord::Failure failure = WebhookCallRecord::Failure::None; // how the call failed
};

/// One HTTP exchange with a webhook.
struct WebhookReply
{
    QString error;   // non-empty: no answer (`Post "URL": dial tcp …: connection refused`, …)
    int code = 0;    // the HTTP status code
    QByteArray body; // the answer's body
    WebhookCallRecord::Failure failure = WebhookCallRecord::Failure::None; // how it failed, with error
};

class WebhookCaller : public QObject
{
    Q_OBJECT
public:
    /// `services`: "NAMESPACE/NAME" or "NAMESPACE/NAME:PORT" → "HOST:PORT".
    /// `msPerSecond`: how long one timeoutSeconds unit lasts (1000; tests make it shorter).
    WebhookCaller(QHash<QString, QString> services, int msPerSecond, QObject *parent = nullptr);

    /// Calls `hook` with `review`; `done` runs once, on this object's thread.
    void call(const QJsonObject &hook, const QJsonObject &review, std::function<void(WebhookAnswer)> done);

    /// POSTs `review` to `hook`'s clientConfig (timeoutSeconds from `hook`, 10 when absent);
    /// `done` runs once, on this object's thread, with the answer or Go's wording of the failure.
    void post(const QJsonObject &hook, const QJsonObject &review, std::function<void(WebhookReply)> done);

    /// Workbench only (ApiServerOptions::webhookHeld): while `held(uid)` is true for a call's
    /// review uid its timeout waits; once false, a full timeout starts again. Empty: none.
    void setHeldPredicate(std::function<bool(const QString &uid)> held) { m_held = std::move(held); }

    /// The URL the webhook is called at (with ?timeout=), or an error.
    QString urlFor(const QJsonObject &hook, QString *error) const;

private:
    QNetworkRequest requestFor(const QJsonObject &hook, const QString &urlText) const;

    QHash<QString, QString> m_services;
    int m_msPerSecond;
    std::function<bool(const QString &uid)> m_held;
};

} // namespace opbench::apiserver
