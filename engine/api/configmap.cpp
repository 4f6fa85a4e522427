// SPDX-License-Identifier: Apache-2.0
#include "engine/api/configmap.h"

namespace opbench {

const KindInfo &ConfigMap::kindInfo()
{
    static const KindInfo info(
        GroupVersionKind(QString(), QStringLiteral("v1"), QStringLiteral("ConfigMap")), QStringLiteral("configmaps"));
    return info;
}

ConfigMap::ConfigMap(const QString &namespaceName, const QString &name)
    : ConfigMap()
{
    meta().setNamespace(namespaceName);
    meta().setName(name);
}

void ConfigMap::setValue(const QString &key, const QString &value)
{
    QJsonObject d = at({"data"}).toObject();
    d.insert(key, value);
    setAt({"data"}, d);
}

void ConfigMap::remove(const QString &key)
{
    QJsonObject d = at({"data"}).toObject();
    d.remove(key);
    setAt({"data"}, d.isEmpty() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(d));
}

} // namespace opbench
