// SPDX-License-Identifier: Apache-2.0
#pragma once
// admissionWebhook(): the HTTP side of an admission webhook (controller-runtime's
// admission.Webhook.ServeHTTP and Handle). It checks the content type, decodes the
// AdmissionReview, calls the handler and answers an AdmissionReview echoing the request's uid and
// the review's apiVersion. Bad input never escapes as a crash: a body that is not an
// AdmissionReview gets allowed=false with code 400, a handler that throws gets allowed=false with
// code 500 ("panic: <what> [recovered]"), and the log says which webhook and why.

#include "engine/webhook/admissionreview.h"
#include "engine/webhook/webhookserver.h"

#include <functional>

namespace opbench {

/// Decides one admission request.
using AdmissionHandler = std::function<AdmissionResponse(const AdmissionRequest &)>;

/// The server handler for the webhook at `path` (named in logs).
WebhookHandler admissionWebhook(const QString &path, AdmissionHandler handler);

} // namespace opbench
