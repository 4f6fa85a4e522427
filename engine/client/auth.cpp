// SPDX-License-Identifier: Apache-2.0
#include "engine/client/auth.h"

#include <QFile>

namespace opbench {

AuthProvider::~AuthProvider() = default;

QCoro::Task<Expected<Credentials>> StaticTokenAuth::credentials()
{
    Credentials c;
    c.authorization = "Bearer " + m_token;
    co_return c;
}

BasicAuth::BasicAuth(QString username, QString password)
    : m_username(std::move(username))
{
    m_header = "Basic " + (m_username + u':' + password).toUtf8().toBase64();
}

QCoro::Task<Expected<Credentials>> BasicAuth::credentials()
{
    Credentials c;
    c.authorization = m_header;
    co_return c;
}

TokenFileAuth::TokenFileAuth(QString path, Clock *clock, std::chrono::seconds period)
    : m_path(std::move(path))
    , m_clock(clock ? clock : Clock::system())
    , m_period(period)
{ }

Expected<QByteArray> TokenFileAuth::token()
{
    QMutexLocker lock(&m_mutex);
    const Clock::TimePoint now = m_clock->now();
    if (m_readAt && now - *m_readAt < m_period && !m_token.isEmpty())
        return m_token;
    QFile f(m_path);
    if (!f.open(QIODevice::ReadOnly)) {
        // Keep serving the last good token if a rotation is in progress.
        if (!m_token.isEmpty())
            return m_token;
        return Status::transport(
            StatusReason::ConfigError, QStringLiteral("cannot read token file %1: %2").arg(m_path, f.errorString()));
    }
    const QByteArray t = f.readAll().trimmed();
    if (t.isEmpty())
        return Status::transport(StatusReason::ConfigError, QStringLiteral("token file %1 is empty").arg(m_path));
    m_token = t;
    m_readAt = now;
    return m_token;
}

QCoro::Task<Expected<Credentials>> TokenFileAuth::credentials()
{
    Expected<QByteArray> t = token();
    if (!t)
        co_return t.error();
    Credentials c;
    c.authorization = "Bearer " + *t;
    co_return c;
}

bool TokenFileAuth::invalidate()
{
    QMutexLocker lock(&m_mutex);
    m_readAt.reset();
    return true;
}

} // namespace opbench
