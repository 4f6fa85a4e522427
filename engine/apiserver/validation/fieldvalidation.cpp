// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/validation/fieldvalidation.h"

#include "engine/apiserver/schema/openapischema.h"
#include "engine/apiserver/validation/schemavalidator.h"

#include <QSet>

namespace opbench::apiserver {

namespace {

const QSet<QString> &objectMetaFields()
{
    static const QSet<QString> f{QStringLiteral("name"), QStringLiteral("generateName"), QStringLiteral("namespace"),
        QStringLiteral("selfLink"), QStringLiteral("uid"), QStringLiteral("resourceVersion"),
        QStringLiteral("generation"), QStringLiteral("creationTimestamp"), QStringLiteral("deletionTimestamp"),
        QStringLiteral("deletionGracePeriodSeconds"), QStringLiteral("labels"), QStringLiteral("annotations"),
        QStringLiteral("ownerReferences"), QStringLiteral("finalizers"), QStringLiteral("managedFields")};
    return f;
}

QStringList unknownMetadataKeys(const QJsonObject &object)
{
    QStringList out;
    const QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
    for (auto it = meta.begin(); it != meta.end(); ++it)
        if (!objectMetaFields().contains(it.key()))
            out << it.key();
    return out;
}

/// The top-level keys of a built-in object its kind does not have (the kind's own field list in
/// the OpenAPI field table, which is complete at that level; deeper levels are not checked).
QStringList unknownTopLevelKeys(const ResourceType &type, const QJsonObject &object)
{
    if (type.custom)
        return {};
    const QString definition = builtinDefinitionFor(type.mapping.gvk());
    if (definition.isEmpty())
        return {};
    const QJsonObject known = builtinSchemas().value(definition).value(QLatin1String("properties")).toObject();
    QStringList out;
    for (auto it = object.begin(); it != object.end(); ++it)
        if (!known.contains(it.key()))
            out << it.key();
    return out;
}

} // namespace

Expected<FieldValidation> fieldValidationFrom(const Request &request, const QString &optionsKind)
{
    const QString v = request.param(QStringLiteral("fieldValidation"));
    if (v.isEmpty() || v == QLatin1String("Warn"))
        return FieldValidation::Warn;
    if (v == QLatin1String("Strict"))
        return FieldValidation::Strict;
    if (v == QLatin1String("Ignore"))
        return FieldValidation::Ignore;
    const StatusCause cause{QStringLiteral("FieldValueNotSupported"),
        QStringLiteral("Unsupported value: %1: supported values: \"\", \"Ignore\", \"Strict\", \"Warn\"")
            .arg(formatCauseValue(v)),
        QStringLiteral("fieldValidation")};
    return Status::invalid(QStringLiteral("meta.k8s.io"), optionsKind, QString(), {cause});
}

namespace {

/// unknownFields() from the unknown metadata and top-level keys already found.
QStringList unknownFieldsWith(
    const ResourceType &type, const QJsonObject &object, const QStringList &metaKeys, const QStringList &topLevel)
{
    QStringList out;
    for (const QString &k : metaKeys)
        out << QStringLiteral("metadata.") + k;
    out += topLevel;
    if (type.custom && !type.schema.isEmpty()) {
        QStringList pruned;
        SchemaValidator(type.schema).prune(object, &pruned);
        out += pruned;
    }
    return out;
}

} // namespace

QStringList unknownFields(const ResourceType &type, const QJsonObject &object)
{
    return unknownFieldsWith(type, object, unknownMetadataKeys(object), unknownTopLevelKeys(type, object));
}

Expected<void> applyFieldValidation(
    FieldValidation mode, const ResourceType &type, QJsonObject &object, Responder::Headers *headers)
{
    const QStringList topLevel = unknownTopLevelKeys(type, object);
    const QStringList metaKeys = unknownMetadataKeys(object);
    if (mode == FieldValidation::Ignore && metaKeys.isEmpty() && topLevel.isEmpty())
        return {}; // nothing to report and nothing to drop: skip the schema walk
    const QStringList unknown = unknownFieldsWith(type, object, metaKeys, topLevel);
    if (unknown.isEmpty())
        return {};
    if (mode == FieldValidation::Strict)
        return strictDecodingError(unknown);
    if (mode == FieldValidation::Warn && headers) {
        for (const QString &w : unknownFieldWarnings(unknown))
            headers->append(qMakePair(QByteArray("Warning"), warningHeaderValue(w)));
    }
    if (!metaKeys.isEmpty()) {
        QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
        for (const QString &k : metaKeys)
            meta.remove(k);
        object.insert(QLatin1String("metadata"), meta);
    }
    for (const QString &k : topLevel) // as decoding into the built-in type drops them
        object.remove(k);
    return {}; // schema-unknown fields are pruned by the admission hook
}

QByteArray warningHeaderValue(const QString &text)
{
    QByteArray escaped;
    for (const char c : text.toUtf8()) {
        if (c == '"' || c == '\\')
            escaped += '\\';
        escaped += (c == '\r' || c == '\n') ? ' ' : c;
    }
    return "299 - \"" + escaped + '"';
}

} // namespace opbench::apiserver
