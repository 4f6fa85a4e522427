// SPDX-License-Identifier: Apache-2.0
#pragma once
// Preflight of the MyApplication operator: the generic check (engine/manager/preflight.h) with
// MyApplication's resources, and the exit code opbench-operator gives each outcome, with a
// message saying how to fix it.

#include "engine/manager/preflight.h"

#include <qcoro/qcorotask.h>

namespace opbench::myapp {

namespace ExitCode {
inline constexpr int Ok = 0;
inline constexpr int Failure = 1;        // runtime failure (leader election lost, start failed)
inline constexpr int Usage = 2;          // bad flags or configuration
inline constexpr int Unreachable = 3;    // no API server reachable
inline constexpr int Denied = 4;         // authentication or RBAC denied
inline constexpr int CrdMissing = 5;     // the MyApplication CRD is not installed
} // namespace ExitCode

/// What the operator needs: its CRD served, list on myapplications and deployments in the cache
/// scope `namespaceName` ("" = all), get on its Lease in `leaseNamespace` (empty: not checked).
PreflightSpec preflightSpec(const QString &namespaceName, const QString &leaseNamespace = {});
/// The exit code of `outcome` (Ok 0, Unreachable/Tls 3, Unauthorized/Forbidden 4,
/// ResourceMissing 5, anything else 1).
int exitCodeOf(PreflightResult::Outcome outcome);

} // namespace opbench::myapp
