// SPDX-License-Identifier: Apache-2.0
#pragma once
// OperatorDefinition: everything opbench needs to run an operator — headless (runOperator,
// engine/sdk) or in the desktop workbench (runWorkbench, ui/workbenchmain.h) — in one value:
//
//   OperatorDefinition def("guestbook");               // lease "guestbook-operator"
//   def.crds = {crdYaml};                              // kinds mapped, installed when embedded
//   def.setup = setup;                                 // Expected<void> setup(Manager *)
//   def.samples = loadObjects("config/samples").value(); // created on an embedded cluster
//
//   def.webhooks = setupWebhooks;                      // WebhookBuilder(m)…complete(), optional
//
// `kinds` may be left empty: runSetup() fills it from the controllers' watches (For kind first).

#include "engine/api/expected.h"
#include "engine/api/gvk.h"
#include "engine/api/object.h"
#include "engine/sdk/preflight.h"

#include <QByteArrayList>
#include <QList>
#include <QString>

#include <qcoro/qcorotask.h>

#include <functional>
#include <type_traits>

namespace opbench {

class Controller;
class Manager;
class RestClient;
class RestMapper;

/// OperatorDefinition::setup: registers the controllers on the manager. Either form converts:
///   Expected<void> setup(Manager *)          (SDK 0.3: ControllerBuilder(m)…complete(r))
///   Expected<Controller *> setup(Manager *)  (0.2: returns the controller the workbench observes)
class OperatorSetup
{
public:
    using Fn = std::function<Expected<void>(Manager *)>;
    using ControllerFn = std::function<Expected<Controller *>(Manager *)>;

    OperatorSetup() = default;
    template<class F>
    requires(!std::is_same_v<std::decay_t<F>, OperatorSetup>)
        && std::is_invocable_v<F &, Manager *> OperatorSetup(
            F f) // NOLINT(google-explicit-constructor): def.setup = setup;
    {
        using R = std::invoke_result_t<F &, Manager *>;
        if constexpr (std::is_same_v<R, Expected<Controller *>>)
            m_controllerFn = std::move(f);
        else
            m_fn = std::move(f);
    }

    explicit operator bool() const { return bool(m_fn) || bool(m_controllerFn); }
    /// Runs the setup; returns the controller the workbench observes: the one a 0.2 setup
    /// returns, else the first controller the setup added to the manager (an error when none).
    Expected<Controller *> operator()(Manager *manager) const;

private:
    Fn m_fn;
    ControllerFn m_controllerFn;
};

struct OperatorDefinition
{
    OperatorDefinition() = default;
    /// `operatorName`, with the lease "<name>-operator".
    explicit OperatorDefinition(QString operatorName);

    /// The operator's name, for messages and the default lease ("<name>-operator").
    QString name;
    /// Leader-election id (the Lease's name), shared by every replica and the workbench.
    QString leaseName;
    /// The operator's CustomResourceDefinitions (YAML). Their kinds are registered in the
    /// manager's REST mapper before setup; an embedded cluster gets them installed at start.
    QByteArrayList crds;
    /// The kinds the operator reads: its For kind first, then the kinds it owns or watches.
    /// Preflight lists each; the workbench's Cache panel shows them in this order. Left empty,
    /// runSetup() derives it from the controllers' watches.
    QList<GroupVersionKind> kinds;
    /// Registers the controllers on the manager (after the CRDs' kinds are mapped).
    OperatorSetup setup;
    /// Registers the operator's webhooks (WebhookBuilder(manager)…complete(), as setup registers
    /// controllers), run by runWebhookSetup() where they are served: on an embedded cluster
    /// (--embedded, the workbench, OperatorFixture), which registers them with the API server on
    /// its own, and on a real cluster when the webhook certificate is there (localwebhooks.h).
    std::function<Expected<void>(Manager *)> webhooks;
    /// Objects created on an embedded cluster at start ("already exists" is fine).
    QList<Object> samples;
    /// The file name of the headless build (runOperator) next to the workbench executable, for
    /// "Hand off to headless". Empty: "<name>-operator".
    QString headlessProgram;
};

/// Runs def.setup on `manager` and, when def.kinds is empty, fills it with the kinds the manager's
/// controllers watch (each controller's For kind first, each kind once). Returns the controller
/// the workbench observes (see OperatorSetup). Errors: no setup; the setup's error.
Expected<Controller *> runSetup(OperatorDefinition &def, Manager *manager);

/// Runs def.webhooks on `manager` (nothing when it is empty); errors name the operator.
Expected<void> runWebhookSetup(const OperatorDefinition &def, Manager *manager);

/// Adds the mappings of every CRD in `crds` to `mapper`. Errors name the CRD and the field.
Expected<void> registerCrds(RestMapper &mapper, const QByteArrayList &crds);
/// Creates every CRD document of `crds` through `client` ("already exists" is fine). Stops at the
/// first document that does not parse or that the server refuses (the Status says why).
QCoro::Task<Expected<void>> installCrds(RestClient *client, QByteArrayList crds);
/// The preflight of `def` for a cache scope ("" = all namespaces) and a Lease namespace ("" = no
/// lease check): its For kind served, list on every kind, get on the Lease. `mapper` knows the kinds.
Expected<PreflightSpec> preflightSpecFor(const OperatorDefinition &def, const RestMapper &mapper,
    const QString &namespaceName, const QString &leaseNamespace);
/// Every object in the YAML/JSON files of `dir` (sorted by name; "" or a missing folder: none).
/// Errors name the file.
Expected<QList<Object>> loadObjects(const QString &dir);

} // namespace opbench
