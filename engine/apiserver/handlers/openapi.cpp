// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/handlers/openapi.h"

#include "engine/apiserver/handlers/discovery.h"
#include "engine/apiserver/schema/openapischema.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

namespace opbench::apiserver {

namespace {

const QString kSchemaPrefix = QStringLiteral("#/components/schemas/");

QString gvPathOf(const GroupVersionResource &gvr)
{
    return gvr.group.isEmpty() ? QStringLiteral("api/") + gvr.version
                               : QStringLiteral("apis/%1/%2").arg(gvr.group, gvr.version);
}

QJsonObject refTo(const QString &name) { return QJsonObject{{QStringLiteral("$ref"), kSchemaPrefix + name}}; }

QJsonObject gvkObject(const ResourceType &t)
{
    return QJsonObject{{QStringLiteral("group"), t.gvr().group}, {QStringLiteral("version"), t.gvr().version},
        {QStringLiteral("kind"), t.kind()}};
}

} // namespace

QJsonObject OpenApiV3::customKindSchema(const ResourceType &t)
{
    QJsonObject s = t.schema.isEmpty() ? QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                        {QStringLiteral("x-kubernetes-preserve-unknown-fields"), true}}
                                       : t.schema;
    QJsonObject props = s.value(QLatin1String("properties")).toObject();
    props.insert(QStringLiteral("apiVersion"),
        QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
            {QStringLiteral("description"),
                QStringLiteral("APIVersion defines the versioned schema of this representation of an object.")}});
    props.insert(QStringLiteral("kind"),
        QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
            {QStringLiteral("description"),
                QStringLiteral("Kind is a string value representing the REST resource this object represents.")}});
    props.insert(QStringLiteral("metadata"),
        QJsonObject{{QStringLiteral("allOf"), QJsonArray{refTo(objectMetaDefinition())}},
            {QStringLiteral("description"), QStringLiteral("Standard object's metadata.")}});
    s.insert(QStringLiteral("properties"), props);
    s.insert(QStringLiteral("type"), QStringLiteral("object"));
    s.insert(QStringLiteral("x-kubernetes-group-version-kind"), QJsonArray{gvkObject(t)});
    return s;
}

namespace {

/// Every "$ref" target under `v`.
void collectRefs(const QJsonValue &v, QStringList *out)
{
    if (v.isArray()) {
        for (const QJsonValue &e : v.toArray())
            collectRefs(e, out);
    } else if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (it.key() == QLatin1String("$ref") && it.value().toString().startsWith(kSchemaPrefix))
                out->append(it.value().toString().mid(kSchemaPrefix.size()));
            else
                collectRefs(it.value(), out);
        }
    }
}

QJsonObject operation(const ResourceType &t, const char *action, const QString &schemaName, bool patch = false)
{
    QJsonObject op{{QStringLiteral("operationId"), QStringLiteral("%1%2").arg(QLatin1String(action), t.kind())},
        {QStringLiteral("x-kubernetes-action"), QLatin1String(action)},
        {QStringLiteral("x-kubernetes-group-version-kind"), gvkObject(t)},
        {QStringLiteral("responses"),
            QJsonObject{{QStringLiteral("200"),
                QJsonObject{{QStringLiteral("description"), QStringLiteral("OK")},
                    {QStringLiteral("content"),
                        QJsonObject{{QStringLiteral("application/json"),
                            QJsonObject{{QStringLiteral("schema"), refTo(schemaName)}}}}}}}}}};
    if (patch) {
        QJsonArray params;
        for (const char *p : {"dryRun", "fieldManager", "fieldValidation", "force"}) {
            params.append(
                QJsonObject{{QStringLiteral("name"), QLatin1String(p)}, {QStringLiteral("in"), QStringLiteral("query")},
                    {QStringLiteral("schema"),
                        QJsonObject{{QStringLiteral("type"),
                            QString::fromLatin1(qstrcmp(p, "force") == 0 ? "boolean" : "string")}}},
                    {QStringLiteral("uniqueItems"), true}});
        }
        op.insert(QStringLiteral("parameters"), params);
    }
    return op;
}

QString hashOf(const QJsonObject &doc)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(QJsonDocument(doc).toJson(QJsonDocument::Compact), QCryptographicHash::Sha256)
            .toHex()
            .toUpper());
}

} // namespace

QString OpenApiV3::customDefinitionName(const ResourceType &type)
{
    QStringList parts = type.gvr().group.split(u'.');
    std::reverse(parts.begin(), parts.end());
    return parts.join(u'.') + u'.' + type.gvr().version + u'.' + type.kind();
}

std::optional<QJsonObject> OpenApiV3::document(const QString &gvPath) const
{
    QJsonObject paths;
    QJsonObject schemas;
    QStringList pending;
    bool any = false;
    for (const ResourceType &t : m_registry->all()) {
        if (t.reviewOnly || gvPathOf(t.gvr()) != gvPath)
            continue;
        any = true;
        QString name;
        if (t.custom) {
            name = customDefinitionName(t);
            schemas.insert(name, customKindSchema(t));
        } else {
            name = builtinDefinitionFor(t.mapping.gvk());
            if (name.isEmpty())
                continue; // a kind without a table entry: served, not described
            schemas.insert(name, builtinSchemas().value(name));
        }
        collectRefs(schemas.value(name), &pending);
        const QString base = QLatin1Char('/') + gvPath
            + (t.namespaced() ? QStringLiteral("/namespaces/{namespace}/") : QStringLiteral("/")) + t.gvr().resource;
        paths.insert(base,
            QJsonObject{{QStringLiteral("get"), operation(t, "list", name)},
                {QStringLiteral("post"), operation(t, "post", name)}});
        paths.insert(base + QStringLiteral("/{name}"),
            QJsonObject{{QStringLiteral("get"), operation(t, "get", name)},
                {QStringLiteral("put"), operation(t, "put", name)},
                {QStringLiteral("patch"), operation(t, "patch", name, true)},
                {QStringLiteral("delete"), operation(t, "delete", name)}});
        if (t.statusSubresource) {
            paths.insert(base + QStringLiteral("/{name}/status"),
                QJsonObject{{QStringLiteral("get"), operation(t, "get", name)},
                    {QStringLiteral("put"), operation(t, "put", name)},
                    {QStringLiteral("patch"), operation(t, "patch", name, true)}});
        }
    }
    if (!any)
        return std::nullopt;
    while (!pending.isEmpty()) { // the definitions the kinds refer to, transitively
        const QString name = pending.takeLast();
        if (schemas.contains(name) || !builtinSchemas().contains(name))
            continue;
        schemas.insert(name, builtinSchemas().value(name));
        collectRefs(schemas.value(name), &pending);
    }
    const QJsonObject version = Discovery::version();
    return QJsonObject{{QStringLiteral("openapi"), QStringLiteral("3.0.0")},
        {QStringLiteral("info"),
            QJsonObject{{QStringLiteral("title"), QStringLiteral("Kubernetes")},
                {QStringLiteral("version"), version.value(QLatin1String("gitVersion")).toString()}}},
        {QStringLiteral("paths"), paths},
        {QStringLiteral("components"), QJsonObject{{QStringLiteral("schemas"), schemas}}}};
}

QJsonObject OpenApiV3::discovery() const
{
    QJsonObject paths;
    QSet<QString> seen;
    for (const ResourceType &t : m_registry->all()) {
        const QString gv = gvPathOf(t.gvr());
        if (t.reviewOnly || seen.contains(gv))
            continue;
        seen.insert(gv);
        if (auto doc = document(gv)) {
            paths.insert(gv,
                QJsonObject{{QStringLiteral("serverRelativeURL"),
                    QStringLiteral("/openapi/v3/%1?hash=%2").arg(gv, hashOf(*doc))}});
        }
    }
    return QJsonObject{{QStringLiteral("paths"), paths}};
}

} // namespace opbench::apiserver
