// SPDX-License-Identifier: Apache-2.0
#include "ui/session/hostedoperator.h"

namespace opbench::ui {

namespace {

OperatorDefinition &slot()
{
    static OperatorDefinition def;
    return def;
}

} // namespace

void setHostedOperator(OperatorDefinition def) { slot() = std::move(def); }

const OperatorDefinition &hostedOperator() { return slot(); }

} // namespace opbench::ui
