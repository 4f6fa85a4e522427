// SPDX-License-Identifier: Apache-2.0
#pragma once
// ResourceHandler: the REST verbs on resources — get, list, watch, create, update, patch,
// delete, deletecollection, and the /status and /scale subresources — translated to Store calls
// with the API server's wire rules (201 on create, Status replies, Tables, dryRun, body decoding:
// JSON or YAML, 400 malformed, 415 wrong content type).

#include "engine/apiserver/http/exchange.h"
#include "engine/apiserver/http/requestinfo.h"
#include "engine/apiserver/storage/freshness.h"
#include "engine/apiserver/storage/store.h"
#include "engine/apiserver/storage/watchhub.h"

namespace opbench::apiserver {

class ResourceHandler
{
public:
    /// `context` (the HTTP front) owns this handler: delayed work (freshness waits) runs on it.
    ResourceHandler(Store *store, WatchHub *watches, QObject *context);

    /// How long a list naming a resourceVersion newer than the store's waits for it before 504
    /// (default kDefaultFreshnessWait, 3 s; see freshness.h).
    void setFreshnessWait(std::chrono::milliseconds wait) { m_freshnessWait = wait; }

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
    void watch(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp);
    void create(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp);
    void update(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp);
    void patch(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp);
    void remove(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp);
    void removeCollection(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp);
    void scale(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp);
    /// Writes `patched` (a whole object in served form) through the right Store call.
    Expected<Object> write(
        const RequestInfo &info, const ResourceType &type, const QJsonObject &patched, const WriteOptions &wo);
    void sendObject(const Request &r, const ResourceType &type, const Object &object, int code, Responder resp,
        const Responder::Headers &extra = {});

    Store *m_store;
    WatchHub *m_watches;
    QObject *m_context;
    std::chrono::milliseconds m_freshnessWait = kDefaultFreshnessWait;
};

/// dryRun query parameter: only "All" is accepted (400 otherwise).
Expected<WriteOptions> writeOptionsFrom(const Request &request);

} // namespace opbench::apiserver
