// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/admission/webhookmatcher.h"

#include <QJsonArray>

#include <algorithm>

namespace opbench::apiserver {

namespace {

const QString kGroup = QStringLiteral("admissionregistration.k8s.io");

bool listMatches(const QJsonValue &list, const QString &value)
{
    for (const QJsonValue v : list.toArray())
        if (v.toString() == QLatin1String("*") || v.toString() == value)
            return true;
    return false;
}

bool resourceMatches(const QJsonValue &resources, const QString &resource, const QString &sub)
{
    for (const QJsonValue v : resources.toArray()) {
        const QString r = v.toString();
        if (r == QLatin1String("*/*"))
            return true;
        const qsizetype slash = r.indexOf(u'/');
        const QString res = slash < 0 ? r : r.left(slash);
        const QString rsub = slash < 0 ? QString() : r.mid(slash + 1);
        if ((res == QLatin1String("*") || res == resource) && (rsub == QLatin1String("*") || rsub == sub))
            return true;
    }
    return false;
}

bool ruleMatches(const QJsonObject &rule, const AdmissionAttributes &a)
{
    const GroupVersionResource &gvr = a.type.gvr();
    const QString scope = rule.value(QLatin1String("scope")).toString(QStringLiteral("*"));
    if (scope == QLatin1String("Cluster") && !a.namespaceName.isEmpty())
        return false;
    if (scope == QLatin1String("Namespaced") && a.namespaceName.isEmpty())
        return false;
    return listMatches(rule.value(QLatin1String("operations")), a.operation)
        && listMatches(rule.value(QLatin1String("apiGroups")), gvr.group)
        && listMatches(rule.value(QLatin1String("apiVersions")), gvr.version)
        && resourceMatches(rule.value(QLatin1String("resources")), gvr.resource, a.subresource);
}

QJsonObject labelsOf(const QJsonObject &object)
{
    return object.value(QLatin1String("metadata")).toObject().value(QLatin1String("labels")).toObject();
}

bool requirementMatches(const QJsonObject &req, const QJsonObject &labels)
{
    const QString key = req.value(QLatin1String("key")).toString();
    const QString op = req.value(QLatin1String("operator")).toString();
    const bool has = labels.contains(key);
    const bool listed = req.value(QLatin1String("values")).toArray().contains(labels.value(key));
    if (op == QLatin1String("In"))
        return has && listed;
    if (op == QLatin1String("NotIn"))
        return !has || !listed;
    if (op == QLatin1String("Exists"))
        return has;
    return op == QLatin1String("DoesNotExist") && !has;
}

bool namespaceMatches(Store *store, const QJsonObject &selector, const AdmissionAttributes &a)
{
    const bool isNamespace = a.type.gvr().group.isEmpty() && a.type.gvr().resource == QLatin1String("namespaces");
    if (isNamespace)
        return labelSelectorMatches(selector, labelsOf(a.object.isEmpty() ? a.oldObject : a.object));
    if (a.namespaceName.isEmpty())
        return true;
    const GroupVersionResource namespaces{QString(), QStringLiteral("v1"), QStringLiteral("namespaces")};
    auto ns = store->get(namespaces, QString(), a.namespaceName);
    return labelSelectorMatches(selector, ns ? labelsOf(ns->json()) : QJsonObject());
}

bool hookMatches(Store *store, const QJsonObject &hook, const AdmissionAttributes &a)
{
    const QJsonArray rules = hook.value(QLatin1String("rules")).toArray();
    if (!std::any_of(rules.begin(), rules.end(), [&a](const QJsonValue &r) { return ruleMatches(r.toObject(), a); }))
        return false;
    const QJsonObject objectSelector = hook.value(QLatin1String("objectSelector")).toObject();
    const bool objectOk = (!a.object.isEmpty() && labelSelectorMatches(objectSelector, labelsOf(a.object)))
        || (!a.oldObject.isEmpty() && labelSelectorMatches(objectSelector, labelsOf(a.oldObject)));
    return objectOk && namespaceMatches(store, hook.value(QLatin1String("namespaceSelector")).toObject(), a);
}

} // namespace

bool labelSelectorMatches(const QJsonObject &selector, const QJsonObject &labels)
{
    const QJsonObject ml = selector.value(QLatin1String("matchLabels")).toObject();
    for (auto it = ml.begin(); it != ml.end(); ++it)
        if (labels.value(it.key()) != it.value())
            return false;
    for (const QJsonValue r : selector.value(QLatin1String("matchExpressions")).toArray())
        if (!requirementMatches(r.toObject(), labels))
            return false;
    return true;
}

QList<MatchedWebhook> matchingWebhooks(Store *store, bool mutating, const AdmissionAttributes &a)
{
    if (!a.type.custom && a.type.gvr().group == kGroup)
        return {}; // webhook configurations are never sent to webhooks (kube-apiserver's rule)
    const GroupVersionResource gvr{kGroup, QStringLiteral("v1"),
        mutating ? QStringLiteral("mutatingwebhookconfigurations") : QStringLiteral("validatingwebhookconfigurations")};
    auto listed = store->list(gvr, ListOptions());
    if (!listed)
        return {};
    QList<Object> configs = listed->items;
    std::sort(configs.begin(), configs.end(), [](const Object &x, const Object &y) { return x.name() < y.name(); });
    QList<MatchedWebhook> out;
    for (const Object &config : std::as_const(configs)) {
        const QJsonObject json = config.json();
        for (const QJsonValue hook : json.value(QLatin1String("webhooks")).toArray())
            if (hookMatches(store, hook.toObject(), a))
                out.append(MatchedWebhook{config.name(), hook.toObject()});
    }
    return out;
}

} // namespace opbench::apiserver
