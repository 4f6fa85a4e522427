// SPDX-License-Identifier: Apache-2.0
#pragma once
// Authentication (bearer tokens) and a small authorizer.
//
// The admin token (ApiServerOptions::token) authenticates user "admin" with every right. An
// optional rules file (JSON or YAML) adds users:
//
//   users:
//   - name: viewer
//     token: s3cret
//     readOnly: true              # get, list, watch only
//     namespaces: [default]       # optional: only these namespaces (cluster-scoped: read-only)
//
// No or a wrong token → 401 Unauthorized. Over plain HTTP a request without any Authorization
// header is accepted as "system:anonymous" with admin rights when allowAnonymous is set (kubectl
// never sends tokens over plain HTTP); a wrong token is still 401. A denied request → 403 with
// the API server's message: `pods is forbidden: User "viewer" cannot create resource "pods" in
// API group "" in the namespace "default"`.

#include "engine/api/expected.h"
#include "engine/apiserver/exchange.h"
#include "engine/apiserver/requestinfo.h"

#include <QHash>
#include <QStringList>

namespace opbench::apiserver {

struct UserRule
{
    QString name;
    QString token;
    bool readOnly = false;
    QStringList namespaces; // empty: all
};

class Authorizer
{
public:
    void setAdminToken(const QString &token) { m_adminToken = token; }
    void setAllowAnonymous(bool allow) { m_allowAnonymous = allow; }
    /// Loads the rules file; a file that cannot be read or parsed is an error naming it.
    Expected<void> loadRules(const QString &path);
    void addUser(const UserRule &rule) { m_users.insert(rule.token, rule); }

    /// The user name for the request's bearer token; 401 Status otherwise.
    Expected<QString> authenticate(const Request &request) const;
    /// 403 Status when `user` may not do `info`.
    Expected<void> authorize(const QString &user, const RequestInfo &info) const;

private:
    QString m_adminToken;
    bool m_allowAnonymous = false;
    QHash<QString, UserRule> m_users; // by token
};

} // namespace opbench::apiserver
