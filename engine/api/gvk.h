// SPDX-License-Identifier: Apache-2.0
#pragma once
// GroupVersionKind / GroupVersionResource: how Kubernetes names a type and its REST collection.

#include <QHashFunctions>
#include <QString>

#include <utility>

namespace opbench {

// These identities have constructors (they are not aggregates) on purpose: g++ 12 destroys an
// aggregate temporary with non-trivial members twice when it is built inside a co_await
// expression, and GroupVersionKind{…} is a natural argument of an awaited client call
// (tests/api/tst_awaitsafety.cpp checks every such type).
struct GroupVersion
{
    GroupVersion() = default;
    GroupVersion(QString g, QString v)
        : group(std::move(g))
        , version(std::move(v))
    { }
    QString group; // "" for the core group
    QString version;
    /// "v1" for core, "apps/v1" otherwise.
    QString toString() const { return group.isEmpty() ? version : group + u'/' + version; }
    /// Parses an apiVersion ("v1", "apps/v1").
    static GroupVersion parse(const QString &apiVersion)
    {
        const qsizetype slash = apiVersion.indexOf(u'/');
        if (slash < 0)
            return {QString(), apiVersion};
        return {apiVersion.left(slash), apiVersion.mid(slash + 1)};
    }
    friend bool operator==(const GroupVersion &, const GroupVersion &) = default;
};

struct GroupVersionKind
{
    GroupVersionKind() = default;
    GroupVersionKind(QString g, QString v, QString k)
        : group(std::move(g))
        , version(std::move(v))
        , kind(std::move(k))
    { }
    QString group;
    QString version;
    QString kind;

    GroupVersion groupVersion() const { return {group, version}; }
    QString apiVersion() const { return groupVersion().toString(); }
    /// "Deployment.v1.apps" style, as client-go prints it; "Pod.v1" for core.
    QString toString() const { return group.isEmpty() ? kind + u'.' + version : kind + u'.' + version + u'.' + group; }
    bool isEmpty() const { return kind.isEmpty(); }
    static GroupVersionKind fromApiVersionKind(const QString &apiVersion, const QString &kind)
    {
        const GroupVersion gv = GroupVersion::parse(apiVersion);
        return {gv.group, gv.version, kind};
    }
    friend bool operator==(const GroupVersionKind &, const GroupVersionKind &) = default;
};

struct GroupVersionResource
{
    GroupVersionResource() = default;
    GroupVersionResource(QString g, QString v, QString r)
        : group(std::move(g))
        , version(std::move(v))
        , resource(std::move(r))
    { }
    QString group;
    QString version;
    QString resource; // plural, lower case

    GroupVersion groupVersion() const { return {group, version}; }
    /// "deployments.apps" (core: "pods"), the form used in messages and RBAC.
    QString groupResource() const { return group.isEmpty() ? resource : resource + u'.' + group; }
    /// The collection path prefix: "/api/v1" or "/apis/apps/v1".
    QString basePath() const
    {
        return group.isEmpty() ? QStringLiteral("/api/") + version : QStringLiteral("/apis/") + group + u'/' + version;
    }
    friend bool operator==(const GroupVersionResource &, const GroupVersionResource &) = default;
};

inline size_t qHash(const GroupVersionKind &k, size_t seed = 0) { return qHashMulti(seed, k.group, k.version, k.kind); }
inline size_t qHash(const GroupVersionResource &r, size_t seed = 0)
{
    return qHashMulti(seed, r.group, r.version, r.resource);
}

} // namespace opbench
