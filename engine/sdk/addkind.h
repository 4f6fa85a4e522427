// SPDX-License-Identifier: Apache-2.0
#pragma once
// addKind<T>(def): adds the CRD of the operator's own kind `T`, generated from its C++ types
// (engine/api/typed/crdgen.h) — the one source of truth, never a hand-written YAML:
//
//     opbench::OperatorDefinition def("guestbook");
//     opbench::addKind<Guestbook>(def);

#include "engine/api/typed/crdgen.h"
#include "engine/sdk/operatordefinition.h"

namespace opbench {

template<GeneratedKind T> OperatorDefinition &addKind(OperatorDefinition &def)
{
    def.crds.append(crdYamlFor<T>());
    return def;
}

} // namespace opbench
