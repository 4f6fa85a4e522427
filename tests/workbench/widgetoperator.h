// SPDX-License-Identifier: Apache-2.0
#pragma once
// A small operator that is not MyApplication, for the suites that check the workbench follows
// the definition it is given (tests/workbench, tests/ui): the kind Widget (test.opbench.dev/v1)
// with a CRD whose spec has one field of each form type (integer with minimum/maximum, enum,
// string, boolean, list of strings) and no status.phase; two controllers — "widget" owns a
// ConfigMap per Widget and sets the Widget's Ready condition, "widget-auditor" only looks; one
// sample Widget.

#include "engine/api/condition.h"
#include "engine/api/status.h"
#include "engine/controller/builder.h"
#include "engine/controller/client.h"
#include "engine/controller/clientutil.h"
#include "engine/manager/manager.h"
#include "engine/sdk/operatordefinition.h"

#include <QJsonArray>

namespace opbench::testing::widget {

inline GroupVersionKind widgetGvk()
{
    return {QStringLiteral("test.opbench.dev"), QStringLiteral("v1"), QStringLiteral("Widget")};
}
inline GroupVersionKind configMapGvk() { return {QString(), QStringLiteral("v1"), QStringLiteral("ConfigMap")}; }

inline QByteArray crdYaml()
{
    return QByteArrayLiteral(R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.test.opbench.dev
spec:
  group: test.opbench.dev
  names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [size]
            properties:
              size: {type: integer, minimum: 1, maximum: 10, description: How many parts.}
              colour: {type: string, enum: [red, green, blue]}
              label: {type: string}
              shiny: {type: boolean, default: true}
              tags: {type: array, items: {type: string}}
          status:
            type: object
            properties:
              conditions:
                type: array
                items:
                  type: object
                  properties:
                    type: {type: string}
                    status: {type: string}
                    reason: {type: string}
                    message: {type: string}
                    lastTransitionTime: {type: string}
                    observedGeneration: {type: integer}
)");
}

inline Object widget(const QString &name, int size)
{
    return Object::fromJson(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("test.opbench.dev/v1")},
        {QStringLiteral("kind"), QStringLiteral("Widget")},
        {QStringLiteral("metadata"),
            QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), QStringLiteral("default")}}},
        {QStringLiteral("spec"), QJsonObject{{QStringLiteral("size"), size}}}});
}

/// The Widget's ConfigMap (owned), then its Ready condition.
inline QCoro::Task<ReconcileOutcome> reconcileWidget(Client *client, Request req)
{
    GroupVersionKind gvk = widgetGvk();
    QString ns = req.namespaceName;
    QString name = req.name;
    Expected<Object> w = co_await client->get(req.ctx, gvk, ns, name);
    if (!w)
        co_return isNotFound(w.error()) ? ReconcileOutcome(Result{}) : ReconcileOutcome(w.error());
    GroupVersionKind cmGvk = configMapGvk();
    Expected<Object> cm = co_await client->get(req.ctx, cmGvk, ns, name);
    if (!cm && !isNotFound(cm.error()))
        co_return cm.error();
    if (!cm) {
        const Object child = Object::fromJson(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
            {QStringLiteral("metadata"),
                QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), ns}}},
            {QStringLiteral("data"),
                QJsonObject{{QStringLiteral("size"),
                    QString::number(w->value({QLatin1String("spec"), QLatin1String("size")}).toInt())}}}});
        Expected<Object> owned = setControllerReference(*w, child);
        if (!owned)
            co_return owned.error();
        Object toCreate = *owned;
        Expected<Object> created = co_await client->create(req.ctx, std::move(toCreate));
        if (!created && !isAlreadyExists(created.error()))
            co_return created.error();
    }
    QJsonObject json = w->json();
    QJsonObject status = json.value(QLatin1String("status")).toObject();
    QJsonArray conditions = status.value(QLatin1String("conditions")).toArray();
    Condition ready;
    ready.type = QStringLiteral("Ready");
    ready.status = QStringLiteral("True");
    ready.reason = QStringLiteral("ConfigMapWritten");
    ready.message = QStringLiteral("the widget's ConfigMap exists");
    if (!setCondition(conditions, ready, QDateTime::currentDateTimeUtc()))
        co_return Result{};
    status.insert(QStringLiteral("conditions"), conditions);
    json.insert(QStringLiteral("status"), status);
    Object updated = Object::fromJson(json);
    Expected<Object> written = co_await client->updateStatus(req.ctx, std::move(updated));
    if (!written)
        co_return written.error();
    co_return Result{};
}

inline QCoro::Task<ReconcileOutcome> auditWidget(Request) { co_return Result{}; }

inline Expected<Controller *> setup(Manager *manager)
{
    Client *client = manager->client();
    Expected<Controller *> main
        = ControllerBuilder(manager->cache())
              .named(QStringLiteral("widget"))
              .forKind(widgetGvk())
              .owns(configMapGvk())
              .build(makeReconciler([client](Request r) { return reconcileWidget(client, std::move(r)); }), manager);
    if (!main)
        return main.error();
    manager->add(*main);
    Expected<Controller *> auditor = ControllerBuilder(manager->cache())
                                         .named(QStringLiteral("widget-auditor"))
                                         .forKind(widgetGvk())
                                         .build(makeReconciler(&auditWidget), manager);
    if (!auditor)
        return auditor.error();
    manager->add(*auditor);
    return main;
}

inline OperatorDefinition definition()
{
    OperatorDefinition def;
    def.name = QStringLiteral("widget");
    def.leaseName = QStringLiteral("widget-operator.test.opbench.dev");
    def.crds = {crdYaml()};
    def.kinds = {widgetGvk(), configMapGvk()};
    def.setup = &setup;
    def.samples = {widget(QStringLiteral("sample"), 2)};
    return def;
}

} // namespace opbench::testing::widget
