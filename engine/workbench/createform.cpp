// SPDX-License-Identifier: Apache-2.0
#include "engine/workbench/createform.h"

#include "engine/api/status.h"
#include "engine/api/yamlcodec.h"

#include <QJsonArray>

namespace opbench::workbench {

namespace {

QJsonObject objectAt(const QJsonObject &o, std::initializer_list<QLatin1String> path)
{
    QJsonObject cur = o;
    for (const QLatin1String &p : path)
        cur = cur.value(p).toObject();
    return cur;
}

/// The CRD document of `gvk` among `crds` (any version when `gvk.version` is empty).
struct CrdVersion
{
    bool found = false;
    QString version;
    bool namespaced = true;
    QJsonObject schema; ///< the version's openAPIV3Schema
};

Expected<CrdVersion> findCrd(const QByteArrayList &crds, const GroupVersionKind &gvk)
{
    for (const QByteArray &yaml : crds) {
        auto docs = yamlToJson(yaml);
        if (!docs)
            return Status::badRequest(
                QObject::tr("A CRD of the definition does not parse: %1").arg(docs.error().message()));
        for (const QJsonObject &doc : *docs) {
            const QJsonObject spec = doc.value(QLatin1String("spec")).toObject();
            if (spec.value(QLatin1String("group")).toString() != gvk.group
                || objectAt(spec, {QLatin1String("names")}).value(QLatin1String("kind")).toString() != gvk.kind)
                continue;
            for (const auto &v : spec.value(QLatin1String("versions")).toArray()) {
                const QJsonObject version = v.toObject();
                const QString name = version.value(QLatin1String("name")).toString();
                if (!gvk.version.isEmpty() && name != gvk.version)
                    continue;
                CrdVersion out;
                out.found = true;
                out.version = name;
                out.namespaced = spec.value(QLatin1String("scope")).toString() != u"Cluster";
                out.schema = objectAt(version, {QLatin1String("schema"), QLatin1String("openAPIV3Schema")});
                return out;
            }
        }
    }
    return CrdVersion{};
}

/// The field for property `name` of `schema`; nullopt when no field can express it.
std::optional<FormField> fieldFor(const QString &name, const QJsonObject &schema)
{
    FormField f;
    f.name = name;
    f.description = schema.value(QLatin1String("description")).toString();
    f.defaultValue = schema.value(QLatin1String("default"));
    if (schema.contains(QLatin1String("minimum")))
        f.minimum = schema.value(QLatin1String("minimum")).toDouble();
    if (schema.contains(QLatin1String("maximum")))
        f.maximum = schema.value(QLatin1String("maximum")).toDouble();
    const QString type = schema.value(QLatin1String("type")).toString();
    if (schema.value(QLatin1String("x-kubernetes-int-or-string")).toBool())
        return std::nullopt;
    if (type == u"string") {
        for (const auto &v : schema.value(QLatin1String("enum")).toArray())
            f.enumValues.append(v.toString());
        f.type = f.enumValues.isEmpty() ? FormField::Type::String : FormField::Type::Enum;
    } else if (type == u"integer") {
        f.type = FormField::Type::Integer;
    } else if (type == u"number") {
        f.type = FormField::Type::Number;
    } else if (type == u"boolean") {
        f.type = FormField::Type::Boolean;
    } else if (type == u"array"
        && objectAt(schema, {QLatin1String("items")}).value(QLatin1String("type")).toString() == u"string") {
        f.type = FormField::Type::StringList;
    } else {
        return std::nullopt;
    }
    return f;
}

QByteArray skeletonYaml(const CreateForm &form)
{
    QJsonObject meta{{QStringLiteral("name"), QString()}};
    if (form.namespaced)
        meta.insert(QStringLiteral("namespace"), QStringLiteral("default"));
    QJsonObject spec;
    for (const FormField &f : form.fields)
        if (f.required)
            spec.insert(f.name, f.defaultValue.isUndefined() ? QJsonValue(QString()) : f.defaultValue);
    QJsonObject o{{QStringLiteral("apiVersion"), form.gvk.apiVersion()}, {QStringLiteral("kind"), form.gvk.kind},
        {QStringLiteral("metadata"), meta}};
    if (!spec.isEmpty())
        o.insert(QStringLiteral("spec"), spec);
    return jsonToYaml(o);
}

QJsonValue fieldValue(const FormField &f, const QJsonValue &v)
{
    switch (f.type) {
    case FormField::Type::Integer:
        return v.isString() ? QJsonValue(v.toString().toLongLong()) : QJsonValue(qint64(v.toDouble()));
    case FormField::Type::Number:
        return v.isString() ? QJsonValue(v.toString().toDouble()) : QJsonValue(v.toDouble());
    case FormField::Type::Boolean:
        return v.isString() ? QJsonValue(v.toString() == u"true") : QJsonValue(v.toBool());
    case FormField::Type::StringList: {
        if (v.isArray())
            return v;
        QJsonArray items;
        for (const QString &s : v.toString().split(u',', Qt::SkipEmptyParts))
            if (!s.trimmed().isEmpty())
                items.append(s.trimmed());
        return items;
    }
    case FormField::Type::String:
    case FormField::Type::Enum:
        break;
    }
    return v.toString();
}

} // namespace

GroupVersionKind forKindOf(const OperatorDefinition &def)
{
    if (!def.kinds.isEmpty())
        return def.kinds.first();
    for (const QByteArray &yaml : def.crds) {
        auto docs = yamlToJson(yaml);
        if (!docs || docs->isEmpty())
            continue;
        const QJsonObject spec = docs->first().value(QLatin1String("spec")).toObject();
        const QString kind = objectAt(spec, {QLatin1String("names")}).value(QLatin1String("kind")).toString();
        for (const auto &v : spec.value(QLatin1String("versions")).toArray()) {
            if (v.toObject().value(QLatin1String("storage")).toBool())
                return {spec.value(QLatin1String("group")).toString(),
                    v.toObject().value(QLatin1String("name")).toString(), kind};
        }
    }
    return {};
}

Expected<CreateForm> createFormFor(const OperatorDefinition &def)
{
    CreateForm form;
    form.gvk = forKindOf(def);
    if (form.gvk.isEmpty())
        return Status::badRequest(QObject::tr("The operator definition names no kind to create."));
    auto crd = findCrd(def.crds, form.gvk);
    if (!crd)
        return crd.error();
    form.namespaced = crd->found ? crd->namespaced : true;
    if (!crd->found) {
        form.unsupportedReason = QObject::tr("%1 has no CRD in the definition").arg(form.gvk.kind);
    } else {
        const QJsonObject spec = objectAt(crd->schema, {QLatin1String("properties"), QLatin1String("spec")});
        QStringList required;
        for (const auto &r : spec.value(QLatin1String("required")).toArray())
            required.append(r.toString());
        const QJsonObject props = spec.value(QLatin1String("properties")).toObject();
        QList<FormField> optional;
        for (auto it = props.begin(); it != props.end(); ++it) {
            std::optional<FormField> f = fieldFor(it.key(), it.value().toObject());
            if (!f) {
                form.unsupportedReason = QObject::tr("spec.%1 has no form field").arg(it.key());
                continue;
            }
            f->required = required.contains(it.key());
            (f->required ? form.fields : optional).append(*f);
        }
        form.fields += optional;
        if (props.isEmpty() && spec.value(QLatin1String("x-kubernetes-preserve-unknown-fields")).toBool())
            form.unsupportedReason = QObject::tr("spec keeps unknown fields");
    }
    form.formExpressible = form.unsupportedReason.isEmpty();
    for (const Object &sample : def.samples) {
        if (sample.gvk().kind == form.gvk.kind && sample.gvk().group == form.gvk.group) {
            form.sampleYaml = jsonToYaml(sample.json());
            form.sampleSpec = sample.json().value(QLatin1String("spec")).toObject();
            break;
        }
    }
    if (form.sampleYaml.isEmpty())
        form.sampleYaml = skeletonYaml(form);
    return form;
}

Object CreateForm::objectFrom(const QString &name, const QString &namespaceName, const QJsonObject &values) const
{
    QJsonObject meta{{QStringLiteral("name"), name}};
    if (namespaced)
        meta.insert(QStringLiteral("namespace"), namespaceName.isEmpty() ? QStringLiteral("default") : namespaceName);
    QJsonObject spec;
    for (const FormField &f : fields) {
        const QJsonValue v = values.value(f.name);
        if (v.isUndefined() || v.isNull() || (v.isString() && v.toString().trimmed().isEmpty()))
            continue;
        const QJsonValue typed = fieldValue(f, v);
        if (typed.isArray() && typed.toArray().isEmpty())
            continue;
        spec.insert(f.name, typed);
    }
    QJsonObject o{{QStringLiteral("apiVersion"), gvk.apiVersion()}, {QStringLiteral("kind"), gvk.kind},
        {QStringLiteral("metadata"), meta}};
    if (!spec.isEmpty() || !fields.isEmpty())
        o.insert(QStringLiteral("spec"), spec);
    return Object::fromJson(o);
}

Expected<Object> objectFromYaml(const QByteArray &yaml)
{
    auto docs = yamlToJson(yaml);
    if (!docs)
        return Status::badRequest(QObject::tr("The YAML does not parse: %1").arg(docs.error().message()));
    if (docs->size() != 1)
        return Status::badRequest(QObject::tr("Write exactly one object (found %1).").arg(docs->size()));
    const QJsonObject &doc = docs->first();
    if (doc.value(QLatin1String("apiVersion")).toString().isEmpty()
        || doc.value(QLatin1String("kind")).toString().isEmpty())
        return Status::badRequest(QObject::tr("The object needs an apiVersion and a kind."));
    return Object::fromJson(doc);
}

} // namespace opbench::workbench
