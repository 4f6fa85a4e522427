// SPDX-License-Identifier: Apache-2.0
#include "engine/api/builtin/workloadview.h"

#include "engine/api/builtin/overlay.h"

#include <QJsonArray>

namespace opbench {

namespace {
qsizetype indexOfContainer(const QJsonArray &containers, const QString &name)
{
    for (qsizetype i = 0; i < containers.size(); ++i)
        if (containers.at(i).toObject().value(QLatin1String("name")).toString() == name)
            return i;
    return -1;
}
} // namespace

PodTemplate WorkloadView::podTemplate() const { return PodTemplate::fromJson(at({"spec", "template"}).toObject()); }

void WorkloadView::setTemplate(const PodTemplate &t) { overlayAt(m_json, {"spec", "template"}, t.toJson()); }

void WorkloadView::replaceTemplate(const PodTemplate &t) { setAt({"spec", "template"}, t.toJson()); }

std::optional<Container> WorkloadView::container(const QString &name) const
{
    const QJsonArray cs = at({"spec", "template", "spec", "containers"}).toArray();
    const qsizetype i = indexOfContainer(cs, name);
    if (i < 0)
        return std::nullopt;
    return Container::fromJson(cs.at(i).toObject());
}

void WorkloadView::setContainer(const Container &c)
{
    QJsonArray cs = at({"spec", "template", "spec", "containers"}).toArray();
    const qsizetype i = indexOfContainer(cs, c.name);
    if (i < 0)
        cs.append(c.toJson());
    else
        cs.replace(i, overlayObject(cs.at(i).toObject(), c.toJson()));
    setAt({"spec", "template", "spec", "containers"}, cs);
}

bool WorkloadView::removeContainerField(const QString &container, const QString &field)
{
    QJsonArray cs = at({"spec", "template", "spec", "containers"}).toArray();
    const qsizetype i = indexOfContainer(cs, container);
    if (i < 0)
        return false;
    QJsonObject c = cs.at(i).toObject();
    if (!c.contains(field))
        return false;
    c.remove(field);
    cs.replace(i, c);
    setAt({"spec", "template", "spec", "containers"}, cs);
    return true;
}

} // namespace opbench
