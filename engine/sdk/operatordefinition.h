// SPDX-License-Identifier: Apache-2.0
#pragma once
// OperatorDefinition: everything opbench needs to run an operator — headless (runOperator,
// engine/sdk) or in the desktop workbench (runWorkbench, ui/workbenchmain.h) — in one value:
//
//   OperatorDefinition def;
//   def.name = "guestbook";
//   def.leaseName = "guestbook-operator.example.org";
//   def.crds = {crdYaml};                              // kinds mapped, installed when embedded
//   def.kinds = {guestbookGvk, configMapGvk, serviceGvk}; // For kind first, then what it owns
//   def.setup = [](Manager *m) { return setupGuestbookController(m); };
//   def.samples = loadObjects("config/samples").value(); // created on an embedded cluster

#include "engine/api/expected.h"
#include "engine/api/gvk.h"
#include "engine/api/object.h"
#include "engine/sdk/preflight.h"

#include <QByteArrayList>
#include <QList>
#include <QString>

#include <qcoro/qcorotask.h>

#include <functional>

namespace opbench {

class Controller;
class Manager;
class RestClient;
class RestMapper;

struct OperatorDefinition
{
    /// The operator's name, for messages and the default lease ("<name>-operator").
    QString name;
    /// Leader-election id (the Lease's name), shared by every replica and the workbench.
    QString leaseName;
    /// The operator's CustomResourceDefinitions (YAML). Their kinds are registered in the
    /// manager's REST mapper before setup; an embedded cluster gets them installed at start.
    QByteArrayList crds;
    /// The kinds the operator reads: its For kind first, then the kinds it owns or watches.
    /// Preflight lists each; the workbench's Cache panel shows them in this order.
    QList<GroupVersionKind> kinds;
    /// Registers the controllers on the manager (after the CRDs' kinds are mapped); returns the
    /// one the workbench observes.
    std::function<Expected<Controller *>(Manager *)> setup;
    /// Objects created on an embedded cluster at start ("already exists" is fine).
    QList<Object> samples;
    /// The file name of the headless build (runOperator) next to the workbench executable, for
    /// "Hand off to headless". Empty: "<name>-operator".
    QString headlessProgram;
};

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
