// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/httpfront.h"

#include <QHttpServerRequest>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

namespace opbench::apiserver {

HttpFront::HttpFront(
    Store *store, WatchHub *watches, Authorizer *auth, FaultInjector *faults, AuditLog *audit, QObject *parent)
    : QAbstractHttpServer(parent)
    , m_store(store)
    , m_watches(watches)
    , m_auth(auth)
    , m_faults(faults)
    , m_audit(audit)
    , m_discovery(store->registry())
    , m_reviews(auth)
    , m_resources(store, watches, this)
{ }

bool HttpFront::handleRequest(const QHttpServerRequest &qtRequest, QTcpSocket *socket)
{
    ++m_requests;
    const Request request = Request::fromQt(qtRequest); // Qt reuses its request object: copy now
    const RequestInfo info = RequestInfo::parse(request);
    RequestInfo audited = info;
    if (m_audit->isOpen() && info.verb == QLatin1String("create") && info.name.isEmpty()) // the created object's name
        audited.name = QJsonDocument::fromJson(request.body)
                           .object()
                           .value(QLatin1String("metadata"))
                           .toObject()
                           .value(QLatin1String("name"))
                           .toString();
    Responder responder(socket);
    auto user = std::make_shared<QString>();
    AuditLog *audit = m_audit;
    const QByteArray method = request.method;
    responder.setOnStatus([audit, user, audited, method](int code) { audit->record(*user, audited, method, code); });

    if (request.body.size() > kMaxRequestBodyBytes) {
        responder.sendStatus(
            Status::tooLarge(QStringLiteral("the request body is %1 bytes, more than the limit of %2 bytes")
                                 .arg(request.body.size())
                                 .arg(kMaxRequestBodyBytes)));
        return true;
    }
    Request authed = request;
    if (!Discovery::isPublicPath(request.path)) {
        auto who = m_auth->authenticate(request);
        if (!who) {
            responder.sendStatus(who.error());
            return true;
        }
        *user = *who;
        authed.user = *who;
        if (auto ok = m_auth->authorize(*who, info, request.method); !ok) {
            responder.sendStatus(ok.error());
            return true;
        }
    }
    if (info.isResourceRequest) {
        const FaultRequest faulted{
            info.verb, info.apiGroup, info.resource, info.name, *user, QString::fromUtf8(request.header("user-agent"))};
        if (auto failure = m_faults->drawFailure(faulted)) {
            responder.sendStatus(*failure);
            return true;
        }
        if (request.hasParam(QStringLiteral("continue")) && m_faults->drawExpireContinue(info.resource)) {
            responder.sendStatus(
                Status::expired(QStringLiteral("The provided continue parameter is too old to display a "
                                               "consistent list result (injected fault)")));
            return true;
        }
        if (m_faults->drawReset(info.verb, info.resource))
            responder.cutBodyOnSend();
        if (const int ms = m_faults->latencyMs(); ms > 0) {
            QTimer::singleShot(ms, this, [this, authed, info, responder]() {
                if (responder.alive())
                    dispatch(authed, info, responder);
            });
            return true;
        }
    }
    dispatch(authed, info, responder);
    return true;
}

void HttpFront::dispatch(const Request &request, const RequestInfo &info, Responder responder)
{
    if (AccessReviews::isReview(info))
        return m_reviews.handle(request, info, responder);
    if (info.isResourceRequest)
        return m_resources.handle(request, info, responder);
    if (m_discovery.handle(request, responder))
        return;
    responder.sendStatus(Status(404, QString::fromLatin1(StatusReason::NotFound),
        QStringLiteral("the server could not find the requested resource")));
}

void HttpFront::missingHandler(const QHttpServerRequest &request, QTcpSocket *socket)
{
    Responder(socket).sendStatus(Status(404, QString::fromLatin1(StatusReason::NotFound),
        QStringLiteral("the server could not find the requested resource")));
    Q_UNUSED(request);
}

} // namespace opbench::apiserver
