// SPDX-License-Identifier: Apache-2.0
#pragma once
// ResourceRegistry: what the embedded API server serves. Built-in resources are registered at
// construction; custom resources are added and removed at run time as CRDs come and go.
// Every served (group, version, resource) maps to a ResourceType that says how the store
// treats its objects (scope, status subresource, generation tracking, schema, printer columns)
// and where they are stored (events.k8s.io/v1 events share core/v1 storage).

#include "engine/api/gvk.h"
#include "engine/api/restmapper.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QObject>

#include <optional>

namespace opbench::apiserver {

struct ResourceType
{
    ResourceMapping mapping;        // served gvr, kind, listKind, scope, short names, verbs
    GroupVersionResource storage;   // where objects live; equals mapping.gvr except shared storage;
                                    // custom resources: {group, "", plural}, one bucket for every version
    QString storageVersion;         // the version objects are written at (a CRD's storage version)
    bool custom = false;            // served from a CRD
    bool statusSubresource = false; // "/status" exists: main endpoint ignores status, /status the rest
    bool scaleSubresource = false;
    bool tracksGeneration = false; // metadata.generation maintained (CRs, deployments, CRDs, ...)
    bool reviewOnly = false;       // answered by a handler, never stored (access reviews)
    QString crdName;               // custom only: "myapplications.example.com"
    QJsonObject schema;            // custom only: the version's openAPIV3Schema
    QJsonArray printerColumns;     // custom only: additionalPrinterColumns
    QJsonObject scaleSpec;         // custom only: subresources.scale (specReplicasPath, ...)
    quint64 schemaSince = 0;       // custom only: the CRD's resourceVersion when this schema took
                                   // effect; objects written at or before it get its defaults on read
    QJsonObject conversionWebhook; // custom only: spec.conversion.webhook when the strategy is
                                   // Webhook (clientConfig, conversionReviewVersions); else empty

    const GroupVersionResource &gvr() const { return mapping.gvr; }
    QString kind() const { return mapping.kind; }
    QString apiVersion() const { return mapping.gvr.groupVersion().toString(); }
    /// The apiVersion stored objects are written with.
    QString storageApiVersion() const
    {
        return storage.group.isEmpty() ? storageVersion : storage.group + u'/' + storageVersion;
    }
    bool namespaced() const { return mapping.namespaced; }
};

class ResourceRegistry : public QObject
{
    Q_OBJECT
public:
    /// A registry holding the built-in resources the server serves.
    explicit ResourceRegistry(QObject *parent = nullptr);

    /// The type served at `gvr`, if any. A version-less custom resource (a storage key) finds the
    /// type of the CRD's storage version.
    std::optional<ResourceType> find(const GroupVersionResource &gvr) const;
    /// The type for an apiVersion/kind pair (the storage type for shared storage).
    std::optional<ResourceType> findKind(const GroupVersionKind &gvk) const;
    /// All served types, in registration order.
    const QList<ResourceType> &all() const { return m_types; }
    /// Served group names (core "" first), and the versions of one group.
    QStringList groups() const;
    QStringList versions(const QString &group) const;
    /// The version a client should prefer for `group` (the first registered).
    QString preferredVersion(const QString &group) const;

    /// Registers (or re-registers) every served version of a CRD. Returns the problems found
    /// (empty on success): they are reported through the CRD's NamesAccepted condition.
    QStringList registerCrd(const QJsonObject &crd);
    /// Removes all versions served for the CRD named `crdName`.
    void unregisterCrd(const QString &crdName);

    /// A RestMapper view of everything served (for short-name resolution).
    RestMapper restMapper() const;

Q_SIGNALS:
    /// The set of served resources changed (a CRD was registered or removed).
    void changed();

private:
    void addBuiltins();
    void add(ResourceType type);
    QList<ResourceType> m_types;
};

} // namespace opbench::apiserver
