// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/schema/protobufdecode.h"

#include "engine/apiserver/schema/protobufreader.h"

#include <QDateTime>
#include <QJsonArray>

namespace opbench::apiserver {

namespace {

using T = ProtobufFieldType;
using Field = ProtobufReader::Field;

Status malformed(const QString &what)
{
    return Status::badRequest(QStringLiteral("the protobuf request body is malformed: %1").arg(what));
}

QString joinPath(const QString &path, const char *name)
{
    return path.isEmpty() ? QString::fromLatin1(name) : path + u'.' + QLatin1String(name);
}

bool wantsVarint(T type) { return type == T::Int || type == T::Bool; }

/// A map entry {1: key, 2: value}; value bytes for string/bytes/Quantity values.
Expected<std::pair<QString, QByteArrayView>> mapEntry(QByteArrayView bytes, const QString &path)
{
    ProtobufReader r(bytes);
    Field f;
    QString key;
    QByteArrayView value;
    while (r.next(&f)) {
        if (f.wireType != ProtobufReader::LengthDelimited)
            continue;
        if (f.number == 1)
            key = QString::fromUtf8(f.bytes);
        else if (f.number == 2)
            value = f.bytes;
    }
    if (!r.error().isEmpty())
        return malformed(QStringLiteral("%1 in a map entry of %2").arg(r.error(), path));
    return std::make_pair(key, value);
}

/// resource.Quantity {1: string}.
QString quantityString(QByteArrayView bytes)
{
    ProtobufReader r(bytes);
    Field f;
    QString s;
    while (r.next(&f))
        if (f.number == 1 && f.wireType == ProtobufReader::LengthDelimited)
            s = QString::fromUtf8(f.bytes);
    return s;
}

/// meta.v1.Time {1: seconds, 2: nanos}; a null value for the zero time.
QJsonValue timeValue(QByteArrayView bytes)
{
    ProtobufReader r(bytes);
    Field f;
    qint64 seconds = 0;
    while (r.next(&f))
        if (f.number == 1 && f.wireType == ProtobufReader::Varint)
            seconds = qint64(f.varint);
    if (seconds == 0)
        return QJsonValue();
    return QDateTime::fromSecsSinceEpoch(seconds, Qt::UTC).toString(Qt::ISODate);
}

/// intstr.IntOrString {1: type (0 int, 1 string), 2: intVal, 3: strVal}.
QJsonValue intOrString(QByteArrayView bytes)
{
    ProtobufReader r(bytes);
    Field f;
    qint64 type = 0, intVal = 0;
    QString strVal;
    while (r.next(&f)) {
        if (f.number == 1 && f.wireType == ProtobufReader::Varint)
            type = qint64(f.varint);
        else if (f.number == 2 && f.wireType == ProtobufReader::Varint)
            intVal = qint32(f.varint);
        else if (f.number == 3 && f.wireType == ProtobufReader::LengthDelimited)
            strVal = QString::fromUtf8(f.bytes);
    }
    return type == 1 ? QJsonValue(strVal) : QJsonValue(intVal);
}

/// Adds one map entry to obj[name].
Expected<void> addMapEntry(QJsonObject *obj, const ProtobufField &spec, QByteArrayView bytes, const QString &path)
{
    auto entry = mapEntry(bytes, path);
    if (!entry)
        return entry.error();
    QJsonValue value;
    if (spec.type == T::StringMap)
        value = QString::fromUtf8(entry->second);
    else if (spec.type == T::BytesMap)
        value = QString::fromLatin1(entry->second.toByteArray().toBase64());
    else
        value = quantityString(entry->second);
    const QString name = QString::fromLatin1(spec.json);
    QJsonObject map = obj->value(name).toObject();
    map.insert(entry->first, value);
    obj->insert(name, map);
    return {};
}

/// The JSON value of one length-delimited or varint field; undefined when it is to be dropped.
Expected<QJsonValue> fieldValue(const ProtobufField &spec, const Field &f, const QString &path)
{
    switch (spec.type) {
    case T::String: {
        const QString s = QString::fromUtf8(f.bytes);
        return (s.isEmpty() && !spec.pointer && !spec.repeated) ? QJsonValue(QJsonValue::Undefined) : QJsonValue(s);
    }
    case T::Bytes:
        return QJsonValue(QString::fromLatin1(f.bytes.toByteArray().toBase64()));
    case T::Int:
        return (f.varint == 0 && !spec.pointer) ? QJsonValue(QJsonValue::Undefined) : QJsonValue(qint64(f.varint));
    case T::Bool:
        return (f.varint == 0 && !spec.pointer) ? QJsonValue(QJsonValue::Undefined) : QJsonValue(f.varint != 0);
    case T::Time: {
        const QJsonValue v = timeValue(f.bytes);
        return v.isNull() ? QJsonValue(QJsonValue::Undefined) : v;
    }
    case T::IntOrString:
        return intOrString(f.bytes);
    case T::Message: {
        auto sub = decodeProtobufMessage(f.bytes, spec.message(), path);
        if (!sub)
            return sub.error();
        return QJsonValue(*sub);
    }
    default:
        return QJsonValue(QJsonValue::Undefined); // maps are handled by addMapEntry
    }
}

Expected<void> addField(QJsonObject *obj, const ProtobufField &spec, const Field &f, const QString &parent)
{
    const QString path = joinPath(parent, spec.json);
    const bool varint = f.wireType == ProtobufReader::Varint;
    if (varint != wantsVarint(spec.type) || (!varint && f.wireType != ProtobufReader::LengthDelimited)) {
        return malformed(
            QStringLiteral("field %1 (number %2) has wire type %3, expected %4")
                .arg(path)
                .arg(f.number)
                .arg(f.wireType)
                .arg(wantsVarint(spec.type) ? QStringLiteral("0 (varint)") : QStringLiteral("2 (length-delimited)")));
    }
    if (spec.type == T::StringMap || spec.type == T::BytesMap || spec.type == T::QuantityMap)
        return addMapEntry(obj, spec, f.bytes, path);
    auto value = fieldValue(spec, f, path);
    if (!value)
        return value.error();
    const QString name = QString::fromLatin1(spec.json);
    if (spec.repeated) {
        QJsonArray array = obj->value(name).toArray();
        array.append(*value);
        obj->insert(name, array);
    } else if (value->isUndefined()) {
        obj->remove(name);
    } else {
        obj->insert(name, *value);
    }
    return {};
}

struct Envelope
{
    QString apiVersion;
    QString kind;
    QByteArrayView raw;
    QString contentEncoding;
};

Expected<Envelope> readEnvelope(QByteArrayView bytes)
{
    Envelope e;
    ProtobufReader r(bytes);
    Field f;
    while (r.next(&f)) {
        if (f.wireType != ProtobufReader::LengthDelimited)
            continue;
        if (f.number == 1) {
            ProtobufReader tm(f.bytes);
            Field t;
            while (tm.next(&t)) {
                if (t.number == 1 && t.wireType == ProtobufReader::LengthDelimited)
                    e.apiVersion = QString::fromUtf8(t.bytes);
                else if (t.number == 2 && t.wireType == ProtobufReader::LengthDelimited)
                    e.kind = QString::fromUtf8(t.bytes);
            }
            if (!tm.error().isEmpty())
                return malformed(tm.error() + QStringLiteral(" in the envelope's typeMeta"));
        } else if (f.number == 2) {
            e.raw = f.bytes;
        } else if (f.number == 3) {
            e.contentEncoding = QString::fromUtf8(f.bytes);
        }
    }
    if (!r.error().isEmpty())
        return malformed(r.error() + QStringLiteral(" in the runtime.Unknown envelope"));
    return e;
}

} // namespace

Expected<QJsonObject> decodeProtobufMessage(QByteArrayView bytes, const ProtobufMessage &message, const QString &path)
{
    QJsonObject obj;
    ProtobufReader r(bytes);
    Field f;
    while (r.next(&f)) {
        const ProtobufField *spec = message.field(f.number);
        if (!spec)
            continue; // unknown field number: skipped (the reader has moved past it)
        if (auto ok = addField(&obj, *spec, f, path); !ok)
            return ok.error();
    }
    if (!r.error().isEmpty())
        return malformed(QStringLiteral("%1 in %2%3")
                             .arg(r.error(), QLatin1String(message.name),
                                 path.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(path)));
    return obj;
}

Expected<QJsonObject> decodeProtobufBody(const QByteArray &body)
{
    static const QByteArray magic("k8s\0", 4);
    if (!body.startsWith(magic))
        return malformed(QStringLiteral("it does not start with the 4-byte prefix \"k8s\\x00\""));
    auto envelope = readEnvelope(QByteArrayView(body).sliced(magic.size()));
    if (!envelope)
        return envelope.error();
    if (!envelope->contentEncoding.isEmpty()) {
        return Status::unsupportedMediaType(
            QStringLiteral("the protobuf request body uses content encoding \"%1\", which this server does not support")
                .arg(envelope->contentEncoding));
    }
    const ProtobufMessage *message = protobufMessageFor(envelope->apiVersion, envelope->kind);
    if (!message) {
        return Status::unsupportedMediaType(
            QStringLiteral("this server cannot decode %1 %2 from protobuf (supported: %3); send it as application/json")
                .arg(envelope->apiVersion.isEmpty() ? QStringLiteral("(no apiVersion)") : envelope->apiVersion,
                    envelope->kind.isEmpty() ? QStringLiteral("(no kind)") : envelope->kind, protobufSupportedKinds()));
    }
    auto object = decodeProtobufMessage(envelope->raw, *message);
    if (!object)
        return object.error();
    object->insert(QStringLiteral("apiVersion"), envelope->apiVersion);
    object->insert(QStringLiteral("kind"), envelope->kind);
    return object;
}

} // namespace opbench::apiserver
