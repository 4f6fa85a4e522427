// SPDX-License-Identifier: Apache-2.0
// guestbook-operator: headless, with the kubebuilder flags (`--help`).
#include "operator.h"

#include <opbench/opbench.h>

int main(int argc, char **argv) { return opbench::runOperator(argc, argv, guestbook::definition()); }
