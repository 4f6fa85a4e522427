// SPDX-License-Identifier: Apache-2.0
#pragma once
// HttpEndpoint: the manager's small plain-HTTP servers (/metrics, /healthz, /readyz).
//
// Bind addresses follow kubebuilder's flags: "0" disables the server, ":8080" listens on all
// interfaces, "127.0.0.1:8080" or "[::1]:8080" on one address; port 0 picks a free port.
// addProtectedRoute() serves one more path only to requests carrying `Authorization: Bearer
// <token>` (compared in constant time); others get 401 Unauthorized, as a secured
// controller-runtime metrics endpoint answers an unauthenticated request.

#include "engine/api/expected.h"

#include <QHostAddress>
#include <QObject>
#include <QUrlQuery>

#include <functional>
#include <memory>
#include <vector>

namespace opbench {

struct BindAddress
{
    bool disabled = false;
    QHostAddress host = QHostAddress::Any;
    quint16 port = 0;
    /// Parses "0", ":8080", "host:port", "[v6]:port". Errors name the bad value.
    static Expected<BindAddress> parse(const QString &text);
};

struct HttpReply
{
    int code = 200;
    QByteArray body;
    QByteArray contentType = QByteArrayLiteral("text/plain; charset=utf-8");
};

class HttpEndpoint : public QObject
{
    Q_OBJECT
public:
    /// Handles a GET of `path` (query parsed). Return code 404 for unknown paths.
    using Handler = std::function<HttpReply(const QString &path, const QUrlQuery &query)>;
    HttpEndpoint(QString name, Handler handler, QObject *parent = nullptr);
    ~HttpEndpoint() override;

    /// Serves GET `path` with `handler` to requests bearing `token` (non-empty) only; replaces an
    /// earlier route of that path. Without the header or with another token: 401.
    void addProtectedRoute(const QString &path, QByteArray token, std::function<HttpReply()> handler);

    /// Starts listening (no-op when disabled). Errors say which address could not be bound.
    Expected<void> listen(const BindAddress &address);
    void close();
    /// The bound port (0 when not listening).
    quint16 port() const { return m_port; }
    bool isListening() const { return m_port != 0; }

private:
    class Server;
    QString m_name;
    std::unique_ptr<Server> m_server;
    quint16 m_port = 0;
};

/// True when `a` and `b` are equal, in time that depends on their lengths only (tokens).
bool constantTimeEquals(const QByteArray &a, const QByteArray &b);

} // namespace opbench
