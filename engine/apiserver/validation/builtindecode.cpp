// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/validation/builtindecode.h"

#include "engine/apiserver/schema/openapischema.h"

#include <QJsonArray>

#include <memory>

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

/// A schema node compiled once per thread: what a check needs without reading the schema's JSON
/// again for every value (the schema itself stays for the Go type an error names).
struct Node
{
    enum Kind { Other, Ref, String, Integer, Boolean, Number, Array, Object };
    Kind kind = Other;
    QJsonObject schema;
    QString ref;                  ///< Ref: the definition it names
    bool accepted = false;        ///< never checked: a date-time string, a preserve-unknown object
    std::unique_ptr<Node> items;  ///< Array: the items' schema
    std::unique_ptr<Node> values; ///< Object: additionalProperties (null: not checked)
};

std::unique_ptr<Node> compile(const QJsonObject &schema)
{
    auto n = std::make_unique<Node>();
    n->schema = schema;
    n->ref = refName(schema);
    if (!n->ref.isEmpty()) {
        n->kind = Node::Ref;
        return n;
    }
    const QString type = schema.value(QLatin1String("type")).toString();
    if (type == QLatin1String("string")) {
        n->kind = Node::String;
        n->accepted = schema.value(QLatin1String("format")).toString() == QLatin1String("date-time");
    } else if (type == QLatin1String("integer")) {
        n->kind = Node::Integer;
    } else if (type == QLatin1String("boolean")) {
        n->kind = Node::Boolean;
    } else if (type == QLatin1String("number")) {
        n->kind = Node::Number;
    } else if (type == QLatin1String("array")) {
        n->kind = Node::Array;
        n->items = compile(schema.value(QLatin1String("items")).toObject());
    } else if (type == QLatin1String("object")) {
        n->kind = Node::Object;
        n->accepted = schema.value(QLatin1String("x-kubernetes-preserve-unknown-fields")).toBool();
        const QJsonObject values = schema.value(QLatin1String("additionalProperties")).toObject();
        if (!values.isEmpty())
            n->values = compile(values);
    }
    return n;
}

/// A referenced definition, resolved and compiled once per thread.
struct Definition
{
    QString name;        ///< its short name (the Go struct's)
    bool opaque = false; ///< Quantity, IntOrString: their own unmarshalers
    QHash<QString, std::shared_ptr<const Node>> properties;
};

const Definition &definitionOf(const QString &ref)
{
    // Held by pointer: a reference into the table must survive the insertions a walk makes.
    thread_local QHash<QString, std::shared_ptr<const Definition>> cache;
    auto it = cache.constFind(ref);
    if (it == cache.constEnd()) {
        const QJsonObject target = builtinSchemas().value(ref);
        auto d = std::make_shared<Definition>();
        d->name = shortName(ref);
        d->opaque = !target.contains(QLatin1String("properties"))
            && target.value(QLatin1String("type")).toString() != QLatin1String("object");
        const QJsonObject props = target.value(QLatin1String("properties")).toObject();
        for (auto p = props.constBegin(); p != props.constEnd(); ++p)
            d->properties.insert(p.key(), compile(p.value().toObject()));
        it = cache.insert(ref, std::move(d));
    }
    return **it;
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
    void check(const QJsonValue &v, const Node &schema, const QString &structName, const FieldPath &path)
    {
        if (!error.isEmpty() || v.isNull() || v.isUndefined())
            return;
        switch (schema.kind) {
        case Node::Ref: {
            const Definition &target = definitionOf(schema.ref);
            if (target.opaque)
                return;
            if (!v.isObject())
                return fail(v, structName, path, goRefType(schema.ref));
            return checkStruct(v.toObject(), target, path);
        }
        case Node::String:
            if (!schema.accepted && !v.isString()) // metav1.Time (date-time) has its own unmarshaler
                fail(v, structName, path, QStringLiteral("string"));
            return;
        case Node::Integer:
            if (!v.isDouble() || v.toDouble() != double(qint64(v.toDouble())))
                fail(v, structName, path, goType(schema.schema));
            return;
        case Node::Boolean:
            if (!v.isBool())
                fail(v, structName, path, QStringLiteral("bool"));
            return;
        case Node::Number:
            if (!v.isDouble())
                fail(v, structName, path, QStringLiteral("float64"));
            return;
        case Node::Array:
            if (!v.isArray())
                return fail(v, structName, path, goType(schema.schema));
            for (const QJsonValue e : v.toArray())
                check(e, *schema.items, structName, path);
            return;
        case Node::Object:
            if (schema.accepted)
                return;
            if (!v.isObject())
                return fail(v, structName, path, goType(schema.schema));
            if (schema.values)
                for (const QJsonValue e : v.toObject())
                    check(e, *schema.values, structName, path);
            return;
        case Node::Other:
            return;
        }
    }

    void checkStruct(const QJsonObject &o, const Definition &def, const FieldPath &path)
    {
        for (auto it = o.constBegin(); it != o.constEnd() && error.isEmpty(); ++it) {
            const QString key = it.key();
            const auto p = def.properties.constFind(key);
            if (p != def.properties.constEnd())
                check(it.value(), **p, def.name, FieldPath{&path, key});
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
    w.checkStruct(object, definitionOf(definition), FieldPath());
    if (!w.error.isEmpty())
        return Status::badRequest(w.error);
    return {};
}

} // namespace opbench::apiserver
