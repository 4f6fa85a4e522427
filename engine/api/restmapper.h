// SPDX-License-Identifier: Apache-2.0
#pragma once
// RestMapper: client-go's RESTMapper, kind <-> resource, namespaced or not, short names, and
// what a user types resolved as kubectl does. Built-in kinds are pre-registered
// (withBuiltins()); CRD kinds are added at run time (crdMappings(), registerCrds()).

#include "engine/api/expected.h"
#include "engine/api/gvk.h"

#include <QList>
#include <QStringList>

#include <optional>

namespace opbench {

struct ResourceMapping
{
    GroupVersionResource gvr;
    QString kind;
    QString listKind; // defaults to kind + "List"
    QString singular; // defaults to lower-case kind
    QStringList shortNames;
    QStringList categories;
    QStringList verbs;        // defaults to the eight standard verbs
    QStringList subresources; // "status", "scale"
    bool namespaced = true;

    GroupVersionKind gvk() const { return {gvr.group, gvr.version, kind}; }
};

class RestMapper
{
public:
    /// An empty mapper.
    RestMapper() = default;
    /// A mapper with the built-in kinds opbench knows (core, apps, coordination, events,
    /// apiextensions, rbac).
    static RestMapper withBuiltins();
    static QStringList standardVerbs();

    /// Adds or replaces the mapping for its resource; fills listKind/singular/verbs defaults.
    void add(ResourceMapping mapping);
    bool remove(const GroupVersionResource &gvr);

    std::optional<ResourceMapping> forKind(const GroupVersionKind &gvk) const;
    std::optional<ResourceMapping> forResource(const GroupVersionResource &gvr) const;
    /// Resolves what a user types, as kubectl does: "deployments", "deployment", "deploy",
    /// "Deployment", "deployments.apps", "deployments.v1.apps". Unknown → NotFound Status
    /// naming the input.
    Expected<ResourceMapping> resolve(const QString &input) const;

    const QList<ResourceMapping> &all() const { return m_mappings; }

private:
    QList<ResourceMapping> m_mappings; // at most one entry per GroupVersionResource
};

} // namespace opbench
