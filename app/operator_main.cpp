// SPDX-License-Identifier: Apache-2.0
// opbench-operator: the MyApplication operator, headless (in-cluster or with a kubeconfig). The
// whole main is the SDK's runOperator(); flags follow the kubebuilder scaffold (`--help`).
#include "engine/operator/definition.h"
#include "engine/sdk/operatormain.h"

int main(int argc, char **argv) { return opbench::runOperator(argc, argv, opbench::myapp::definition()); }
