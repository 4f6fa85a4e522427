// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/validation/builtindecode.h"

#include "engine/apiserver/schema/openapischema.h"

#include <QJsonArray>

namespace opbench::apiserver {

namespace {

const QString kRefPrefix = QStringLiteral("#/components/schemas/");

/// The definition name a schema refers to ({"allOf":[{"$ref"}]} or {"$ref"}); empty otherwise.
QString refName(const QJsonObject &schema)
{
    QJsonObject s = schema;
    if (s.contains(QLatin1String("allOf")))
        s = s.value(QLatin1String("allOf")).toArray().first().toObject();
    const QString ref = s.value(QLatin1String("$ref")).toString();
    return ref.startsWith(kRefPrefix) ? ref.mid(kRefPrefix.size()) : QString();
}

QString shortName(const QString &definition) { return definition.section(u'.', -1); }

/// "v1.PodSpec" for io.k8s.api.core.v1.PodSpec.
QString goRefType(const QString &definition) { return definition.section(u'.', -2); }

/// The Go type a schema decodes into ("int32", "[]v1.Container", "map[string]string", ...).
QString goType(const QJsonObject &schema)
{
    const QString ref = refName(schema);
    if (!ref.isEmpty())
        return goRefType(ref);
    QString type = schema.value(QLatin1String("type")).toString();
    if (type == QLatin1String("array"))
        return QStringLiteral("[]") + goType(schema.value(QLatin1String("items")).toObject());
    if (type == QLatin1String("integer"))
        return schema.value(QLatin1String("format")).toString(QStringLiteral("int64"));
    if (type == QLatin1String("boolean"))
        return QStringLiteral("bool");
    if (type == QLatin1String("number"))
        return QStringLiteral("float64");
    if (type == QLatin1String("object") && schema.contains(QLatin1String("additionalProperties")))
        return QStringLiteral("map[string]") + goType(schema.value(QLatin1String("additionalProperties")).toObject());
    return type;
}

QString jsonKind(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::String:
        return QStringLiteral("string");
    case QJsonValue::Double:
        return QStringLiteral("number");
    case QJsonValue::Bool:
        return QStringLiteral("bool");
    case QJsonValue::Array:
        return QStringLiteral("array");
    case QJsonValue::Object:
        return QStringLiteral("object");
    default:
        return QStringLiteral("null");
    }
}

/// A field's JSON path, made text only for an error (most objects decode cleanly).
struct FieldPath
{
    const FieldPath *parent = nullptr;
    QString key;

    QString str() const
    {
        if (!parent)
            return key;
        const QString up = parent->str();
        return up.isEmpty() ? key : up + u'.' + key;
    }
};

/// A referenced definition, resolved once per thread.
struct Definition
{
    QJsonObject schema;
    QString name;        ///< its short name (the Go struct's)
    bool opaque = false; ///< Quantity, IntOrString: their own unmarshalers
};

const Definition &definitionOf(const QString &ref)
{
    thread_local QHash<QString, Definition> cache;
    auto it = cache.constFind(ref);
    if (it == cache.constEnd()) {
        const QJsonObject target = builtinSchemas().value(ref);
        it = cache.insert(ref,
            Definition{target, shortName(ref),
                !target.contains(QLatin1String("properties"))
                    && target.value(QLatin1String("type")).toString() != QLatin1String("object")});
    }
    return *it;
}

struct Walker
{
    QString error;

    void fail(const QJsonValue &v, const QString &structName, const FieldPath &at, const QString &type)
    {
        const QString path = at.str();
        QString what = jsonKind(v);
        if (v.isDouble() && type.startsWith(QLatin1String("int"))) // Go names the literal it could not fit
            what = QStringLiteral("number ") + QString::number(v.toDouble(), 'g', 17);
        error = QStringLiteral("json: cannot unmarshal %1 into Go struct field %2.%3 of type %4")
                    .arg(what, structName, path, type);
    }

    /// Checks `v` against `schema` (a field of struct `structName` at JSON path `path`).
    void check(const QJsonValue &v, const QJsonObject &schema, const QString &structName, const FieldPath &path)
    {
        if (!error.isEmpty() || v.isNull() || v.isUndefined())
            return;
        const QString ref = refName(schema);
        if (!ref.isEmpty()) {
            const Definition &target = definitionOf(ref);
            if (target.opaque)
                return;
            if (!v.isObject())
                return fail(v, structName, path, goRefType(ref));
            return checkStruct(v.toObject(), target.schema, target.name, path);
        }
        const QString type = schema.value(QLatin1String("type")).toString();
        if (type == QLatin1String("string")) {
            if (schema.value(QLatin1String("format")).toString() == QLatin1String("date-time"))
                return; // metav1.Time has its own unmarshaler
            if (!v.isString())
                fail(v, structName, path, QStringLiteral("string"));
        } else if (type == QLatin1String("integer")) {
            if (!v.isDouble() || v.toDouble() != double(qint64(v.toDouble())))
                fail(v, structName, path, goType(schema));
        } else if (type == QLatin1String("boolean")) {
            if (!v.isBool())
                fail(v, structName, path, QStringLiteral("bool"));
        } else if (type == QLatin1String("number")) {
            if (!v.isDouble())
                fail(v, structName, path, QStringLiteral("float64"));
        } else if (type == QLatin1String("array")) {
            if (!v.isArray())
                return fail(v, structName, path, goType(schema));
            const QJsonObject items = schema.value(QLatin1String("items")).toObject();
            for (const QJsonValue e : v.toArray())
                check(e, items, structName, path);
        } else if (type == QLatin1String("object")) {
            if (schema.value(QLatin1String("x-kubernetes-preserve-unknown-fields")).toBool())
                return;
            if (!v.isObject())
                return fail(v, structName, path, goType(schema));
            const QJsonObject values = schema.value(QLatin1String("additionalProperties")).toObject();
            if (!values.isEmpty())
                for (const QJsonValue e : v.toObject())
                    check(e, values, structName, path);
        }
    }

    void checkStruct(const QJsonObject &o, const QJsonObject &schema, const QString &structName, const FieldPath &path)
    {
        const QJsonObject props = schema.value(QLatin1String("properties")).toObject();
        for (auto it = o.constBegin(); it != o.constEnd() && error.isEmpty(); ++it) {
            const QString key = it.key();
            const auto p = props.constFind(key);
            if (p != props.constEnd())
                check(it.value(), p.value().toObject(), structName, FieldPath{&path, key});
        }
    }
};

} // namespace

Expected<void> checkBuiltinFieldTypes(const ResourceType &type, const QJsonObject &object)
{
    if (type.custom)
        return {};
    const QString definition = builtinDefinitionFor(type.mapping.gvk());
    if (definition.isEmpty())
        return {};
    Walker w;
    const Definition &root = definitionOf(definition);
    w.checkStruct(object, root.schema, root.name, FieldPath());
    if (!w.error.isEmpty())
        return Status::badRequest(w.error);
    return {};
}

} // namespace opbench::apiserver
