// SPDX-License-Identifier: Apache-2.0
#include "engine/api/deployment.h"

#include <QJsonArray>

namespace opbench {

const KindInfo &Deployment::kindInfo()
{
    static const KindInfo info(
        GroupVersionKind(QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("Deployment")),
        QStringLiteral("deployments"));
    return info;
}

Deployment::Deployment(const QString &namespaceName, const QString &name)
    : Deployment()
{
    meta().setNamespace(namespaceName);
    meta().setName(name);
}

Expected<LabelSelector> Deployment::labelSelector() const
{
    const QJsonValue v = at({"spec", "selector"});
    if (!v.isObject())
        return LabelSelector::nothing();
    return LabelSelector::fromJson(v.toObject());
}

Labels Deployment::selectorMatchLabels() const
{
    return toStringMap(at({"spec", "selector", "matchLabels"}).toObject());
}

void Deployment::setSelectorMatchLabels(const Labels &labels)
{
    setAt({"spec", "selector", "matchLabels"}, fromStringMap(labels));
}

void Deployment::setSelector(const Labels &matchLabels)
{
    setAt({"spec", "selector"}, QJsonObject{{QStringLiteral("matchLabels"), fromStringMap(matchLabels)}});
}

Labels Deployment::templateLabels() const
{
    return toStringMap(at({"spec", "template", "metadata", "labels"}).toObject());
}

void Deployment::setTemplateLabels(const Labels &labels)
{
    setAt({"spec", "template", "metadata", "labels"}, fromStringMap(labels));
}

QList<ContainerImage> Deployment::containers() const
{
    return containerImages(at({"spec", "template", "spec", "containers"}).toArray());
}

bool Deployment::setImage(const QString &container, const QString &image)
{
    QJsonArray cs = at({"spec", "template", "spec", "containers"}).toArray();
    if (!setContainerImage(cs, container, image))
        return false;
    setAt({"spec", "template", "spec", "containers"}, cs);
    return true;
}

void Deployment::setContainer(const QString &container, const QString &image)
{
    if (setImage(container, image))
        return;
    QJsonArray cs = at({"spec", "template", "spec", "containers"}).toArray();
    cs.append(QJsonObject{{QLatin1String("name"), container}, {QLatin1String("image"), image}});
    setAt({"spec", "template", "spec", "containers"}, cs);
}

QString Deployment::strategyType() const
{
    const QString t = stringAt({"spec", "strategy", "type"});
    return t.isEmpty() ? QStringLiteral("RollingUpdate") : t;
}

QList<Condition> Deployment::conditions() const
{
    QList<Condition> out;
    for (const QJsonValue &v : at({"status", "conditions"}).toArray())
        out << Condition::fromJson(v.toObject());
    return out;
}

std::optional<Condition> Deployment::condition(const QString &type) const
{
    return findCondition(at({"status", "conditions"}).toArray(), type);
}

bool Deployment::setCondition(const Condition &c, const QDateTime &now)
{
    QJsonArray cs = at({"status", "conditions"}).toArray();
    if (!opbench::setCondition(cs, c, now))
        return false;
    setAt({"status", "conditions"}, cs);
    return true;
}

} // namespace opbench
