// SPDX-License-Identifier: Apache-2.0
// memcached-operator: headless, with the kubebuilder flags (`--help`).
#include "memcached_controller.h"

int main(int argc, char **argv) { return opbench::runOperator(argc, argv, memcached::definition()); }
