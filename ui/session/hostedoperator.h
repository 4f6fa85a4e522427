// SPDX-License-Identifier: Apache-2.0
#pragma once
// The operator this workbench process hosts: one per process, set once by runWorkbench() before
// the first window opens (an empty definition until then: the workbench knows no operator of its
// own; opbench's main passes the MyApplication sample's). Sessions, the Connect dialog's check and
// its "install CRD" button, the Children panel's root kind and create form, the tour all read it.

#include "engine/sdk/operatordefinition.h"

namespace opbench::ui {

void setHostedOperator(OperatorDefinition def);
const OperatorDefinition &hostedOperator();

} // namespace opbench::ui
