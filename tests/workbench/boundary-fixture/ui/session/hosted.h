// SPDX-License-Identifier: Apache-2.0
// Breaks rule 8 of cmake/CheckBoundaries.cmake on purpose (check_workbench_boundary.cmake).
#include "engine/operator/definition.h"
