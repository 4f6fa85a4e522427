// SPDX-License-Identifier: Apache-2.0
#pragma once
// In-cluster configuration: what a pod gets from its service account.
//
// Server: https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT (a missing variable is an
// error naming it). Token, ca.crt and namespace come from
// /var/run/secrets/kubernetes.io/serviceaccount/, or from $OPBENCH_SERVICEACCOUNT_DIR when set
// (tests, and the GUI's leadership hand-off). The token file is re-read every `tokenPeriod`
// on `clock` (client-go: 1 minute), so a rotated token is picked up.

#include "engine/client/restconfig.h"

#include <chrono>

namespace opbench {

/// The service-account folder in use (OPBENCH_SERVICEACCOUNT_DIR or the standard path).
QString serviceAccountDir();

/// Errors (code 0, reason ConfigError) name the missing variable or unreadable file.
Expected<RestConfig> loadInClusterConfig(
    Clock *clock = nullptr, std::chrono::seconds tokenPeriod = std::chrono::seconds(60));

} // namespace opbench
