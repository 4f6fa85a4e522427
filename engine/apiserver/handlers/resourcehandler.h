// SPDX-License-Identifier: Apache-2.0
#pragma once
// ResourceHandler: the REST verbs on resources — get, list, watch, create, update, patch,
// delete, deletecollection, and the /status and /scale subresources — translated to Store calls
// with the API server's wire rules (201 on create, Status replies, Tables, dryRun, body decoding:
// JSON or YAML, 400 malformed, 415 wrong content type).

#include "engine/apiserver/admission/admissionchain.h"
#include "engine/apiserver/apply/patch.h"
#include "engine/apiserver/http/exchange.h"
#include "engine/apiserver/http/requestinfo.h"
#include "engine/apiserver/storage/freshness.h"
#include "engine/apiserver/storage/store.h"
#include "engine/apiserver/storage/watchhub.h"
#include "engine/apiserver/validation/conversion.h"

namespace opbench::apiserver {

class ResourceHandler
{
public:
    /// `context` (the HTTP front) owns this handler: delayed work (freshness waits) runs on it.
    ResourceHandler(Store *store, WatchHub *watches, QObject *context);

    /// How long a list naming a resourceVersion newer than the store's waits for it before 504
    /// (default kDefaultFreshnessWait, 3 s; see freshness.h).
    void setFreshnessWait(std::chrono::milliseconds wait) { m_freshnessWait = wait; }

    /// Webhook admission for create, update and delete (none when unset); owned by the context.
    void setAdmission(AdmissionChain *chain) { m_admission = chain; }

    /// Conversion through a CRD's conversion webhook (conversion.h); none: apiVersion only.
    void setConverter(AsyncConverter convert) { m_convert = std::move(convert); }

    /// Serves a resource request (info.isResourceRequest).
    void handle(const Request &request, const RequestInfo &info, Responder responder);

    /// Decodes a request body (JSON, YAML for application/yaml, Kubernetes protobuf for the kinds
    /// in protobufschema.h): 415 for other media types or protobuf kinds,
    /// 400 naming the problem for malformed content or a non-object document.
    static Expected<QJsonObject> decodeBody(const Request &request);

private:
    void get(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp);
    void list(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp);
    void listNow(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp);
    void sendList(const Request &r, const ResourceType &type, ListResult listed, Responder resp);
    void watch(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp);
    void create(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp);
    void update(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp);
    /// `attempt`: how often the patch was applied again after a write conflict (kube-apiserver
    /// re-applies a patch to the latest object, up to 5 times, when another write came between).
    void patch(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp, int attempt = 0);
    void patchLive(const Request &r, const RequestInfo &info, const ResourceType &type, PatchKind kind, WriteOptions wo,
        const std::optional<QJsonObject> &live, Responder resp, int attempt = 0);
    void remove(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp);
    void admitRemove(const Request &r, const RequestInfo &info, const ResourceType &type, const AdmissionAttributes &a,
        const DeleteOptions &options, Responder resp);
    void removeNow(const Request &r, const RequestInfo &info, const ResourceType &type, DeleteOptions options,
        Responder resp, const Responder::Headers &warnings);
    void removeCollection(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp);
    void sendRemoved(const ResourceType &type, const QJsonArray &items, Responder resp);
    void scale(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp);
    void scaleLive(
        const Request &r, const RequestInfo &info, const ResourceType &type, const QJsonObject &live, Responder resp);
    /// Writes `patched` (a whole object in served form) through the right Store call.
    Expected<Object> write(
        const RequestInfo &info, const ResourceType &type, const QJsonObject &patched, const WriteOptions &wo);
    /// A dry-run write of the mutated object, as the validating webhooks see it (served form).
    using AdmitTrial = std::function<Expected<QJsonObject>(const QJsonObject &object)>;
    /// The write itself, with the admitted object and the warnings to send (resourceadmission.cpp).
    using AdmitFinish = std::function<void(const QJsonObject &object, const Responder::Headers &warnings)>;
    void admit(AdmissionAttributes a, Responder resp, Responder::Headers warnings, AdmitTrial trial, AdmitFinish finish,
        std::function<void()> onConflict = {});
    /// Admits `a` (CREATE or UPDATE), then writes its object and answers 201 or 200.
    /// Admits and writes. A write that conflicts calls `retryOnConflict` instead of answering
    /// 409, when given.
    void admitWrite(const Request &r, const RequestInfo &info, const ResourceType &type, AdmissionAttributes a,
        WriteOptions wo, Responder resp, Responder::Headers warnings, std::function<void()> retryOnConflict = {});
    AdmissionAttributes attributesFor(const Request &r, const RequestInfo &info, const ResourceType &type,
        const QString &operation, bool dryRun, const QString &fieldManager) const;
    /// Sends `object` (stored form) at the requested version: through the conversion webhook
    /// when the type has one and the versions differ (a 500 when it fails).
    void sendObject(const Request &r, const ResourceType &type, const Object &object, int code, Responder resp,
        const Responder::Headers &extra = {});
    void sendServed(const Request &r, const ResourceType &type, const Object &served, int code, Responder resp,
        const Responder::Headers &extra);
    /// `objects` (stored form) at `type`'s version: one ConversionReview for those not at it
    /// (conversion webhook types), else unchanged (converted on encoding, as before).
    using ConvertedObjects = std::function<void(Expected<QList<Object>> objects)>;
    void convertAll(const ResourceType &type, QList<Object> objects, ConvertedObjects done);
    /// True when `stored` reaches the requested version through the conversion webhook.
    bool throughWebhook(const ResourceType &type, const Object &stored) const;
    /// `stored` in served form: now (apiVersion rewrite), or later through the webhook.
    void servedJson(const ResourceType &type, const Object &stored, std::function<void(Expected<QJsonObject>)> done);
    /// The write of `object` (served form) converted to the storage version first (conversion
    /// webhook types; not for dry runs): validated at the requested version by a dry run, then
    /// converted and stored.
    void writeConverted(const RequestInfo &info, const ResourceType &type, bool creating, QJsonObject object,
        WriteOptions wo, std::function<void(Expected<Object>)> done);

    Store *m_store;
    WatchHub *m_watches;
    QObject *m_context;
    AdmissionChain *m_admission = nullptr;
    AsyncConverter m_convert;
    std::chrono::milliseconds m_freshnessWait = kDefaultFreshnessWait;
};

/// dryRun query parameter: only "All" is accepted (400 otherwise).
Expected<WriteOptions> writeOptionsFrom(const Request &request);

} // namespace opbench::apiserver
