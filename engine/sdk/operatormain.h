// SPDX-License-Identifier: Apache-2.0
#pragma once
// runOperator(): a whole headless operator main in one call, with the flags of the kubebuilder
// scaffold so manifests and habits carry over:
//
//   int main(int argc, char **argv) { return opbench::runOperator(argc, argv, guestbook::definition()); }
//
// Flags: --kubeconfig, --context (else KUBECONFIG, in-cluster, ~/.kube/config), --namespace (cache
// scope; default all), --max-concurrent-reconciles (ManagerOptions::maxConcurrentReconciles, the
// default of controllers that take the manager's), --leader-elect, --leader-election-id (default: the definition's
// leaseName),
// --leader-election-namespace, --identity, --metrics-bind-address (default "0": off),
// --health-probe-bind-address (default ":8081"), --zap-log-level, --zap-encoder (json|console),
// --trace-file PATH (every reconcile trace as a JSON line), --record PATH and --record-max-bytes N
// (record the run for a replay), --replay PATH (re-execute a recording headless; recordingflags.h),
// --webhook-port (default 9443) and --webhook-cert-dir (the webhook server's tls.crt/tls.key, when
// webhooks are registered), --embedded (an in-process API server with the definition's CRDs and
// samples, for a demo without a cluster).
//
// Before the manager starts: a preflight (reachable, authorized, CRD installed) whose failure
// exits with its own code and a message saying what to do. SIGTERM/SIGINT stop gracefully.

#include "engine/sdk/operatordefinition.h"

namespace opbench {

namespace ExitCodes {
inline constexpr int Ok = 0;
inline constexpr int Failure = 1;     ///< runtime failure (leader election lost, start failed)
inline constexpr int Usage = 2;       ///< bad flags or configuration
inline constexpr int Unreachable = 3; ///< no API server reachable, or TLS not trusted
inline constexpr int Denied = 4;      ///< authentication or RBAC denied
inline constexpr int CrdMissing = 5;  ///< the operator's CRD is not installed
} // namespace ExitCodes

/// The exit code of a preflight outcome (Ok 0, Unreachable/Tls 3, Unauthorized/Forbidden 4,
/// ResourceMissing 5, anything else 1).
int exitCodeOf(PreflightResult::Outcome outcome);

/// Runs the operator `def` until it is stopped; returns the process exit code. Creates the
/// QCoreApplication itself (call it from main, with no application object yet).
int runOperator(int argc, char **argv, OperatorDefinition def);

} // namespace opbench
