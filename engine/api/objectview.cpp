// SPDX-License-Identifier: Apache-2.0
#include "engine/api/objectview.h"

#include "engine/base/clock.h"

#include <QJsonArray>

namespace opbench {

namespace {

QJsonObject withPath(QJsonObject obj, const char *const *first, const char *const *last, const QJsonValue &value)
{
    const QLatin1String key(*first);
    if (first + 1 == last) {
        if (value.isUndefined())
            obj.remove(key);
        else
            obj.insert(key, value);
        return obj;
    }
    obj.insert(key, withPath(obj.value(key).toObject(), first + 1, last, value));
    return obj;
}

} // namespace

ObjectView::ObjectView(const QString &apiVersion, const QString &kind)
{
    m_json.insert(QLatin1String("apiVersion"), apiVersion);
    m_json.insert(QLatin1String("kind"), kind);
    m_json.insert(QLatin1String("metadata"), QJsonObject());
}

QString ObjectView::name() const { return stringAt({"metadata", "name"}); }
QString ObjectView::namespaceName() const { return stringAt({"metadata", "namespace"}); }

QList<OwnerReference> ObjectView::ownerReferences() const
{
    QList<OwnerReference> out;
    for (const QJsonValue &v : at({"metadata", "ownerReferences"}).toArray())
        out << OwnerReference::fromJson(v.toObject());
    return out;
}

bool ObjectView::hasFinalizer(const QString &finalizer) const
{
    return at({"metadata", "finalizers"}).toArray().contains(finalizer);
}

bool ObjectView::setStatusCondition(const Condition &c, const Clock *clock)
{
    QJsonArray conditions = at({"status", "conditions"}).toArray();
    const QDateTime now = (clock ? clock : Clock::system())->wallNow();
    if (!opbench::setStatusCondition(conditions, c, now))
        return false;
    setAt({"status", "conditions"}, conditions);
    return true;
}

std::optional<Condition> ObjectView::findStatusCondition(const QString &type) const
{
    return findCondition(at({"status", "conditions"}).toArray(), type);
}

bool ObjectView::isStatusConditionTrue(const QString &type) const
{
    const std::optional<Condition> c = findStatusCondition(type);
    return c && c->isTrue();
}

QJsonValue ObjectView::at(std::initializer_list<const char *> path) const
{
    QJsonValue v = m_json;
    for (const char *p : path) {
        if (!v.isObject())
            return QJsonValue(QJsonValue::Undefined);
        v = v.toObject().value(QLatin1String(p));
    }
    return v;
}

void ObjectView::setAt(std::initializer_list<const char *> path, const QJsonValue &value)
{
    if (path.size() == 0)
        return;
    m_json = withPath(m_json, path.begin(), path.end(), value);
}

qint64 ObjectView::intAt(std::initializer_list<const char *> path, qint64 fallback) const
{
    const QJsonValue v = at(path);
    return v.isDouble() ? v.toInteger(fallback) : fallback;
}

Labels ObjectView::toStringMap(const QJsonObject &o)
{
    Labels out;
    for (auto it = o.begin(); it != o.end(); ++it)
        out.insert(it.key(), it.value().toString());
    return out;
}

QJsonObject ObjectView::fromStringMap(const Labels &map)
{
    QJsonObject o;
    for (auto it = map.cbegin(); it != map.cend(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

QList<ContainerImage> ObjectView::containerImages(const QJsonArray &containers)
{
    QList<ContainerImage> out;
    for (const QJsonValue &v : containers) {
        const QJsonObject c = v.toObject();
        out << ContainerImage{c.value(QLatin1String("name")).toString(), c.value(QLatin1String("image")).toString()};
    }
    return out;
}

bool ObjectView::setContainerImage(QJsonArray &containers, const QString &name, const QString &image)
{
    for (qsizetype i = 0; i < containers.size(); ++i) {
        QJsonObject c = containers.at(i).toObject();
        if (c.value(QLatin1String("name")).toString() != name)
            continue;
        c.insert(QLatin1String("image"), image);
        containers.replace(i, c);
        return true;
    }
    return false;
}

} // namespace opbench
