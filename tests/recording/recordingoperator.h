// SPDX-License-Identifier: Apache-2.0
#pragma once
// The operator the recording tests record and replay: MyApplication's, asking to be run again in
// 30 s after app-2's successful reconciles (a requeueAfter in the recording). definition(true) has
// one change made on purpose: it does nothing for app-2 (a replay then diverges).

#include "engine/controller/reconciler.h"
#include "engine/sdk/operatordefinition.h"

#include <functional>
#include <memory>

namespace opbench::myapp {
class MyApplicationReconciler;
}

namespace opbench::recordingtest {

class TestReconciler : public Reconciler
{
public:
    explicit TestReconciler(bool changed);
    QCoro::Task<ReconcileOutcome> reconcile(Request req) override;

private:
    std::shared_ptr<myapp::MyApplicationReconciler> m_inner;
    bool m_changed;
    bool m_injected = false;
};

/// MyApplication's definition with `reconciler` (made for each setup) as its controller's.
OperatorDefinition definitionWith(std::function<std::shared_ptr<Reconciler>()> reconciler);
/// MyApplication's definition with a TestReconciler.
OperatorDefinition definition(bool changed);

} // namespace opbench::recordingtest
