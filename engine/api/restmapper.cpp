// SPDX-License-Identifier: Apache-2.0
#include "engine/api/restmapper.h"

namespace opbench {

QStringList RestMapper::standardVerbs()
{
    return {QStringLiteral("create"), QStringLiteral("delete"), QStringLiteral("deletecollection"),
        QStringLiteral("get"), QStringLiteral("list"), QStringLiteral("patch"), QStringLiteral("update"),
        QStringLiteral("watch")};
}

RestMapper RestMapper::withBuiltins()
{
    RestMapper m;
    auto add
        = [&m](const char *group, const char *version, const char *resource, const char *kind, QStringList shortNames,
              bool namespaced, QStringList subresources = {}, QStringList categories = {}) {
              ResourceMapping r;
              r.gvr = {QString::fromLatin1(group), QString::fromLatin1(version), QString::fromLatin1(resource)};
              r.kind = QString::fromLatin1(kind);
              r.shortNames = std::move(shortNames);
              r.namespaced = namespaced;
              r.subresources = std::move(subresources);
              r.categories = std::move(categories);
              m.add(std::move(r));
          };
    const QStringList all{QStringLiteral("all")};
    add("", "v1", "namespaces", "Namespace", {QStringLiteral("ns")}, false,
        {QStringLiteral("status"), QStringLiteral("finalize")});
    add("", "v1", "pods", "Pod", {QStringLiteral("po")}, true, {QStringLiteral("status")}, all);
    add("", "v1", "configmaps", "ConfigMap", {QStringLiteral("cm")}, true);
    add("", "v1", "secrets", "Secret", {}, true);
    add("", "v1", "events", "Event", {QStringLiteral("ev")}, true);
    add("", "v1", "services", "Service", {QStringLiteral("svc")}, true, {QStringLiteral("status")}, all);
    add("", "v1", "serviceaccounts", "ServiceAccount", {QStringLiteral("sa")}, true);
    add("", "v1", "nodes", "Node", {QStringLiteral("no")}, false, {QStringLiteral("status")});
    add("apps", "v1", "deployments", "Deployment", {QStringLiteral("deploy")}, true,
        {QStringLiteral("status"), QStringLiteral("scale")}, all);
    add("apps", "v1", "replicasets", "ReplicaSet", {QStringLiteral("rs")}, true,
        {QStringLiteral("status"), QStringLiteral("scale")}, all);
    add("coordination.k8s.io", "v1", "leases", "Lease", {}, true);
    add("events.k8s.io", "v1", "events", "Event", {QStringLiteral("ev")}, true);
    add("apiextensions.k8s.io", "v1", "customresourcedefinitions", "CustomResourceDefinition",
        {QStringLiteral("crd"), QStringLiteral("crds")}, false, {QStringLiteral("status")});
    add("rbac.authorization.k8s.io", "v1", "roles", "Role", {}, true);
    add("rbac.authorization.k8s.io", "v1", "rolebindings", "RoleBinding", {}, true);
    add("rbac.authorization.k8s.io", "v1", "clusterroles", "ClusterRole", {}, false);
    add("rbac.authorization.k8s.io", "v1", "clusterrolebindings", "ClusterRoleBinding", {}, false);
    return m;
}

void RestMapper::add(ResourceMapping mapping)
{
    if (mapping.listKind.isEmpty())
        mapping.listKind = mapping.kind + QLatin1String("List");
    if (mapping.singular.isEmpty())
        mapping.singular = mapping.kind.toLower();
    if (mapping.verbs.isEmpty())
        mapping.verbs = standardVerbs();
    for (ResourceMapping &existing : m_mappings) {
        if (existing.gvr == mapping.gvr) {
            existing = std::move(mapping);
            return;
        }
    }
    m_mappings.append(std::move(mapping));
}

bool RestMapper::remove(const GroupVersionResource &gvr)
{
    return m_mappings.removeIf([&gvr](const ResourceMapping &m) { return m.gvr == gvr; }) > 0;
}

std::optional<ResourceMapping> RestMapper::forKind(const GroupVersionKind &gvk) const
{
    for (const ResourceMapping &m : m_mappings)
        if (m.kind == gvk.kind && m.gvr.group == gvk.group && (gvk.version.isEmpty() || m.gvr.version == gvk.version))
            return m;
    return std::nullopt;
}

std::optional<ResourceMapping> RestMapper::forResource(const GroupVersionResource &gvr) const
{
    for (const ResourceMapping &m : m_mappings)
        if (m.gvr.resource == gvr.resource && m.gvr.group == gvr.group
            && (gvr.version.isEmpty() || m.gvr.version == gvr.version))
            return m;
    return std::nullopt;
}

Expected<ResourceMapping> RestMapper::resolve(const QString &input) const
{
    // "name", "name.group", or "name.version.group": try the longest group suffix first.
    const QString lower = input.toLower();
    const QStringList parts = lower.split(u'.');
    auto matches = [](const ResourceMapping &m, const QString &name) {
        return m.gvr.resource == name || m.singular == name || m.kind.toLower() == name || m.shortNames.contains(name);
    };
    // Plain name: core group preferred, then any group (as kubectl's priority does).
    std::optional<ResourceMapping> best;
    for (const ResourceMapping &m : m_mappings) {
        if (matches(m, lower)) {
            if (m.gvr.group.isEmpty())
                return m;
            if (!best)
                best = m;
        }
    }
    if (best)
        return *best;
    if (parts.size() >= 2) {
        const QString name = parts.first();
        const QString rest = parts.mid(1).join(u'.');
        for (const ResourceMapping &m : m_mappings) {
            if (!matches(m, name))
                continue;
            if (m.gvr.group == rest)
                return m;
            if (parts.size() >= 3 && parts.at(1) == m.gvr.version && parts.mid(2).join(u'.') == m.gvr.group)
                return m;
        }
    }
    return Status(404, QString::fromLatin1(StatusReason::NotFound),
        QStringLiteral("the server doesn't have a resource type \"%1\"").arg(input));
}

} // namespace opbench
