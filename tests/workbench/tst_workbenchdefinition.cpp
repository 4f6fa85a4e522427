// SPDX-License-Identifier: Apache-2.0
// The workbench engine follows the definition it is given, not the MyApplication sample: the
// create form comes from the For kind's CRD (fields, required, bounds, enums) or, when the schema
// has a field no editor expresses, from the definition's sample as YAML; the form's object is
// created through the engine and reconciled; every controller the definition's setup registered
// is listed and can be observed. Against the embedded API server over loopback (TestApiServer)
// with a small Widget operator (widgetoperator.h).
#include "engine/workbench/controllerobserver.h"
#include "engine/workbench/createform.h"
#include "engine/workbench/workbenchengine.h"
#include "tests/support/testapiserver.h"
#include "tests/workbench/headless.h"
#include "tests/workbench/widgetoperator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

using namespace opbench;
using namespace opbench::workbench;
namespace widget = opbench::testing::widget;

namespace {

OperatorDefinition gadgetDefinition()
{
    // spec.parts is a list of objects: no form field expresses it.
    OperatorDefinition def;
    def.name = QStringLiteral("gadget");
    def.crds = {QByteArrayLiteral(R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.test.opbench.dev}
spec:
  group: test.opbench.dev
  names: {kind: Gadget, plural: gadgets}
  scope: Cluster
  versions:
  - name: v1beta1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              parts: {type: array, items: {type: object, properties: {name: {type: string}}}}
)")};
    def.samples
        = {Object::fromJson(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("test.opbench.dev/v1beta1")},
            {QStringLiteral("kind"), QStringLiteral("Gadget")},
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("from-sample")}}},
            {QStringLiteral("spec"),
                QJsonObject{{QStringLiteral("parts"),
                    QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("cog")}}}}}}})};
    return def;
}

} // namespace

class tst_WorkbenchDefinition : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { testing::verifyNoGuiLibrariesLoaded(); }

    void shouldBuildTheCreateFormFromTheForKindsCrd()
    {
        auto form = createFormFor(widget::definition());
        QVERIFY2(form, qPrintable(form ? QString() : form.error().message()));
        QCOMPARE(form->gvk.toString(), widget::widgetGvk().toString());
        QVERIFY(form->namespaced);
        QVERIFY2(form->formExpressible, qPrintable(form->unsupportedReason));
        QStringList names;
        for (const FormField &f : form->fields)
            names << f.name;
        QCOMPARE(names, (QStringList{"size", "colour", "label", "shiny", "tags"})); // required first
        const FormField &size = form->fields.at(0);
        QCOMPARE(int(size.type), int(FormField::Type::Integer));
        QVERIFY(size.required);
        QCOMPARE(size.minimum.value_or(-1), 1.0);
        QCOMPARE(size.maximum.value_or(-1), 10.0);
        QCOMPARE(size.description, QStringLiteral("How many parts."));
        QCOMPARE(size.path(), QStringLiteral("spec.size"));
        QCOMPARE(int(form->fields.at(1).type), int(FormField::Type::Enum));
        QCOMPARE(form->fields.at(1).enumValues, (QStringList{"red", "green", "blue"}));
        QVERIFY(!form->fields.at(1).required);
        QCOMPARE(int(form->fields.at(2).type), int(FormField::Type::String));
        QCOMPARE(int(form->fields.at(3).type), int(FormField::Type::Boolean));
        QVERIFY(form->fields.at(3).defaultValue == QJsonValue(true));
        QCOMPARE(int(form->fields.at(4).type), int(FormField::Type::StringList));
        QVERIFY2(form->sampleYaml.contains("name: sample"), form->sampleYaml.constData());
        QVERIFY(form->sampleSpec == (QJsonObject{{QStringLiteral("size"), 2}})); // the form's starting values
    }

    void shouldBuildTheObjectTheFormDescribes()
    {
        auto form = createFormFor(widget::definition());
        QVERIFY(form);
        const Object o = form->objectFrom(QStringLiteral("w1"), QString(),
            QJsonObject{{QStringLiteral("size"), 3}, {QStringLiteral("colour"), QStringLiteral("green")},
                {QStringLiteral("label"), QStringLiteral(" ")}, {QStringLiteral("shiny"), QJsonValue()},
                {QStringLiteral("tags"), QStringLiteral("a, b,")}});
        QCOMPARE(o.gvk().toString(), widget::widgetGvk().toString());
        QCOMPARE(o.key(), QStringLiteral("default/w1"));
        const QJsonObject spec = o.json().value(QLatin1String("spec")).toObject();
        const QJsonObject expected{{QStringLiteral("size"), 3}, {QStringLiteral("colour"), QStringLiteral("green")},
            {QStringLiteral("tags"), QJsonArray{QStringLiteral("a"), QStringLiteral("b")}}};
        QVERIFY2(spec == expected, QJsonDocument(spec).toJson().constData());
    }

    void shouldOfferTheSampleAsYamlWhenTheFormCannotExpressTheSchema()
    {
        auto form = createFormFor(gadgetDefinition());
        QVERIFY(form);
        QCOMPARE(form->gvk.toString(), QStringLiteral("Gadget.v1beta1.test.opbench.dev"));
        QVERIFY(!form->namespaced);
        QVERIFY(!form->formExpressible);
        QVERIFY2(form->unsupportedReason.contains(QStringLiteral("spec.parts")), qPrintable(form->unsupportedReason));
        auto parsed = objectFromYaml(form->sampleYaml);
        QVERIFY2(parsed, qPrintable(parsed ? QString() : parsed.error().message()));
        QCOMPARE(parsed->name(), QStringLiteral("from-sample"));
        QCOMPARE(parsed->value({QLatin1String("spec"), QLatin1String("parts")}).toArray().size(), 1);
        QVERIFY(!objectFromYaml("a: 1\n---\nb: 2\n"));
        QVERIFY(!objectFromYaml("metadata: {name: x}\n"));
    }

    void shouldCreateTheFormsObjectAndShowEveryController()
    {
        testing::TestApiServer api;
        QVERIFY2(api.start(), qPrintable(api.errorString()));
        WorkbenchEngine engine(widget::definition());
        QSignalSpy connected(&engine, &WorkbenchEngine::connected);
        QSignalSpy failed(&engine, &WorkbenchEngine::failed);
        QSignalSpy controllers(&engine, &WorkbenchEngine::controllersChanged);
        QSignalSpy created(&engine, &WorkbenchEngine::created);
        QSignalSpy actionFailed(&engine, &WorkbenchEngine::actionFailed);
        QSignalSpy kinds(&engine, &WorkbenchEngine::kindsResolved);
        QList<ReconcileTrace> traces;
        connect(engine.controller(), &ControllerObserver::reconcilesFinished, this,
            [&traces](const QList<ReconcileTrace> &t) { traces += t; });
        engine.connectTo(api.kubeconfigPath(), QString(), true, HandOffOptions{});
        QTRY_VERIFY_WITH_TIMEOUT(!connected.isEmpty() || !failed.isEmpty(), 20000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));

        QCOMPARE(kinds.size(), 1);
        QCOMPARE(kinds.first().value(0).toStringList(), (QStringList{"test.opbench.dev/v1/Widget", "/v1/ConfigMap"}));
        // Every controller the setup registered, the one it returned observed first
        QCOMPARE(engine.controllerNames(), (QStringList{"widget", "widget-auditor"}));
        QCOMPARE(engine.currentController(), QStringLiteral("widget"));
        QVERIFY(!controllers.isEmpty());
        QCOMPARE(controllers.last().value(0).toStringList(), (QStringList{"widget", "widget-auditor"}));

        // The form's object is created through the engine and reconciled by the definition's controller
        auto form = createFormFor(widget::definition());
        QVERIFY(form);
        engine.createObject(
            form->objectFrom(QStringLiteral("from-form"), QString(), QJsonObject{{QStringLiteral("size"), 4}}));
        QTRY_VERIFY_WITH_TIMEOUT(!created.isEmpty(), 10000);
        QCOMPARE(created.first().value(0).toString(), QStringLiteral("default/from-form"));
        const auto wroteStatus = [&traces](const QString &key) {
            for (const ReconcileTrace &t : traces)
                for (const TraceCall &c : t.calls)
                    if (t.request.toString() == key && c.verb == u"updateStatus" && c.ok())
                        return true;
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(wroteStatus(QStringLiteral("default/from-form")), 20000);

        // The second controller can be observed instead
        engine.selectController(QStringLiteral("widget-auditor"));
        QCOMPARE(engine.currentController(), QStringLiteral("widget-auditor"));
        QCOMPARE(controllers.last().value(1).toString(), QStringLiteral("widget-auditor"));
        traces.clear();
        engine.createObject(widget::widget(QStringLiteral("audited"), 1));
        QTRY_VERIFY_WITH_TIMEOUT(
            std::any_of(traces.begin(), traces.end(),
                [](const ReconcileTrace &t) { return t.request.toString() == u"default/audited"; }),
            20000);
        QVERIFY2(!wroteStatus(QStringLiteral("default/audited")), "the auditor's traces, not the widget controller's");
        engine.selectController(QStringLiteral("nope"));
        QCOMPARE(actionFailed.size(), 1);
        QCOMPARE(engine.currentController(), QStringLiteral("widget-auditor"));

        QSignalSpy stopped(&engine, &WorkbenchEngine::stopped);
        engine.shutdown();
        QTRY_VERIFY_WITH_TIMEOUT(!stopped.isEmpty(), 10000);
    }
};

QTEST_GUILESS_MAIN(tst_WorkbenchDefinition)
#include "tst_workbenchdefinition.moc"
