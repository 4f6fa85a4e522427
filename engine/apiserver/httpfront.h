// SPDX-License-Identifier: Apache-2.0
#pragma once
// HttpFront: the HTTP(S) face of the API server. A QAbstractHttpServer subclass that copies
// each request out of Qt's reused request object and runs the pipeline: size limit (413),
// authentication (401) and authorization (403), fault injection (latency, errors, 429), then
// discovery / non-resource endpoints or the resource handlers; unknown paths get 404 "the server
// could not find the requested resource". Every request is audited with its status code.

#include "engine/apiserver/auth/auditlog.h"
#include "engine/apiserver/auth/auth.h"
#include "engine/apiserver/faults.h"
#include "engine/apiserver/handlers/accessreview.h"
#include "engine/apiserver/handlers/discovery.h"
#include "engine/apiserver/handlers/resourcehandler.h"
#include "engine/apiserver/http/limits.h"

#include <QAbstractHttpServer>

namespace opbench::apiserver {

class HttpFront : public QAbstractHttpServer
{
    Q_OBJECT
public:
    HttpFront(Store *store, WatchHub *watches, Authorizer *auth, FaultInjector *faults, AuditLog *audit,
        QObject *parent = nullptr);

    Discovery &discovery() { return m_discovery; }
    ResourceHandler &resources() { return m_resources; }
    /// Number of requests served (for tests and the GUI).
    quint64 requestCount() const { return m_requests; }

protected:
    bool handleRequest(const QHttpServerRequest &request, QTcpSocket *socket) override;
    void missingHandler(const QHttpServerRequest &request, QTcpSocket *socket) override;

private:
    void dispatch(const Request &request, const RequestInfo &info, Responder responder);

    Store *m_store;
    WatchHub *m_watches;
    Authorizer *m_auth;
    FaultInjector *m_faults;
    AuditLog *m_audit;
    Discovery m_discovery;
    AccessReviews m_reviews;
    ResourceHandler m_resources;
    quint64 m_requests = 0;
};

} // namespace opbench::apiserver
