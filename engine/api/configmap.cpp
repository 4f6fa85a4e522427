// SPDX-License-Identifier: Apache-2.0
#include "engine/api/configmap.h"

namespace opbench {

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
