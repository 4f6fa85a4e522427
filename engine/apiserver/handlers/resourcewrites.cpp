// SPDX-License-Identifier: Apache-2.0
// ResourceHandler: the write verbs (create, update, patch, delete, deletecollection).
#include "engine/apiserver/handlers/resourcehandler.h"

#include "engine/api/yamlcodec.h"
#include "engine/apiserver/apply/fieldmanager.h"
#include "engine/apiserver/apply/patch.h"
#include "engine/apiserver/controllers/crdcontroller.h"
#include "engine/apiserver/http/limits.h"
#include "engine/apiserver/validation/builtindecode.h"
#include "engine/apiserver/validation/conversion.h"
#include "engine/apiserver/validation/fieldvalidation.h"
#include "engine/apiserver/validation/objectrules.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace opbench::apiserver {

namespace {

Expected<QJsonObject> checkKind(const ResourceType &type, QJsonObject body)
{
    const QString kind = body.value(QLatin1String("kind")).toString();
    const QString apiVersion = body.value(QLatin1String("apiVersion")).toString();
    if (!type.custom && !kind.isEmpty() && kind != type.kind())
        return Status::badRequest(
            QStringLiteral("the kind in the data (%1) does not match the expected kind (%2)").arg(kind, type.kind()));
    if (!type.custom && !apiVersion.isEmpty() && apiVersion != type.apiVersion()) {
        return Status::badRequest(
            QStringLiteral("the API version in the data (%1) does not match the expected API version (%2)")
                .arg(apiVersion, type.apiVersion()));
    }
    if (type.custom && !kind.isEmpty() && kind != type.kind()) {
        return Status::invalid(type.gvr().group, type.kind(),
            body.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString(),
            {StatusCause{QStringLiteral("FieldValueInvalid"),
                QStringLiteral("Invalid value: \"%1\": must be %2").arg(kind, type.kind()), QStringLiteral("kind")}});
    }
    body.insert(QLatin1String("kind"), type.kind());
    body.insert(QLatin1String("apiVersion"), type.apiVersion());
    return body;
}

/// fieldValidation on the object about to be written (see fieldvalidation.h).
Expected<void> validateFields(const Request &r, const ResourceType &type, const QString &optionsKind,
    QJsonObject &object, Responder::Headers *warnings)
{
    auto mode = fieldValidationFrom(r, optionsKind);
    if (!mode)
        return mode.error();
    auto ok = checkBuiltinFieldTypes(type, object);
    if (ok)
        ok = applyFieldValidation(*mode, type, object, warnings);
    if (ok || optionsKind == QLatin1String("PatchOptions"))
        return ok;
    // create and update wrap decoding errors as the real server's transformDecodeError does
    const QString version = GroupVersion::parse(object.value(QLatin1String("apiVersion")).toString()).version;
    return Status::badRequest(QStringLiteral("%1 in version \"%2\" cannot be handled as a %1: %3")
                                  .arg(type.kind(), version, ok.error().message()));
}

Expected<DeleteOptions> deleteOptionsFrom(const Request &r)
{
    DeleteOptions opts;
    QJsonObject body;
    if (!r.body.trimmed().isEmpty()) {
        auto decoded = ResourceHandler::decodeBody(r);
        if (!decoded)
            return decoded.error();
        body = *decoded;
    }
    opts.propagationPolicy
        = body.value(QLatin1String("propagationPolicy")).toString(r.param(QStringLiteral("propagationPolicy")));
    const QJsonValue orphan = body.contains(QLatin1String("orphanDependents"))
        ? body.value(QLatin1String("orphanDependents"))
        : (r.hasParam(QStringLiteral("orphanDependents")) ? QJsonValue(r.boolParam(QStringLiteral("orphanDependents")))
                                                          : QJsonValue());
    if (opts.propagationPolicy.isEmpty() && orphan.isBool())
        opts.propagationPolicy = orphan.toBool() ? QStringLiteral("Orphan") : QStringLiteral("Background");
    if (body.value(QLatin1String("gracePeriodSeconds")).isDouble())
        opts.gracePeriodSeconds = body.value(QLatin1String("gracePeriodSeconds")).toInteger();
    else if (r.hasParam(QStringLiteral("gracePeriodSeconds")))
        opts.gracePeriodSeconds = r.param(QStringLiteral("gracePeriodSeconds")).toLongLong();
    const QJsonObject pre = body.value(QLatin1String("preconditions")).toObject();
    opts.preconditionUid = pre.value(QLatin1String("uid")).toString();
    opts.preconditionResourceVersion = pre.value(QLatin1String("resourceVersion")).toString();
    auto wo = writeOptionsFrom(r);
    if (!wo)
        return wo.error();
    opts.dryRun = wo->dryRun || body.value(QLatin1String("dryRun")).toArray().contains(QStringLiteral("All"));
    return opts;
}

/// k8s.io/apiserver/pkg/endpoints/handlers/patch.go: maxRetryWhenPatchConflicts.
constexpr int kMaxPatchConflictRetries = 5;

const GroupVersionResource kCrdResource{
    QStringLiteral("apiextensions.k8s.io"), QStringLiteral("v1"), QStringLiteral("customresourcedefinitions")};

/// 405 while the CRD of a custom resource is being deleted.
Expected<void> checkCrdNotTerminating(Store *store, const ResourceType &type)
{
    if (!type.custom)
        return {};
    if (auto crd = store->get(kCrdResource, QString(), type.crdName); crd && crd->isBeingDeleted())
        return Status::methodNotAllowed(
            QStringLiteral("create not allowed while custom resource definition is terminating"));
    return {};
}

/// Deleting a CRD first adds the cleanup finalizer (crdcontroller.h), as kube-apiserver does.
/// A resourceVersion precondition that held is moved to the finalizer write's RV.
Expected<void> prepareDelete(Store *store, const ResourceType &type, const QString &name, DeleteOptions *options)
{
    if (type.custom || type.gvr() != kCrdResource || options->dryRun)
        return {};
    auto crd = store->get(type.gvr(), QString(), name);
    if (!crd || crd->isBeingDeleted() || crd->finalizers().contains(crdCleanupFinalizer()))
        return {};
    if (!options->preconditionUid.isEmpty() && options->preconditionUid != crd->uid())
        return {}; // the delete itself answers the failed precondition
    if (!options->preconditionResourceVersion.isEmpty()
        && options->preconditionResourceVersion != crd->resourceVersion())
        return {};
    QJsonObject json = crd->json();
    QJsonObject meta = json.value(QLatin1String("metadata")).toObject();
    QJsonArray finalizers = meta.value(QLatin1String("finalizers")).toArray();
    finalizers.append(crdCleanupFinalizer());
    meta.insert(QStringLiteral("finalizers"), finalizers);
    json.insert(QStringLiteral("metadata"), meta);
    auto updated = store->update(type.gvr(), QString(), name, json);
    if (!updated)
        return updated.error();
    if (!options->preconditionResourceVersion.isEmpty())
        options->preconditionResourceVersion = updated->resourceVersion();
    return {};
}

/// The prelude of create and update: options, the decoded body within its size budget, its kind
/// checked, its fields validated (warnings collected for the reply).
struct DecodedWrite
{
    WriteOptions options;
    QJsonObject object;
    Responder::Headers warnings;
};

/// Whether the decoded JSON body of `r` is too small to exceed kMaxDecodedBytes: decodedSize()
/// counts at most 8 for each character of JSON text (a number, at least one character, counts
/// 8; strings, keys and punctuation count no more than their text), so a JSON body of at most
/// an eighth of the limit needs no walk. YAML and protobuf bodies are always walked.
bool jsonBodyWithinDecodedLimit(const Request &r)
{
    const QByteArray mt = r.contentMediaType();
    const bool json = mt.isEmpty() || mt == "application/json" || mt == "*/*";
    return json && qint64(r.body.size()) * 8 <= kMaxDecodedBytes;
}

Expected<DecodedWrite> decodeWrite(const Request &r, const ResourceType &type, const QString &optionsKind)
{
    DecodedWrite out;
    auto wo = writeOptionsFrom(r);
    if (!wo)
        return wo.error();
    out.options = std::move(*wo);
    auto body = ResourceHandler::decodeBody(r);
    if (!body)
        return body.error();
    if (!jsonBodyWithinDecodedLimit(r)) {
        if (auto ok = checkDecodedSize(*body, QStringLiteral("the request body")); !ok)
            return ok.error();
    }
    auto checked = checkKind(type, *body);
    if (!checked)
        return checked.error();
    if (auto ok = validateFields(r, type, optionsKind, *checked, &out.warnings); !ok)
        return ok.error();
    out.options.apiVersion = type.apiVersion();
    out.object = std::move(*checked);
    return out;
}

} // namespace

void ResourceHandler::create(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp)
{
    auto in = decodeWrite(r, type, QStringLiteral("CreateOptions"));
    if (!in)
        return resp.sendStatus(in.error());
    if (auto ok = checkCrdNotTerminating(m_store, type); !ok)
        return resp.sendStatus(ok.error());
    AdmissionAttributes a
        = attributesFor(r, info, type, QStringLiteral("CREATE"), in->options.dryRun, in->options.fieldManager);
    a.name = in->object.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
    a.object = in->object;
    admitWrite(r, info, type, a, in->options, resp, in->warnings);
}

Expected<Object> ResourceHandler::write(
    const RequestInfo &info, const ResourceType &type, const QJsonObject &object, const WriteOptions &wo)
{
    const QJsonObject stored = toStorage(type, object);
    if (info.subresource == QLatin1String("status"))
        return m_store->updateStatus(type.gvr(), info.namespaceName, info.name, stored, wo);
    return m_store->update(type.gvr(), info.namespaceName, info.name, stored, wo);
}

void ResourceHandler::update(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp)
{
    auto in = decodeWrite(r, type, QStringLiteral("UpdateOptions"));
    if (!in)
        return resp.sendStatus(in.error());
    AdmissionAttributes a
        = attributesFor(r, info, type, QStringLiteral("UPDATE"), in->options.dryRun, in->options.fieldManager);
    a.object = in->object;
    auto current = m_store->get(type.gvr(), info.namespaceName, info.name);
    if (!current || !throughWebhook(type, *current)) {
        if (current)
            a.oldObject = toServed(type, m_store->jsonOf(*current));
        return admitWrite(r, info, type, a, in->options, resp, in->warnings);
    }
    servedJson(type, *current,
        [this, r, info, type, a, wo = in->options, resp, warnings = in->warnings](Expected<QJsonObject> old) mutable {
            if (!old)
                return resp.sendStatus(old.error());
            a.oldObject = *old;
            admitWrite(r, info, type, a, wo, resp, warnings);
        });
}

void ResourceHandler::patch(
    const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp, int attempt)
{
    const PatchKind kind = mediaTypePatchKind(r.header("content-type"));
    if (kind == PatchKind::Unknown)
        return resp.sendStatus(type.custom ? customResourcePatchUnsupported() : builtinPatchUnsupported());
    if (type.custom && kind == PatchKind::StrategicMerge)
        return resp.sendStatus(customResourcePatchUnsupported());
    if (auto ok
        = validatePatchOptions(kind, r.param(QStringLiteral("fieldManager")), r.hasParam(QStringLiteral("force")));
        !ok)
        return resp.sendStatus(ok.error());
    auto wo = writeOptionsFrom(r);
    if (!wo)
        return resp.sendStatus(wo.error());
    wo->apiVersion = type.apiVersion();
    auto current = m_store->get(type.gvr(), info.namespaceName, info.name);
    if (!current && (kind != PatchKind::Apply || current.error().code() != 404 || !info.subresource.isEmpty()))
        return resp.sendStatus(current.error());
    if (!current)
        return patchLive(r, info, type, kind, *wo, std::nullopt, resp, attempt);
    if (!throughWebhook(type, *current))
        return patchLive(r, info, type, kind, *wo, toServed(type, m_store->jsonOf(*current)), resp, attempt);
    servedJson(
        type, *current, [this, r, info, type, kind, wo = *wo, resp, attempt](Expected<QJsonObject> live) mutable {
            if (!live)
                return resp.sendStatus(live.error());
            patchLive(r, info, type, kind, wo, *live, resp, attempt);
        });
}

void ResourceHandler::patchLive(const Request &r, const RequestInfo &info, const ResourceType &type, PatchKind kind,
    WriteOptions wo, const std::optional<QJsonObject> &live, Responder resp, int attempt)
{
    Expected<QJsonObject> patched = QJsonObject();
    if (kind == PatchKind::Apply) {
        auto docs = yamlToJson(r.body);
        if (!docs)
            return resp.sendStatus(docs.error());
        if (docs->size() != 1)
            return resp.sendStatus(Status::badRequest(QStringLiteral("an apply patch must hold exactly one document")));
        if (docs->first().value(QLatin1String("metadata")).toObject().contains(QLatin1String("managedFields")))
            return resp.sendStatus(Status::badRequest(QStringLiteral("metadata.managedFields must be nil")));
        const FieldManagerWrite w{
            wo.fieldManager, type.apiVersion(), info.subresource, rules::timestamp(m_store->clock())};
        patched = serverSideApply(type, live, docs->first(), w, r.boolParam(QStringLiteral("force")));
        wo.managedFieldsSet = true;
    } else {
        patched = applyPatch(kind, *live, r.body, type.custom);
    }
    if (!patched)
        return resp.sendStatus(patched.error());
    if (auto ok = checkDecodedSize(*patched, QStringLiteral("the patched object")); !ok)
        return resp.sendStatus(ok.error());
    Responder::Headers warnings;
    if (auto ok = validateFields(r, type, QStringLiteral("PatchOptions"), *patched, &warnings); !ok)
        return resp.sendStatus(ok.error());
    if (!live)
        if (auto ok = checkCrdNotTerminating(m_store, type); !ok)
            return resp.sendStatus(ok.error());
    // kube-apiserver admits a patch as the update (or create) it becomes
    AdmissionAttributes a = attributesFor(
        r, info, type, live ? QStringLiteral("UPDATE") : QStringLiteral("CREATE"), wo.dryRun, wo.fieldManager);
    a.object = *patched;
    if (live)
        a.oldObject = *live;
    // Another write between reading the object and storing the patched one (admission webhooks
    // answer later): apply the patch again to the latest object, as kube-apiserver's patcher
    // does (maxRetryWhenPatchConflicts). A patch that sets another resourceVersion than the one
    // it was applied to is a precondition: its conflict is answered.
    const auto rvOf = [](const QJsonObject &o) {
        return o.value(QLatin1String("metadata")).toObject().value(QLatin1String("resourceVersion")).toString();
    };
    std::function<void()> retry;
    if (live && attempt < kMaxPatchConflictRetries && rvOf(*patched) == rvOf(*live))
        retry = [this, r, info, type, resp, attempt]() mutable { patch(r, info, type, resp, attempt + 1); };
    admitWrite(r, info, type, a, wo, resp, warnings, std::move(retry));
}

void ResourceHandler::remove(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp)
{
    auto opts = deleteOptionsFrom(r);
    if (!opts)
        return resp.sendStatus(opts.error());
    AdmissionAttributes a = attributesFor(r, info, type, QStringLiteral("DELETE"), opts->dryRun, QString());
    const DeleteOptions options = *opts;
    if (!m_admission)
        return removeNow(r, info, type, options, resp, {});
    auto current = m_store->get(type.gvr(), info.namespaceName, info.name);
    if (!current)
        return resp.sendStatus(current.error());
    if (!throughWebhook(type, *current)) {
        a.oldObject = toServed(type, m_store->jsonOf(*current));
        return admitRemove(r, info, type, a, options, resp);
    }
    servedJson(type, *current, [this, r, info, type, a, options, resp](Expected<QJsonObject> old) mutable {
        if (!old)
            return resp.sendStatus(old.error());
        a.oldObject = *old;
        admitRemove(r, info, type, a, options, resp);
    });
}

void ResourceHandler::admitRemove(const Request &r, const RequestInfo &info, const ResourceType &type,
    const AdmissionAttributes &a, const DeleteOptions &options, Responder resp)
{
    admit(a, resp, {}, {},
        [this, r, info, type, options, resp](
            const QJsonObject &, const Responder::Headers &w) mutable { removeNow(r, info, type, options, resp, w); });
}

void ResourceHandler::removeNow(const Request &r, const RequestInfo &info, const ResourceType &type,
    DeleteOptions options, Responder resp, const Responder::Headers &warnings)
{
    if (auto ok = prepareDelete(m_store, type, info.name, &options); !ok)
        return resp.sendStatus(ok.error());
    auto result = m_store->remove(type.gvr(), info.namespaceName, info.name, options);
    if (!result)
        return resp.sendStatus(result.error());
    if (result->removed && !(type.gvr().resource == QLatin1String("pods") && !type.custom)) {
        const QJsonObject details{{QStringLiteral("name"), info.name}, {QStringLiteral("group"), type.gvr().group},
            {QStringLiteral("kind"), type.gvr().resource}, {QStringLiteral("uid"), result->object.uid()}};
        return resp.sendJson(200,
            QJsonObject{{QStringLiteral("kind"), QStringLiteral("Status")},
                {QStringLiteral("apiVersion"), QStringLiteral("v1")}, {QStringLiteral("metadata"), QJsonObject()},
                {QStringLiteral("status"), QStringLiteral("Success")}, {QStringLiteral("details"), details}},
            warnings);
    }
    sendObject(r, type, result->object, 200, resp, warnings);
}

void ResourceHandler::removeCollection(
    const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp)
{
    auto opts = deleteOptionsFrom(r);
    if (!opts)
        return resp.sendStatus(opts.error());
    auto filter = makeFilter(type, r.param(QStringLiteral("labelSelector")), r.param(QStringLiteral("fieldSelector")));
    if (!filter)
        return resp.sendStatus(filter.error());
    ListOptions lo;
    lo.namespaceName = info.namespaceName;
    lo.filter = *filter;
    auto listed = m_store->list(type.gvr(), lo);
    if (!listed)
        return resp.sendStatus(listed.error());
    QList<Object> removed;
    for (const Object &o : std::as_const(listed->items)) {
        DeleteOptions itemOptions = *opts;
        if (!prepareDelete(m_store, type, o.name(), &itemOptions))
            continue;
        auto result = m_store->remove(type.gvr(), o.namespaceName(), o.name(), itemOptions);
        if (result)
            removed << result->object;
    }
    convertAll(type, removed, [this, type, resp](Expected<QList<Object>> served) mutable {
        if (!served)
            return resp.sendStatus(served.error());
        QJsonArray items;
        for (const Object &o : std::as_const(*served))
            items.append(toServed(type, o.json()));
        sendRemoved(type, items, resp);
    });
}

void ResourceHandler::sendRemoved(const ResourceType &type, const QJsonArray &items, Responder resp)
{
    resp.sendJson(200,
        QJsonObject{{QStringLiteral("kind"), type.mapping.listKind}, {QStringLiteral("apiVersion"), type.apiVersion()},
            {QStringLiteral("metadata"),
                QJsonObject{{QStringLiteral("resourceVersion"), QString::number(m_store->resourceVersion())}}},
            {QStringLiteral("items"), items}});
}

} // namespace opbench::apiserver
