// SPDX-License-Identifier: Apache-2.0
#pragma once
// AdmissionChain: kube-apiserver's webhook admission for one write. mutate() calls the matching
// mutating webhooks one after another (configurations by name, webhooks in list order), applies
// their JSONPatch answers and reinvokes once the `reinvocationPolicy: IfNeeded` webhooks a later
// webhook changed the object after; validate() calls the matching validating webhooks in
// parallel. Denials and failures are worded as k8s.io/apiserver/pkg/admission/plugin/webhook
// words them (`admission webhook "NAME" denied the request: …`, 403 by default;
// `Internal error occurred: failed calling webhook "NAME": …`, 500), failurePolicy Ignore skips a
// failed call, response warnings are collected for `Warning: 299` headers, and a dry-run request
// to a webhook whose sideEffects is neither None nor NoneOnDryRun is refused (400). Every call
// sent is reported through called() once it answered or failed (a WebhookCallRecord).

#include "engine/api/expected.h"
#include "engine/apiserver/admission/webhookcaller.h"
#include "engine/apiserver/admission/webhookmatcher.h"

namespace opbench::apiserver {

class AdmissionChain : public QObject
{
    Q_OBJECT
public:
    using MutateDone = std::function<void(Expected<QJsonObject> object, QStringList warnings)>;
    using ValidateDone = std::function<void(Expected<void> ok, QStringList warnings)>;

    AdmissionChain(Store *store, WebhookCaller *caller, QObject *parent = nullptr);

    /// True when a mutating (or validating) webhook matches `attributes`.
    bool matches(bool mutating, const AdmissionAttributes &attributes) const;
    /// Runs the mutating webhooks; `done` gets the (possibly patched) object.
    void mutate(AdmissionAttributes attributes, MutateDone done);
    /// Runs the validating webhooks; `done` runs once all answered (or the first denial).
    void validate(AdmissionAttributes attributes, ValidateDone done);

Q_SIGNALS:
    /// One AdmissionReview was sent and answered (or failed); emitted before the write goes on.
    void called(const opbench::apiserver::WebhookCallRecord &record);

private:
    struct MutationRun;
    /// Sends the review for `attributes` to `hook`; `done` gets the answer and its record.
    void send(const MatchedWebhook &hook, const AdmissionAttributes &attributes, bool mutating,
        std::function<void(WebhookAnswer, WebhookCallRecord)> done);
    void step(std::shared_ptr<MutationRun> run);
    void answered(std::shared_ptr<MutationRun> run, const MatchedWebhook &hook, const WebhookAnswer &answer,
        WebhookCallRecord record);

    Store *m_store;
    WebhookCaller *m_caller;
};

} // namespace opbench::apiserver
