// SPDX-License-Identifier: Apache-2.0
#pragma once
// The non-resource endpoints: discovery (/api, /apis, /api/v1, /apis/{g}, /apis/{g}/{v}),
// /version, /healthz /livez /readyz (with ?verbose), /openapi/v2 (the swagger 2.0 document,
// see openapiv2.h: JSON, or gnostic protobuf for kubectl, with an ETag) and /openapi/v3
// (discovery and one document per group version, see openapi.h).

#include "engine/apiserver/handlers/openapiv2.h"
#include "engine/apiserver/http/exchange.h"
#include "engine/apiserver/registry/registry.h"

#include <memory>
#include <optional>

namespace opbench::apiserver {

class Discovery
{
public:
    explicit Discovery(ResourceRegistry *registry);

    /// `host:port` reported in serverAddressByClientCIDRs.
    void setServerAddress(const QString &address) { m_serverAddress = address; }

    /// Serves `request` when its path is one of the endpoints above; false otherwise.
    bool handle(const Request &request, Responder responder) const;

    /// True for the paths anyone may read without credentials (health and version).
    static bool isPublicPath(const QString &path);

    QJsonObject apiVersions() const;
    QJsonObject groupList() const;
    QJsonObject group(const QString &name) const;
    QJsonObject resourceList(const QString &group, const QString &version) const;
    static QJsonObject version();

private:
    void health(const Request &request, Responder responder, const QString &which) const;
    void openApiV2(const Request &request, Responder responder, bool legacyPath) const;
    ResourceRegistry *m_registry;
    // /openapi/v2 in both encodings, built on first use, dropped when the registry changes
    std::shared_ptr<std::optional<OpenApiV2::Encoded>> m_openApiV2
        = std::make_shared<std::optional<OpenApiV2::Encoded>>();
    QString m_serverAddress = QStringLiteral("127.0.0.1:6443");
};

} // namespace opbench::apiserver
