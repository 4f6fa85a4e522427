// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/auth.h"

#include "engine/api/yamlcodec.h"

#include <QFile>
#include <QJsonArray>

namespace opbench::apiserver {

namespace {

const QString kAdmin = QStringLiteral("admin");
const QString kAnonymous = QStringLiteral("system:anonymous");

bool constantTimeEquals(const QByteArray &a, const QByteArray &b)
{
    if (a.size() != b.size())
        return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

} // namespace

Expected<void> Authorizer::loadRules(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Status::badRequest(QStringLiteral("cannot read the rules file %1: %2").arg(path, f.errorString()));
    auto docs = yamlToJson(f.readAll()); // JSON is YAML too
    if (!docs)
        return Status::badRequest(QStringLiteral("rules file %1: %2").arg(path, docs.error().message()));
    for (const QJsonObject &doc : *docs) {
        for (const QJsonValue &v : doc.value(QLatin1String("users")).toArray()) {
            const QJsonObject u = v.toObject();
            UserRule r;
            r.name = u.value(QLatin1String("name")).toString();
            r.token = u.value(QLatin1String("token")).toString();
            r.readOnly = u.value(QLatin1String("readOnly")).toBool();
            for (const QJsonValue &ns : u.value(QLatin1String("namespaces")).toArray())
                r.namespaces << ns.toString();
            if (r.name.isEmpty() || r.token.isEmpty())
                return Status::badRequest(QStringLiteral("rules file %1: every user needs a name and a token").arg(path));
            addUser(r);
        }
    }
    return {};
}

Expected<QString> Authorizer::authenticate(const Request &request) const
{
    const QByteArray auth = request.header("authorization");
    if (auth.isEmpty())
        return m_allowAnonymous ? Expected<QString>(kAnonymous) : Expected<QString>(Status::unauthorized());
    if (!auth.startsWith("Bearer "))
        return Status::unauthorized();
    const QByteArray token = auth.mid(7).trimmed();
    if (!m_adminToken.isEmpty() && constantTimeEquals(token, m_adminToken.toUtf8()))
        return kAdmin;
    auto it = m_users.constFind(QString::fromUtf8(token));
    if (it != m_users.cend())
        return it->name;
    return Status::unauthorized();
}

Expected<void> Authorizer::authorize(const QString &user, const RequestInfo &info) const
{
    if (user == kAdmin || user == kAnonymous)
        return {};
    const UserRule *rule = nullptr;
    for (const UserRule &r : m_users)
        if (r.name == user)
            rule = &r;
    if (!rule)
        return Status::forbidden(QString(), QString(), QString(), QStringLiteral("User \"%1\" cannot access the API").arg(user));
    if (!info.isResourceRequest)
        return {}; // discovery is open to every authenticated user
    const bool read = info.verb == QLatin1String("get") || info.verb == QLatin1String("list") || info.verb == QLatin1String("watch");
    const bool nsOk = rule->namespaces.isEmpty() || rule->namespaces.contains(info.namespaceName)
                      || (info.namespaceName.isEmpty() && info.resource == QLatin1String("namespaces")
                          && rule->namespaces.contains(info.name) && read);
    const bool clusterRead = info.namespaceName.isEmpty() && read && rule->namespaces.isEmpty();
    if ((read || !rule->readOnly) && (nsOk || clusterRead))
        return {};
    QString where = info.namespaceName.isEmpty() ? QStringLiteral("at the cluster scope")
                                                 : QStringLiteral("in the namespace \"%1\"").arg(info.namespaceName);
    const QString why = QStringLiteral("User \"%1\" cannot %2 resource \"%3\" in API group \"%4\" %5")
                            .arg(user, info.verb, info.resourceWithSub(), info.apiGroup, where);
    return Status::forbidden(info.apiGroup, info.resource, info.name, why);
}

} // namespace opbench::apiserver
