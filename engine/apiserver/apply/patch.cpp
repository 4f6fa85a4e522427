// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/apply/patch.h"

#include "engine/apiserver/apply/jsonpatch.h"
#include "engine/apiserver/apply/strategicmerge.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace opbench::apiserver {

PatchKind mediaTypePatchKind(const QByteArray &contentType)
{
    QByteArray type = contentType;
    const qsizetype semi = type.indexOf(';');
    if (semi >= 0)
        type.truncate(semi);
    type = type.trimmed().toLower();
    if (type == "application/json-patch+json")
        return PatchKind::JsonPatch;
    if (type == "application/merge-patch+json")
        return PatchKind::MergePatch;
    if (type == "application/strategic-merge-patch+json")
        return PatchKind::StrategicMerge;
    if (type == "application/apply-patch+yaml")
        return PatchKind::Apply;
    return PatchKind::Unknown;
}

QByteArray patchMediaType(PatchKind kind)
{
    switch (kind) {
    case PatchKind::JsonPatch:
        return "application/json-patch+json";
    case PatchKind::MergePatch:
        return "application/merge-patch+json";
    case PatchKind::StrategicMerge:
        return "application/strategic-merge-patch+json";
    case PatchKind::Apply:
        return "application/apply-patch+yaml";
    case PatchKind::Unknown:
        break;
    }
    return {};
}

Status customResourcePatchUnsupported()
{
    return Status::unsupportedMediaType(
        QStringLiteral("the body of the request was in an unknown format - accepted media types include: "
                       "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml"));
}

Status builtinPatchUnsupported()
{
    return Status::unsupportedMediaType(
        QStringLiteral("the body of the request was in an unknown format - accepted media types include: "
                       "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, "
                       "application/strategic-merge-patch+json"));
}

Expected<void> validatePatchOptions(PatchKind kind, const QString &fieldManager, bool forceGiven)
{
    QList<StatusCause> causes;
    if (kind == PatchKind::Apply && fieldManager.isEmpty())
        causes.append({QStringLiteral("FieldValueRequired"),
            QStringLiteral("Required value: is required for apply patch"), QStringLiteral("fieldManager")});
    if (kind != PatchKind::Apply && forceGiven)
        causes.append({QStringLiteral("FieldValueForbidden"),
            QStringLiteral("Forbidden: may not be specified for non-apply patch"), QStringLiteral("force")});
    if (fieldManager.size() > 128)
        causes.append({QStringLiteral("FieldValueTooLong"), QStringLiteral("Too long: may not be longer than 128"),
            QStringLiteral("fieldManager")});
    if (causes.isEmpty())
        return {};
    return Status::invalid(QStringLiteral("meta.k8s.io"), QStringLiteral("PatchOptions"), QString(), causes);
}

Expected<QJsonValue> parsePatchBody(const QByteArray &body)
{
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(body, &err);
    if (err.error != QJsonParseError::NoError)
        return Status::badRequest(
            QStringLiteral("error decoding patch: %1 at offset %2").arg(err.errorString()).arg(err.offset));
    if (doc.isArray())
        return QJsonValue(doc.array());
    return QJsonValue(doc.object());
}

Expected<QJsonObject> applyPatch(PatchKind kind, const QJsonObject &live, const QByteArray &body, bool customResource)
{
    if (kind == PatchKind::Unknown)
        return customResource ? customResourcePatchUnsupported() : builtinPatchUnsupported();
    if (kind == PatchKind::StrategicMerge && customResource)
        return customResourcePatchUnsupported();
    Expected<QJsonValue> patch = parsePatchBody(body);
    if (!patch)
        return patch.error();
    switch (kind) {
    case PatchKind::JsonPatch:
        return applyJsonPatch(live, *patch);
    case PatchKind::MergePatch:
        return applyMergePatch(live, *patch);
    case PatchKind::StrategicMerge:
        return applyStrategicMergePatch(live, *patch);
    case PatchKind::Apply:
        if (!patch->isObject())
            return Status::badRequest(QStringLiteral("an apply patch must be an object"));
        return applyServerSide(live, patch->toObject(), customResource);
    case PatchKind::Unknown:
        break;
    }
    return builtinPatchUnsupported();
}

Expected<QJsonObject> applyServerSide(
    const std::optional<QJsonObject> &live, const QJsonObject &applied, bool customResource)
{
    if (applied.value(QLatin1String("apiVersion")).toString().isEmpty()
        || applied.value(QLatin1String("kind")).toString().isEmpty())
        return Status::badRequest(
            QStringLiteral("invalid object type: an apply configuration must set apiVersion and kind"));
    if (!live)
        return applied;
    const QString liveName = live->value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
    const QString name = applied.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
    if (!name.isEmpty() && name != liveName)
        return Status::badRequest(
            QStringLiteral("the name of the object (%1) does not match the name on the URL (%2)").arg(name, liveName));
    if (customResource)
        return applyMergePatch(*live, applied);
    return applyStrategicMergePatch(*live, applied);
}

} // namespace opbench::apiserver
