// SPDX-License-Identifier: Apache-2.0
#include "ui/session/hostedoperator.h"

#include "engine/operator/definition.h"

#include <optional>

namespace opbench::ui {

namespace {

std::optional<OperatorDefinition> &slot()
{
    static std::optional<OperatorDefinition> def;
    return def;
}

} // namespace

void setHostedOperator(OperatorDefinition def) { slot() = std::move(def); }

const OperatorDefinition &hostedOperator()
{
    if (!slot())
        slot() = myapp::definition();
    return *slot();
}

} // namespace opbench::ui
