// SPDX-License-Identifier: Apache-2.0
#pragma once
// LeaseServer: a coordination.k8s.io Lease served over HTTP by a FakeServer, for leader-election
// tests against the real RestLeaseLock and RestClient.

#include "tests/client/fakeserver.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace opbench::test {

// A Lease served over HTTP by a FakeServer: GET / POST / PUT with a resourceVersion
// compare-and-swap, or 429 Too Many Requests with Retry-After to every request while throttled.
class LeaseServer
{
public:
    LeaseServer()
    {
        m_server.setHandler([this](const FakeRequest &req) { return handle(req); });
    }
    bool listen() { return m_server.listen() != 0; }
    QString url() const { return m_server.url(); }
    bool throttled = false;
    int retryAfterSeconds = 5;
    int throttledAnswers = 0;
    QString holder() const
    {
        return m_lease.value(QLatin1String("spec")).toObject().value(QLatin1String("holderIdentity")).toString();
    }

private:
    FakeResponse handle(const FakeRequest &req)
    {
        if (throttled) {
            ++throttledAnswers;
            FakeResponse r = FakeResponse::json(429,
                QByteArrayLiteral("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":"
                                  "\"TooManyRequests\",\"message\":\"too many requests\",\"code\":429}"));
            r.headers.append(qMakePair(QByteArray("Retry-After"), QByteArray::number(retryAfterSeconds)));
            return r;
        }
        auto status = [](int code, const char *reason) {
            return FakeResponse::json(code,
                QByteArray("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                           "\"reason\":\"")
                    + reason + "\",\"code\":" + QByteArray::number(code) + "}");
        };
        if (req.method == "GET")
            return m_lease.isEmpty() ? status(404, "NotFound")
                                     : FakeResponse::json(200, QJsonDocument(m_lease).toJson());
        QJsonObject obj = QJsonDocument::fromJson(req.body).object();
        QJsonObject meta = obj.value(QLatin1String("metadata")).toObject();
        if (req.method == "POST") {
            if (!m_lease.isEmpty())
                return status(409, "AlreadyExists");
        } else if (req.method == "PUT") {
            if (m_lease.isEmpty())
                return status(404, "NotFound");
            if (meta.value(QLatin1String("resourceVersion")).toString() != QString::number(m_rv))
                return status(409, "Conflict");
        } else {
            return status(405, "MethodNotAllowed");
        }
        meta.insert(QLatin1String("resourceVersion"), QString::number(++m_rv));
        obj.insert(QLatin1String("metadata"), meta);
        m_lease = obj;
        return FakeResponse::json(req.method == "POST" ? 201 : 200, QJsonDocument(m_lease).toJson());
    }

    FakeServer m_server;
    QJsonObject m_lease;
    int m_rv = 0;
};

} // namespace opbench::test
