// SPDX-License-Identifier: Apache-2.0
#pragma once
// OpenAPI v3 documents of what the server serves, built on each request from the registry, so a
// CRD that is added, changed or removed shows at once:
//
//   GET /openapi/v3                  {"paths": {"api/v1": {"serverRelativeURL": "/openapi/v3/api/v1?hash=H"}, ...}}
//   GET /openapi/v3/apis/apps/v1     {"openapi": "3.0.0", "paths": {...}, "components": {"schemas": {...}}}
//
// Built-in kinds take their schemas from the field table (openapischema.h); a custom resource
// takes its CRD version's openAPIV3Schema with apiVersion, kind and metadata (ObjectMeta) set.
// Every kind's schema carries x-kubernetes-group-version-kind, and its paths carry operations
// with the same extension (what `kubectl explain` searches), the PATCH operation listing the
// fieldValidation parameter (so kubectl leaves field validation to the server). PATCH operations
// declare no request body: kubectl then computes client-side apply patches from the /openapi/v2
// document (openapiv2.h, built from the same schemas, with their x-kubernetes-patch-* extensions).

#include "engine/apiserver/registry/registry.h"

#include <QJsonObject>

#include <optional>

namespace opbench::apiserver {

class OpenApiV3
{
public:
    explicit OpenApiV3(const ResourceRegistry *registry)
        : m_registry(registry)
    { }

    /// The /openapi/v3 discovery document.
    QJsonObject discovery() const;
    /// The document of one group version: `gvPath` is "api/v1" or "apis/<group>/<version>";
    /// nullopt when nothing is served there.
    std::optional<QJsonObject> document(const QString &gvPath) const;

    /// The schema name of a CRD kind ("com.example.v1alpha1.MyApplication").
    static QString customDefinitionName(const ResourceType &type);
    /// A CRD version's openAPIV3Schema as the served kind's schema: apiVersion, kind and metadata
    /// (a reference to ObjectMeta) added, x-kubernetes-group-version-kind set.
    static QJsonObject customKindSchema(const ResourceType &type);

private:
    const ResourceRegistry *m_registry;
};

} // namespace opbench::apiserver
