// SPDX-License-Identifier: Apache-2.0
#pragma once
// Kinds for the SDK 0.3 tests, independent of the built-in views' own kind support:
// TestConfigMap (core/v1 ConfigMap) and Widget (test.opbench.io/v1, a CRD with a status
// subresource), each a Kind (engine/api/kind.h).

#include "engine/api/kind.h"
#include "engine/api/objectview.h"

#include <QJsonObject>

namespace opbench::test {

class TestConfigMap : public ObjectView
{
public:
    static const KindInfo &kindInfo()
    {
        static const KindInfo info(GroupVersionKind(QString(), QStringLiteral("v1"), QStringLiteral("ConfigMap")),
            QStringLiteral("configmaps"));
        return info;
    }
    explicit TestConfigMap(const Object &o)
        : ObjectView(o)
    { }
    TestConfigMap(const QString &ns, const QString &name)
        : ObjectView(QStringLiteral("v1"), QStringLiteral("ConfigMap"))
    {
        meta().setNamespace(ns);
        meta().setName(name);
    }
    [[nodiscard]] QString value(const QString &key) const { return at({"data"}).toObject().value(key).toString(); }
    void setValue(const QString &key, const QString &value)
    {
        QJsonObject data = at({"data"}).toObject();
        data.insert(key, value);
        setAt({"data"}, data);
    }
};

class Widget : public ObjectView
{
public:
    static const KindInfo &kindInfo()
    {
        static const KindInfo info(
            GroupVersionKind(QStringLiteral("test.opbench.io"), QStringLiteral("v1"), QStringLiteral("Widget")),
            QStringLiteral("widgets"));
        return info;
    }
    explicit Widget(const Object &o)
        : ObjectView(o)
    { }
    Widget(const QString &ns, const QString &name)
        : ObjectView(QStringLiteral("test.opbench.io/v1"), QStringLiteral("Widget"))
    {
        meta().setNamespace(ns);
        meta().setName(name);
    }
    [[nodiscard]] QString color() const { return stringAt({"spec", "color"}); }
    void setColor(const QString &c) { setAt({"spec", "color"}, c); }
    [[nodiscard]] QString phase() const { return stringAt({"status", "phase"}); }
    void setPhase(const QString &p) { setAt({"status", "phase"}, p); }
};

/// The Widget CRD (namespaced, status subresource, any spec and status).
inline QByteArray widgetCrd()
{
    return QByteArrayLiteral(R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.test.opbench.io
spec:
  group: test.opbench.io
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
          status: {type: object, x-kubernetes-preserve-unknown-fields: true}
)");
}

} // namespace opbench::test
