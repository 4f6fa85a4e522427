// SPDX-License-Identifier: Apache-2.0
#pragma once
// The in-tree tests' name for the SDK's test fixture (engine/testing/testapiserver.h), which
// operator projects use the same way.
#include "engine/testing/testapiserver.h"
