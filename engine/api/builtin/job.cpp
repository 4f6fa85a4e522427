// SPDX-License-Identifier: Apache-2.0
#include "engine/api/builtin/job.h"

#include "engine/api/builtin/overlay.h"

#include <QJsonArray>

namespace opbench {

const KindInfo &Job::kindInfo()
{
    static const KindInfo info(
        GroupVersionKind(QStringLiteral("batch"), QStringLiteral("v1"), QStringLiteral("Job")), QStringLiteral("jobs"));
    return info;
}

Job::Job()
    : WorkloadView(kindInfo().apiVersion(), kindInfo().gvk.kind)
{ }

Job::Job(const QString &namespaceName, const QString &name)
    : Job()
{
    meta().setNamespace(namespaceName);
    meta().setName(name);
}

void Job::setTemplate(const PodTemplate &t)
{
    PodTemplate merged = t;
    if (!t.labels.isEmpty()) {
        merged.labels = podTemplate().labels;
        merged.labels.insert(t.labels);
    }
    WorkloadView::setTemplate(merged);
}

bool Job::hasTrueCondition(const QString &type) const
{
    for (const auto &v : at({"status", "conditions"}).toArray()) {
        const QJsonObject c = v.toObject();
        if (c.value(QLatin1String("type")).toString() == type)
            return c.value(QLatin1String("status")).toString() == QLatin1String("True");
    }
    return false;
}

} // namespace opbench
