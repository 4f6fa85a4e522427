// SPDX-License-Identifier: Apache-2.0
// Hosts the sample MyApplication operator in every UI suite linked with opbench_ui_myapp_host
// (tests/ui/CMakeLists.txt), as app/opbench_main.cpp does for the opbench executable.
#include "engine/operator/definition.h"
#include "ui/session/hostedoperator.h"

#include <QCoreApplication>

namespace {

void hostMyApplication() { opbench::ui::setHostedOperator(opbench::myapp::definition()); }

} // namespace

Q_COREAPP_STARTUP_FUNCTION(hostMyApplication)
