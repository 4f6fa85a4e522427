// SPDX-License-Identifier: Apache-2.0
#include "engine/webhook/admissionreview.h"

#include <QJsonDocument>

namespace opbench {

namespace {

const QLatin1String kAdmissionV1("admission.k8s.io/v1");
const QLatin1String kAdmissionV1beta1("admission.k8s.io/v1beta1");

GroupVersionKind gvkFrom(const QJsonObject &o)
{
    return GroupVersionKind(o.value(QLatin1String("group")).toString(), o.value(QLatin1String("version")).toString(),
        o.value(QLatin1String("kind")).toString());
}

} // namespace

AdmissionResponse AdmissionResponse::allowedResponse(const QString &message)
{
    AdmissionResponse r;
    r.allowed = true;
    r.result = Status(200, QString(), message);
    return r;
}

AdmissionResponse AdmissionResponse::denied(const QString &message)
{
    AdmissionResponse r;
    r.result = Status(403, QString::fromLatin1(StatusReason::Forbidden), message);
    return r;
}

AdmissionResponse AdmissionResponse::errored(int code, const QString &message)
{
    AdmissionResponse r;
    r.result = Status(code, QString(), message);
    return r;
}

AdmissionResponse AdmissionResponse::fromStatus(const Status &status)
{
    AdmissionResponse r;
    r.result = status;
    return r;
}

AdmissionResponse AdmissionResponse::patched(QJsonArray operations)
{
    AdmissionResponse r = allowedResponse();
    r.patch = std::move(operations);
    return r;
}

AdmissionResponse &AdmissionResponse::withWarnings(const QStringList &more)
{
    warnings += more;
    return *this;
}

Expected<AdmissionReview> decodeAdmissionReview(const QByteArray &body)
{
    QJsonParseError perr;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &perr);
    if (perr.error != QJsonParseError::NoError || !doc.isObject())
        return Status::badRequest(QStringLiteral("unable to decode the request: %1 at offset %2")
                                      .arg(doc.isNull() ? perr.errorString() : QStringLiteral("not a JSON object"))
                                      .arg(perr.offset));
    const QJsonObject root = doc.object();
    AdmissionReview review;
    review.apiVersion = root.value(QLatin1String("apiVersion")).toString();
    const QString kind = root.value(QLatin1String("kind")).toString();
    if (kind != QLatin1String("AdmissionReview")
        || (review.apiVersion != kAdmissionV1 && review.apiVersion != kAdmissionV1beta1))
        return Status::badRequest(QStringLiteral("unable to decode the request: expected an AdmissionReview of "
                                                 "admission.k8s.io/v1 or v1beta1, got kind \"%1\" apiVersion \"%2\"")
                                      .arg(kind, review.apiVersion));
    const QJsonValue reqValue = root.value(QLatin1String("request"));
    if (!reqValue.isObject())
        return Status::badRequest(QStringLiteral("unable to decode the request: the AdmissionReview has no request"));
    const QJsonObject req = reqValue.toObject();
    AdmissionRequest &r = review.request;
    r.uid = req.value(QLatin1String("uid")).toString();
    if (r.uid.isEmpty())
        return Status::badRequest(QStringLiteral("unable to decode the request: request.uid is missing"));
    r.kind = gvkFrom(req.value(QLatin1String("kind")).toObject());
    const QJsonObject res = req.value(QLatin1String("resource")).toObject();
    r.resource = GroupVersionResource(res.value(QLatin1String("group")).toString(),
        res.value(QLatin1String("version")).toString(), res.value(QLatin1String("resource")).toString());
    r.subResource = req.value(QLatin1String("subResource")).toString();
    r.name = req.value(QLatin1String("name")).toString();
    r.namespaceName = req.value(QLatin1String("namespace")).toString();
    r.operation = req.value(QLatin1String("operation")).toString();
    r.userInfo = req.value(QLatin1String("userInfo")).toObject();
    r.object = req.value(QLatin1String("object")).toObject();
    r.oldObject = req.value(QLatin1String("oldObject")).toObject();
    r.dryRun = req.value(QLatin1String("dryRun")).toBool();
    r.options = req.value(QLatin1String("options")).toObject();
    return review;
}

QJsonObject admissionResponseJson(const AdmissionResponse &response)
{
    QJsonObject out;
    out.insert(QLatin1String("uid"), response.uid);
    out.insert(QLatin1String("allowed"), response.allowed);
    QJsonObject status = response.result.toJson(); // metav1.Status without its TypeMeta
    status.remove(QLatin1String("kind"));
    status.remove(QLatin1String("apiVersion"));
    if (response.allowed)
        status.remove(QLatin1String("status"));
    if (status.value(QLatin1String("code")).toInt() == 0)
        status.insert(QLatin1String("code"), 200);
    out.insert(QLatin1String("status"), status);
    if (!response.patch.isEmpty()) {
        out.insert(QLatin1String("patchType"), QLatin1String("JSONPatch"));
        out.insert(QLatin1String("patch"),
            QString::fromLatin1(QJsonDocument(response.patch).toJson(QJsonDocument::Compact).toBase64()));
    }
    if (!response.warnings.isEmpty())
        out.insert(QLatin1String("warnings"), QJsonArray::fromStringList(response.warnings));
    return out;
}

QByteArray encodeAdmissionReview(const QString &apiVersion, const AdmissionResponse &response)
{
    const QJsonObject review{{QStringLiteral("apiVersion"), apiVersion.isEmpty() ? QString(kAdmissionV1) : apiVersion},
        {QStringLiteral("kind"), QStringLiteral("AdmissionReview")},
        {QStringLiteral("response"), admissionResponseJson(response)}};
    return QJsonDocument(review).toJson(QJsonDocument::Compact);
}

} // namespace opbench
