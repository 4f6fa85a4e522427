// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/auth/accessrules.h"

#include "engine/apiserver/http/requestinfo.h"

#include <QJsonArray>

namespace opbench::apiserver {

namespace {

const QString kAll = QStringLiteral("*");

QJsonArray toArray(const QStringList &l)
{
    QJsonArray a;
    for (const QString &s : l)
        a.append(s);
    return a;
}

QString str(const QJsonObject &o, const char *key) { return o.value(QLatin1String(key)).toString(); }

bool hasOrAll(const QStringList &list, const QString &value) { return list.contains(kAll) || list.contains(value); }

bool resourceMatches(const QStringList &resources, const QString &resource, const QString &subresource)
{
    const QString combined = subresource.isEmpty() ? resource : resource + u'/' + subresource;
    for (const QString &r : resources) {
        if (r == kAll || r == combined)
            return true;
        if (!subresource.isEmpty() && r == resource + QLatin1String("/*"))
            return true;
        if (r.startsWith(QLatin1String("*/")) && r.mid(2) == subresource)
            return true;
    }
    return false;
}

bool urlMatches(const QStringList &urls, const QString &path)
{
    for (const QString &u : urls) {
        if (u == kAll || u == path)
            return true;
        if (u.endsWith(u'*') && path.startsWith(u.left(u.size() - 1)))
            return true;
    }
    return false;
}

} // namespace

QJsonObject PolicyRule::toJson() const
{
    QJsonObject o{{QStringLiteral("verbs"), toArray(verbs)}};
    if (!isResourceRule()) {
        o.insert(QStringLiteral("nonResourceURLs"), toArray(nonResourceURLs));
        return o;
    }
    o.insert(QStringLiteral("apiGroups"), toArray(apiGroups));
    o.insert(QStringLiteral("resources"), toArray(resources));
    if (!resourceNames.isEmpty())
        o.insert(QStringLiteral("resourceNames"), toArray(resourceNames));
    return o;
}

AccessAttributes AccessAttributes::fromRequest(const RequestInfo &info, const QByteArray &method)
{
    AccessAttributes a;
    a.resourceRequest = info.isResourceRequest;
    if (!info.isResourceRequest) {
        a.verb = QString::fromLatin1(method).toLower();
        a.path = info.path;
        return a;
    }
    a.verb = info.verb;
    a.apiGroup = info.apiGroup;
    a.resource = info.resource;
    a.subresource = info.subresource;
    a.namespaceName = info.namespaceName;
    a.name = info.name;
    return a;
}

AccessAttributes AccessAttributes::fromReviewSpec(const QJsonObject &spec)
{
    AccessAttributes a;
    if (spec.contains(QLatin1String("nonResourceAttributes"))) {
        const QJsonObject n = spec.value(QLatin1String("nonResourceAttributes")).toObject();
        a.resourceRequest = false;
        a.verb = str(n, "verb");
        a.path = str(n, "path");
        return a;
    }
    const QJsonObject r = spec.value(QLatin1String("resourceAttributes")).toObject();
    a.verb = str(r, "verb");
    a.apiGroup = str(r, "group");
    a.resource = str(r, "resource");
    a.subresource = str(r, "subresource");
    a.namespaceName = str(r, "namespace");
    a.name = str(r, "name");
    return a;
}

bool ruleAllows(const PolicyRule &rule, const AccessAttributes &a)
{
    if (!hasOrAll(rule.verbs, a.verb))
        return false;
    if (!a.resourceRequest)
        return !rule.isResourceRule() && urlMatches(rule.nonResourceURLs, a.path);
    if (!rule.isResourceRule())
        return false;
    if (!hasOrAll(rule.apiGroups, a.apiGroup) || !resourceMatches(rule.resources, a.resource, a.subresource))
        return false;
    return rule.resourceNames.isEmpty() || (!a.name.isEmpty() && rule.resourceNames.contains(a.name));
}

bool AccessRules::allows(const AccessAttributes &a) const
{
    for (const PolicyRule &r : cluster)
        if (ruleAllows(r, a))
            return true;
    if (!a.resourceRequest || a.namespaceName.isEmpty())
        return false;
    for (const PolicyRule &r : perNamespace.value(a.namespaceName))
        if (ruleAllows(r, a))
            return true;
    return false;
}

QList<PolicyRule> AccessRules::rulesIn(const QString &namespaceName) const
{
    QList<PolicyRule> out = cluster;
    if (!namespaceName.isEmpty())
        out += perNamespace.value(namespaceName);
    return out;
}

} // namespace opbench::apiserver
