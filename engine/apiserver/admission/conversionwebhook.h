// SPDX-License-Identifier: Apache-2.0
#pragma once
// ConversionWebhook: kube-apiserver's CRD conversion for `spec.conversion.strategy: Webhook`
// (apiextensions-apiserver's webhook converter). Sends one ConversionReview (v1 or v1beta1, the
// first of the CRD's conversionReviewVersions the server knows) with the objects not already at
// the desired version, through the admission webhooks' HTTPS client (webhookcaller.h; 30 s
// timeout), checks the answer as upstream does (response kind, request uid, result.status
// Success, the number of objects, each object's apiVersion, kind, name, namespace and uid), keeps
// every original metadata field but labels and annotations, and words failures as upstream:
// `conversion webhook for GROUP/VERSION, Kind=KIND failed: …` (answered 500 by the handlers).
// Each finished call is reported through callFinished() for the workbench.

#include "engine/apiserver/admission/webhookcaller.h"
#include "engine/apiserver/validation/conversion.h"

#include <QMetaType>

namespace opbench {
class Clock;
}

namespace opbench::apiserver {

/// One ConversionReview the server sent, as the workbench shows it.
struct ConversionCall
{
    QString crd;  // the CRD's name
    QString from; // the apiVersion of the (first) object sent
    QString to;   // desiredAPIVersion
    int objects = 0;
    QString uid;
    bool ok = false;
    QString error; // the message the client got, when !ok
    qint64 latencyMs = 0;
    QString url;                                                           // where it was sent
    QDateTime time;                                                        // when it was sent (the server's clock, UTC)
    WebhookCallRecord::Failure failure = WebhookCallRecord::Failure::None; // how it failed, when !ok
    QJsonObject review;                                                    // the ConversionReview sent
    QJsonObject response; // its `response` as answered (empty when none came)
};

/// The call as the Admission panel lists webhook calls (kind Conversion, operation CONVERT,
/// `before`/`after` the first object sent and converted).
WebhookCallRecord callRecordOf(const ConversionCall &call);

class ConversionWebhook : public QObject
{
    Q_OBJECT
public:
    /// `clock` measures the latency (the system clock when null).
    ConversionWebhook(WebhookCaller *caller, const Clock *clock, QObject *parent = nullptr);

    /// Converts `objects` of `type` to `desiredApiVersion` (see conversion.h's AsyncConverter).
    void convert(const ResourceType &type, QList<QJsonObject> objects, QString desiredApiVersion, ConvertDone done);
    /// convert() as an AsyncConverter; calls after this object is gone fail with a 503.
    AsyncConverter converter();

Q_SIGNALS:
    /// A ConversionReview was answered, failed or timed out (emitted on this object's thread).
    void callFinished(const opbench::apiserver::ConversionCall &call);

private:
    struct Run;
    void answered(const std::shared_ptr<Run> &run, const WebhookReply &reply);

    WebhookCaller *m_caller;
    const Clock *m_clock;
};

} // namespace opbench::apiserver

Q_DECLARE_METATYPE(opbench::apiserver::ConversionCall)
