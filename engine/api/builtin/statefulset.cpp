// SPDX-License-Identifier: Apache-2.0
#include "engine/api/builtin/statefulset.h"

namespace opbench {

const KindInfo &StatefulSet::kindInfo()
{
    static const KindInfo info(
        GroupVersionKind(QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("StatefulSet")),
        QStringLiteral("statefulsets"));
    return info;
}

StatefulSet::StatefulSet()
    : WorkloadView(kindInfo().apiVersion(), kindInfo().gvk.kind)
{ }

StatefulSet::StatefulSet(const QString &namespaceName, const QString &name)
    : StatefulSet()
{
    meta().setNamespace(namespaceName);
    meta().setName(name);
}

void StatefulSet::setSelector(const Labels &matchLabels)
{
    setAt({"spec", "selector"}, QJsonObject{{QStringLiteral("matchLabels"), fromStringMap(matchLabels)}});
}

} // namespace opbench
