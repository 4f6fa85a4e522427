// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/handlers/openapiv2.h"

#include "engine/apiserver/handlers/discovery.h"
#include "engine/apiserver/handlers/gnosticv2.h"
#include "engine/apiserver/handlers/openapi.h"
#include "engine/apiserver/schema/openapischema.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>

namespace opbench::apiserver {

namespace {

const QString kV3Prefix = QStringLiteral("#/components/schemas/");
const QString kV2Prefix = QStringLiteral("#/definitions/");

QString l(const char *s) { return QString::fromLatin1(s); }

QJsonObject toV2(QJsonObject s, bool builtin, bool kindRoot)
{
    // {"allOf": [{"$ref": X}], ...} (how v3 documents attach a description to a reference)
    const QJsonArray allOf = s.value(QLatin1String("allOf")).toArray();
    s.remove(QStringLiteral("allOf"));
    if (allOf.size() == 1 && allOf.first().toObject().contains(QLatin1String("$ref")))
        s.insert(QStringLiteral("$ref"), allOf.first().toObject().value(QLatin1String("$ref")));
    QString ref = s.value(QLatin1String("$ref")).toString();
    if (ref.startsWith(kV3Prefix)) {
        s.insert(QStringLiteral("$ref"), kV2Prefix + ref.mid(kV3Prefix.size()));
        return s; // a reference: the rest is its description
    }
    const bool scalarUnion = s.contains(QLatin1String("oneOf")) || s.contains(QLatin1String("anyOf"))
        || s.value(QLatin1String("x-kubernetes-int-or-string")).toBool();
    s.remove(QStringLiteral("oneOf"));
    s.remove(QStringLiteral("anyOf"));
    s.remove(QStringLiteral("not"));
    if (builtin && scalarUnion && !s.contains(QLatin1String("type")))
        s.insert(QStringLiteral("type"), QStringLiteral("string")); // Quantity, IntOrString: as kube-apiserver's v2
    if (s.value(QLatin1String("nullable")).toBool()) {
        s.remove(QStringLiteral("type"));
        s.remove(QStringLiteral("items"));
        s.remove(QStringLiteral("properties"));
    }
    s.remove(QStringLiteral("nullable"));
    if (s.value(QLatin1String("x-kubernetes-preserve-unknown-fields")).toBool() && !kindRoot) {
        s.remove(QStringLiteral("items"));
        s.remove(QStringLiteral("properties"));
        if (builtin && !s.contains(QLatin1String("additionalProperties")))
            s.remove(QStringLiteral("type"));
    }
    if (s.value(QLatin1String("type")).toString() == QLatin1String("array")
        && !s.value(QLatin1String("items")).isObject())
        s.remove(QStringLiteral("type"));

    if (s.value(QLatin1String("properties")).isObject()) {
        QJsonObject props = s.value(QLatin1String("properties")).toObject();
        QJsonArray required = s.value(QLatin1String("required")).toArray();
        for (auto it = props.begin(); it != props.end(); ++it) {
            const QJsonObject p = it.value().toObject();
            if (p.value(QLatin1String("nullable")).toBool()) // a nullable field is no longer required
                for (qsizetype i = required.size() - 1; i >= 0; --i)
                    if (required.at(i).toString() == it.key())
                        required.removeAt(i);
            it.value() = toV2(p, builtin, false);
        }
        s.insert(QStringLiteral("properties"), props);
        if (s.contains(QLatin1String("required"))) {
            if (required.isEmpty())
                s.remove(QStringLiteral("required"));
            else
                s.insert(QStringLiteral("required"), required);
        }
    }
    if (s.value(QLatin1String("items")).isObject())
        s.insert(QStringLiteral("items"), toV2(s.value(QLatin1String("items")).toObject(), builtin, false));
    if (s.value(QLatin1String("additionalProperties")).isObject())
        s.insert(QStringLiteral("additionalProperties"),
            toV2(s.value(QLatin1String("additionalProperties")).toObject(), builtin, false));
    return s;
}

/// Every "#/definitions/…" name under `v`.
void collectRefs(const QJsonValue &v, QStringList *out)
{
    if (v.isArray()) {
        for (const QJsonValue &e : v.toArray())
            collectRefs(e, out);
    } else if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (it.key() == QLatin1String("$ref") && it.value().toString().startsWith(kV2Prefix))
                out->append(it.value().toString().mid(kV2Prefix.size()));
            else
                collectRefs(it.value(), out);
        }
    }
}

QJsonObject gvkOf(const ResourceType &t)
{
    return QJsonObject{{l("group"), t.gvr().group}, {l("version"), t.gvr().version}, {l("kind"), t.kind()}};
}

QJsonObject pathParameter(const char *name, const char *description)
{
    return QJsonObject{{l("name"), l(name)}, {l("in"), l("path")}, {l("description"), l(description)},
        {l("required"), true}, {l("type"), l("string")}, {l("uniqueItems"), true}};
}

QJsonObject queryParameter(const char *name, const char *type, const char *description)
{
    return QJsonObject{{l("name"), l(name)}, {l("in"), l("query")}, {l("description"), l(description)},
        {l("type"), l(type)}, {l("uniqueItems"), true}};
}

QJsonArray writeParameters(bool patch)
{
    QJsonArray params{
        queryParameter("dryRun", "string", "When present, modifications are not persisted (All)."),
        queryParameter("fieldManager", "string", "The name of the actor or entity making these changes."),
        queryParameter("fieldValidation", "string",
            "How the server treats unknown or duplicate fields in the request: Ignore, Warn or Strict."),
    };
    if (patch)
        params.append(queryParameter("force", "boolean", "Force Apply requests: take the fields other managers own."));
    return params;
}

QJsonObject operation(const ResourceType &t, const char *action, const QString &definition, const QString &id,
    const QJsonArray &params = {})
{
    QJsonObject op{{l("operationId"), QString(l(action) + id)},
        {l("description"), QStringLiteral("%1 %2").arg(l(action), t.kind())},
        {l("produces"), QJsonArray{l("application/json"), l("application/yaml")}},
        {l("schemes"), QJsonArray{l("https")}}, {l("x-kubernetes-action"), l(action)},
        {l("x-kubernetes-group-version-kind"), gvkOf(t)},
        {l("responses"),
            QJsonObject{{l("200"),
                            QJsonObject{{l("description"), l("OK")},
                                {l("schema"), QJsonObject{{l("$ref"), kV2Prefix + definition}}}}},
                {l("401"), QJsonObject{{l("description"), l("Unauthorized")}}}}}};
    if (!params.isEmpty())
        op.insert(l("parameters"), params);
    if (qstrcmp(action, "patch") == 0) {
        QJsonArray consumes{l("application/json-patch+json"), l("application/merge-patch+json")};
        if (!t.custom)
            consumes.append(l("application/strategic-merge-patch+json"));
        consumes.append(l("application/apply-patch+yaml"));
        op.insert(l("consumes"), consumes);
    } else {
        op.insert(l("consumes"), QJsonArray{l("*/*")});
    }
    return op;
}

QString operationIdOf(const ResourceType &t)
{
    // "AppsV1NamespacedDeployment", "CoreV1Pod", "ExampleComV1alpha1NamespacedMyApplication"
    QString id;
    const QString group = t.gvr().group.isEmpty() ? QStringLiteral("core") : t.gvr().group;
    for (const QString &part : group.split(u'.'))
        id += part.left(1).toUpper() + part.mid(1);
    id += t.gvr().version.left(1).toUpper() + t.gvr().version.mid(1);
    if (t.namespaced())
        id += QStringLiteral("Namespaced");
    return id + t.kind();
}

QByteArray etagOf(const QByteArray &bytes)
{
    return '"' + QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex().toUpper() + '"';
}

} // namespace

QJsonObject OpenApiV2::toV2Schema(const QJsonObject &v3, bool builtin)
{
    return toV2(v3, builtin, v3.contains(QLatin1String("x-kubernetes-group-version-kind")));
}

QJsonObject OpenApiV2::document() const
{
    QJsonObject definitions;
    QJsonObject paths;
    QStringList pending;
    for (const ResourceType &t : m_registry->all()) {
        if (t.reviewOnly)
            continue;
        QString name;
        if (t.custom) {
            name = OpenApiV3::customDefinitionName(t);
            definitions.insert(name, toV2Schema(OpenApiV3::customKindSchema(t), false));
            pending.append(objectMetaDefinition());
        } else {
            name = builtinDefinitionFor(t.mapping.gvk());
            if (name.isEmpty())
                continue; // served, not described (as in the v3 documents)
            if (!definitions.contains(name))
                definitions.insert(name, toV2Schema(builtinSchemas().value(name), true));
        }
        collectRefs(definitions.value(name), &pending);

        const QString gvPath = t.gvr().group.isEmpty()
            ? QStringLiteral("/api/") + t.gvr().version
            : QStringLiteral("/apis/%1/%2").arg(t.gvr().group, t.gvr().version);
        const QString base = gvPath
            + (t.namespaced() ? QStringLiteral("/namespaces/{namespace}/") : QStringLiteral("/")) + t.gvr().resource;
        const QString id = operationIdOf(t);
        QJsonArray scope;
        if (t.namespaced())
            scope.append(pathParameter("namespace", "object name and auth scope, such as for teams and projects"));
        QJsonArray named = scope;
        named.append(pathParameter("name", "name of the object"));
        paths.insert(base,
            QJsonObject{{l("get"), operation(t, "list", name, id)},
                {l("post"), operation(t, "post", name, id, writeParameters(false))}, {l("parameters"), scope}});
        paths.insert(base + QStringLiteral("/{name}"),
            QJsonObject{{l("get"), operation(t, "get", name, id)},
                {l("put"), operation(t, "put", name, id, writeParameters(false))},
                {l("patch"), operation(t, "patch", name, id, writeParameters(true))},
                {l("delete"), operation(t, "delete", name, id)}, {l("parameters"), named}});
        if (t.statusSubresource) {
            paths.insert(base + QStringLiteral("/{name}/status"),
                QJsonObject{{l("get"), operation(t, "get", name, id + QStringLiteral("Status"))},
                    {l("put"), operation(t, "put", name, id + QStringLiteral("Status"), writeParameters(false))},
                    {l("patch"), operation(t, "patch", name, id + QStringLiteral("Status"), writeParameters(true))},
                    {l("parameters"), named}});
        }
    }
    while (!pending.isEmpty()) { // the definitions the kinds refer to, transitively
        const QString name = pending.takeLast();
        if (definitions.contains(name) || !builtinSchemas().contains(name))
            continue;
        definitions.insert(name, toV2Schema(builtinSchemas().value(name), true));
        collectRefs(definitions.value(name), &pending);
    }
    return QJsonObject{{l("swagger"), l("2.0")},
        {l("info"),
            QJsonObject{{l("title"), l("Kubernetes")},
                {l("version"), Discovery::version().value(QLatin1String("gitVersion")).toString()}}},
        {l("paths"), paths}, {l("definitions"), definitions}};
}

OpenApiV2::Encoded OpenApiV2::encode(const QJsonObject &document)
{
    Encoded e;
    e.json = QJsonDocument(document).toJson(QJsonDocument::Compact);
    e.jsonEtag = etagOf(e.json);
    e.protobuf = encodeGnosticV2Document(document);
    e.protobufEtag = etagOf(e.protobuf);
    return e;
}

} // namespace opbench::apiserver
