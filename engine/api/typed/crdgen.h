// SPDX-License-Identifier: Apache-2.0
#pragma once
// CRD generation: a CustomResource's CustomResourceDefinition (apiextensions.k8s.io/v1) from its
// C++ types, as controller-gen generates one from Go types. The types are the one source of
// truth; the CRD is never written by hand.
//
//     QJsonObject crd = opbench::crdFor<Guestbook>();       // for the API server / client
//     QByteArray yaml = opbench::crdYamlFor<Guestbook>();   // for config/crd/*.yaml, kubectl
//
// What goes in: metadata.name plural.group; spec.group, scope (Namespaced or Cluster from
// KindInfo), names (kind, listKind <Kind>List, plural, singular (default: the kind in lower
// case), shortNames, categories); one version, served and the storage version, whose
// openAPIV3Schema has apiVersion, kind, metadata, spec (from Spec's description; required when
// a Spec field is) and status (from Status's, when it has fields); the status subresource when
// Status has fields, the scale subresource and printer columns when the kind's optional
// `static void describeCrd(opbench::CrdOptions &)` asks for them.
//
// For binaries (`--print-crd`, the embedded cluster), CrdSource carries a kind's CRD without
// its C++ type: OperatorDefinition can keep a list of them.

#include "engine/api/typed/customresource.h"

#include <QByteArray>
#include <QJsonObject>

namespace opbench {

/// One additionalPrinterColumns entry (kubectl get's columns).
struct PrinterColumn
{
    /// `type`: string, integer, number, boolean or date; `jsonPath` like ".status.phase".
    PrinterColumn(QString columnName, QString columnType, QString path, QString text = {}, int columnPriority = 0)
        : name(std::move(columnName))
        , type(std::move(columnType))
        , jsonPath(std::move(path))
        , description(std::move(text))
        , priority(columnPriority)
    { }
    QString name;
    QString type;
    QString jsonPath;
    QString description;
    int priority = 0; ///< > 0: shown with -o wide only
    QString format;   ///< optional OpenAPI format ("date-time", "int32", …)
};

/// The scale subresource (kubectl scale, HorizontalPodAutoscaler).
struct ScaleSubresource
{
    explicit ScaleSubresource(QString specPath = QStringLiteral(".spec.replicas"),
        QString statusPath = QStringLiteral(".status.replicas"), QString selectorPath = {})
        : specReplicasPath(std::move(specPath))
        , statusReplicasPath(std::move(statusPath))
        , labelSelectorPath(std::move(selectorPath))
    { }
    QString specReplicasPath;
    QString statusReplicasPath;
    QString labelSelectorPath; ///< optional: where the status keeps a label selector string
};

/// What a CRD says beyond the types: filled in by a kind's `static void describeCrd(CrdOptions &)`.
class CrdOptions
{
public:
    CrdOptions() = default;
    QString singular; ///< default: the kind in lower case
    QStringList shortNames;
    QStringList categories; ///< e.g. {"all"}
    QString description;    ///< the schema root's description
    QList<PrinterColumn> printerColumns;
    std::optional<ScaleSubresource> scale;

    /// Appends a printer column.
    CrdOptions &printerColumn(const QString &name, const QString &type, const QString &jsonPath,
        const QString &description = {}, int priority = 0)
    {
        printerColumns.append(PrinterColumn(name, type, jsonPath, description, priority));
        return *this;
    }
};

/// A kind whose CRD can be generated: a CustomResource (Spec and Status described).
template<class T>
concept GeneratedKind = Kind<T> && requires
{
    typename T::SpecType;
    typename T::StatusType;
} && Described<typename T::SpecType> && Described<typename T::StatusType>;

namespace typed {
/// The generated parts of a CRD that come from the C++ types.
struct CrdSchemas
{
    CrdSchemas(QJsonObject specSchema, std::optional<QJsonObject> statusSchema, bool isSpecRequired)
        : spec(std::move(specSchema))
        , status(std::move(statusSchema))
        , specRequired(isSpecRequired)
    { }
    QJsonObject spec;
    std::optional<QJsonObject> status; ///< nullopt: no status, no status subresource
    bool specRequired = false;
};
/// The CRD document (see the top of this file).
QJsonObject buildCrd(const KindInfo &kind, const CrdSchemas &schemas, const CrdOptions &options);
} // namespace typed

/// The kind's CrdOptions (default ones when it has no describeCrd()).
template<GeneratedKind T> CrdOptions crdOptionsOf()
{
    CrdOptions options;
    if constexpr (requires(CrdOptions & o) { T::describeCrd(o); })
        T::describeCrd(options);
    return options;
}

/// T's CustomResourceDefinition as JSON.
template<GeneratedKind T> QJsonObject crdFor()
{
    const auto &spec = describedFields<typename T::SpecType>();
    const auto &status = describedFields<typename T::StatusType>();
    std::optional<QJsonObject> statusSchema;
    if (status.size() > 0)
        statusSchema = status.schema();
    return typed::buildCrd(
        T::kindInfo(), typed::CrdSchemas(spec.schema(), statusSchema, spec.hasRequired()), crdOptionsOf<T>());
}

/// A CRD document as YAML, under a comment saying it is generated and from which kind.
QByteArray crdYaml(const QJsonObject &crd);

/// T's CustomResourceDefinition as YAML (for config/crd/<plural>.<group>.yaml and kubectl apply).
template<GeneratedKind T> QByteArray crdYamlFor() { return crdYaml(crdFor<T>()); }

/// A kind's generated CRD without its C++ type (what an OperatorDefinition can hold).
class CrdSource
{
public:
    CrdSource(KindInfo kind, QJsonObject crd)
        : m_kind(std::move(kind))
        , m_crd(std::move(crd))
    { }
    template<GeneratedKind T> static CrdSource of() { return CrdSource(T::kindInfo(), crdFor<T>()); }

    const KindInfo &kind() const { return m_kind; }
    const QJsonObject &crd() const { return m_crd; }
    QByteArray yaml() const { return crdYaml(m_crd); }

private:
    KindInfo m_kind;
    QJsonObject m_crd;
};

/// Every source's CRD in one multi-document YAML stream (`--print-crd`), in the given order.
QByteArray crdYaml(const QList<CrdSource> &sources);

} // namespace opbench
