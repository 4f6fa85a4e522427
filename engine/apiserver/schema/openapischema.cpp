// SPDX-License-Identifier: Apache-2.0
// The OpenAPI schemas built from the field table (openapifields.cpp).
#include "engine/apiserver/schema/openapischema.h"

#include "engine/apiserver/apply/strategicmerge.h"
#include "engine/apiserver/schema/openapifields_p.h"

#include <QJsonArray>
#include <QList>

#include <functional>

namespace opbench::apiserver {

namespace {

using openapifields::Definition;
using openapifields::definitions;
using openapifields::Field;

QString expandName(const QString &shortName)
{
    static const QList<QPair<const char *, const char *>> prefixes{
        {"meta.", "io.k8s.apimachinery.pkg.apis.meta.v1."},
        {"resource.", "io.k8s.apimachinery.pkg.api.resource."},
        {"intstr.", "io.k8s.apimachinery.pkg.util.intstr."},
        {"core.", "io.k8s.api.core.v1."},
        {"apps.", "io.k8s.api.apps.v1."},
        {"coord.", "io.k8s.api.coordination.v1."},
        {"events.", "io.k8s.api.events.v1."},
        {"rbac.", "io.k8s.api.rbac.v1."},
        {"apiext.", "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1."},
    };
    for (const auto &p : prefixes)
        if (shortName.startsWith(QLatin1String(p.first)))
            return QLatin1String(p.second) + shortName.mid(qsizetype(qstrlen(p.first)));
    return shortName;
}

QJsonObject ref(const QString &shortName)
{
    return QJsonObject{{QStringLiteral("$ref"), QStringLiteral("#/components/schemas/") + expandName(shortName)}};
}

/// The schema of one type expression (see openapischema.h).
QJsonObject typeSchema(const QString &type)
{
    if (type.startsWith(QLatin1String("[]")))
        return QJsonObject{
            {QStringLiteral("type"), QStringLiteral("array")}, {QStringLiteral("items"), typeSchema(type.mid(2))}};
    if (type.startsWith(u'@')) // refs are wrapped in allOf, as kube-openapi's v3 documents do
        return QJsonObject{{QStringLiteral("allOf"), QJsonArray{ref(type.mid(1))}}};
    if (type.startsWith(QLatin1String("enum:"))) {
        QJsonArray values;
        for (const QString &v : type.mid(5).split(u'|'))
            values.append(v);
        return QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}, {QStringLiteral("enum"), values}};
    }
    if (type == QLatin1String("integer"))
        return QJsonObject{
            {QStringLiteral("type"), QStringLiteral("integer")}, {QStringLiteral("format"), QStringLiteral("int32")}};
    if (type == QLatin1String("int64"))
        return QJsonObject{
            {QStringLiteral("type"), QStringLiteral("integer")}, {QStringLiteral("format"), QStringLiteral("int64")}};
    if (type == QLatin1String("time"))
        return QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
            {QStringLiteral("format"), QStringLiteral("date-time")}};
    if (type == QLatin1String("quantity"))
        return QJsonObject{{QStringLiteral("allOf"), QJsonArray{ref(QStringLiteral("resource.Quantity"))}}};
    if (type == QLatin1String("intstr"))
        return QJsonObject{{QStringLiteral("allOf"), QJsonArray{ref(QStringLiteral("intstr.IntOrString"))}}};
    if (type == QLatin1String("map"))
        return QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("additionalProperties"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}};
    if (type == QLatin1String("map:quantity"))
        return QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("additionalProperties"), typeSchema(QStringLiteral("quantity"))}};
    if (type == QLatin1String("object"))
        return QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("x-kubernetes-preserve-unknown-fields"), true}};
    return QJsonObject{{QStringLiteral("type"), type}}; // string, number, boolean
}

QString fieldNameOf(const Field &f)
{
    const QString name = QLatin1String(f.name);
    return name.startsWith(u'!') ? name.mid(1) : name;
}

/// "<definition>|<field>" → merge key ("" for a primitive list merged as a set) of every list
/// field the strategic merge table (strategicmerge.h) merges, found by walking each kind's
/// fields with their paths: the same table drives the server's strategic merge patch and the
/// x-kubernetes-patch-* extensions kubectl computes its patches from.
QHash<QString, QString> patchMergeKeys()
{
    QHash<QString, const Definition *> byName;
    for (const Definition &d : definitions())
        byName.insert(QLatin1String(d.name), &d);
    QHash<QString, QString> out;
    std::function<void(const Definition &, const QString &, int)> walk
        = [&](const Definition &d, const QString &path, int depth) {
              if (depth > 16)
                  return;
              for (const Field &f : d.fields) {
                  const QString name = fieldNameOf(f);
                  const QString fieldPath = path.isEmpty() ? name : path + u'.' + name;
                  QString type = QLatin1String(f.type);
                  if (type.startsWith(QLatin1String("[]"))) {
                      type = type.mid(2);
                      const QString key = QLatin1String(d.name) + u'|' + name;
                      if (const auto mergeKey = strategicMergeKey(fieldPath); mergeKey && !out.contains(key))
                          out.insert(key, *mergeKey);
                  }
                  if (type.startsWith(u'@'))
                      if (const Definition *sub = byName.value(type.mid(1)))
                          walk(*sub, fieldPath, depth + 1);
              }
          };
    for (const Definition &d : definitions())
        if (d.kind)
            walk(d, QString(), 0);
    return out;
}

QJsonObject definitionSchema(const Definition &d, const QHash<QString, QString> &mergeKeys)
{
    QJsonObject schema{{QStringLiteral("description"), QLatin1String(d.description)}};
    const QString name = QLatin1String(d.name);
    // v3 shapes of the two scalar unions: no "type", so kubectl names them (<Quantity>, <IntOrString>)
    if (name == QLatin1String("resource.Quantity")) {
        schema.insert(QStringLiteral("oneOf"),
            QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}},
                QJsonObject{{QStringLiteral("type"), QStringLiteral("number")}}});
        return schema;
    }
    if (name == QLatin1String("intstr.IntOrString")) {
        schema.insert(QStringLiteral("format"), QStringLiteral("int-or-string"));
        schema.insert(QStringLiteral("x-kubernetes-int-or-string"), true);
        schema.insert(QStringLiteral("anyOf"),
            QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("integer")}},
                QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}});
        return schema;
    }
    schema.insert(QStringLiteral("type"), QStringLiteral("object"));
    QJsonObject properties;
    QJsonArray required;
    for (const Field &f : d.fields) {
        QString fieldName = QLatin1String(f.name);
        if (fieldName.startsWith(u'!')) {
            fieldName.remove(0, 1);
            required.append(fieldName);
        }
        QJsonObject p = typeSchema(QLatin1String(f.type));
        p.insert(QStringLiteral("description"), QLatin1String(f.description));
        if (const auto key = mergeKeys.constFind(QLatin1String(d.name) + u'|' + fieldName); key != mergeKeys.cend()) {
            p.insert(QStringLiteral("x-kubernetes-patch-strategy"), QStringLiteral("merge"));
            if (!key->isEmpty())
                p.insert(QStringLiteral("x-kubernetes-patch-merge-key"), *key);
        }
        properties.insert(fieldName, p);
    }
    if (!properties.isEmpty())
        schema.insert(QStringLiteral("properties"), properties);
    if (!required.isEmpty())
        schema.insert(QStringLiteral("required"), required);
    if (d.kind) {
        schema.insert(QStringLiteral("x-kubernetes-group-version-kind"),
            QJsonArray{QJsonObject{{QStringLiteral("group"), QLatin1String(d.group)},
                {QStringLiteral("version"), QLatin1String(d.version)},
                {QStringLiteral("kind"), QLatin1String(d.kind)}}});
    }
    return schema;
}

} // namespace

const QHash<QString, QJsonObject> &builtinSchemas()
{
    static const QHash<QString, QJsonObject> schemas = [] {
        QHash<QString, QJsonObject> out;
        const QHash<QString, QString> mergeKeys = patchMergeKeys();
        for (const Definition &d : definitions())
            out.insert(expandName(QLatin1String(d.name)), definitionSchema(d, mergeKeys));
        return out;
    }();
    return schemas;
}

QString builtinDefinitionFor(const GroupVersionKind &gvk)
{
    for (const Definition &d : definitions())
        if (d.kind && gvk.kind == QLatin1String(d.kind) && gvk.group == QLatin1String(d.group)
            && gvk.version == QLatin1String(d.version))
            return expandName(QLatin1String(d.name));
    return QString();
}

QString objectMetaDefinition() { return expandName(QStringLiteral("meta.ObjectMeta")); }

} // namespace opbench::apiserver
