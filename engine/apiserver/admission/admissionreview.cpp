// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/admission/admissionreview.h"

#include "engine/base/recentlybuilt.h"

#include <QJsonArray>

#include <tuple>

namespace opbench::apiserver {

namespace {

QJsonObject gvk(const ResourceType &type)
{
    return {{QStringLiteral("group"), type.gvr().group}, {QStringLiteral("version"), type.gvr().version},
        {QStringLiteral("kind"), type.kind()}};
}

QJsonObject gvr(const ResourceType &type)
{
    return {{QStringLiteral("group"), type.gvr().group}, {QStringLiteral("version"), type.gvr().version},
        {QStringLiteral("resource"), type.gvr().resource}};
}

} // namespace

QJsonObject admissionOptions(const QString &kind, bool dryRun, const QString &fieldManager)
{
    // Every write asks for one, and the same few recur: the last ones built are shared (per thread).
    thread_local RecentlyBuilt<std::tuple<QString, bool, QString>, QJsonObject> recent;
    return recent.get(std::tuple(kind, dryRun, fieldManager), [&] {
        QJsonObject o{{QStringLiteral("kind"), kind}, {QStringLiteral("apiVersion"), QStringLiteral("meta.k8s.io/v1")}};
        if (dryRun)
            o.insert(QStringLiteral("dryRun"), QJsonArray{QStringLiteral("All")});
        if (!fieldManager.isEmpty())
            o.insert(QStringLiteral("fieldManager"), fieldManager);
        return o;
    });
}

QJsonObject admissionReview(const AdmissionAttributes &a, const QString &uid)
{
    QJsonObject request{{QStringLiteral("uid"), uid}, {QStringLiteral("kind"), gvk(a.type)},
        {QStringLiteral("resource"), gvr(a.type)}, {QStringLiteral("requestKind"), gvk(a.type)},
        {QStringLiteral("requestResource"), gvr(a.type)}, {QStringLiteral("name"), a.name},
        {QStringLiteral("operation"), a.operation},
        {QStringLiteral("userInfo"),
            QJsonObject{{QStringLiteral("username"), a.user},
                {QStringLiteral("groups"), QJsonArray{QStringLiteral("system:authenticated")}}}},
        {QStringLiteral("object"), a.object.isEmpty() ? QJsonValue() : QJsonValue(a.object)},
        {QStringLiteral("oldObject"), a.oldObject.isEmpty() ? QJsonValue() : QJsonValue(a.oldObject)},
        {QStringLiteral("dryRun"), a.dryRun}, {QStringLiteral("options"), a.options}};
    if (!a.namespaceName.isEmpty())
        request.insert(QStringLiteral("namespace"), a.namespaceName);
    if (!a.subresource.isEmpty()) {
        request.insert(QStringLiteral("subResource"), a.subresource);
        request.insert(QStringLiteral("requestSubResource"), a.subresource);
    }
    return {{QStringLiteral("kind"), QStringLiteral("AdmissionReview")},
        {QStringLiteral("apiVersion"), QStringLiteral("admission.k8s.io/v1")}, {QStringLiteral("request"), request}};
}

} // namespace opbench::apiserver
