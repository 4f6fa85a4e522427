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
//
// Every user's rights are RBAC-shaped rules (accessrules.h), the one source for 403s, access
// reviews and `kubectl auth can-i --list`:
//   admin (and the anonymous admin): * on everything, every non-resource URL;
//   every rules-file user: create SelfSubjectAccessReview/RulesReview/SelfSubjectReview
//     (system:basic-user) and get on the discovery URLs (system:discovery);
//   no namespaces: get/list/watch (readOnly) or * on every resource, cluster-wide;
//   namespaces [a, b]: get/list/watch or * on every resource in a and b only, plus get/list/watch
//     of the Namespace objects a and b.

#include "engine/api/expected.h"
#include "engine/apiserver/auth/accessrules.h"
#include "engine/apiserver/http/exchange.h"
#include "engine/apiserver/http/requestinfo.h"

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
    /// 403 Status when `user` may not do `info` (`method`: the HTTP method, for non-resource
    /// requests).
    Expected<void> authorize(const QString &user, const RequestInfo &info, const QByteArray &method = "GET") const;

    /// The rules `user` holds (empty for a user the server does not know).
    AccessRules rulesFor(const QString &user) const;
    /// True when `user` may do `attributes`.
    bool allows(const QString &user, const AccessAttributes &attributes) const
    {
        return rulesFor(user).allows(attributes);
    }

private:
    QString m_adminToken;
    bool m_allowAnonymous = false;
    QHash<QString, UserRule> m_users; // by token
};

} // namespace opbench::apiserver
