// SPDX-License-Identifier: Apache-2.0
// OperatorFixture (engine/testing/operatorfixture.h) with a tiny operator written the SDK 0.3
// way: a typed reconciler for Widget (test.opbench.io/v1) that adds a finalizer, owns a
// ConfigMap through createOrUpdate + setControllerReference, sets a Ready condition, writes
// status and records an event; set up in one step with ControllerBuilder(manager)…complete().
// Also: the definition's defaults (lease name, kinds from the watches), eventually()'s failure
// message, a failing setup, and a 0.2-style setup returning the controller.
#include "tests/controller/testkinds.h"

#include "engine/controller/builder.h"
#include "engine/controller/clientutil.h"
#include "engine/manager/eventrecorder.h"
#include "engine/manager/manager.h"
#include "engine/testing/operatorfixture.h"

#include <QTest>

using namespace opbench;
using namespace opbench::test;
using namespace std::chrono_literals;
using testing::OperatorFixture;

namespace {

const QString kFinalizer = QStringLiteral("test.opbench.io/cleanup");

class WidgetReconciler final : public Reconciler
{
public:
    QCoro::Task<ReconcileOutcome> reconcile(Request req) override
    {
        Expected<Widget> w = co_await client().get<Widget>(req);
        if (!w)
            co_return ignoreNotFound(w.error());
        if (w->isBeingDeleted()) {
            if (w->removeFinalizer(kFinalizer))
                if (auto u = co_await client().update(req.ctx, *w); !u)
                    co_return requeueOnConflict(u.error());
            co_return Result{};
        }
        if (w->addFinalizer(kFinalizer))
            if (auto u = co_await client().update(req.ctx, *w); !u)
                co_return requeueOnConflict(u.error());
        auto cm = co_await client().createOrUpdate(
            req.ctx, TestConfigMap(w->namespaceName(), w->name()), [&](TestConfigMap &c) {
                c.setValue(QStringLiteral("color"), w->color());
                return setControllerReference(*w, c);
            });
        if (!cm)
            co_return requeueOnConflict(cm.error());
        Condition ready;
        ready.type = QStringLiteral("Ready");
        ready.status = QStringLiteral("True");
        ready.reason = QStringLiteral("Synced");
        ready.observedGeneration = w->generation();
        bool changed = w->setStatusCondition(ready);
        if (w->phase() != QLatin1String("Ready")) {
            w->setPhase(QStringLiteral("Ready"));
            changed = true;
        }
        if (!changed)
            co_return Result{};
        if (auto s = co_await client().updateStatus(req.ctx, *w); !s)
            co_return requeueOnConflict(s.error());
        recorder().normal(*w, QStringLiteral("Ready"), QStringLiteral("widget is ready"));
        co_return Result{};
    }
};

Expected<void> setupWidgets(Manager *manager)
{
    return ControllerBuilder(manager).forKind<Widget>().owns<TestConfigMap>().complete(
        std::make_shared<WidgetReconciler>());
}

OperatorDefinition widgetDefinition()
{
    OperatorDefinition def(QStringLiteral("widgets"));
    def.crds = {widgetCrd()};
    def.setup = setupWidgets;
    return def;
}

} // namespace

class tst_OperatorFixture : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runsTheOperatorEndToEnd()
    {
        OperatorFixture env(widgetDefinition());
        QVERIFY2(env.ok(), qPrintable(env.errorString()));
        QCOMPARE(env.definition().leaseName, QStringLiteral("widgets-operator"));
        QCOMPARE(env.definition().kinds, (QList<GroupVersionKind>{gvkOf<Widget>(), gvkOf<TestConfigMap>()}));
        QCOMPARE(env.manager()->controllers().size(), 1);

        Widget w(QStringLiteral("default"), QStringLiteral("w1"));
        w.setColor(QStringLiteral("red"));
        QVERIFY(env.create(w));
        Widget other(QStringLiteral("default"), QStringLiteral("w2"));
        QVERIFY(env.create(other));
        QVERIFY(env.eventually(
            [&] {
                const Expected<TestConfigMap> cm = env.get<TestConfigMap>(ObjectKey::of(w));
                return cm.ok() && cm->value(QStringLiteral("color")) == QLatin1String("red");
            },
            QStringLiteral("the widget's ConfigMap")));
        const Expected<TestConfigMap> cm = env.get<TestConfigMap>(ObjectKey::of(w));
        QCOMPARE(cm->ownerReferences().value(0).uid, w.uid());
        QVERIFY(cm->ownerReferences().value(0).controller);
        QVERIFY(env.eventually(
            [&] {
                const Expected<Widget> got = env.get<Widget>(ObjectKey::of(w));
                return got.ok() && got->isStatusConditionTrue(QStringLiteral("Ready")) && got->hasFinalizer(kFinalizer);
            },
            QStringLiteral("the widget to be Ready with its finalizer")));
        QVERIFY(env.eventually([&] { return !env.events(w).isEmpty(); }, QStringLiteral("the widget's Ready event")));
        const QList<Event> events = env.events(w);
        QCOMPARE(events.first().reason(), QStringLiteral("Ready"));
        QCOMPARE(events.first().type(), QStringLiteral("Normal"));
        for (const Event &e : events)
            QCOMPARE(e.involvedObject().name, QStringLiteral("w1")); // only events about w1

        Expected<Widget> fresh = env.get<Widget>(ObjectKey::of(w));
        QVERIFY(fresh.ok());
        fresh->setColor(QStringLiteral("blue"));
        QVERIFY(env.update(*fresh));
        QVERIFY(env.eventually(
            [&] {
                const Expected<TestConfigMap> c = env.get<TestConfigMap>(ObjectKey::of(w));
                return c.ok() && c->value(QStringLiteral("color")) == QLatin1String("blue");
            },
            QStringLiteral("the ConfigMap to follow the new color")));

        QVERIFY(env.remove(w));
        QVERIFY(env.eventually(
            [&] {
                const Expected<Widget> got = env.get<Widget>(ObjectKey::of(w));
                return !got.ok() && isNotFound(got.error());
            },
            QStringLiteral("the finalizer to be removed and the widget gone")));
    }

    void eventuallyNamesWhatItWaitedFor()
    {
        OperatorFixture env(widgetDefinition());
        QVERIFY2(env.ok(), qPrintable(env.errorString()));
        QVERIFY(env.eventually([] { return true; }, QStringLiteral("nothing")));
        QVERIFY(!env.eventually([] { return false; }, QStringLiteral("a miracle"), 50ms));
        QVERIFY2(env.lastFailure().startsWith(QLatin1String("timed out after")), qPrintable(env.lastFailure()));
        QVERIFY2(env.lastFailure().endsWith(QLatin1String("waiting for a miracle")), qPrintable(env.lastFailure()));
    }

    void reportsAFailingSetup()
    {
        OperatorDefinition def = widgetDefinition();
        def.setup = [](Manager *) -> Expected<void> { return Status::badRequest(QStringLiteral("no widgets today")); };
        OperatorFixture env(std::move(def));
        QVERIFY(!env.ok());
        QVERIFY2(env.errorString().contains(QLatin1String("no widgets today")), qPrintable(env.errorString()));
    }

    // 0.2 setups (Expected<Controller *>) still work, and their kinds are kept as given.
    void keepsTheControllerReturningSetup()
    {
        OperatorDefinition def = widgetDefinition();
        def.kinds = {gvkOf<Widget>()};
        def.setup = [](Manager *m) -> Expected<Controller *> {
            auto reconciler = std::make_shared<WidgetReconciler>();
            reconciler->inject(m->client(), m->eventRecorder(QStringLiteral("widget-controller"))->recorder());
            Expected<Controller *> c = ControllerBuilder(m->cache()).forKind<Widget>().build(reconciler, m);
            if (c)
                m->add(*c);
            return c;
        };
        OperatorFixture env(std::move(def));
        QVERIFY2(env.ok(), qPrintable(env.errorString()));
        QCOMPARE(env.definition().kinds, QList<GroupVersionKind>{gvkOf<Widget>()});
        Widget w(QStringLiteral("default"), QStringLiteral("w3"));
        QVERIFY(env.create(w));
        QVERIFY(env.eventually([&] { return env.get<TestConfigMap>(ObjectKey::of(w)).ok(); },
            QStringLiteral("the ConfigMap of a 0.2-style setup")));
    }
};

QTEST_GUILESS_MAIN(tst_OperatorFixture)
#include "tst_operatorfixture.moc"
