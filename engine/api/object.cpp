// SPDX-License-Identifier: Apache-2.0
#include "engine/api/object.h"

#include "engine/api/jsonwriter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QMutex>
#include <QSet>

#include <simdjson.h>

#include <cstring>
#include <string>

namespace opbench {

// The shared, immutable state behind an Object. Invariant: every decoded field equals what
// `json` says; nothing is ever changed after construction.
//
// Memory (see bench/objectmemory.cpp): strings that repeat across objects (apiVersion, kind,
// namespace, label keys, short label values, owner apiVersion/kind) are interned so thousands
// of objects share one copy; label values and owner names equal to the object's name share
// the name's buffer; creationTimestamp is stored inline without a heap block.
class ObjectData : public QSharedData
{
public:
    QByteArray json; // compact JSON of the whole document
    QString apiVersion;
    QString kind;
    QString name;
    QString generateName;
    QString ns;
    QString uid;
    QString resourceVersion;
    QString deletionTimestamp;
    // creationTimestamp kept inline (no heap block); longer values are read from `json`.
    char creationTimestamp[36] = {};
    quint8 creationTimestampSize = 0;
    bool creationTimestampInline = true;
    qint64 generation = 0;
    Labels labels;
    QList<OwnerReference> ownerReferences;
    QStringList finalizers;
};

QJsonObject OwnerReference::toJson() const
{
    QJsonObject o;
    o.insert(QLatin1String("apiVersion"), apiVersion);
    o.insert(QLatin1String("kind"), kind);
    o.insert(QLatin1String("name"), name);
    o.insert(QLatin1String("uid"), uid);
    if (controller)
        o.insert(QLatin1String("controller"), true);
    if (blockOwnerDeletion)
        o.insert(QLatin1String("blockOwnerDeletion"), true);
    return o;
}

OwnerReference OwnerReference::fromJson(const QJsonObject &o)
{
    return {o.value(QLatin1String("apiVersion")).toString(), o.value(QLatin1String("kind")).toString(),
            o.value(QLatin1String("name")).toString(),       o.value(QLatin1String("uid")).toString(),
            o.value(QLatin1String("controller")).toBool(),   o.value(QLatin1String("blockOwnerDeletion")).toBool()};
}

QString objectKey(const QString &ns, const QString &name)
{
    return ns.isEmpty() ? name : ns + u'/' + name;
}

namespace {

namespace dom = simdjson::dom;

QString qstr(std::string_view sv) { return QString::fromUtf8(sv.data(), qsizetype(sv.size())); }

QString stringField(dom::object obj, const char *key)
{
    std::string_view sv;
    if (obj[key].get_string().get(sv) == simdjson::SUCCESS)
        return qstr(sv);
    return {};
}

// Returns the shared copy of a short string that many objects carry (bounded table: once full,
// new strings are simply not interned, so unique values cannot grow it without limit).
QString intern(std::string_view sv)
{
    if (sv.empty() || sv.size() > 64)
        return qstr(sv);
    static QBasicMutex mutex;
    static QSet<QString> *table = new QSet<QString>(); // never destroyed: objects may outlive statics
    QString s = qstr(sv);
    const QMutexLocker lock(&mutex);
    auto it = table->constFind(s);
    if (it != table->cend())
        return *it;
    if (table->size() < 8192)
        table->insert(s);
    return s;
}

QString internedField(dom::object obj, const char *key)
{
    std::string_view sv;
    if (obj[key].get_string().get(sv) == simdjson::SUCCESS)
        return intern(sv);
    return {};
}

// The object's name, as decoded and as its UTF-8 text.
struct NameRef
{
    const QString &name;
    std::string_view utf8;
};

// `sv` as a QString, sharing the name's buffer when equal.
QString shareName(std::string_view sv, const NameRef &name, bool internOthers)
{
    if (!name.utf8.empty() && sv == name.utf8)
        return name.name;
    return internOthers ? intern(sv) : qstr(sv);
}

void decodeLabels(dom::object meta, const NameRef &nameRef, ObjectData &d)
{
    dom::object labels;
    if (meta["labels"].get_object().get(labels) != simdjson::SUCCESS)
        return;
    for (dom::key_value_pair kv : labels) {
        std::string_view v;
        if (kv.value.get_string().get(v) == simdjson::SUCCESS)
            d.labels.insert(intern(kv.key), shareName(v, nameRef, true));
    }
}

void decodeOwnerReferences(dom::object meta, const NameRef &nameRef, ObjectData &d)
{
    dom::array refs;
    if (meta["ownerReferences"].get_array().get(refs) != simdjson::SUCCESS)
        return;
    for (dom::element r : refs) {
        dom::object ro;
        if (r.get_object().get(ro) != simdjson::SUCCESS)
            continue;
        OwnerReference ref;
        ref.apiVersion = internedField(ro, "apiVersion");
        ref.kind = internedField(ro, "kind");
        std::string_view refName;
        if (ro["name"].get_string().get(refName) == simdjson::SUCCESS)
            ref.name = shareName(refName, nameRef, false);
        ref.uid = stringField(ro, "uid");
        bool b = false;
        if (ro["controller"].get_bool().get(b) == simdjson::SUCCESS)
            ref.controller = b;
        b = false;
        if (ro["blockOwnerDeletion"].get_bool().get(b) == simdjson::SUCCESS)
            ref.blockOwnerDeletion = b;
        d.ownerReferences.append(ref);
    }
}

void decodeFinalizers(dom::object meta, ObjectData &d)
{
    dom::array fins;
    if (meta["finalizers"].get_array().get(fins) != simdjson::SUCCESS)
        return;
    for (dom::element f : fins) {
        std::string_view v;
        if (f.get_string().get(v) == simdjson::SUCCESS)
            d.finalizers.append(intern(v));
    }
}

void decodeCreationTimestamp(dom::object meta, ObjectData &d)
{
    std::string_view created;
    if (meta["creationTimestamp"].get_string().get(created) != simdjson::SUCCESS)
        return;
    d.creationTimestampInline = created.size() <= sizeof d.creationTimestamp;
    if (d.creationTimestampInline) {
        std::memcpy(d.creationTimestamp, created.data(), created.size());
        d.creationTimestampSize = quint8(created.size());
    }
}

// Decodes the metadata block of `obj` into `d`.
void decodeMeta(dom::object obj, ObjectData &d)
{
    d.apiVersion = internedField(obj, "apiVersion");
    d.kind = internedField(obj, "kind");
    dom::object meta;
    if (obj["metadata"].get_object().get(meta) != simdjson::SUCCESS)
        return;
    std::string_view nameUtf8;
    if (meta["name"].get_string().get(nameUtf8) == simdjson::SUCCESS)
        d.name = qstr(nameUtf8);
    const NameRef nameRef{d.name, nameUtf8};
    d.generateName = stringField(meta, "generateName");
    d.ns = internedField(meta, "namespace");
    d.uid = stringField(meta, "uid");
    d.resourceVersion = stringField(meta, "resourceVersion");
    d.deletionTimestamp = stringField(meta, "deletionTimestamp");
    decodeCreationTimestamp(meta, d);
    int64_t gen = 0;
    if (meta["generation"].get_int64().get(gen) == simdjson::SUCCESS)
        d.generation = gen;
    decodeLabels(meta, nameRef, d);
    decodeOwnerReferences(meta, nameRef, d);
    decodeFinalizers(meta, d);
}

dom::parser &threadParser()
{
    thread_local dom::parser parser;
    return parser;
}

Status decodeError(simdjson::error_code code, const QByteArray &json)
{
    return Status::transport(QString::fromLatin1(StatusReason::DecodeError),
                             QStringLiteral("invalid JSON (%1) in %2 bytes starting %3")
                                 .arg(QString::fromUtf8(simdjson::error_message(code)))
                                 .arg(json.size())
                                 .arg(QString::fromUtf8(json.left(60).toPercentEncoding(" {}[]\":,.-_/"))));
}

ObjectData *buildData(dom::element el, const QString &apiVersion, const QString &kind, bool stripManagedFields)
{
    auto *d = new ObjectData;
    // Serialize into a reused scratch buffer, then copy once into an exactly sized QByteArray
    // (no growth reallocations, no slack: less time and less heap fragmentation).
    thread_local std::string scratch;
    scratch.clear();
    jsonwriter::writeElement(scratch, el, stripManagedFields);
    decodeMeta(dom::object(el), *d);
    if (d->apiVersion.isEmpty() && !apiVersion.isEmpty()) {
        // Built-in list items often omit apiVersion/kind: put them back so every cached
        // object is self-describing.
        d->apiVersion = apiVersion;
        d->kind = kind;
        std::string prefix = "{\"apiVersion\":";
        jsonwriter::writeString(prefix, apiVersion.toStdString());
        prefix += ",\"kind\":";
        jsonwriter::writeString(prefix, kind.toStdString());
        if (scratch.size() > 2)
            prefix += ',';
        scratch.replace(0, 1, prefix);
    }
    d->json = QByteArray(scratch.data(), qsizetype(scratch.size()));
    if (scratch.capacity() > (size_t(1) << 20))
        std::string().swap(scratch); // do not keep a huge buffer after an unusually large object
    return d;
}

} // namespace

Object::Object() = default;
Object::Object(ObjectData *data) : d(data) {}
Object::Object(const Object &) = default;
Object::Object(Object &&) noexcept = default;
Object &Object::operator=(const Object &) = default;
Object &Object::operator=(Object &&) noexcept = default;
Object::~Object() = default;

Object Object::fromJson(const QJsonObject &json)
{
    auto parsed = parse(QJsonDocument(json).toJson(QJsonDocument::Compact));
    return parsed.ok() ? parsed.value() : Object();
}

Expected<Object> Object::parse(const QByteArray &json)
{
    dom::element el;
    auto err = threadParser().parse(json.constData(), size_t(json.size())).get(el);
    if (err)
        return decodeError(err, json);
    if (!el.is_object())
        return Status::transport(QString::fromLatin1(StatusReason::DecodeError),
                                 QStringLiteral("expected a JSON object, got %1").arg(QString::fromUtf8(json.left(40))));
    return Object(buildData(el, {}, {}, false));
}

Expected<Object::List> Object::parseList(const QByteArray &json, const QString &itemApiVersion, const QString &itemKind,
                                         bool stripManagedFields)
{
    dom::element el;
    auto err = threadParser().parse(json.constData(), size_t(json.size())).get(el);
    if (err)
        return decodeError(err, json);
    dom::object obj;
    if (el.get_object().get(obj))
        return Status::transport(QString::fromLatin1(StatusReason::DecodeError), QStringLiteral("a list must be a JSON object"));
    List list;
    list.kind = stringField(obj, "kind");
    dom::object meta;
    if (obj["metadata"].get_object().get(meta) == simdjson::SUCCESS) {
        list.resourceVersion = stringField(meta, "resourceVersion");
        list.continueToken = stringField(meta, "continue");
        int64_t remaining = -1;
        if (meta["remainingItemCount"].get_int64().get(remaining) == simdjson::SUCCESS)
            list.remainingItemCount = remaining;
    }
    dom::array items;
    auto itemsErr = obj["items"].get_array().get(items);
    if (itemsErr && itemsErr != simdjson::NO_SUCH_FIELD) {
        // "items": null is tolerated as empty; anything else is an error.
        if (!obj["items"].is_null())
            return Status::transport(QString::fromLatin1(StatusReason::DecodeError), QStringLiteral("list \"items\" is not an array"));
    }
    if (!itemsErr) {
        list.items.reserve(qsizetype(items.size()));
        for (dom::element item : items) {
            if (!item.is_object())
                return Status::transport(QString::fromLatin1(StatusReason::DecodeError), QStringLiteral("a list item is not an object"));
            list.items.append(Object(buildData(item, itemApiVersion, itemKind, stripManagedFields)));
        }
    }
    return list;
}

bool Object::isNull() const { return !d; }

QJsonObject Object::json() const
{
    return d ? QJsonDocument::fromJson(d->json).object() : QJsonObject();
}

QByteArray Object::toJsonBytes() const { return d ? d->json : QByteArray(); }

qsizetype Object::memoryFootprint() const
{
    if (!d)
        return 0;
    // Strings shared with other objects (interned) or with this object's name are not counted
    // again: a string counts only while this object holds its sole reference.
    auto str = [](const QString &s) {
        return s.isEmpty() || !s.isDetached() ? 0 : qsizetype(sizeof(QArrayData)) + s.capacity() * 2;
    };
    qsizetype n = qsizetype(sizeof(ObjectData)) + qsizetype(sizeof(QArrayData)) + d->json.capacity();
    n += d->name.isEmpty() ? 0 : qsizetype(sizeof(QArrayData)) + d->name.capacity() * 2;
    for (const QString *s : {&d->apiVersion, &d->kind, &d->generateName, &d->ns, &d->uid, &d->resourceVersion, &d->deletionTimestamp})
        n += str(*s);
    for (auto it = d->labels.cbegin(); it != d->labels.cend(); ++it)
        n += 48 + str(it.key()) + str(it.value()); // map node + strings
    for (const OwnerReference &r : d->ownerReferences)
        n += qsizetype(sizeof(OwnerReference)) + str(r.apiVersion) + str(r.kind) + str(r.name) + str(r.uid);
    for (const QString &f : d->finalizers)
        n += qsizetype(sizeof(QString)) + str(f);
    return n;
}

QString Object::apiVersion() const { return d ? d->apiVersion : QString(); }
QString Object::kind() const { return d ? d->kind : QString(); }
GroupVersionKind Object::gvk() const { return GroupVersionKind::fromApiVersionKind(apiVersion(), kind()); }
QString Object::name() const { return d ? d->name : QString(); }
QString Object::generateName() const { return d ? d->generateName : QString(); }
QString Object::namespaceName() const { return d ? d->ns : QString(); }
QString Object::key() const { return d ? objectKey(d->ns, d->name) : QString(); }
QString Object::uid() const { return d ? d->uid : QString(); }
QString Object::resourceVersion() const { return d ? d->resourceVersion : QString(); }
qint64 Object::generation() const { return d ? d->generation : 0; }
QString Object::creationTimestamp() const
{
    if (!d)
        return {};
    if (d->creationTimestampInline)
        return d->creationTimestampSize == 0 ? QString() : QString::fromUtf8(d->creationTimestamp, d->creationTimestampSize);
    dom::element el;
    if (threadParser().parse(d->json.constData(), size_t(d->json.size())).get(el))
        return {};
    std::string_view sv;
    if (el["metadata"]["creationTimestamp"].get_string().get(sv) != simdjson::SUCCESS)
        return {};
    return qstr(sv);
}
QString Object::deletionTimestamp() const { return d ? d->deletionTimestamp : QString(); }

const Labels &Object::labels() const
{
    static const Labels empty;
    return d ? d->labels : empty;
}

Labels Object::annotations() const
{
    Labels out;
    if (!d)
        return out;
    dom::element el;
    if (threadParser().parse(d->json.constData(), size_t(d->json.size())).get(el))
        return out;
    dom::object ann;
    if (el["metadata"]["annotations"].get_object().get(ann) == simdjson::SUCCESS) {
        for (dom::key_value_pair kv : ann) {
            std::string_view v;
            if (kv.value.get_string().get(v) == simdjson::SUCCESS)
                out.insert(qstr(kv.key), qstr(v));
        }
    }
    return out;
}

const QList<OwnerReference> &Object::ownerReferences() const
{
    static const QList<OwnerReference> empty;
    return d ? d->ownerReferences : empty;
}

std::optional<OwnerReference> Object::controllerReference() const
{
    for (const OwnerReference &r : ownerReferences())
        if (r.controller)
            return r;
    return std::nullopt;
}

const QStringList &Object::finalizers() const
{
    static const QStringList empty;
    return d ? d->finalizers : empty;
}

QJsonValue Object::value(std::initializer_list<QLatin1String> path) const
{
    QJsonValue v = json();
    for (QLatin1String p : path) {
        if (!v.isObject())
            return QJsonValue(QJsonValue::Undefined);
        v = v.toObject().value(p);
    }
    return v;
}

Object Object::withoutManagedFields() const
{
    if (!d || !d->json.contains("\"managedFields\""))
        return *this;
    dom::element el;
    if (threadParser().parse(d->json.constData(), size_t(d->json.size())).get(el))
        return *this;
    return Object(buildData(el, {}, {}, true));
}

bool operator==(const Object &a, const Object &b)
{
    if (a.d == b.d)
        return true;
    return a.toJsonBytes() == b.toJsonBytes();
}

} // namespace opbench
