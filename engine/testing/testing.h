// SPDX-License-Identifier: Apache-2.0
#pragma once
// The front door for an operator's tests (installed as <opbench/testing.h>; link opbench::testing):
// OperatorFixture (a running embedded API server with the definition installed and its
// controllers running, typed live reads, eventually(), events()), TestApiServer and FakeClock.

#include "engine/testing/fakeclock.h"
#include "engine/testing/operatorfixture.h"
#include "engine/testing/testapiserver.h"
