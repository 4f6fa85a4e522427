// SPDX-License-Identifier: Apache-2.0
#pragma once
// WebhookCaller: the API server's outbound HTTPS client for admission webhooks. POSTs an
// AdmissionReview to the webhook's clientConfig (a `url`, or a `service` resolved through the
// server's NAMESPACE/NAME[:PORT] → HOST:PORT map, TLS name NAME.NAMESPACE.svc) with
// `?timeout=Ns`, verifies TLS against `caBundle` (system roots when empty), and gives up after
// timeoutSeconds. Failures are worded as kube-apiserver's `failed to call webhook: Post "URL": …`.

#include "engine/apiserver/admission/webhookcallrecord.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>

#include <functional>

namespace opbench::apiserver {

struct WebhookAnswer
{
    QString error;        // non-empty: the call failed ("failed to call webhook: ...")
    QJsonObject response; // the AdmissionReview's response
    WebhookCallRecord::Failure failure = WebhookCallRecord::Failure::None; // how the call failed
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

    /// The URL the webhook is called at (with ?timeout=), or an error.
    QString urlFor(const QJsonObject &hook, QString *error) const;

private:
    QHash<QString, QString> m_services;
    int m_msPerSecond;
};

} // namespace opbench::apiserver
