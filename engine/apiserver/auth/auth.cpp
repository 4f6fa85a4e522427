// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/auth/auth.h"

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
                return Status::badRequest(
                    QStringLiteral("rules file %1: every user needs a name and a token").arg(path));
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
    // Every user's token is compared, each in constant time and with no early exit, so the
    // answer's timing says nothing about which bytes (or whose token) matched.
    const UserRule *match = nullptr;
    for (const UserRule &u : m_users) {
        if (constantTimeEquals(token, u.token.toUtf8()) && !match)
            match = &u;
    }
    if (match)
        return match->name;
    return Status::unauthorized();
}

AccessRules Authorizer::rulesFor(const QString &user) const
{
    AccessRules rules;
    if (user == kAdmin || (user == kAnonymous && m_allowAnonymous)) {
        rules.cluster << PolicyRule{{QStringLiteral("*")}, {QStringLiteral("*")}, {QStringLiteral("*")}, {}, {}}
                      << PolicyRule{{QStringLiteral("*")}, {}, {}, {}, {QStringLiteral("*")}};
        return rules;
    }
    const UserRule *rule = nullptr;
    for (const UserRule &r : m_users)
        if (r.name == user)
            rule = &r;
    if (!rule)
        return rules;
    const QStringList read{QStringLiteral("get"), QStringLiteral("list"), QStringLiteral("watch")};
    const QStringList verbs = rule->readOnly ? read : QStringList{QStringLiteral("*")};
    const PolicyRule everything{verbs, {QStringLiteral("*")}, {QStringLiteral("*")}, {}, {}};
    if (rule->namespaces.isEmpty()) {
        rules.cluster << everything;
    } else {
        for (const QString &ns : rule->namespaces)
            rules.perNamespace[ns] << everything;
        rules.cluster << PolicyRule{read, {QString()}, {QStringLiteral("namespaces")}, rule->namespaces, {}};
    }
    // system:basic-user and system:discovery, which every authenticated user holds
    rules.cluster << PolicyRule{{QStringLiteral("create")}, {QStringLiteral("authorization.k8s.io")},
        {QStringLiteral("selfsubjectaccessreviews"), QStringLiteral("selfsubjectrulesreviews")}, {}, {}}
                  << PolicyRule{{QStringLiteral("create")}, {QStringLiteral("authentication.k8s.io")},
                         {QStringLiteral("selfsubjectreviews")}, {}, {}}
                  << PolicyRule{{QStringLiteral("get")}, {}, {}, {},
                         {QStringLiteral("/api"), QStringLiteral("/api/*"), QStringLiteral("/apis"),
                             QStringLiteral("/apis/*"), QStringLiteral("/healthz"), QStringLiteral("/livez"),
                             QStringLiteral("/openapi"), QStringLiteral("/openapi/*"), QStringLiteral("/readyz"),
                             QStringLiteral("/version"), QStringLiteral("/version/")}};
    return rules;
}

Expected<void> Authorizer::authorize(const QString &user, const RequestInfo &info, const QByteArray &method) const
{
    AccessAttributes a = AccessAttributes::fromRequest(info, method == "HEAD" ? QByteArray("GET") : method);
    if (allows(user, a))
        return {};
    if (!info.isResourceRequest) {
        return Status(403, QString::fromLatin1(StatusReason::Forbidden),
            QStringLiteral("forbidden: User \"%1\" cannot %2 path \"%3\"").arg(user, a.verb, info.path));
    }
    QString where = info.namespaceName.isEmpty() ? QStringLiteral("at the cluster scope")
                                                 : QStringLiteral("in the namespace \"%1\"").arg(info.namespaceName);
    const QString why = QStringLiteral("User \"%1\" cannot %2 resource \"%3\" in API group \"%4\" %5")
                            .arg(user, info.verb, info.resourceWithSub(), info.apiGroup, where);
    return Status::forbidden(info.apiGroup, info.resource, info.name, why);
}

} // namespace opbench::apiserver
