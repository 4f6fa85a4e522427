// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/auth/auditlog.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>

namespace opbench::apiserver {

Expected<void> AuditLog::open(const QString &path)
{
    m_file.setFileName(path);
    if (!m_file.open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Text))
        return Status::badRequest(QStringLiteral("cannot open the audit log %1: %2").arg(path, m_file.errorString()));
    return {};
}

void AuditLog::record(const QString &user, const RequestInfo &info, const QByteArray &method, int code)
{
    if (!m_file.isOpen())
        return;
    QString verb = info.verb;
    if (verb.isEmpty())
        verb = QString::fromLatin1(method).toLower();
    const QJsonObject line{{QStringLiteral("time"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
        {QStringLiteral("user"), user.isEmpty() ? QStringLiteral("system:unauthenticated") : user},
        {QStringLiteral("verb"), verb}, {QStringLiteral("group"), info.apiGroup},
        {QStringLiteral("resource"), info.resourceWithSub()}, {QStringLiteral("namespace"), info.namespaceName},
        {QStringLiteral("name"), info.name}, {QStringLiteral("code"), code}, {QStringLiteral("uri"), info.path}};
    m_file.write(QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n');
    m_file.flush();
}

} // namespace opbench::apiserver
