// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to server-side apply (fieldmanager.cpp): the schema walk that decides which maps are
// structs and which are free-form, which lists are maps (and by which keys), sets or atomic,
// for a CRD's schema or the built-in kinds' table, and which paths are never owned.

#include "engine/apiserver/registry/registry.h"

#include <QJsonObject>
#include <QLatin1String>
#include <QStringList>

namespace opbench::apiserver::ssa {

inline constexpr QLatin1String kMetadata("metadata");
inline constexpr QLatin1String kManagedFields("managedFields");
inline constexpr QLatin1String kStatus("status");

enum class ListType { Atomic, Set, Map };

struct ListInfo
{
    ListType type = ListType::Atomic;
    QStringList keys;
};

/// Go struct fields that are present (as `{}`) in a zero object, so an Update that fills them
/// does not make the struct itself a member (only what it sets inside).
bool zeroPresentStruct(const QString &name);

struct Cursor
{
    bool custom = false;  // walking a CRD schema (node) rather than the built-in tables (path)
    QJsonObject node;     // CRD schema node ({}: unknown, everything free-form)
    QString path;         // built-in: dotted field path without list indices
    bool freeMap = false; // children are free-form map entries
    bool atomic = false;  // a map that is one leaf
    bool service = false; // core/v1 Service (spec.selector is a free-form map there)
    bool root = false;
};

Cursor rootCursor(const ResourceType &type);
Cursor fieldCursor(const Cursor &parent, const QString &name);
/// Whether `name` is a declared struct field of the map at `parent` (rather than a free-form entry).
bool declaredField(const Cursor &parent, const QString &name);
ListInfo listInfo(const Cursor &c);
Cursor itemCursor(const Cursor &list);
/// The path element of a list item ("k:{…}", "v:…", or "i:<n>").
QString itemElement(const QJsonValue &item, const ListInfo &li, qsizetype index);

/// Filters what field sets may hold: apiVersion, kind, server-owned metadata, and the part of the
/// object a subresource does not write.
struct Scope
{
    bool statusOnly = false; // /status writes own only status
    bool skipStatus = false; // main-endpoint writes of a type with a status subresource

    bool skipRootKey(const QString &key) const
    {
        if (key == QLatin1String("apiVersion") || key == QLatin1String("kind"))
            return true;
        if (statusOnly)
            return key != kStatus;
        return skipStatus && key == kStatus;
    }
    static bool skipMetadataKey(const QString &key)
    {
        static const QStringList keys{QStringLiteral("name"), QStringLiteral("namespace"),
            QStringLiteral("creationTimestamp"), QStringLiteral("selfLink"), QStringLiteral("uid"),
            QStringLiteral("clusterName"), QStringLiteral("generation"), QStringLiteral("managedFields"),
            QStringLiteral("resourceVersion"), QStringLiteral("deletionTimestamp"),
            QStringLiteral("deletionGracePeriodSeconds"), QStringLiteral("generateName")};
        return keys.contains(key);
    }
};

Scope scopeFor(const ResourceType &type, const QString &subresource);

} // namespace opbench::apiserver::ssa
