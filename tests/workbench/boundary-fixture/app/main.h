// SPDX-License-Identifier: Apache-2.0
// Allowed: app/ passes the sample operator's definition (check_workbench_boundary.cmake).
#include "engine/operator/definition.h"
