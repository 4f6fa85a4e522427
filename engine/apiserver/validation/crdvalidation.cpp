// SPDX-License-Identifier: Apache-2.0
// validateCrd(): is a CustomResourceDefinition well-formed enough to serve?
#include "engine/apiserver/validation/schemavalidator.h"
#include "engine/apiserver/validation/webhookconfig.h"

#include "engine/api/validation.h"

#include <QJsonArray>
#include <QSet>

namespace opbench::apiserver {

namespace {

StatusCause required(const QString &field, const QString &detail = {})
{
    return {QStringLiteral("FieldValueRequired"),
        detail.isEmpty() ? QStringLiteral("Required value") : QStringLiteral("Required value: ") + detail, field};
}

StatusCause invalid(const QString &field, const QJsonValue &value, const QString &detail)
{
    return {QStringLiteral("FieldValueInvalid"),
        QStringLiteral("Invalid value: %1: %2").arg(formatCauseValue(value), detail), field};
}

const QStringList &knownTypes()
{
    static const QStringList t{QStringLiteral("object"), QStringLiteral("array"), QStringLiteral("string"),
        QStringLiteral("integer"), QStringLiteral("number"), QStringLiteral("boolean")};
    return t;
}

// Structural checks on one schema node; `path` like "spec.versions[0].schema.openAPIV3Schema".
void checkStructural(const QJsonObject &s, const QString &path, bool root, QList<StatusCause> &out)
{
    const QString type = s.value(QLatin1String("type")).toString();
    const bool typeless = s.value(QLatin1String("x-kubernetes-int-or-string")).toBool()
        || s.value(QLatin1String("x-kubernetes-preserve-unknown-fields")).toBool();
    if (type.isEmpty() && !typeless)
        out.append(
            required(path + QLatin1String(".type"), QStringLiteral("must not be empty for specified object fields")));
    else if (!type.isEmpty() && !knownTypes().contains(type))
        out.append({QStringLiteral("FieldValueNotSupported"),
            QStringLiteral("Unsupported value: %1: supported values: \"array\", \"boolean\", \"integer\", \"number\", "
                           "\"object\", \"string\"")
                .arg(formatCauseValue(type)),
            path + QLatin1String(".type")});
    if (root && !type.isEmpty() && type != QLatin1String("object"))
        out.append(invalid(path + QLatin1String(".type"), type, QStringLiteral("must be object at the root")));
    const QJsonObject props = s.value(QLatin1String("properties")).toObject();
    for (auto it = props.constBegin(); it != props.constEnd(); ++it)
        checkStructural(it.value().toObject(), QStringLiteral("%1.properties[%2]").arg(path, it.key()), false, out);
    if (s.value(QLatin1String("items")).isObject())
        checkStructural(s.value(QLatin1String("items")).toObject(), path + QLatin1String(".items"), false, out);
    else if (type == QLatin1String("array"))
        out.append(required(path + QLatin1String(".items"), QStringLiteral("must be specified")));
    if (s.value(QLatin1String("additionalProperties")).isObject())
        checkStructural(s.value(QLatin1String("additionalProperties")).toObject(),
            path + QLatin1String(".additionalProperties"), false, out);
}

void checkNames(const QJsonObject &crd, const QJsonObject &spec, QList<StatusCause> &out)
{
    const QString group = spec.value(QLatin1String("group")).toString();
    const QJsonObject names = spec.value(QLatin1String("names")).toObject();
    const QString plural = names.value(QLatin1String("plural")).toString();
    const QString name = crd.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
    if (!plural.isEmpty() && !group.isEmpty() && name != plural + u'.' + group)
        out.append(invalid(
            QStringLiteral("metadata.name"), name, QStringLiteral("must be spec.names.plural+\".\"+spec.group")));
    if (group.isEmpty())
        out.append(required(QStringLiteral("spec.group")));
    else if (!group.contains(u'.'))
        out.append(
            invalid(QStringLiteral("spec.group"), group, QStringLiteral("should be a domain with at least one dot")));
    if (plural.isEmpty())
        out.append(required(QStringLiteral("spec.names.plural")));
    if (names.value(QLatin1String("kind")).toString().isEmpty())
        out.append(required(QStringLiteral("spec.names.kind")));
    const QString scope = spec.value(QLatin1String("scope")).toString();
    if (scope.isEmpty())
        out.append(required(QStringLiteral("spec.scope")));
    else if (scope != QLatin1String("Namespaced") && scope != QLatin1String("Cluster"))
        out.append({QStringLiteral("FieldValueNotSupported"),
            QStringLiteral("Unsupported value: %1: supported values: \"Cluster\", \"Namespaced\"")
                .arg(formatCauseValue(scope)),
            QStringLiteral("spec.scope")});
}

void checkVersions(const QJsonObject &spec, QList<StatusCause> &out)
{
    const QJsonArray versions = spec.value(QLatin1String("versions")).toArray();
    if (versions.isEmpty()) {
        out.append(required(QStringLiteral("spec.versions"),
            QStringLiteral("must have exactly one version marked as storage version")));
        return;
    }
    int storage = 0;
    QSet<QString> seen;
    for (qsizetype i = 0; i < versions.size(); ++i) {
        const QJsonObject v = versions.at(i).toObject();
        const QString path = QStringLiteral("spec.versions[%1]").arg(i);
        const QString vname = v.value(QLatin1String("name")).toString();
        if (vname.isEmpty())
            out.append(required(path + QLatin1String(".name")));
        else if (seen.contains(vname))
            out.append({QStringLiteral("FieldValueDuplicate"),
                QStringLiteral("Duplicate value: %1").arg(formatCauseValue(vname)), path + QLatin1String(".name")});
        seen.insert(vname);
        if (v.value(QLatin1String("storage")).toBool())
            ++storage;
        const QJsonValue schema = v.value(QLatin1String("schema")).toObject().value(QLatin1String("openAPIV3Schema"));
        if (!schema.isObject())
            out.append(
                required(path + QLatin1String(".schema.openAPIV3Schema"), QStringLiteral("schemas are required")));
        else
            checkStructural(schema.toObject(), path + QLatin1String(".schema.openAPIV3Schema"), true, out);
    }
    if (storage != 1)
        out.append(invalid(QStringLiteral("spec.versions"), double(storage),
            QStringLiteral("must have exactly one version marked as storage version")));
}

/// spec.conversion as apiextensions validation checks it. The paths are upstream's internal ones:
/// a v1 `spec.conversion.webhook.clientConfig` is reported at `spec.conversion.webhookClientConfig`.
void checkConversion(const QJsonObject &spec, QList<StatusCause> &out)
{
    if (!spec.value(QLatin1String("conversion")).isObject())
        return;
    const QJsonObject conversion = spec.value(QLatin1String("conversion")).toObject();
    const QString at = QStringLiteral("spec.conversion");
    const QString strategy = conversion.value(QLatin1String("strategy")).toString();
    const QStringList strategies{QStringLiteral("None"), QStringLiteral("Webhook")};
    if (strategy.isEmpty())
        out.append(fielderror::required(at + QStringLiteral(".strategy")));
    else if (!strategies.contains(strategy))
        out.append(fielderror::notSupported(at + QStringLiteral(".strategy"), strategy, strategies));
    const QJsonObject webhook = conversion.value(QLatin1String("webhook")).toObject();
    const bool hasClientConfig = webhook.value(QLatin1String("clientConfig")).isObject();
    const QJsonArray reviewVersions = webhook.value(QLatin1String("conversionReviewVersions")).toArray();
    if (strategy == QLatin1String("Webhook")) {
        if (!hasClientConfig)
            out.append(fielderror::required(at + QStringLiteral(".webhookClientConfig"),
                QStringLiteral("required when strategy is set to Webhook")));
        else
            validateWebhookClientConfig(webhook.value(QLatin1String("clientConfig")).toObject(),
                at + QStringLiteral(".webhookClientConfig"), out);
        validateWebhookReviewVersions(reviewVersions, at + QStringLiteral(".conversionReviewVersions"), QString(), out);
        return;
    }
    if (hasClientConfig)
        out.append(fielderror::forbidden(at + QStringLiteral(".webhookClientConfig"),
            QStringLiteral("should not be set when strategy is not set to Webhook")));
    if (!reviewVersions.isEmpty())
        out.append(fielderror::forbidden(at + QStringLiteral(".conversionReviewVersions"),
            QStringLiteral("should not be set when strategy is not set to Webhook")));
}

} // namespace

QList<StatusCause> validateCrd(const QJsonObject &crd)
{
    QList<StatusCause> out;
    const QJsonObject spec = crd.value(QLatin1String("spec")).toObject();
    checkNames(crd, spec, out);
    checkVersions(spec, out);
    checkConversion(spec, out);
    return out;
}

Expected<void> checkCrd(const QJsonObject &crd)
{
    const QList<StatusCause> causes = validateCrd(crd);
    if (causes.isEmpty())
        return {};
    return Status::invalid(QStringLiteral("apiextensions.k8s.io"), QStringLiteral("CustomResourceDefinition"),
        crd.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString(), causes);
}

} // namespace opbench::apiserver
