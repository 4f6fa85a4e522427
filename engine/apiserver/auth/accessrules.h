// SPDX-License-Identifier: Apache-2.0
#pragma once
// Access rules: RBAC-shaped PolicyRules and the request attributes they are matched against.
// The authorizer (auth.h) turns each user of the `--rules` file into rules; the same rules
// decide 403s, answer SelfSubjectAccessReview / SubjectAccessReview, and are listed by
// SelfSubjectRulesReview (`kubectl auth can-i --list`).
//
// Matching follows RBAC: "*" matches every verb, group, resource or URL; "pods/*" matches every
// subresource of pods; resourceNames restrict a rule to named objects; a non-resource URL
// ending in "*" is a prefix.

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QStringList>

namespace opbench::apiserver {

struct RequestInfo;

struct PolicyRule
{
    QStringList verbs;
    QStringList apiGroups;       // resource rules
    QStringList resources;       // "pods", "pods/status", "*", "pods/*"
    QStringList resourceNames;   // empty: every name
    QStringList nonResourceURLs; // non-resource rules ("/version", "/apis/*")

    bool isResourceRule() const { return nonResourceURLs.isEmpty(); }
    /// authorization.k8s.io ResourceRule / NonResourceRule JSON.
    QJsonObject toJson() const;
};

/// What a request asks for (authorization.k8s.io ResourceAttributes / NonResourceAttributes).
struct AccessAttributes
{
    bool resourceRequest = true;
    QString verb;
    QString apiGroup;
    QString resource;
    QString subresource;
    QString namespaceName; // "" : cluster-scoped or all namespaces
    QString name;
    QString path; // non-resource requests

    static AccessAttributes fromRequest(const RequestInfo &info, const QByteArray &method);
    /// From a review's spec (resourceAttributes or nonResourceAttributes).
    static AccessAttributes fromReviewSpec(const QJsonObject &spec);
};

/// The rules a user holds: cluster-wide rules (apply everywhere) and per-namespace rules (apply
/// only to requests in that namespace), as ClusterRoleBindings and RoleBindings do.
struct AccessRules
{
    QList<PolicyRule> cluster;
    QHash<QString, QList<PolicyRule>> perNamespace;

    bool allows(const AccessAttributes &a) const;
    /// The rules in force in `namespaceName` (cluster rules first), as RulesReview lists them.
    QList<PolicyRule> rulesIn(const QString &namespaceName) const;
};

/// True when `rule` grants `a`.
bool ruleAllows(const PolicyRule &rule, const AccessAttributes &a);

} // namespace opbench::apiserver
