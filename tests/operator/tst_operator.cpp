// SPDX-License-Identifier: Apache-2.0
// The MyApplication operator in-process (Manager + controller) against the embedded API server
// over real HTTP.
#include "engine/api/deployment.h"
#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"
#include "engine/controller/controller.h"
#include "engine/manager/manager.h"
#include "engine/operator/myapplication.h"
#include "engine/operator/reconciler.h"
#include "engine/operator/setup.h"
#include "tests/support/testapiserver.h"

#include <QJsonDocument>
#include <QTest>

#include <qcoro/qcorotask.h>

using namespace opbench;
using namespace opbench::myapp;

namespace {
const GroupVersionResource kApps{
    QStringLiteral("example.com"), QStringLiteral("v1alpha1"), QStringLiteral("myapplications")};
const GroupVersionResource kDeployments{QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("deployments")};
const QString kNs = QStringLiteral("default");
} // namespace

class TestOperator : public QObject
{
    Q_OBJECT

private:
    Object get(const GroupVersionResource &gvr, const QString &name)
    {
        Expected<Object> r = QCoro::waitFor(m_rest->get(gvr, kNs, name));
        return r ? r.value() : Object();
    }
    void createApp(const QString &name, const QString &image, int replicas)
    {
        MyApplication app;
        app.meta().setName(name);
        app.meta().setNamespace(kNs);
        app.setImage(image);
        app.setReplicas(replicas);
        Expected<Object> r = QCoro::waitFor(m_rest->create(kApps, kNs, app.toObject()));
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().toString()));
    }
    /// The patched object (null, with the test failed, when the patch was refused).
    Object mergePatch(const GroupVersionResource &gvr, const QString &name, const QByteArray &body)
    {
        Expected<Object> r = QCoro::waitFor(m_rest->patch(gvr, kNs, name, PatchType::Merge, body));
        [&] { QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().toString())); }();
        return r ? r.value() : Object();
    }
    QString phaseOf(const QString &name) { return MyApplication(get(kApps, name)).phase(); }
    /// Whether `name`'s status describes its current spec and says Running.
    bool converged(const QString &name)
    {
        const Object app = get(kApps, name);
        const MyApplication view(app);
        return !app.isNull() && view.phase() == Phase::Running && view.observedGeneration() == app.generation()
            && view.availableReplicas() == view.replicas();
    }
    /// Creates `name` unless an earlier slot did, and waits until it converged: every slot that
    /// uses an app of shouldConvergeAppsToRunningDeployments can run alone.
    [[nodiscard]] bool ensureConverged(const QString &name, const QString &image, int replicas)
    {
        if (get(kApps, name).isNull()) {
            createApp(name, image, replicas);
            if (QTest::currentTestFailed())
                return false;
        }
        return QTest::qWaitFor([&] { return converged(name); }, 30000);
    }
    /// The first reconcile of `name` finished after the first `seen` traces, or null.
    const ReconcileTrace *reconciledSince(qsizetype seen, const QString &name) const
    {
        for (qsizetype i = seen; i < m_traces.size(); ++i)
            if (m_traces.at(i).request.name == name)
                return &m_traces.at(i);
        return nullptr;
    }

    testing::TestApiServer m_api;
    std::unique_ptr<RestClient> m_rest;
    std::unique_ptr<Manager> m_mgr;
    QList<ReconcileTrace> m_traces;

    /// The first trace of `name` that holds a call with `verb` on `kind`, or null.
    const ReconcileTrace *traceWith(const QString &name, const QString &verb, const QString &kind) const
    {
        for (const ReconcileTrace &t : m_traces) {
            if (t.request.name != name)
                continue;
            for (const TraceCall &c : t.calls)
                if (c.verb == verb && c.gvk.kind == kind)
                    return &t;
        }
        return nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_api.start(), qPrintable(m_api.errorString()));
        Expected<RestConfig> cfg = loadConfig(m_api.kubeconfigPath());
        QVERIFY2(cfg.ok(), cfg.ok() ? "" : qPrintable(cfg.error().message()));
        m_rest = std::make_unique<RestClient>(cfg.value());
        ManagerOptions mo;
        mo.restConfig = cfg.value();
        mo.healthProbeBindAddress = QStringLiteral("127.0.0.1:0");
        auto mgr = Manager::create(mo);
        QVERIFY(mgr.ok());
        m_mgr = std::move(mgr.value());
        auto ctrl = setupWithManager(m_mgr.get(), {2});
        QVERIFY2(ctrl.ok(), ctrl.ok() ? "" : qPrintable(ctrl.error().message()));
        connect(ctrl.value(), &Controller::reconcileFinished, this,
            [this](const ReconcileTrace &t) { m_traces.append(t); });
        Expected<void> started = QCoro::waitFor(m_mgr->start());
        QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().message()));
    }

    void cleanupTestCase()
    {
        if (m_mgr) {
            bool done = false;
            connect(m_mgr.get(), &Manager::finished, this, [&] { done = true; });
            m_mgr->stop();
            QTRY_VERIFY_WITH_TIMEOUT(done, 10000);
        }
    }

    void shouldConvergeAppsToRunningDeployments()
    {
        for (int i = 0; i < 5; ++i)
            if (get(kApps, QStringLiteral("app-%1").arg(i)).isNull())
                createApp(QStringLiteral("app-%1").arg(i), QStringLiteral("nginx:1.%1").arg(i), 1 + i % 3);
        for (int i = 0; i < 5; ++i) {
            const QString name = QStringLiteral("app-%1").arg(i);
            QTRY_COMPARE_WITH_TIMEOUT(phaseOf(name), Phase::Running, 20000);
            const Object app = get(kApps, name);
            const Deployment d(get(kDeployments, name));
            QCOMPARE(d.replicas(), 1 + i % 3);
            QCOMPARE(d.containers().value(0).name, QStringLiteral("app"));
            QCOMPARE(d.containers().value(0).image, QStringLiteral("nginx:1.%1").arg(i));
            QCOMPARE(d.labels().value(QStringLiteral("app.kubernetes.io/managed-by")), QStringLiteral("opbench"));
            QCOMPARE(d.labels().value(QStringLiteral("app.kubernetes.io/instance")), name);
            QCOMPARE(d.ownerReferences().size(), 1);
            QCOMPARE(d.ownerReferences().first().uid, app.uid());
            QVERIFY(d.ownerReferences().first().controller);
            const MyApplication view(app);
            QCOMPARE(view.availableReplicas(), 1 + i % 3);
            QCOMPARE(view.observedGeneration(), app.generation());
            QVERIFY(view.condition(QStringLiteral("Ready")).has_value());
            QCOMPARE(view.condition(QStringLiteral("Ready"))->status, QStringLiteral("True"));
        }
    }

    void shouldTraceDeploymentCreateAndStatusWriteOfFreshApp()
    {
        const QString name = QStringLiteral("traced");
        createApp(name, QStringLiteral("nginx:1.25"), 2);
        QTRY_VERIFY_WITH_TIMEOUT(
            traceWith(name, QStringLiteral("create"), QStringLiteral("Deployment")) != nullptr, 20000);
        const ReconcileTrace *t = traceWith(name, QStringLiteral("create"), QStringLiteral("Deployment"));
        const QString key = kNs + QLatin1Char('/') + name;
        const TraceCall *create = nullptr;
        const TraceCall *status = nullptr;
        for (const TraceCall &c : t->calls) {
            if (c.verb == QLatin1String("create"))
                create = &c;
            if (c.verb == QLatin1String("updateStatus"))
                status = &c;
        }
        QVERIFY(create);
        QCOMPARE(create->gvk.group, QStringLiteral("apps"));
        QCOMPARE(create->key, key);
        QVERIFY(!create->fromCache);
        QCOMPARE(create->code, 201);
        bool replicasInDiff = false;
        for (const DiffEntry &e : create->diff())
            replicasInDiff
                = replicasInDiff || (e.path == QLatin1String("spec.replicas") && e.newValue == QJsonValue(2));
        QVERIFY2(replicasInDiff, "the create's diff shows spec.replicas 2");
        QVERIFY2(status, "the same reconcile writes the first status");
        QCOMPARE(status->gvk.kind, QStringLiteral("MyApplication"));
        QCOMPARE(status->key, key);
        QVERIFY(!status->fromCache);
        QCOMPARE(status->code, 200);
        QVERIFY(!status->diff().isEmpty());
        QCOMPARE(t->result, ReconcileTrace::Result::Success);
        QTRY_COMPARE_WITH_TIMEOUT(phaseOf(name), Phase::Running, 20000);
    }

    void shouldStopWritingStatusOnceConverged()
    {
        // Given app-1 converged (its status says Running for its current spec)
        const QString name = QStringLiteral("app-1");
        QVERIFY(ensureConverged(name, QStringLiteral("nginx:1.1"), 2));
        const Object app = get(kApps, name);
        QVERIFY(!app.isNull());
        // When an event on its Deployment makes the operator reconcile it again
        const qsizetype seen = m_traces.size();
        const Object poked = mergePatch(kDeployments, name, R"({"metadata":{"annotations":{"converged":"poke"}}})");
        QVERIFY(!poked.isNull());
        // Then that reconcile ran (the positive signal) and wrote neither the status nor the
        // Deployment: both objects are at the resourceVersion they had before it.
        QTRY_VERIFY_WITH_TIMEOUT(reconciledSince(seen, name) != nullptr, 10000);
        for (const TraceCall &c : reconciledSince(seen, name)->calls)
            QVERIFY2(c.verb == QLatin1String("get") || c.verb == QLatin1String("list"),
                qPrintable(c.verb + u' ' + c.gvk.kind));
        QCOMPARE(get(kApps, name).resourceVersion(), app.resourceVersion());
        QCOMPARE(get(kDeployments, name).resourceVersion(), poked.resourceVersion());
    }

    void shouldReconcileInSyncAppWithoutWrites()
    {
        // The server defaults the Deployment (strategy, pull policy, ...); createOrUpdate must
        // still find it in sync: a reconcile of a converged app reads and writes nothing.
        const QString name = QStringLiteral("app-1");
        QVERIFY(ensureConverged(name, QStringLiteral("nginx:1.1"), 2));
        const Object deployment = get(kDeployments, name);
        QCOMPARE(deployment.value({QLatin1String("spec"), QLatin1String("strategy"), QLatin1String("type")}).toString(),
            QStringLiteral("RollingUpdate"));
        for (int round = 0; round < 3; ++round) {
            const qsizetype seen = m_traces.size();
            const QString annotation = QStringLiteral(R"({"metadata":{"annotations":{"poke":"%1"}}})").arg(round);
            // An event on the owned Deployment enqueues the app (the app's own metadata-only
            // changes are filtered by the generationChanged predicate).
            QVERIFY(!mergePatch(kDeployments, name, annotation.toUtf8()).isNull());
            QTRY_VERIFY_WITH_TIMEOUT(reconciledSince(seen, name) != nullptr, 10000);
            QStringList writes;
            for (const TraceCall &c : reconciledSince(seen, name)->calls)
                if (c.verb != QLatin1String("get") && c.verb != QLatin1String("list"))
                    writes << c.verb + u' ' + c.gvk.kind;
            QVERIFY2(writes.isEmpty(), qPrintable(writes.join(QLatin1String(", "))));
        }
        const Object after = get(kDeployments, name);
        QCOMPARE(after.generation(), deployment.generation());
        QCOMPARE(after.value({QLatin1String("spec")}), deployment.value({QLatin1String("spec")}));
        // The slow path too: repairing a drifted field sets fields on the server's object and
        // keeps its defaults, so the repaired object is exactly what the server holds.
        Deployment drifted(after);
        drifted.setReplicas(99);
        drifted.setImage(QStringLiteral("app"), QStringLiteral("nginx:0.0"));
        const MyApplication app(get(kApps, name));
        QVERIFY(!MyApplicationReconciler::deploymentInSync(app, drifted));
        QVERIFY(MyApplicationReconciler::desiredDeployment(app, drifted).ok());
        QVERIFY(MyApplicationReconciler::deploymentInSync(app, drifted));
        QCOMPARE(QJsonDocument(drifted.json()).toJson(), QJsonDocument(after.json()).toJson());
    }

    void shouldPropagateSpecChangeKeepingOthersFields()
    {
        QVERIFY(ensureConverged(QStringLiteral("app-0"), QStringLiteral("nginx:1.0"), 1));
        // Someone else annotates the Deployment; the operator must keep it.
        mergePatch(kDeployments, QStringLiteral("app-0"), R"({"metadata":{"annotations":{"team":"blue"}}})");
        mergePatch(kApps, QStringLiteral("app-0"), R"({"spec":{"replicas":3,"image":"nginx:2.0"}})");
        QTRY_COMPARE_WITH_TIMEOUT(Deployment(get(kDeployments, QStringLiteral("app-0"))).replicas(), 3, 10000);
        const Deployment d(get(kDeployments, QStringLiteral("app-0")));
        QCOMPARE(d.containers().value(0).image, QStringLiteral("nginx:2.0"));
        QCOMPARE(d.annotations().value(QStringLiteral("team")), QStringLiteral("blue"));
        QTRY_COMPARE_WITH_TIMEOUT(MyApplication(get(kApps, QStringLiteral("app-0"))).availableReplicas(), 3, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(phaseOf(QStringLiteral("app-0")), Phase::Running, 20000);
    }

    void shouldRecreateDeletedDeployment()
    {
        QVERIFY(ensureConverged(QStringLiteral("app-2"), QStringLiteral("nginx:1.2"), 3));
        const QString oldUid = get(kDeployments, QStringLiteral("app-2")).uid();
        QVERIFY(!oldUid.isEmpty());
        Expected<DeleteResult> r = QCoro::waitFor(m_rest->remove(kDeployments, kNs, QStringLiteral("app-2")));
        QVERIFY(r.ok());
        QTRY_VERIFY_WITH_TIMEOUT(!get(kDeployments, QStringLiteral("app-2")).isNull()
                && get(kDeployments, QStringLiteral("app-2")).uid() != oldUid,
            10000);
        QTRY_COMPARE_WITH_TIMEOUT(phaseOf(QStringLiteral("app-2")), Phase::Running, 20000);
    }

    void shouldReportFailedForImageThatNeverBecomesReady()
    {
        createApp(QStringLiteral("broken"), QStringLiteral("registry.example.com/does-not-exist/app:1.0"), 1);
        QTRY_VERIFY_WITH_TIMEOUT(!get(kDeployments, QStringLiteral("broken")).isNull(), 10000);
        QCOMPARE(phaseOf(QStringLiteral("broken")), Phase::Pending);
        // A short progress deadline set by someone else (kept by the operator) makes it fail fast.
        mergePatch(kDeployments, QStringLiteral("broken"), R"({"spec":{"progressDeadlineSeconds":1}})");
        QTRY_COMPARE_WITH_TIMEOUT(phaseOf(QStringLiteral("broken")), Phase::Failed, 30000);
        const auto ready = MyApplication(get(kApps, QStringLiteral("broken"))).condition(QStringLiteral("Ready"));
        QVERIFY(ready.has_value());
        QCOMPARE(ready->reason, QStringLiteral("ProgressDeadlineExceeded"));
        QCOMPARE(Deployment(get(kDeployments, QStringLiteral("broken"))).progressDeadlineSeconds(), 1);
    }

    void shouldRecordCreatedEvents()
    {
        QVERIFY(ensureConverged(QStringLiteral("app-3"), QStringLiteral("nginx:1.3"), 1));
        const auto createdEventFound = [this] {
            Expected<Object::List> events
                = QCoro::waitFor(m_rest->list({QString(), QStringLiteral("v1"), QStringLiteral("events")}, kNs));
            bool found = false;
            for (const Object &e : events ? events->items : QList<Object>())
                found = found
                    || (e.value({QLatin1String("reason")}).toString() == QLatin1String("Created")
                        && e.value({QLatin1String("involvedObject"), QLatin1String("name")}).toString()
                            == QLatin1String("app-3"));
            return found;
        };
        // The recorder sends events in the background (client-go's broadcaster).
        QTRY_VERIFY_WITH_TIMEOUT(createdEventFound(), 10000);
    }
};

QTEST_GUILESS_MAIN(TestOperator)
#include "tst_operator.moc"
