// SPDX-License-Identifier: Apache-2.0
#include "engine/api/pod.h"

#include <QJsonArray>

namespace opbench {

const KindInfo &Pod::kindInfo()
{
    static const KindInfo info(
        GroupVersionKind(QString(), QStringLiteral("v1"), QStringLiteral("Pod")), QStringLiteral("pods"));
    return info;
}

Pod::Pod(const QString &namespaceName, const QString &name)
    : Pod()
{
    meta().setNamespace(namespaceName);
    meta().setName(name);
}

void Pod::setContainer(const QString &container, const QString &image)
{
    QJsonArray cs = at({"spec", "containers"}).toArray();
    if (!setContainerImage(cs, container, image))
        cs.append(QJsonObject{{QLatin1String("name"), container}, {QLatin1String("image"), image}});
    setAt({"spec", "containers"}, cs);
}

QList<Condition> Pod::conditions() const
{
    QList<Condition> out;
    for (const QJsonValue &v : at({"status", "conditions"}).toArray())
        out << Condition::fromJson(v.toObject());
    return out;
}

std::optional<Condition> Pod::condition(const QString &type) const
{
    return findCondition(at({"status", "conditions"}).toArray(), type);
}

bool Pod::setCondition(const Condition &c, const QDateTime &now)
{
    QJsonArray cs = at({"status", "conditions"}).toArray();
    if (!opbench::setCondition(cs, c, now))
        return false;
    setAt({"status", "conditions"}, cs);
    return true;
}

bool Pod::isReady() const
{
    const auto c = condition(QStringLiteral("Ready"));
    return c && c->isTrue();
}

void Pod::setReady(bool ready, const QDateTime &now)
{
    const QString status = ready ? QStringLiteral("True") : QStringLiteral("False");
    setCondition(Condition{QStringLiteral("Ready"), status, {}, {}, {}, {}, 0}, now);
    setCondition(Condition{QStringLiteral("ContainersReady"), status, {}, {}, {}, {}, 0}, now);
}

std::optional<OwnerReference> Pod::owner() const
{
    for (const OwnerReference &r : ownerReferences())
        if (r.controller)
            return r;
    return std::nullopt;
}

} // namespace opbench
