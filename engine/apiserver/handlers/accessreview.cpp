// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/handlers/accessreview.h"

#include "engine/apiserver/handlers/resourcehandler.h"

#include <QJsonArray>

namespace opbench::apiserver {

namespace {

const QString kAuthorization = QStringLiteral("authorization.k8s.io");
const QString kAuthentication = QStringLiteral("authentication.k8s.io");

QString kindFor(const QString &resource)
{
    if (resource == QLatin1String("selfsubjectaccessreviews"))
        return QStringLiteral("SelfSubjectAccessReview");
    if (resource == QLatin1String("selfsubjectrulesreviews"))
        return QStringLiteral("SelfSubjectRulesReview");
    if (resource == QLatin1String("subjectaccessreviews"))
        return QStringLiteral("SubjectAccessReview");
    if (resource == QLatin1String("localsubjectaccessreviews"))
        return QStringLiteral("LocalSubjectAccessReview");
    if (resource == QLatin1String("selfsubjectreviews"))
        return QStringLiteral("SelfSubjectReview");
    return QString();
}

Status invalidSpec(const QString &kind, const QString &field, const QString &message)
{
    return Status::invalid(
        kAuthorization, kind, QString(), {StatusCause{QStringLiteral("FieldValueInvalid"), message, field}});
}

/// 422 unless exactly one of resourceAttributes / nonResourceAttributes is set.
Expected<void> checkAttributes(const QString &kind, const QJsonObject &spec)
{
    const bool res = spec.contains(QLatin1String("resourceAttributes"));
    const bool nonRes = spec.contains(QLatin1String("nonResourceAttributes"));
    if (res == nonRes) {
        return invalidSpec(kind, QStringLiteral("spec.resourceAttributes"),
            QStringLiteral("Invalid value: \"null\": exactly one of nonResourceAttributes or resourceAttributes must "
                           "be specified"));
    }
    return {};
}

QJsonObject decision(bool allowed)
{
    QJsonObject status{{QStringLiteral("allowed"), allowed}};
    if (allowed)
        status.insert(QStringLiteral("reason"), QStringLiteral("allowed by the opbench rules"));
    return status;
}

} // namespace

bool AccessReviews::isReview(const RequestInfo &info)
{
    if (!info.isResourceRequest)
        return false;
    if (info.apiGroup == kAuthentication)
        return info.resource == QLatin1String("selfsubjectreviews")
            && (info.apiVersion == QLatin1String("v1") || info.apiVersion == QLatin1String("v1beta1"));
    return info.apiGroup == kAuthorization && info.apiVersion == QLatin1String("v1")
        && !kindFor(info.resource).isEmpty();
}

void AccessReviews::handle(const Request &request, const RequestInfo &info, Responder responder) const
{
    const QString kind = kindFor(info.resource);
    const bool local = info.resource == QLatin1String("localsubjectaccessreviews");
    const Status notFound(404, QString::fromLatin1(StatusReason::NotFound),
        QStringLiteral("the server could not find the requested resource"));
    if (!info.name.isEmpty() || !info.subresource.isEmpty() || local == info.namespaceName.isEmpty())
        return responder.sendStatus(notFound);
    if (request.method != "POST")
        return responder.sendStatus(Status::methodNotAllowed(
            QStringLiteral("the server does not allow this method on the requested resource")));
    auto decoded = ResourceHandler::decodeBody(request);
    if (!decoded)
        return responder.sendStatus(decoded.error());
    QJsonObject review = *decoded;
    const QString group = info.apiGroup;
    const QString bodyKind = review.value(QLatin1String("kind")).toString();
    if (!bodyKind.isEmpty() && bodyKind != kind) {
        return responder.sendStatus(Status::badRequest(
            QStringLiteral("the kind in the data (%1) does not match the expected kind (%2)").arg(bodyKind, kind)));
    }
    review.insert(QStringLiteral("kind"), kind);
    review.insert(QStringLiteral("apiVersion"), group + u'/' + info.apiVersion);
    QJsonObject meta = review.value(QLatin1String("metadata")).toObject();
    meta.insert(QStringLiteral("creationTimestamp"), QJsonValue::Null);
    review.insert(QStringLiteral("metadata"), meta);
    const QJsonObject spec = review.value(QLatin1String("spec")).toObject();

    if (kind == QLatin1String("SelfSubjectReview")) {
        QJsonArray groups{QStringLiteral("system:authenticated")};
        review.insert(QStringLiteral("status"),
            QJsonObject{{QStringLiteral("userInfo"),
                QJsonObject{{QStringLiteral("username"), request.user}, {QStringLiteral("groups"), groups}}}});
        return responder.sendJson(201, review);
    }
    if (kind == QLatin1String("SelfSubjectRulesReview")) {
        const QString ns = spec.value(QLatin1String("namespace")).toString();
        if (ns.isEmpty())
            return responder.sendStatus(Status::badRequest(QStringLiteral("no namespace on request")));
        QJsonArray resourceRules;
        QJsonArray nonResourceRules;
        for (const PolicyRule &r : m_auth->rulesFor(request.user).rulesIn(ns))
            (r.isResourceRule() ? resourceRules : nonResourceRules).append(r.toJson());
        review.insert(QStringLiteral("status"),
            QJsonObject{{QStringLiteral("resourceRules"), resourceRules},
                {QStringLiteral("nonResourceRules"), nonResourceRules}, {QStringLiteral("incomplete"), false}});
        return responder.sendJson(201, review);
    }
    if (auto ok = checkAttributes(kind, spec); !ok)
        return responder.sendStatus(ok.error());
    AccessAttributes attributes = AccessAttributes::fromReviewSpec(spec);
    QString subject = request.user;
    if (kind == QLatin1String("SubjectAccessReview") || local) {
        subject = spec.value(QLatin1String("user")).toString();
        if (subject.isEmpty() && spec.value(QLatin1String("groups")).toArray().isEmpty()) {
            return responder.sendStatus(invalidSpec(kind, QStringLiteral("spec.user"),
                QStringLiteral("Invalid value: \"\": at least one of user or group must be specified")));
        }
    }
    if (local) {
        if (!attributes.resourceRequest) {
            return responder.sendStatus(invalidSpec(kind, QStringLiteral("spec.nonResourceAttributes"),
                QStringLiteral("Invalid value: \"\": disallowed on this kind of request")));
        }
        if (attributes.namespaceName != info.namespaceName) {
            return responder.sendStatus(Status::badRequest(
                QStringLiteral("spec.resourceAttributes.namespace must match namespace: %1").arg(info.namespaceName)));
        }
    }
    review.insert(QStringLiteral("status"), decision(m_auth->allows(subject, attributes)));
    responder.sendJson(201, review);
}

} // namespace opbench::apiserver
