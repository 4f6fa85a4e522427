// SPDX-License-Identifier: Apache-2.0
#pragma once
// WebhookCallRecord: what one outbound webhook call of the API server was, for whoever watches
// the server (the workbench's Admission panel, tests): which webhook, for which request, what it
// answered (allowed or denied with its message, the JSONPatch, warnings), the object before and
// after the call, how long it took, and, for a call that failed, how (unreachable, TLS,
// timeout, bad response). ApiServer::webhookCalled() emits one per AdmissionReview sent; the
// record is general enough for a ConversionReview too (kind Conversion: `before` in the stored
// version, `after` converted).

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <chrono>

namespace opbench::apiserver {

struct WebhookCallRecord
{
    enum class Kind { Admission, Conversion };
    /// How a call failed (None: the webhook answered with a well-formed review).
    enum class Failure {
        None,
        Unreachable, ///< no connection: refused, no such host, an unmapped service
        Tls,         ///< the TLS handshake failed (caBundle does not verify the certificate)
        Timeout,     ///< no answer within timeoutSeconds
        BadResponse  ///< an HTTP error, a body that is no AdmissionReview, a patch that does not apply
    };

    Kind kind = Kind::Admission;
    bool mutating = false;     ///< admission: a mutating (not a validating) webhook
    bool reinvocation = false; ///< admission: the second call of a `reinvocationPolicy: IfNeeded` webhook
    QDateTime time;            ///< when the call was sent (the server's clock, UTC)
    QString webhook;           ///< the webhook's name ("deny.example.com")
    QString configuration;     ///< the configuration (or the CRD, for conversion) that names it
    QString url;               ///< where it was sent (with ?timeout=)
    QString operation;         ///< CREATE, UPDATE, DELETE (admission); CONVERT
    QString group;
    QString version;
    QString resource;    ///< plural ("configmaps")
    QString objectKind;  ///< "ConfigMap"
    QString subresource; ///< "", "status", "scale"
    QString namespaceName;
    QString name;
    QString uid; ///< the review's request uid
    bool dryRun = false;
    QString failurePolicy; ///< Fail or Ignore

    bool allowed = false;
    /// What the verdict meant for the request: 200 allowed, the denial's code (403 unless the
    /// webhook gave one ≥ 400), 500 a failed call under Fail, 0 a failed call ignored.
    int code = 0;
    /// The message the client got: `admission webhook "NAME" denied the request: …`, or
    /// `failed calling webhook "NAME": …` (empty when allowed, or failed and ignored).
    QString message;
    QStringList warnings;
    QJsonArray patch;   ///< the JSONPatch operations the webhook answered (decoded)
    QJsonObject before; ///< the object sent (for DELETE: the object deleted)
    QJsonObject after;  ///< the object after the call's patch (equals `before` without one)
    std::chrono::microseconds latency{0};
    Failure failure = Failure::None;
    QString error;        ///< the failure as kube-apiserver words it ("failed to call webhook: Post …")
    bool ignored = false; ///< failed, and failurePolicy Ignore let the request go on

    bool failed() const { return failure != Failure::None; }
};

/// "unreachable", "TLS", "timeout", "bad response" ("" for None).
QString describeFailure(WebhookCallRecord::Failure failure);

} // namespace opbench::apiserver

Q_DECLARE_METATYPE(opbench::apiserver::WebhookCallRecord)
