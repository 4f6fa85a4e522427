// SPDX-License-Identifier: Apache-2.0
#include "engine/manager/httpendpoint.h"

#include <QAbstractHttpServer>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QTcpSocket>

#include <algorithm>

namespace opbench {

Expected<BindAddress> BindAddress::parse(const QString &text)
{
    BindAddress out;
    const QString t = text.trimmed();
    if (t == QLatin1String("0")) {
        out.disabled = true;
        return out;
    }
    const qsizetype colon = t.lastIndexOf(u':');
    auto bad = [&](const QString &why) {
        return Status(0, QString::fromLatin1(StatusReason::ConfigError),
            QStringLiteral("invalid bind address \"%1\": %2 (use \"0\" to disable, \":8080\" or \"127.0.0.1:8080\")")
                .arg(text, why));
    };
    if (colon < 0)
        return bad(QStringLiteral("missing port"));
    bool ok = false;
    const uint port = t.mid(colon + 1).toUInt(&ok);
    if (!ok || port > 65535)
        return bad(QStringLiteral("bad port"));
    out.port = quint16(port);
    QString host = t.left(colon);
    if (host.startsWith(u'[') && host.endsWith(u']'))
        host = host.mid(1, host.size() - 2);
    if (host.isEmpty()) {
        out.host = QHostAddress::Any;
    } else if (host == QLatin1String("localhost")) {
        out.host = QHostAddress::LocalHost;
    } else if (!out.host.setAddress(host)) {
        return bad(QStringLiteral("host is not an IP address"));
    }
    return out;
}

bool constantTimeEquals(const QByteArray &a, const QByteArray &b)
{
    // Every byte of the longer one is looked at, whatever matches: no early exit.
    const qsizetype n = std::max(a.size(), b.size());
    unsigned diff = a.size() == b.size() ? 0U : 1U;
    for (qsizetype i = 0; i < n; ++i) {
        const auto x = static_cast<unsigned char>(i < a.size() ? a.at(i) : 0);
        const auto y = static_cast<unsigned char>(i < b.size() ? b.at(i) : 0);
        diff |= unsigned(x ^ y);
    }
    return diff == 0;
}

class HttpEndpoint::Server final : public QAbstractHttpServer
{
public:
    struct Route
    {
        QString path;
        QByteArray token;
        std::function<HttpReply()> handler;
    };

    explicit Server(Handler handler)
        : m_handler(std::move(handler))
    { }

    void addRoute(Route route)
    {
        std::erase_if(m_routes, [&](const Route &r) { return r.path == route.path; });
        m_routes.push_back(std::move(route));
    }

protected:
    bool handleRequest(const QHttpServerRequest &request, QTcpSocket *socket) override
    {
        QHttpServerResponder responder = makeResponder(request, socket);
        if (request.method() != QHttpServerRequest::Method::Get
            && request.method() != QHttpServerRequest::Method::Head) {
            responder.write(QByteArrayLiteral("method not allowed\n"), "text/plain; charset=utf-8",
                QHttpServerResponder::StatusCode::MethodNotAllowed);
            return true;
        }
        const QString path = request.url().path();
        for (const Route &route : m_routes) {
            if (route.path != path)
                continue;
            const HttpReply reply = authorized(request, route.token)
                ? route.handler()
                : HttpReply{401, QByteArrayLiteral("Unauthorized\n")};
            responder.write(reply.body, reply.contentType, QHttpServerResponder::StatusCode(reply.code));
            return true;
        }
        const HttpReply reply = m_handler(path, request.query());
        responder.write(reply.body, reply.contentType, QHttpServerResponder::StatusCode(reply.code));
        return true;
    }
    static bool authorized(const QHttpServerRequest &request, const QByteArray &token)
    {
        const QByteArray header = request.value(QByteArrayLiteral("Authorization"));
        const QByteArray prefix = QByteArrayLiteral("Bearer ");
        if (token.isEmpty() || !header.startsWith(prefix))
            return false;
        return constantTimeEquals(header.mid(prefix.size()).trimmed(), token);
    }
    void missingHandler(const QHttpServerRequest &request, QTcpSocket *socket) override
    {
        makeResponder(request, socket).write(QHttpServerResponder::StatusCode::NotFound);
    }

private:
    Handler m_handler;
    std::vector<Route> m_routes;
};

HttpEndpoint::HttpEndpoint(QString name, Handler handler, QObject *parent)
    : QObject(parent)
    , m_name(std::move(name))
    , m_server(std::make_unique<Server>(std::move(handler)))
{ }

HttpEndpoint::~HttpEndpoint() = default;

void HttpEndpoint::addProtectedRoute(const QString &path, QByteArray token, std::function<HttpReply()> handler)
{
    if (m_server)
        m_server->addRoute(Server::Route{path, std::move(token), std::move(handler)});
}

Expected<void> HttpEndpoint::listen(const BindAddress &address)
{
    if (address.disabled)
        return {};
    if (!m_server)
        return Status(0, QString::fromLatin1(StatusReason::ConfigError), m_name + QStringLiteral(" server: closed"));
    m_port = m_server->listen(address.host, address.port);
    if (m_port == 0)
        return Status(0, QString::fromLatin1(StatusReason::ConfigError),
            QStringLiteral("%1 server: cannot listen on %2:%3 (address in use or not local)")
                .arg(m_name, address.host.toString())
                .arg(address.port));
    return {};
}

void HttpEndpoint::close()
{
    // QAbstractHttpServer has no close(); destroying and recreating it frees the port.
    m_server.reset();
    m_port = 0;
}

} // namespace opbench
