// SPDX-License-Identifier: Apache-2.0
#include "engine/client/requestoptions.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

namespace opbench {

QByteArray encodeQuery(const QueryParams &params)
{
    QByteArray out;
    for (const auto &[k, v] : params) {
        if (!out.isEmpty())
            out += '&';
        out += QUrl::toPercentEncoding(k) + '=' + QUrl::toPercentEncoding(v);
    }
    return out;
}

QString resourcePath(
    const GroupVersionResource &gvr, const QString &ns, const QString &name, const QString &subresource)
{
    QString p = gvr.basePath();
    if (!ns.isEmpty())
        p += QStringLiteral("/namespaces/") + ns;
    p += u'/' + gvr.resource;
    if (!name.isEmpty()) {
        p += u'/' + name;
        if (!subresource.isEmpty())
            p += u'/' + subresource;
    }
    return p;
}

static void addIf(QueryParams &q, const char *key, const QString &v)
{
    if (!v.isEmpty())
        q.append({QLatin1String(key), v});
}

void GetOptions::addTo(QueryParams &q) const { addIf(q, "resourceVersion", resourceVersion); }

void ListOptions::addTo(QueryParams &q) const
{
    addIf(q, "labelSelector", labelSelector);
    addIf(q, "fieldSelector", fieldSelector);
    if (limit > 0)
        q.append({QStringLiteral("limit"), QString::number(limit)});
    addIf(q, "continue", continueToken);
    addIf(q, "resourceVersion", resourceVersion);
    addIf(q, "resourceVersionMatch", resourceVersionMatch);
    if (timeoutSeconds > 0)
        q.append({QStringLiteral("timeoutSeconds"), QString::number(timeoutSeconds)});
    if (allowWatchBookmarks)
        q.append({QStringLiteral("allowWatchBookmarks"), QStringLiteral("true")});
    if (sendInitialEvents)
        q.append({QStringLiteral("sendInitialEvents"),
            *sendInitialEvents ? QStringLiteral("true") : QStringLiteral("false")});
}

void WriteOptions::addTo(QueryParams &q) const
{
    if (dryRun)
        q.append({QStringLiteral("dryRun"), QStringLiteral("All")});
    addIf(q, "fieldManager", fieldManager);
    addIf(q, "fieldValidation", fieldValidation);
}

void PatchOptions::addTo(QueryParams &q) const
{
    WriteOptions::addTo(q);
    if (force)
        q.append({QStringLiteral("force"), QStringLiteral("true")});
}

QByteArray patchContentType(PatchType t)
{
    switch (t) {
    case PatchType::Merge:
        return "application/merge-patch+json";
    case PatchType::JSONPatch:
        return "application/json-patch+json";
    case PatchType::StrategicMerge:
        return "application/strategic-merge-patch+json";
    case PatchType::Apply:
        return "application/apply-patch+yaml";
    }
    return "application/merge-patch+json";
}

QByteArray DeleteOptions::toJson() const
{
    QJsonObject o{{QStringLiteral("kind"), QStringLiteral("DeleteOptions")},
        {QStringLiteral("apiVersion"), QStringLiteral("v1")}};
    if (!propagationPolicy.isEmpty())
        o.insert(QStringLiteral("propagationPolicy"), propagationPolicy);
    if (gracePeriodSeconds)
        o.insert(QStringLiteral("gracePeriodSeconds"), double(*gracePeriodSeconds));
    QJsonObject pre;
    if (!preconditionUid.isEmpty())
        pre.insert(QStringLiteral("uid"), preconditionUid);
    if (!preconditionResourceVersion.isEmpty())
        pre.insert(QStringLiteral("resourceVersion"), preconditionResourceVersion);
    if (!pre.isEmpty())
        o.insert(QStringLiteral("preconditions"), pre);
    if (dryRun)
        o.insert(QStringLiteral("dryRun"), QJsonArray{QStringLiteral("All")});
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace opbench
