// SPDX-License-Identifier: Apache-2.0
// Field numbers from gnostic-models openapiv2/OpenAPIv2.proto (see gnosticv2.h).
#include "engine/apiserver/handlers/gnosticv2.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cstring>

namespace opbench::apiserver {

namespace {

enum WireType { Varint = 0, Fixed64 = 1, LengthDelimited = 2 };

/// Appends fields of one message.
class Message
{
public:
    const QByteArray &bytes() const { return m_out; }

    void message(quint32 field, const QByteArray &payload) // always written: presence matters
    {
        tag(field, LengthDelimited);
        varint(quint64(payload.size()));
        m_out += payload;
    }
    void string(quint32 field, const QString &s)
    {
        if (!s.isEmpty())
            message(field, s.toUtf8());
    }
    void boolean(quint32 field, bool b, bool always = false)
    {
        if (!b && !always)
            return;
        tag(field, Varint);
        varint(b ? 1 : 0);
    }
    void int64(quint32 field, qint64 v)
    {
        if (v == 0)
            return;
        tag(field, Varint);
        varint(quint64(v));
    }
    void number(quint32 field, double d)
    {
        if (d == 0)
            return;
        tag(field, Fixed64);
        quint64 bits = 0;
        std::memcpy(&bits, &d, sizeof bits);
        for (int i = 0; i < 8; ++i)
            m_out += char((bits >> (8 * i)) & 0xff);
    }
    void strings(quint32 field, const QJsonValue &v) // a JSON array of strings, or one string
    {
        if (v.isString()) {
            message(field, v.toString().toUtf8());
            return;
        }
        for (const QJsonValue &e : v.toArray())
            message(field, e.toString().toUtf8());
    }

private:
    void tag(quint32 field, WireType type) { varint((quint64(field) << 3) | quint64(type)); }
    void varint(quint64 v)
    {
        while (v >= 0x80) {
            m_out += char((v & 0x7f) | 0x80);
            v >>= 7;
        }
        m_out += char(v);
    }

    QByteArray m_out;
};

QByteArray anyMessage(const QJsonValue &v) // Any{yaml = 2}
{
    QByteArray yaml;
    if (v.isObject())
        yaml = QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
    else if (v.isArray())
        yaml = QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact);
    else // a scalar: wrap it in an array and take the element's text
        yaml = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact).mid(1).chopped(1);
    Message m;
    m.message(2, yaml);
    return m.bytes();
}

/// NamedAny{name = 1, value = 2} for every "x-…" key of `o`, as field `field`.
void vendorExtensions(Message &m, quint32 field, const QJsonObject &o)
{
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!it.key().startsWith(QLatin1String("x-")))
            continue;
        Message named;
        named.string(1, it.key());
        named.message(2, anyMessage(it.value()));
        m.message(field, named.bytes());
    }
}

QByteArray schemaMessage(const QJsonObject &s);

QByteArray namedSchema(const QString &name, const QJsonObject &schema) // NamedSchema{name = 1, value = 2}
{
    Message m;
    m.string(1, name);
    m.message(2, schemaMessage(schema));
    return m.bytes();
}

QByteArray schemaMessage(const QJsonObject &s)
{
    Message m;
    m.string(1, s.value(QLatin1String("$ref")).toString());
    m.string(2, s.value(QLatin1String("format")).toString());
    m.string(3, s.value(QLatin1String("title")).toString());
    m.string(4, s.value(QLatin1String("description")).toString());
    if (s.contains(QLatin1String("default")))
        m.message(5, anyMessage(s.value(QLatin1String("default"))));
    m.number(6, s.value(QLatin1String("multipleOf")).toDouble());
    m.number(7, s.value(QLatin1String("maximum")).toDouble());
    m.boolean(8, s.value(QLatin1String("exclusiveMaximum")).toBool());
    m.number(9, s.value(QLatin1String("minimum")).toDouble());
    m.boolean(10, s.value(QLatin1String("exclusiveMinimum")).toBool());
    m.int64(11, s.value(QLatin1String("maxLength")).toInteger());
    m.int64(12, s.value(QLatin1String("minLength")).toInteger());
    m.string(13, s.value(QLatin1String("pattern")).toString());
    m.int64(14, s.value(QLatin1String("maxItems")).toInteger());
    m.int64(15, s.value(QLatin1String("minItems")).toInteger());
    m.boolean(16, s.value(QLatin1String("uniqueItems")).toBool());
    m.int64(17, s.value(QLatin1String("maxProperties")).toInteger());
    m.int64(18, s.value(QLatin1String("minProperties")).toInteger());
    m.strings(19, s.value(QLatin1String("required")));
    for (const QJsonValue &e : s.value(QLatin1String("enum")).toArray())
        m.message(20, anyMessage(e));
    const QJsonValue additional = s.value(QLatin1String("additionalProperties"));
    if (additional.isObject() || additional.isBool()) { // AdditionalPropertiesItem{schema = 1 | boolean = 2}
        Message a;
        if (additional.isObject())
            a.message(1, schemaMessage(additional.toObject()));
        else
            a.boolean(2, additional.toBool(), true);
        m.message(21, a.bytes());
    }
    if (s.contains(QLatin1String("type"))) { // TypeItem{repeated value = 1}
        Message t;
        t.strings(1, s.value(QLatin1String("type")));
        m.message(22, t.bytes());
    }
    const QJsonValue items = s.value(QLatin1String("items"));
    if (items.isObject() || items.isArray()) { // ItemsItem{repeated schema = 1}
        Message i;
        if (items.isObject())
            i.message(1, schemaMessage(items.toObject()));
        for (const QJsonValue &e : items.toArray())
            i.message(1, schemaMessage(e.toObject()));
        m.message(23, i.bytes());
    }
    for (const QJsonValue &e : s.value(QLatin1String("allOf")).toArray())
        m.message(24, schemaMessage(e.toObject()));
    if (s.value(QLatin1String("properties")).isObject()) { // Properties{repeated NamedSchema = 1}
        Message p;
        const QJsonObject props = s.value(QLatin1String("properties")).toObject();
        for (auto it = props.begin(); it != props.end(); ++it)
            p.message(1, namedSchema(it.key(), it.value().toObject()));
        m.message(25, p.bytes());
    }
    m.string(26, s.value(QLatin1String("discriminator")).toString());
    m.boolean(27, s.value(QLatin1String("readOnly")).toBool());
    if (s.contains(QLatin1String("example")))
        m.message(30, anyMessage(s.value(QLatin1String("example"))));
    vendorExtensions(m, 31, s);
    return m.bytes();
}

/// ParametersItem{parameter = 1 | json_reference = 2} for one swagger parameter.
QByteArray parameterItem(const QJsonObject &p)
{
    Message item;
    if (p.contains(QLatin1String("$ref"))) { // JsonReference{_ref = 1, description = 2}
        Message r;
        r.string(1, p.value(QLatin1String("$ref")).toString());
        r.string(2, p.value(QLatin1String("description")).toString());
        item.message(2, r.bytes());
        return item.bytes();
    }
    const QString in = p.value(QLatin1String("in")).toString();
    Message parameter;
    if (in == QLatin1String("body")) { // BodyParameter
        Message b;
        b.string(1, p.value(QLatin1String("description")).toString());
        b.string(2, p.value(QLatin1String("name")).toString());
        b.string(3, in);
        b.boolean(4, p.value(QLatin1String("required")).toBool());
        if (p.value(QLatin1String("schema")).isObject())
            b.message(5, schemaMessage(p.value(QLatin1String("schema")).toObject()));
        vendorExtensions(b, 6, p);
        parameter.message(1, b.bytes());
    } else {
        // The four non-body sub-schemas share required/in/description/name = 1..4; after that
        // query and formData have allow_empty_value = 5 and so shift the rest by one.
        const bool shifted = in == QLatin1String("query") || in == QLatin1String("formData");
        const quint32 which = in == QLatin1String("header") ? 1
            : in == QLatin1String("formData")               ? 2
            : in == QLatin1String("query")                  ? 3
                                                            : 4;
        const quint32 k = shifted ? 1 : 0;
        Message sub;
        sub.boolean(1, p.value(QLatin1String("required")).toBool());
        sub.string(2, in);
        sub.string(3, p.value(QLatin1String("description")).toString());
        sub.string(4, p.value(QLatin1String("name")).toString());
        if (shifted)
            sub.boolean(5, p.value(QLatin1String("allowEmptyValue")).toBool());
        sub.string(5 + k, p.value(QLatin1String("type")).toString());
        sub.string(6 + k, p.value(QLatin1String("format")).toString());
        sub.string(8 + k, p.value(QLatin1String("collectionFormat")).toString());
        if (p.contains(QLatin1String("default")))
            sub.message(9 + k, anyMessage(p.value(QLatin1String("default"))));
        sub.boolean(19 + k, p.value(QLatin1String("uniqueItems")).toBool());
        for (const QJsonValue &e : p.value(QLatin1String("enum")).toArray())
            sub.message(20 + k, anyMessage(e));
        vendorExtensions(sub, 22 + k, p);
        Message nonBody; // NonBodyParameter{header = 1, form_data = 2, query = 3, path = 4}
        nonBody.message(which, sub.bytes());
        parameter.message(2, nonBody.bytes());
    }
    item.message(1, parameter.bytes());
    return item.bytes();
}

QByteArray operationMessage(const QJsonObject &op)
{
    Message m;
    m.strings(1, op.value(QLatin1String("tags")));
    m.string(2, op.value(QLatin1String("summary")).toString());
    m.string(3, op.value(QLatin1String("description")).toString());
    m.string(5, op.value(QLatin1String("operationId")).toString());
    m.strings(6, op.value(QLatin1String("produces")));
    m.strings(7, op.value(QLatin1String("consumes")));
    for (const QJsonValue &p : op.value(QLatin1String("parameters")).toArray())
        m.message(8, parameterItem(p.toObject()));
    if (op.value(QLatin1String("responses")).isObject()) { // Responses{response_code = 1, vendor = 2}
        Message responses;
        const QJsonObject codes = op.value(QLatin1String("responses")).toObject();
        for (auto it = codes.begin(); it != codes.end(); ++it) {
            if (it.key().startsWith(QLatin1String("x-")))
                continue;
            const QJsonObject r = it.value().toObject();
            Message response; // Response{description = 1, schema = 2 (SchemaItem{schema = 1}), vendor = 5}
            response.string(1, r.value(QLatin1String("description")).toString());
            if (r.value(QLatin1String("schema")).isObject()) {
                Message item;
                item.message(1, schemaMessage(r.value(QLatin1String("schema")).toObject()));
                response.message(2, item.bytes());
            }
            vendorExtensions(response, 5, r);
            Message value; // ResponseValue{response = 1}
            value.message(1, response.bytes());
            Message named; // NamedResponseValue{name = 1, value = 2}
            named.string(1, it.key());
            named.message(2, value.bytes());
            responses.message(1, named.bytes());
        }
        vendorExtensions(responses, 2, codes);
        m.message(9, responses.bytes());
    }
    m.strings(10, op.value(QLatin1String("schemes")));
    m.boolean(11, op.value(QLatin1String("deprecated")).toBool());
    vendorExtensions(m, 13, op);
    return m.bytes();
}

QByteArray pathItemMessage(const QJsonObject &item)
{
    Message m;
    m.string(1, item.value(QLatin1String("$ref")).toString());
    const char *const methods[] = {"get", "put", "post", "delete", "options", "head", "patch"}; // fields 2..8
    for (quint32 i = 0; i < 7; ++i)
        if (item.value(QLatin1String(methods[i])).isObject())
            m.message(2 + i, operationMessage(item.value(QLatin1String(methods[i])).toObject()));
    for (const QJsonValue &p : item.value(QLatin1String("parameters")).toArray())
        m.message(9, parameterItem(p.toObject()));
    vendorExtensions(m, 10, item);
    return m.bytes();
}

} // namespace

QByteArray encodeGnosticV2Document(const QJsonObject &swagger)
{
    Message doc;
    doc.string(1, swagger.value(QLatin1String("swagger")).toString());
    if (swagger.value(QLatin1String("info")).isObject()) { // Info{title = 1, version = 2, description = 3, vendor = 7}
        const QJsonObject info = swagger.value(QLatin1String("info")).toObject();
        Message m;
        m.string(1, info.value(QLatin1String("title")).toString());
        m.string(2, info.value(QLatin1String("version")).toString());
        m.string(3, info.value(QLatin1String("description")).toString());
        vendorExtensions(m, 7, info);
        doc.message(2, m.bytes());
    }
    doc.string(3, swagger.value(QLatin1String("host")).toString());
    doc.string(4, swagger.value(QLatin1String("basePath")).toString());
    doc.strings(5, swagger.value(QLatin1String("schemes")));
    doc.strings(6, swagger.value(QLatin1String("consumes")));
    doc.strings(7, swagger.value(QLatin1String("produces")));
    if (swagger.value(QLatin1String("paths"))
            .isObject()) { // Paths{vendor = 1, path = 2 (NamedPathItem{name = 1, value = 2})}
        const QJsonObject paths = swagger.value(QLatin1String("paths")).toObject();
        Message m;
        vendorExtensions(m, 1, paths);
        for (auto it = paths.begin(); it != paths.end(); ++it) {
            if (it.key().startsWith(QLatin1String("x-")))
                continue;
            Message named;
            named.string(1, it.key());
            named.message(2, pathItemMessage(it.value().toObject()));
            m.message(2, named.bytes());
        }
        doc.message(8, m.bytes());
    }
    if (swagger.value(QLatin1String("definitions")).isObject()) { // Definitions{repeated NamedSchema = 1}
        const QJsonObject defs = swagger.value(QLatin1String("definitions")).toObject();
        Message m;
        for (auto it = defs.begin(); it != defs.end(); ++it)
            m.message(1, namedSchema(it.key(), it.value().toObject()));
        doc.message(9, m.bytes());
    }
    vendorExtensions(doc, 16, swagger);
    return doc.bytes();
}

} // namespace opbench::apiserver
