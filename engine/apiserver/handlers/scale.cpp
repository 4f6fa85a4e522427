// SPDX-License-Identifier: Apache-2.0
// ResourceHandler: the /scale subresource (autoscaling/v1 Scale) for deployments, replicasets
// and custom resources with subresources.scale.
#include "engine/apiserver/handlers/resourcehandler.h"

#include "engine/api/labelselector.h"
#include "engine/apiserver/apply/patch.h"
#include "engine/apiserver/validation/conversion.h"

#include <QJsonDocument>

namespace opbench::apiserver {

namespace {

struct ScalePaths
{
    QStringList spec;
    QStringList status;
    QStringList selector;
};

QStringList splitPath(const QString &p) { return p.split(u'.', Qt::SkipEmptyParts); }

ScalePaths pathsFor(const ResourceType &type)
{
    if (!type.custom)
        return {{QStringLiteral("spec"), QStringLiteral("replicas")},
            {QStringLiteral("status"), QStringLiteral("replicas")}, {}};
    return {splitPath(type.scaleSpec.value(QLatin1String("specReplicasPath")).toString()),
        splitPath(type.scaleSpec.value(QLatin1String("statusReplicasPath")).toString()),
        splitPath(type.scaleSpec.value(QLatin1String("labelSelectorPath")).toString())};
}

QJsonValue valueAt(const QJsonObject &o, const QStringList &path)
{
    QJsonValue v = o;
    for (const QString &p : path)
        v = v.toObject().value(p);
    return v;
}

QJsonObject setAt(QJsonObject o, const QStringList &path, const QJsonValue &value)
{
    if (path.isEmpty())
        return o;
    if (path.size() == 1) {
        o.insert(path.first(), value);
        return o;
    }
    o.insert(path.first(), setAt(o.value(path.first()).toObject(), path.mid(1), value));
    return o;
}

QJsonObject toScale(const ResourceType &type, const QJsonObject &o)
{
    const ScalePaths p = pathsFor(type);
    QString selector;
    if (!type.custom) {
        auto ls = LabelSelector::fromJson(
            o.value(QLatin1String("spec")).toObject().value(QLatin1String("selector")).toObject());
        selector = ls ? ls->toString() : QString();
    } else if (!p.selector.isEmpty()) {
        selector = valueAt(o, p.selector).toString();
    }
    const QJsonObject meta = o.value(QLatin1String("metadata")).toObject();
    QJsonObject scaleMeta;
    for (const char *k : {"name", "namespace", "uid", "resourceVersion", "creationTimestamp"})
        if (meta.contains(QLatin1String(k)))
            scaleMeta.insert(QLatin1String(k), meta.value(QLatin1String(k)));
    QJsonObject status{{QStringLiteral("replicas"), valueAt(o, p.status).toInt()}};
    if (!selector.isEmpty())
        status.insert(QStringLiteral("selector"), selector);
    return QJsonObject{{QStringLiteral("kind"), QStringLiteral("Scale")},
        {QStringLiteral("apiVersion"), QStringLiteral("autoscaling/v1")}, {QStringLiteral("metadata"), scaleMeta},
        {QStringLiteral("spec"), QJsonObject{{QStringLiteral("replicas"), valueAt(o, p.spec).toInt()}}},
        {QStringLiteral("status"), status}};
}

} // namespace

void ResourceHandler::scale(const Request &r, const RequestInfo &info, const ResourceType &type, Responder resp)
{
    auto current = m_store->get(type.gvr(), info.namespaceName, info.name);
    if (!current)
        return resp.sendStatus(current.error());
    if (!throughWebhook(type, *current))
        return scaleLive(r, info, type, toServed(type, current->json()), resp);
    servedJson(type, *current, [this, r, info, type, resp](Expected<QJsonObject> live) mutable {
        if (!live)
            return resp.sendStatus(live.error());
        scaleLive(r, info, type, *live, resp);
    });
}

void ResourceHandler::scaleLive(
    const Request &r, const RequestInfo &info, const ResourceType &type, const QJsonObject &live, Responder resp)
{
    const QJsonObject scaleNow = toScale(type, live);
    if (r.method == "GET")
        return resp.sendJson(200, scaleNow);
    auto wo = writeOptionsFrom(r);
    if (!wo)
        return resp.sendStatus(wo.error());
    Expected<QJsonObject> wanted = QJsonObject();
    if (r.method == "PATCH") {
        const PatchKind kind = mediaTypePatchKind(r.header("content-type"));
        if (kind == PatchKind::Unknown || kind == PatchKind::Apply)
            return resp.sendStatus(builtinPatchUnsupported());
        wanted = applyPatch(kind, scaleNow, r.body, false);
    } else {
        wanted = decodeBody(r);
    }
    if (!wanted)
        return resp.sendStatus(wanted.error());
    const QJsonValue replicas = wanted->value(QLatin1String("spec")).toObject().value(QLatin1String("replicas"));
    if (!replicas.isDouble() || replicas.toInteger() < 0) {
        return resp.sendStatus(Status::invalid(QStringLiteral("autoscaling"), QStringLiteral("Scale"), info.name,
            {StatusCause{QStringLiteral("FieldValueInvalid"),
                QStringLiteral("Invalid value: %1: must be greater than or equal to 0")
                    .arg(QString::fromUtf8(
                        QJsonDocument(QJsonObject{{QStringLiteral("v"), replicas}}).toJson(QJsonDocument::Compact))
                             .mid(5)
                             .chopped(1)),
                QStringLiteral("spec.replicas")}}));
    }
    QJsonObject next = setAt(live, pathsFor(type).spec, replicas.toInteger());
    const QString rv
        = wanted->value(QLatin1String("metadata")).toObject().value(QLatin1String("resourceVersion")).toString();
    QJsonObject meta = next.value(QLatin1String("metadata")).toObject();
    if (!rv.isEmpty())
        meta.insert(QLatin1String("resourceVersion"), rv);
    next.insert(QLatin1String("metadata"), meta);
    RequestInfo mainInfo = info;
    mainInfo.subresource.clear();
    if (m_convert && usesConversionWebhook(type) && type.apiVersion() != type.storageApiVersion() && !wo->dryRun) {
        writeConverted(mainInfo, type, false, next, *wo, [this, type, resp](Expected<Object> o) mutable {
            if (!o)
                return resp.sendStatus(o.error());
            servedJson(type, *o, [type, resp](Expected<QJsonObject> served) mutable {
                if (!served)
                    return resp.sendStatus(served.error());
                resp.sendJson(200, toScale(type, *served));
            });
        });
        return;
    }
    auto o = write(mainInfo, type, next, *wo);
    if (!o)
        return resp.sendStatus(o.error());
    resp.sendJson(200, toScale(type, toServed(type, o->json())));
}

} // namespace opbench::apiserver
