// SPDX-License-Identifier: Apache-2.0
#pragma once
// Authentication providers: what the REST client adds to each request. A provider hands out
// Credentials (an Authorization header value and/or a client certificate) and may cache them;
// after a 401 the client calls invalidate() and asks again once.
//
// Secrets (tokens, passwords, keys) never appear in any error message or log line.

#include "engine/api/expected.h"
#include "engine/base/clock.h"

#include <QByteArray>
#include <QMutex>
#include <QSslCertificate>
#include <QSslKey>
#include <QString>

#include <qcoro/qcorotask.h>

#include <chrono>
#include <optional>

namespace opbench {

struct Credentials
{
    /// The full Authorization header value ("Bearer …", "Basic …"), empty for none.
    QByteArray authorization;
    /// A client certificate from an exec plugin (overrides the TLS config's one when set).
    QSslCertificate clientCertificate;
    QSslKey clientKey;
};

class AuthProvider
{
public:
    virtual ~AuthProvider();
    /// The credentials for the next request. Errors are Status with code 0, reason
    /// ConfigError (e.g. an unreadable token file, a failing exec plugin).
    virtual QCoro::Task<Expected<Credentials>> credentials() = 0;
    /// Called after a 401: drop cached credentials. Returns true when asking again may give
    /// different credentials (so a retry makes sense).
    virtual bool invalidate() { return false; }
    /// "bearer token", "token file /path", "basic", "exec plugin aws" … (never the secret).
    virtual QString describe() const = 0;
    /// True when clients on several threads may share this provider (the manager then renews
    /// the leader lease on its own thread).
    virtual bool threadSafe() const { return false; }
};

/// A fixed bearer token (kubeconfig `token`).
class StaticTokenAuth final : public AuthProvider
{
public:
    explicit StaticTokenAuth(QByteArray token)
        : m_token(std::move(token))
    { }
    QCoro::Task<Expected<Credentials>> credentials() override;
    QString describe() const override { return QStringLiteral("bearer token"); }
    bool threadSafe() const override { return true; }

private:
    QByteArray m_token;
};

/// HTTP basic authentication (kubeconfig `username`/`password`).
class BasicAuth final : public AuthProvider
{
public:
    BasicAuth(QString username, QString password);
    QCoro::Task<Expected<Credentials>> credentials() override;
    QString describe() const override { return QStringLiteral("basic auth as \"%1\"").arg(m_username); }
    bool threadSafe() const override { return true; }

private:
    QString m_username;
    QByteArray m_header;
};

/// A bearer token read from a file and re-read once `period` has passed on `clock` (client-go
/// re-reads every minute; kubeconfig `tokenFile` and the in-cluster service-account token).
/// A 401 forces a re-read on the next request.
class TokenFileAuth final : public AuthProvider
{
public:
    explicit TokenFileAuth(
        QString path, Clock *clock = nullptr, std::chrono::seconds period = std::chrono::seconds(60));
    QCoro::Task<Expected<Credentials>> credentials() override;
    /// The current token, read synchronously (re-read when stale).
    Expected<QByteArray> token();
    bool invalidate() override;
    QString describe() const override { return QStringLiteral("token file %1").arg(m_path); }
    bool threadSafe() const override { return true; }

private:
    QString m_path;
    Clock *m_clock;
    std::chrono::seconds m_period;
    QMutex m_mutex; // guards the cached token (clients on several threads share the provider)
    QByteArray m_token;
    std::optional<Clock::TimePoint> m_readAt;
};

} // namespace opbench
