// SPDX-License-Identifier: Apache-2.0
#pragma once
// Preflight checks of opbench-operator: is the API server reachable, are we allowed in, is the
// MyApplication CRD installed. Each failure has its own exit code and a message saying how to fix it.

#include "engine/client/restclient.h"

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

struct PreflightResult
{
    int exitCode = ExitCode::Ok;
    QString message; // empty when ok
};

/// Checks /version, the example.com/v1alpha1 discovery document and a list of myapplications
/// (in `namespaceName`, or all namespaces).
QCoro::Task<PreflightResult> preflight(RestClient *client, QString namespaceName);

} // namespace opbench::myapp
