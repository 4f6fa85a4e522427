// SPDX-License-Identifier: Apache-2.0
#pragma once
// ConfigMap (core/v1): a typed view over `data`.

#include "engine/api/kind.h"
#include "engine/api/objectview.h"

namespace opbench {

class ConfigMap : public ObjectView
{
public:
    /// v1 ConfigMap, "configmaps", namespaced.
    static const KindInfo &kindInfo();

    /// A new, empty v1 ConfigMap.
    ConfigMap()
        : ObjectView(QStringLiteral("v1"), QStringLiteral("ConfigMap"))
    { }
    /// A new v1 ConfigMap `name` in `namespaceName`.
    ConfigMap(const QString &namespaceName, const QString &name);
    explicit ConfigMap(const Object &object)
        : ObjectView(object)
    { }

    QMap<QString, QString> data() const { return toStringMap(at({"data"}).toObject()); }
    /// Replaces all data; an empty map removes the field.
    void setData(const QMap<QString, QString> &data)
    {
        setAt({"data"}, data.isEmpty() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(fromStringMap(data)));
    }
    QString value(const QString &key) const { return at({"data"}).toObject().value(key).toString(); }
    bool contains(const QString &key) const { return at({"data"}).toObject().contains(key); }
    void setValue(const QString &key, const QString &value);
    void remove(const QString &key);
};

} // namespace opbench
