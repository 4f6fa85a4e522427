// SPDX-License-Identifier: Apache-2.0
#pragma once
// The MyApplication operator as one OperatorDefinition: its CRD (compiled in), its kinds
// (MyApplication, then what it owns and what the workbench shows below it: Deployment,
// ReplicaSet, Pod), its controller setup, the five sample apps and its lease. opbench-operator is
// runOperator(definition()); the desktop workbench is runWorkbench(definition()).

#include "engine/sdk/operatordefinition.h"

namespace opbench::myapp {

/// The CRD YAML (resources/crds/myapplications.example.com.yaml, compiled in).
QByteArray crdYaml();
OperatorDefinition definition();

} // namespace opbench::myapp
