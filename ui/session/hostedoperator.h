// SPDX-License-Identifier: Apache-2.0
#pragma once
// The operator this workbench process hosts: one per process, set once by runWorkbench() before
// the first window opens (the sample MyApplication operator when nobody set one). Sessions, the
// Connect dialog's check and its "install CRD" button, the Children panel's root kind all read it.

#include "engine/sdk/operatordefinition.h"

namespace opbench::ui {

void setHostedOperator(OperatorDefinition def);
const OperatorDefinition &hostedOperator();

} // namespace opbench::ui
