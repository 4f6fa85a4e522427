// SPDX-License-Identifier: Apache-2.0
#include "engine/webhook/conversion.h"

#include "engine/base/logger.h"

namespace opbench {

namespace detail {

QJsonObject metadataOnly(const QJsonObject &source, const GroupVersionKind &gvk)
{
    return QJsonObject{{QStringLiteral("apiVersion"), gvk.apiVersion()}, {QStringLiteral("kind"), gvk.kind},
        {QStringLiteral("metadata"), source.value(QLatin1String("metadata"))}};
}

} // namespace detail

namespace {
QString groupKind(const QString &group, const QString &kind) { return group.isEmpty() ? kind : kind + u'.' + group; }
Status failure(const QString &message) { return Status::badRequest(message); }
} // namespace

void KindConversion::addVersion(const GroupVersionKind &spoke, const GroupVersionKind &hub, Step toHub, Step fromHub)
{
    if (spoke.group != m_gvk.group || spoke.kind != m_gvk.kind || hub != m_gvk)
        m_error = QStringLiteral("%1 does not convert through the hub %2").arg(spoke.toString(), m_gvk.toString());
    else
        m_spokes[spoke.version] = {std::move(toHub), std::move(fromHub)};
}

QStringList KindConversion::versions() const
{
    QStringList out{m_gvk.version};
    for (const auto &entry : m_spokes)
        out << entry.first;
    return out;
}

Expected<void> KindConversion::merge(const KindConversion &other)
{
    if (!other.m_error.isEmpty())
        return failure(other.m_error);
    if (other.m_gvk != m_gvk)
        return failure(QStringLiteral("%1 has two hubs: %2 and %3")
                           .arg(groupKind(m_gvk.group, m_gvk.kind), m_gvk.version, other.m_gvk.version));
    for (const auto &entry : other.m_spokes)
        m_spokes[entry.first] = entry.second;
    return {};
}

Expected<QJsonObject> KindConversion::convert(const QJsonObject &object, const QString &desiredApiVersion) const
{
    const GroupVersion from = GroupVersion::parse(object.value(QLatin1String("apiVersion")).toString());
    const GroupVersion to = GroupVersion::parse(desiredApiVersion);
    const QString name = object.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
    const QString label = QStringLiteral("%1 \"%2\"").arg(groupKind(m_gvk.group, m_gvk.kind), name);
    if (to.group != m_gvk.group)
        return failure(
            QStringLiteral("%1: desiredAPIVersion %2 is not in group %3").arg(label, desiredApiVersion, m_gvk.group));
    if (from.version == to.version)
        return failure(
            QStringLiteral("%1: conversion is not allowed between same type %2").arg(label, desiredApiVersion));
    for (const QString &v : {from.version, to.version})
        if (v != m_gvk.version && !m_spokes.count(v))
            return failure(QStringLiteral("%1: version %2 is not convertible (known: %3)")
                               .arg(label, v, versions().join(QLatin1String(", "))));
    QJsonObject hub = object;
    if (from.version != m_gvk.version) {
        Expected<QJsonObject> converted = m_spokes.at(from.version).first(object);
        if (!converted)
            return failure(QStringLiteral("%1: converting %2 to the hub %3: %4")
                               .arg(label, from.toString(), m_gvk.version, converted.error().message()));
        hub = *converted;
    }
    if (to.version == m_gvk.version)
        return hub;
    Expected<QJsonObject> out = m_spokes.at(to.version).second(hub);
    if (!out)
        return failure(QStringLiteral("%1: converting the hub %2 to %3: %4")
                           .arg(label, m_gvk.version, to.toString(), out.error().message()));
    return *out;
}

ConversionRegistry::ConversionRegistry(QObject *parent)
    : QObject(parent)
{ }

Expected<ConversionRegistry *> ConversionRegistry::of(WebhookServer *server)
{
    if (auto *existing = server->findChild<ConversionRegistry *>(QString(), Qt::FindDirectChildrenOnly))
        return existing;
    auto *registry = new ConversionRegistry(server);
    if (Expected<void> ok = server->registerHandler(
            QStringLiteral("/convert"), [registry](const WebhookRequest &r) { return registry->serve(r); });
        !ok) {
        delete registry;
        return ok.error();
    }
    return registry;
}

Expected<void> ConversionRegistry::add(const KindConversion &conversion)
{
    const QString key = groupKind(conversion.hub().group, conversion.hub().kind);
    auto it = m_kinds.find(key);
    if (it == m_kinds.end())
        it = m_kinds.emplace(key, KindConversion::forHubOf(conversion.hub())).first;
    return it->second.merge(conversion);
}

Expected<QJsonArray> ConversionRegistry::convert(const QJsonArray &objects, const QString &desiredApiVersion) const
{
    QJsonArray out;
    for (qsizetype i = 0; i < objects.size(); ++i) {
        const QJsonObject object = objects.at(i).toObject();
        const GroupVersion gv = GroupVersion::parse(object.value(QLatin1String("apiVersion")).toString());
        const QString kind = object.value(QLatin1String("kind")).toString();
        const auto it = m_kinds.find(groupKind(gv.group, kind));
        if (it == m_kinds.end())
            return failure(QStringLiteral("objects[%1]: no conversion for kind %2 of %3 (this webhook converts: %4)")
                               .arg(i)
                               .arg(kind, gv.toString(), [this] {
                                   QStringList known;
                                   for (const auto &e : m_kinds)
                                       known << e.first;
                                   return known.join(QLatin1String(", "));
                               }()));
        Expected<QJsonObject> converted = it->second.convert(object, desiredApiVersion);
        if (!converted)
            return failure(QStringLiteral("objects[%1]: %2").arg(i).arg(converted.error().message()));
        out.append(*converted);
    }
    return out;
}

WebhookReply ConversionRegistry::serve(const WebhookRequest &http) const
{
    const Logger log
        = Logger().withName(QStringLiteral("conversion-webhook")).withValues({{QStringLiteral("webhook"), http.path}});
    const auto bad = [&](const QString &why) {
        log.error(why, QStringLiteral("failed to read conversion request"));
        return WebhookReply(400, why.toUtf8() + '\n', QByteArrayLiteral("text/plain; charset=utf-8"));
    };
    QJsonParseError perr;
    const QJsonDocument doc = QJsonDocument::fromJson(http.body, &perr);
    if (!doc.isObject())
        return bad(QStringLiteral("the body is not a JSON object: %1").arg(perr.errorString()));
    QJsonObject review = doc.object();
    if (review.value(QLatin1String("kind")).toString() != QLatin1String("ConversionReview"))
        return bad(QStringLiteral("expected a ConversionReview, got kind \"%1\"")
                       .arg(review.value(QLatin1String("kind")).toString()));
    const QJsonValue requestValue = review.value(QLatin1String("request"));
    if (!requestValue.isObject())
        return bad(QStringLiteral("conversion request is nil"));
    const QJsonObject request = requestValue.toObject();
    QJsonObject response{{QStringLiteral("uid"), request.value(QLatin1String("uid"))}};
    Expected<QJsonArray> converted = convert(request.value(QLatin1String("objects")).toArray(),
        request.value(QLatin1String("desiredAPIVersion")).toString());
    if (converted) {
        response.insert(QLatin1String("convertedObjects"), *converted);
        response.insert(QLatin1String("result"),
            QJsonObject{
                {QStringLiteral("metadata"), QJsonObject()}, {QStringLiteral("status"), QStringLiteral("Success")}});
    } else {
        log.error(converted.error().message(), QStringLiteral("failed to convert"),
            {{QStringLiteral("request"), request.value(QLatin1String("uid")).toString()}});
        response.insert(QLatin1String("result"),
            QJsonObject{{QStringLiteral("metadata"), QJsonObject()},
                {QStringLiteral("status"), QStringLiteral("Failure")},
                {QStringLiteral("message"), converted.error().message()}});
    }
    review.remove(QLatin1String("request"));
    review.insert(QLatin1String("response"), response);
    if (!review.contains(QLatin1String("apiVersion")))
        review.insert(QLatin1String("apiVersion"), QStringLiteral("apiextensions.k8s.io/v1"));
    return WebhookReply(200, QJsonDocument(review).toJson(QJsonDocument::Compact));
}

} // namespace opbench
