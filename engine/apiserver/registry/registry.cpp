// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/registry/registry.h"

namespace opbench::apiserver {

namespace {

QString str(const QJsonObject &o, const char *key) { return o.value(QLatin1String(key)).toString(); }

QStringList strList(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &e : v.toArray())
        out << e.toString();
    return out;
}

bool tracksGenerationBuiltin(const GroupVersionResource &gvr)
{
    static const QStringList tracked{QStringLiteral("deployments"), QStringLiteral("replicasets"),
        QStringLiteral("customresourcedefinitions"), QStringLiteral("statefulsets"), QStringLiteral("daemonsets")};
    return tracked.contains(gvr.resource);
}

} // namespace

ResourceRegistry::ResourceRegistry(QObject *parent)
    : QObject(parent)
{
    addBuiltins();
}

void ResourceRegistry::addBuiltins()
{
    const RestMapper builtins = RestMapper::withBuiltins();
    for (const ResourceMapping &m : builtins.all()) {
        ResourceType t;
        t.mapping = m;
        t.storage = m.gvr;
        if (m.gvr.group == QLatin1String("events.k8s.io"))
            t.storage = {QString(), QStringLiteral("v1"), QStringLiteral("events")};
        t.storageVersion = t.storage.version;
        t.statusSubresource = m.subresources.contains(QLatin1String("status"));
        t.scaleSubresource = m.subresources.contains(QLatin1String("scale"));
        t.tracksGeneration = tracksGenerationBuiltin(m.gvr);
        add(std::move(t));
    }
    // admissionregistration.k8s.io/v1 webhook configurations (served here, not in RestMapper's
    // client-side list): cluster-scoped, category api-extensions as upstream.
    for (const char *kind : {"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"}) {
        ResourceType t;
        t.mapping.kind = QString::fromLatin1(kind);
        t.mapping.gvr
            = {QStringLiteral("admissionregistration.k8s.io"), QStringLiteral("v1"), t.mapping.kind.toLower() + u's'};
        t.mapping.namespaced = false;
        t.mapping.categories = {QStringLiteral("api-extensions")};
        t.storage = t.mapping.gvr;
        t.storageVersion = t.storage.version;
        RestMapper defaults;
        defaults.add(t.mapping);
        t.mapping = defaults.all().first();
        add(std::move(t));
    }
    // Access reviews (accessreview.h): create-only, never stored.
    auto review = [this](const char *group, const char *resource, const char *kind, bool namespaced,
                      const char *version = "v1") {
        ResourceType t;
        t.mapping.gvr = {QString::fromLatin1(group), QString::fromLatin1(version), QString::fromLatin1(resource)};
        t.mapping.kind = QString::fromLatin1(kind);
        t.mapping.namespaced = namespaced;
        t.mapping.verbs = {QStringLiteral("create")};
        t.storage = t.mapping.gvr;
        t.storageVersion = t.storage.version;
        t.reviewOnly = true;
        RestMapper defaults;
        defaults.add(t.mapping);
        t.mapping = defaults.all().first();
        add(std::move(t));
    };
    review("authentication.k8s.io", "selfsubjectreviews", "SelfSubjectReview", false);
    review("authentication.k8s.io", "selfsubjectreviews", "SelfSubjectReview", false,
        "v1beta1"); // kubectl 1.27 auth whoami
    review("authorization.k8s.io", "localsubjectaccessreviews", "LocalSubjectAccessReview", true);
    review("authorization.k8s.io", "selfsubjectaccessreviews", "SelfSubjectAccessReview", false);
    review("authorization.k8s.io", "selfsubjectrulesreviews", "SelfSubjectRulesReview", false);
    review("authorization.k8s.io", "subjectaccessreviews", "SubjectAccessReview", false);
}

void ResourceRegistry::add(ResourceType type)
{
    for (ResourceType &existing : m_types) {
        if (existing.mapping.gvr == type.mapping.gvr) {
            existing = std::move(type);
            return;
        }
    }
    m_types.append(std::move(type));
}

std::optional<ResourceType> ResourceRegistry::find(const GroupVersionResource &gvr) const
{
    if (gvr.version.isEmpty()) { // a custom resource's storage key
        for (const ResourceType &t : m_types)
            if (t.custom && t.storage == gvr && t.mapping.gvr.version == t.storageVersion)
                return t;
        for (const ResourceType &t : m_types)
            if (t.custom && t.storage == gvr)
                return t;
        return std::nullopt;
    }
    for (const ResourceType &t : m_types)
        if (t.mapping.gvr == gvr)
            return t;
    return std::nullopt;
}

std::optional<ResourceType> ResourceRegistry::findKind(const GroupVersionKind &gvk) const
{
    for (const ResourceType &t : m_types) {
        if (t.mapping.kind == gvk.kind && t.mapping.gvr.group == gvk.group
            && (gvk.version.isEmpty() || t.mapping.gvr.version == gvk.version))
            return t;
    }
    return std::nullopt;
}

QStringList ResourceRegistry::groups() const
{
    QStringList out;
    for (const ResourceType &t : m_types)
        if (!out.contains(t.mapping.gvr.group))
            out << t.mapping.gvr.group;
    if (out.removeAll(QString()) > 0)
        out.prepend(QString());
    return out;
}

QStringList ResourceRegistry::versions(const QString &group) const
{
    QStringList out;
    for (const ResourceType &t : m_types)
        if (t.mapping.gvr.group == group && !out.contains(t.mapping.gvr.version))
            out << t.mapping.gvr.version;
    return out;
}

QString ResourceRegistry::preferredVersion(const QString &group) const
{
    const QStringList v = versions(group);
    return v.isEmpty() ? QString() : v.first();
}

QStringList ResourceRegistry::registerCrd(const QJsonObject &crd)
{
    const QString crdName = crd.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
    const QJsonObject spec = crd.value(QLatin1String("spec")).toObject();
    const QJsonObject names = spec.value(QLatin1String("names")).toObject();
    const QString group = str(spec, "group");
    const QString plural = str(names, "plural");
    QStringList problems;
    if (group.isEmpty() || plural.isEmpty() || str(names, "kind").isEmpty())
        problems << QStringLiteral("spec.group, spec.names.plural and spec.names.kind are required");
    if (crdName != plural + u'.' + group)
        problems << QStringLiteral("metadata.name must be spec.names.plural+\".\"+spec.group");
    for (const ResourceType &t : m_types) {
        if (t.mapping.gvr.group == group && t.mapping.gvr.resource == plural && t.crdName != crdName)
            problems << QStringLiteral("\"%1\" is already in use").arg(plural);
    }
    if (!problems.isEmpty())
        return problems;

    const quint64 crdRv = crd.value(QLatin1String("metadata"))
                              .toObject()
                              .value(QLatin1String("resourceVersion"))
                              .toString()
                              .toULongLong();
    QHash<QString, QPair<QJsonObject, quint64>> previousSchemas; // version -> (schema, since)
    for (const ResourceType &t : std::as_const(m_types))
        if (t.custom && t.crdName == crdName)
            previousSchemas.insert(t.mapping.gvr.version, qMakePair(t.schema, t.schemaSince));
    m_types.removeIf([&crdName](const ResourceType &t) { return t.custom && t.crdName == crdName; });
    const QJsonArray versionsArr = spec.value(QLatin1String("versions")).toArray();
    QString storageVersion;
    for (const QJsonValue &v : versionsArr)
        if (v.toObject().value(QLatin1String("storage")).toBool())
            storageVersion = str(v.toObject(), "name");
    const QJsonObject conversion = spec.value(QLatin1String("conversion")).toObject();
    const bool webhook = str(conversion, "strategy") == QLatin1String("Webhook");
    for (const QJsonValue &vv : versionsArr) {
        const QJsonObject v = vv.toObject();
        if (!v.value(QLatin1String("served")).toBool(true))
            continue;
        const QJsonObject sub = v.value(QLatin1String("subresources")).toObject();
        ResourceType t;
        t.custom = true;
        t.crdName = crdName;
        t.mapping.gvr = {group, str(v, "name"), plural};
        t.mapping.kind = str(names, "kind");
        t.mapping.listKind = str(names, "listKind");
        t.mapping.singular = str(names, "singular");
        t.mapping.shortNames = strList(names.value(QLatin1String("shortNames")));
        t.mapping.categories = strList(names.value(QLatin1String("categories")));
        t.mapping.namespaced = str(spec, "scope") != QLatin1String("Cluster");
        t.statusSubresource = sub.contains(QLatin1String("status"));
        t.scaleSubresource = sub.contains(QLatin1String("scale"));
        if (t.statusSubresource)
            t.mapping.subresources << QStringLiteral("status");
        if (t.scaleSubresource)
            t.mapping.subresources << QStringLiteral("scale");
        t.scaleSpec = sub.value(QLatin1String("scale")).toObject();
        t.tracksGeneration = true;
        t.schema = v.value(QLatin1String("schema")).toObject().value(QLatin1String("openAPIV3Schema")).toObject();
        t.printerColumns = v.value(QLatin1String("additionalPrinterColumns")).toArray();
        const auto previous = previousSchemas.constFind(t.mapping.gvr.version);
        t.schemaSince = previous != previousSchemas.cend() && previous->first == t.schema ? previous->second : crdRv;
        // Keyed without the version, as etcd's /registry/<group>/<plural>: flipping the storage
        // version keeps every object (they keep the apiVersion they were written with).
        t.storage = {group, QString(), plural};
        t.storageVersion = storageVersion.isEmpty() ? t.mapping.gvr.version : storageVersion;
        if (webhook)
            t.conversionWebhook = conversion.value(QLatin1String("webhook")).toObject();
        RestMapper defaults;
        defaults.add(t.mapping); // fills listKind/singular/verbs defaults
        t.mapping = defaults.all().first();
        add(std::move(t));
    }
    Q_EMIT changed();
    return {};
}

void ResourceRegistry::unregisterCrd(const QString &crdName)
{
    if (m_types.removeIf([&crdName](const ResourceType &t) { return t.custom && t.crdName == crdName; }) > 0)
        Q_EMIT changed();
}

RestMapper ResourceRegistry::restMapper() const
{
    RestMapper m;
    for (const ResourceType &t : m_types)
        m.add(t.mapping);
    return m;
}

} // namespace opbench::apiserver
