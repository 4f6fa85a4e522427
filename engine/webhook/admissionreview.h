// SPDX-License-Identifier: Apache-2.0
#pragma once
// AdmissionRequest / AdmissionResponse: admission.k8s.io/v1 (and v1beta1) AdmissionReview as a
// webhook receives and answers it, with controller-runtime's response constructors
// (pkg/webhook/admission/response.go):
//
//   allowed()       allowed, result code 200;
//   denied(msg)     not allowed, code 403, reason Forbidden, the message;
//   errored(c, msg) not allowed, code c (400 for a bad review, 500 for a failed handler);
//   fromStatus(s)   not allowed, the whole Status (a 422 Invalid with its field causes);
//   patched(ops)    allowed with a JSON patch (patchType JSONPatch, base64 in the review).
//
// The response echoes the request's uid, and the review the request's apiVersion and kind.

#include "engine/api/expected.h"
#include "engine/api/gvk.h"
#include "engine/api/status.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

namespace opbench {

struct AdmissionRequest
{
    AdmissionRequest() = default;
    QString uid;
    GroupVersionKind kind; ///< the object's kind
    GroupVersionResource resource;
    QString subResource;
    QString name;
    QString namespaceName;
    QString operation; ///< CREATE, UPDATE, DELETE or CONNECT
    QJsonObject userInfo;
    QJsonObject object;    ///< empty for DELETE
    QJsonObject oldObject; ///< UPDATE and DELETE
    bool dryRun = false;
    QJsonObject options;
};

struct AdmissionResponse
{
    AdmissionResponse() = default;
    QString uid;
    bool allowed = false;
    Status result;    ///< code, reason, message (and details for an Invalid status)
    QJsonArray patch; ///< RFC 6902 operations; patchType JSONPatch when not empty
    QStringList warnings;

    static AdmissionResponse allowedResponse(const QString &message = {});
    static AdmissionResponse denied(const QString &message);
    static AdmissionResponse errored(int code, const QString &message);
    static AdmissionResponse fromStatus(const Status &status);
    static AdmissionResponse patched(QJsonArray operations);
    AdmissionResponse &withWarnings(const QStringList &more);
};

/// A decoded AdmissionReview: its apiVersion (echoed in the answer) and request.
struct AdmissionReview
{
    AdmissionReview() = default;
    QString apiVersion;
    AdmissionRequest request;
};

/// Decodes an AdmissionReview. Errors (a 400 Status) say what is wrong: not JSON, not an
/// AdmissionReview of admission.k8s.io/v1 or v1beta1, no request, no uid.
Expected<AdmissionReview> decodeAdmissionReview(const QByteArray &body);
/// The review answering with `response` (apiVersion "" = admission.k8s.io/v1).
QByteArray encodeAdmissionReview(const QString &apiVersion, const AdmissionResponse &response);
/// The response part as JSON (what encodeAdmissionReview() writes under "response").
QJsonObject admissionResponseJson(const AdmissionResponse &response);

} // namespace opbench
