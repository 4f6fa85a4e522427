// SPDX-License-Identifier: Apache-2.0
#include "tests/recording/recordingoperator.h"

#include "engine/api/deployment.h"
#include "engine/controller/builder.h"
#include "engine/controller/predicates.h"
#include "engine/manager/manager.h"
#include "engine/operator/definition.h"
#include "engine/operator/myapplication.h"
#include "engine/operator/reconciler.h"

namespace opbench::recordingtest {

TestReconciler::TestReconciler(bool changed)
    : m_inner(std::make_shared<myapp::MyApplicationReconciler>())
    , m_changed(changed)
{ }

QCoro::Task<ReconcileOutcome> TestReconciler::reconcile(Request req)
{
    const bool app2 = req.name == QLatin1String("app-2");
    if (app2 && m_changed)
        co_return Result{};
    if (!m_injected) {
        m_inner->inject(&client(), recorder());
        m_injected = true;
    }
    ReconcileOutcome outcome = co_await m_inner->reconcile(std::move(req));
    if (app2 && outcome.ok() && outcome.result().isZero()) {
        Result again;
        again.requeueAfter = std::chrono::seconds(30);
        co_return ReconcileOutcome(again);
    }
    co_return outcome;
}

OperatorDefinition definitionWith(std::function<std::shared_ptr<Reconciler>()> reconciler)
{
    OperatorDefinition def = myapp::definition();
    def.setup = [reconciler = std::move(reconciler)](Manager *m) -> Expected<void> {
        return ControllerBuilder(m)
            .forKind<myapp::MyApplication>({predicates::generationChanged()})
            .owns<Deployment>()
            .complete(reconciler());
    };
    return def;
}

OperatorDefinition definition(bool changed)
{
    return definitionWith([changed] { return std::make_shared<TestReconciler>(changed); });
}

} // namespace opbench::recordingtest
