// SPDX-License-Identifier: Apache-2.0
#include "engine/webhook/customwebhook.h"

#include "engine/webhook/jsonpatch.h"

namespace opbench {

ValidationResult ValidationResult::allowed(QStringList warnings)
{
    ValidationResult r;
    r.m_warnings = std::move(warnings);
    return r;
}

ValidationResult ValidationResult::denied(const QString &message, QStringList warnings)
{
    ValidationResult r = allowed(std::move(warnings));
    r.m_error = Status(403, QString::fromLatin1(StatusReason::Forbidden), message);
    return r;
}

ValidationResult ValidationResult::invalid(const QList<StatusCause> &causes, QStringList warnings)
{
    // Kind and name are filled in by the handler, which knows the object (validationResponse).
    ValidationResult r = allowed(std::move(warnings));
    StatusDetails details;
    details.causes = causes;
    r.m_error = Status(422, QString::fromLatin1(StatusReason::Invalid), QString(), details);
    return r;
}

ValidationResult ValidationResult::failed(const Status &status, QStringList warnings)
{
    ValidationResult r = allowed(std::move(warnings));
    r.m_error = status;
    return r;
}

namespace {
QString webhookPath(const char *prefix, const GroupVersionKind &gvk)
{
    return QStringLiteral("/%1-%2-%3-%4")
        .arg(QLatin1String(prefix), QString(gvk.group).replace(u'.', u'-'), gvk.version, gvk.kind.toLower());
}
} // namespace

QString mutatePath(const GroupVersionKind &gvk) { return webhookPath("mutate", gvk); }
QString validatePath(const GroupVersionKind &gvk) { return webhookPath("validate", gvk); }

namespace detail {

std::optional<AdmissionResponse> undecodable(
    const QJsonObject &document, const GroupVersionKind &gvk, const Expected<void> &decoded, const char *which)
{
    if (document.isEmpty())
        return AdmissionResponse::errored(
            400, QStringLiteral("there is no content to decode: request.%1 is empty").arg(QLatin1String(which)));
    const QString apiVersion = document.value(QLatin1String("apiVersion")).toString();
    const QString kind = document.value(QLatin1String("kind")).toString();
    if (apiVersion != gvk.apiVersion() || kind != gvk.kind)
        return AdmissionResponse::errored(400,
            QStringLiteral("unable to decode request.%1: expected %2 %3, got kind \"%4\" apiVersion \"%5\"")
                .arg(QLatin1String(which), gvk.apiVersion(), gvk.kind, kind, apiVersion));
    if (!decoded)
        return AdmissionResponse::errored(400, decoded.error().message());
    return std::nullopt;
}

AdmissionResponse defaultedResponse(const QJsonObject &before, const QJsonObject &after, bool keepRemovals)
{
    QJsonArray ops;
    for (const auto &op : createJsonPatch(before, after))
        if (keepRemovals || op.toObject().value(QLatin1String("op")).toString() != QLatin1String("remove"))
            ops.append(op);
    return AdmissionResponse::patched(ops);
}

AdmissionResponse refusedByDefaulter(const Status &error)
{
    if (error.code() >= 400)
        return AdmissionResponse::fromStatus(error);
    return AdmissionResponse::denied(error.message());
}

AdmissionResponse validationResponse(const ValidationResult &result, const GroupVersionKind &gvk, const QString &name)
{
    if (result.isAllowed())
        return AdmissionResponse::allowedResponse().withWarnings(result.warnings());
    Status error = *result.error();
    if (error.code() == 422 && error.message().isEmpty())
        error = Status::invalid(gvk.group, gvk.kind, name, error.details().causes);
    if (error.code() < 400) // no API status: a plain denial
        return AdmissionResponse::denied(error.message()).withWarnings(result.warnings());
    return AdmissionResponse::fromStatus(error).withWarnings(result.warnings());
}

} // namespace detail

} // namespace opbench
