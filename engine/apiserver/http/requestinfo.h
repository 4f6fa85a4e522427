// SPDX-License-Identifier: Apache-2.0
#pragma once
// RequestInfo: what a request path and method mean to the API server (as apiserver's
// RequestInfoFactory reads them): a discovery/non-resource path, or a resource request with
// its verb, group, version, resource, subresource, namespace and name.

#include "engine/apiserver/http/exchange.h"

#include <QString>

namespace opbench::apiserver {

struct RequestInfo
{
    bool isResourceRequest = false;
    QString path;
    QString verb;     // get, list, watch, create, update, patch, delete, deletecollection
    QString apiGroup; // "" for core
    QString apiVersion;
    QString resource;
    QString subresource;
    QString namespaceName;
    QString name;
    bool malformed = false; // an /api or /apis path with a shape the server does not serve

    /// Parses a request (legacy `/api/v1/watch/...` paths become watch requests).
    static RequestInfo parse(const Request &request);
    /// "deployments/status" style.
    QString resourceWithSub() const { return subresource.isEmpty() ? resource : resource + u'/' + subresource; }
};

} // namespace opbench::apiserver
