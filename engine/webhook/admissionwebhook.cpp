// SPDX-License-Identifier: Apache-2.0
#include "engine/webhook/admissionwebhook.h"

#include "engine/base/logger.h"

#include <exception>

namespace opbench {

namespace {

AdmissionResponse callHandler(const AdmissionHandler &handler, const AdmissionRequest &request, const Logger &log)
{
    try {
        return handler(request);
    } catch (const std::exception &e) {
        log.error(QString::fromUtf8(e.what()), QStringLiteral("observed a panic in webhook"),
            {{QStringLiteral("uid"), request.uid}});
        return AdmissionResponse::errored(
            500, QStringLiteral("panic: %1 [recovered]").arg(QString::fromUtf8(e.what())));
    } catch (...) {
        log.error(QStringLiteral("unknown exception"), QStringLiteral("observed a panic in webhook"),
            {{QStringLiteral("uid"), request.uid}});
        return AdmissionResponse::errored(500, QStringLiteral("panic: unknown exception [recovered]"));
    }
}

WebhookReply serve(const QString &path, const AdmissionHandler &handler, const WebhookRequest &http)
{
    const Logger log = Logger().withName(QStringLiteral("admission")).withValues({{QStringLiteral("webhook"), path}});
    const QByteArray contentType = http.contentType.split(';').first().trimmed();
    if (http.body.isEmpty()) {
        log.error(QStringLiteral("request body is empty"), QStringLiteral("bad request"));
        return WebhookReply(
            200, encodeAdmissionReview({}, AdmissionResponse::errored(400, QStringLiteral("request body is empty"))));
    }
    if (contentType != "application/json") {
        const QString why
            = QStringLiteral("contentType=%1, expected application/json").arg(QString::fromUtf8(http.contentType));
        log.error(why, QStringLiteral("unable to process a request with unknown content type"));
        return WebhookReply(200, encodeAdmissionReview({}, AdmissionResponse::errored(400, why)));
    }
    Expected<AdmissionReview> review = decodeAdmissionReview(http.body);
    if (!review) {
        log.error(review.error().message(), QStringLiteral("unable to decode the request"));
        return WebhookReply(200, encodeAdmissionReview({}, AdmissionResponse::errored(400, review.error().message())));
    }
    const AdmissionRequest &request = review->request;
    AdmissionResponse response = callHandler(handler, request, log);
    response.uid = request.uid;
    if (response.result.code() == 0)
        response.result = Status(200, response.result.reason(), response.result.message(), response.result.details());
    if (!response.allowed)
        log.info(QStringLiteral("denied"),
            {{QStringLiteral("uid"), request.uid}, {QStringLiteral("kind"), request.kind.toString()},
                {QStringLiteral("name"), request.name}, {QStringLiteral("code"), response.result.code()},
                {QStringLiteral("message"), response.result.message()}});
    return WebhookReply(200, encodeAdmissionReview(review->apiVersion, response));
}

} // namespace

WebhookHandler admissionWebhook(const QString &path, AdmissionHandler handler)
{
    return [path, handler = std::move(handler)](const WebhookRequest &http) { return serve(path, handler, http); };
}

} // namespace opbench
