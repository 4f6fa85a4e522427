// SPDX-License-Identifier: Apache-2.0
// ResourceHandler: dispatch, body decoding and the read verbs (get, list, watch).
#include "engine/apiserver/handlers/resourcehandler.h"

#include "engine/apiserver/apply/fieldmanager.h"

#include "engine/api/yamlcodec.h"
#include "engine/apiserver/http/bodystream.h"
#include "engine/apiserver/schema/protobufdecode.h"
#include "engine/apiserver/transform/partialmetadata.h"
#include "engine/apiserver/transform/tables.h"
#include "engine/apiserver/validation/conversion.h"
#include "engine/base/clock.h"

#include <QJsonDocument>
#include <QPointer>

#include <algorithm>

namespace opbench::apiserver {

namespace {

Status notFoundPath()
{
    return Status(404, QString::fromLatin1(StatusReason::NotFound),
        QStringLiteral("the server could not find the requested resource"));
}

QByteArray compactJson(const QJsonObject &o) { return QJsonDocument(o).toJson(QJsonDocument::Compact); }

Status methodNotAllowed()
{
    return Status::methodNotAllowed(QStringLiteral("the server does not allow this method on the requested resource"));
}

} // namespace

ResourceHandler::ResourceHandler(Store *store, WatchHub *watches, QObject *context)
    : m_store(store)
    , m_watches(watches)
    , m_context(context)
{ }

Expected<WriteOptions> writeOptionsFrom(const Request &request)
{
    WriteOptions wo;
    if (request.hasParam(QStringLiteral("dryRun"))) {
        const QString v = request.param(QStringLiteral("dryRun"));
        if (v != QLatin1String("All"))
            return Status::badRequest(
                QStringLiteral("dryRun: Unsupported value: \"%1\": supported values: \"All\"").arg(v));
        wo.dryRun = true;
    }
    wo.fieldManager = fieldManagerFor(request.param(QStringLiteral("fieldManager")), request.header("user-agent"));
    return wo;
}

Expected<QJsonObject> ResourceHandler::decodeBody(const Request &request)
{
    const QByteArray mt = request.contentMediaType();
    if (mt == "application/yaml" || mt == "application/x-yaml" || mt == "text/yaml") {
        auto docs = yamlToJson(request.body);
        if (!docs)
            return docs.error();
        if (docs->size() != 1)
            return Status::badRequest(
                QStringLiteral("the request body must hold exactly one YAML document, found %1").arg(docs->size()));
        return docs->first();
    }
    if (mt == kProtobufMediaType)
        return decodeProtobufBody(request.body);
    if (!mt.isEmpty() && mt != "application/json" && mt != "*/*") {
        return Status::unsupportedMediaType(
            QStringLiteral("the body of the request was in an unknown format - accepted media types "
                           "include: application/json, application/yaml, application/vnd.kubernetes.protobuf"));
    }
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(request.body, &err);
    if (err.error != QJsonParseError::NoError)
        return Status::badRequest(QStringLiteral("the request body is not valid JSON: %1 at offset %2")
                                      .arg(err.errorString())
                                      .arg(err.offset));
    if (!doc.isObject())
        return Status::badRequest(QStringLiteral("the request body must be a JSON object"));
    return doc.object();
}

void ResourceHandler::handle(const Request &request, const RequestInfo &info, Responder resp)
{
    const auto found = m_store->registry()->find({info.apiGroup, info.apiVersion, info.resource});
    if (!found || found->reviewOnly || info.malformed)
        return resp.sendStatus(notFoundPath());
    const ResourceType &type = *found;
    if ((!type.namespaced() && !info.namespaceName.isEmpty())
        || (type.namespaced() && info.namespaceName.isEmpty() && !info.name.isEmpty()))
        return resp.sendStatus(notFoundPath());
    if (!info.subresource.isEmpty() && !type.mapping.subresources.contains(info.subresource))
        return resp.sendStatus(notFoundPath());
    if (!tableObjectFrom(request.param(QStringLiteral("includeObject")))) {
        return resp.sendStatus(Status::badRequest(QStringLiteral(
            "includeObject: Unsupported value: \"%1\": supported values: \"None\", \"Metadata\", \"Object\"")
                                                      .arg(request.param(QStringLiteral("includeObject")))));
    }
    const QByteArray &m = request.method;
    const bool named = !info.name.isEmpty();
    if (info.subresource == QLatin1String("scale") && (m == "GET" || m == "PUT" || m == "PATCH"))
        return scale(request, info, type, resp);
    if (m == "GET" || m == "HEAD") {
        if (info.verb == QLatin1String("watch"))
            return watch(request, info, type, resp);
        return named ? get(request, info, type, resp) : list(request, info, type, resp);
    }
    if (m == "POST" && !named && (!type.namespaced() || !info.namespaceName.isEmpty()))
        return create(request, info, type, resp);
    if (m == "PUT" && named)
        return update(request, info, type, resp);
    if (m == "PATCH" && named)
        return patch(request, info, type, resp);
    if (m == "DELETE" && named && info.subresource.isEmpty())
        return remove(request, info, type, resp);
    if (m == "DELETE" && !named)
        return removeCollection(request, info, type, resp);
    resp.sendStatus(methodNotAllowed());
}

void ResourceHandler::sendObject(const Request &r, const ResourceType &type, const Object &object, int code,
    Responder resp, const Responder::Headers &extra)
{
    if (!m_convert || !usesConversionWebhook(type) || object.isNull() || object.apiVersion() == type.apiVersion())
        return sendServed(r, type, toServed(type, object), code, resp, extra);
    QPointer<QObject> context(m_context);
    m_convert(type, {object.json()}, type.apiVersion(),
        [this, context, r, type, code, resp, extra](Expected<QList<QJsonObject>> converted) mutable {
            if (!context)
                return;
            if (!converted)
                return resp.sendStatus(converted.error());
            sendServed(r, type, Object::fromJson(converted->first()), code, resp, extra);
        });
}

void ResourceHandler::sendServed(const Request &r, const ResourceType &type, const Object &served, int code,
    Responder resp, const Responder::Headers &extra)
{
    if (acceptsPartialMetadata(r.header("accept")) && r.method == "GET")
        return resp.sendJson(code, partialObjectMetadata(served), extra);
    if (r.wantsTable() && r.method == "GET") {
        const QJsonObject t
            = makeTable(type, {served}, served.resourceVersion(), QString(), m_store->clock()->wallNow(), true,
                tableObjectFrom(r.param(QStringLiteral("includeObject"))).value_or(TableObject::Metadata));
        return resp.sendJson(code, t, extra);
    }
    resp.send(code, "application/json", served.toJsonBytes(), extra);
}

void ResourceHandler::convertAll(const ResourceType &type, QList<Object> objects, ConvertedObjects done)
{
    const auto elsewhere = [&type](const Object &o) { return o.apiVersion() != type.apiVersion(); };
    if (!m_convert || !usesConversionWebhook(type) || std::none_of(objects.cbegin(), objects.cend(), elsewhere))
        return done(std::move(objects));
    QList<QJsonObject> json;
    json.reserve(objects.size());
    for (const Object &o : std::as_const(objects))
        json << o.json();
    QPointer<QObject> context(m_context);
    m_convert(type, json, type.apiVersion(), [context, done](Expected<QList<QJsonObject>> converted) {
        if (!context)
            return;
        if (!converted)
            return done(converted.error());
        QList<Object> out;
        out.reserve(converted->size());
        for (const QJsonObject &each : std::as_const(*converted))
            out << Object::fromJson(each);
        done(out);
    });
}

void ResourceHandler::get(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp)
{
    auto o = m_store->get(type.gvr(), info.namespaceName, info.name);
    if (!o)
        return resp.sendStatus(o.error());
    sendObject(r, type, *o, 200, resp);
}

void ResourceHandler::list(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp)
{
    bool numeric = false;
    const quint64 rv = r.param(QStringLiteral("resourceVersion")).toULongLong(&numeric);
    if (!numeric || rv <= m_store->resourceVersion())
        return listNow(r, info, type, resp);
    // A future resourceVersion: wait for it (the store answers 504 if it never comes).
    whenFresh(
        m_store, rv, m_freshnessWait, m_context, [this, r, info, type, resp](bool) { listNow(r, info, type, resp); });
}

void ResourceHandler::listNow(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp)
{
    auto filter = makeFilter(type, r.param(QStringLiteral("labelSelector")), r.param(QStringLiteral("fieldSelector")));
    if (!filter)
        return resp.sendStatus(filter.error());
    ListOptions lo;
    lo.namespaceName = info.namespaceName;
    lo.filter = *filter;
    lo.limit = qMax<qint64>(0, r.param(QStringLiteral("limit")).toLongLong());
    lo.continueToken = r.param(QStringLiteral("continue"));
    lo.resourceVersion = r.param(QStringLiteral("resourceVersion"));
    lo.resourceVersionMatch = r.param(QStringLiteral("resourceVersionMatch"));
    auto result = m_store->list(type.gvr(), lo);
    if (!result)
        return resp.sendStatus(result.error());
    if (!m_convert || !usesConversionWebhook(type))
        return sendList(r, type, std::move(*result), resp);
    // One ConversionReview for the items not at the requested version (conversion webhook).
    QList<Object> stored = std::move(result->items);
    convertAll(type, std::move(stored),
        [this, r, type, listed = std::move(*result), resp](Expected<QList<Object>> served) mutable {
            if (!served)
                return resp.sendStatus(served.error());
            listed.items = std::move(*served);
            sendList(r, type, std::move(listed), resp);
        });
}

void ResourceHandler::sendList(const Request &r, const ResourceType &type, ListResult listed, Responder resp)
{
    const ListResult *result = &listed;
    // Every form is streamed (bodystream.h): the items are encoded into bounded chunks as the
    // socket drains, from this snapshot (objects are immutable and shared: a pointer each).
    const QList<Object> items = std::move(listed.items);
    const QString rv = QString::number(result->resourceVersion);
    QJsonObject meta{{QStringLiteral("resourceVersion"), rv}};
    if (!result->continueToken.isEmpty())
        meta.insert(QStringLiteral("continue"), result->continueToken);
    if (acceptsPartialMetadata(r.header("accept"))) {
        if (result->remainingItemCount >= 0)
            meta.insert(QStringLiteral("remainingItemCount"), result->remainingItemCount);
        return BodyStream::send(
            resp, "application/json", partialMetadataListHead(meta), items.size(),
            [type, items](qsizetype i, QByteArray &out) {
                out += compactJson(partialObjectMetadata(toServed(type, items.at(i))));
            },
            "]}");
    }
    if (r.wantsTable()) {
        // The keys in the order QJsonDocument writes a whole Table (sorted), rows last.
        const QByteArray head = R"({"apiVersion":"meta.k8s.io/v1","columnDefinitions":)"
            + QJsonDocument(tableColumns(type)).toJson(QJsonDocument::Compact) + R"(,"kind":"Table","metadata":)"
            + compactJson(meta) + R"(,"rows":[)";
        const QDateTime now = m_store->clock()->wallNow();
        const TableObject include
            = tableObjectFrom(r.param(QStringLiteral("includeObject"))).value_or(TableObject::Metadata);
        return BodyStream::send(
            resp, "application/json", head, items.size(),
            [type, items, now, include](qsizetype i, QByteArray &out) {
                out += compactJson(tableRow(type, toServed(type, items.at(i)), now, include));
            },
            "]}");
    }
    if (result->remainingItemCount >= 0)
        meta.insert(QStringLiteral("remainingItemCount"), result->remainingItemCount);
    const QByteArray head = "{\"kind\":\"" + type.mapping.listKind.toUtf8() + "\",\"apiVersion\":\""
        + type.apiVersion().toUtf8() + "\",\"metadata\":" + compactJson(meta) + ",\"items\":[";
    BodyStream::send(
        resp, "application/json", head, items.size(),
        [type, items](qsizetype i, QByteArray &out) {
            toServed(type, items.at(i)).appendJsonTo(out); // unpacked straight into the chunk
        },
        "]}");
}

void ResourceHandler::watch(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp)
{
    QString fieldSelector = r.param(QStringLiteral("fieldSelector"));
    if (!info.name.isEmpty()) // legacy /watch/.../{name}
        fieldSelector = QStringLiteral("metadata.name=") + info.name
            + (fieldSelector.isEmpty() ? QString() : u',' + fieldSelector);
    auto filter = makeFilter(type, r.param(QStringLiteral("labelSelector")), fieldSelector);
    if (!filter)
        return resp.sendStatus(filter.error());
    WatchRequest wr;
    wr.type = type;
    wr.namespaceName = info.namespaceName;
    wr.filter = *filter;
    wr.resourceVersion = r.param(QStringLiteral("resourceVersion"));
    wr.allowBookmarks = r.boolParam(QStringLiteral("allowWatchBookmarks"));
    wr.timeoutSeconds = qMax(0, r.param(QStringLiteral("timeoutSeconds")).toInt());
    wr.metadataOnly = acceptsPartialMetadata(r.header("accept"));
    wr.table = r.wantsTable() && !wr.metadataOnly;
    wr.tableObject = tableObjectFrom(r.param(QStringLiteral("includeObject"))).value_or(TableObject::Metadata);
    if (r.hasParam(QStringLiteral("sendInitialEvents")))
        wr.sendInitialEvents = r.boolParam(QStringLiteral("sendInitialEvents"));
    m_watches->start(resp, wr);
}

} // namespace opbench::apiserver
