// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/validation/objectrules.h"

#include "engine/api/validation.h"
#include "engine/base/clock.h"

#include <QJsonArray>
#include <QRandomGenerator>

namespace opbench::apiserver::rules {

QString timestamp(const Clock *clock, qint64 offsetSeconds)
{
    QDateTime t = (clock ? clock->wallNow() : QDateTime::currentDateTimeUtc()).toUTC().addSecs(offsetSeconds);
    t.setTime(QTime(t.time().hour(), t.time().minute(), t.time().second()));
    return t.toString(Qt::ISODate);
}

QString generateName(const QString &base, const std::function<bool(const QString &)> &exists)
{
    static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
    const QString prefix = base.left(58);
    for (int attempt = 0; attempt < 100; ++attempt) {
        QString name = prefix;
        for (int i = 0; i < 5; ++i)
            name += QLatin1Char(alphabet[QRandomGenerator::global()->bounded(int(sizeof(alphabet) - 1))]);
        if (!exists(name))
            return name;
    }
    return prefix + QString::number(QRandomGenerator::global()->generate());
}

QList<StatusCause> validateMeta(const ResourceType &type, const QJsonObject &metadata)
{
    NameValidator v;
    if (!type.custom && type.gvr().resource == QLatin1String("namespaces"))
        v = [](const QString &n, bool p) { return validateNamespaceName(n, p); };
    else if (!type.custom && type.gvr().resource == QLatin1String("services"))
        v = [](const QString &n, bool p) { return validateServiceName(n, p); };
    return validateObjectMeta(metadata, type.namespaced(), v);
}

void applyCreateDefaults(const ResourceType &type, QJsonObject &object)
{
    const QString resource = type.gvr().resource;
    if (type.custom) {
        if (type.statusSubresource)
            object.remove(QLatin1String("status"));
        return;
    }
    if (resource == QLatin1String("pods")) {
        object.insert(QLatin1String("status"), QJsonObject{{QStringLiteral("phase"), QStringLiteral("Pending")}});
    } else if (resource == QLatin1String("namespaces")) {
        object.insert(QLatin1String("status"), QJsonObject{{QStringLiteral("phase"), QStringLiteral("Active")}});
        QJsonObject spec = object.value(QLatin1String("spec")).toObject();
        if (!spec.contains(QLatin1String("finalizers")))
            spec.insert(QLatin1String("finalizers"), QJsonArray{QStringLiteral("kubernetes")});
        object.insert(QLatin1String("spec"), spec);
    } else if (resource == QLatin1String("secrets")) {
        defaultSecret(object);
    } else if (type.statusSubresource) {
        object.remove(QLatin1String("status"));
    }
}

void defaultSecret(QJsonObject &secret)
{
    if (secret.value(QLatin1String("type")).toString().isEmpty())
        secret.insert(QLatin1String("type"), QStringLiteral("Opaque"));
    const QJsonObject stringData = secret.take(QLatin1String("stringData")).toObject();
    if (stringData.isEmpty())
        return;
    QJsonObject data = secret.value(QLatin1String("data")).toObject();
    for (auto it = stringData.begin(); it != stringData.end(); ++it)
        data.insert(it.key(), QString::fromLatin1(it.value().toString().toUtf8().toBase64()));
    secret.insert(QLatin1String("data"), data);
}

bool specChanged(const ResourceType &type, const QJsonObject &before, const QJsonObject &after)
{
    QJsonObject a = before;
    QJsonObject b = after;
    for (QJsonObject *o : {&a, &b}) {
        o->remove(QLatin1String("metadata"));
        if (type.statusSubresource)
            o->remove(QLatin1String("status"));
    }
    return a != b;
}

QList<StatusCause> checkFinalizerAdditions(const QJsonObject &oldMeta, const QJsonObject &newMeta)
{
    QStringList oldF;
    for (const QJsonValue &v : oldMeta.value(QLatin1String("finalizers")).toArray())
        oldF << v.toString();
    QStringList added;
    for (const QJsonValue &v : newMeta.value(QLatin1String("finalizers")).toArray())
        if (!oldF.contains(v.toString()))
            added << fielderror::quote(v.toString());
    if (added.isEmpty())
        return {};
    return {fielderror::forbidden(QStringLiteral("metadata.finalizers"),
        QStringLiteral(
            "no new finalizers can be added if the object is being deleted, found new finalizers []string{%1}")
            .arg(added.join(QLatin1String(", "))))};
}

bool readyToRemove(const QJsonObject &object)
{
    const QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
    if (!meta.value(QLatin1String("finalizers")).toArray().isEmpty())
        return false;
    if (object.value(QLatin1String("kind")).toString() == QLatin1String("Namespace")
        && !object.value(QLatin1String("spec")).toObject().value(QLatin1String("finalizers")).toArray().isEmpty())
        return false;
    return true;
}

} // namespace opbench::apiserver::rules
