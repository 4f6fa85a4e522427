// SPDX-License-Identifier: Apache-2.0
#pragma once
// The per-controller metrics of controller-runtime (names, labels and buckets as it defines
// them), resolved once per controller.

#include "engine/base/metrics.h"

namespace opbench {

struct ControllerMetrics
{
    /// Registers the families (if needed) in `registry` and creates this controller's children at 0.
    ControllerMetrics(MetricsRegistry *registry, const QString &controller);

    Counter *success;      ///< controller_runtime_reconcile_total{result="success"}
    Counter *error;        ///< …{result="error"}
    Counter *requeue;      ///< …{result="requeue"}
    Counter *requeueAfter; ///< …{result="requeue_after"}
    Counter *errors;       ///< controller_runtime_reconcile_errors_total
    Counter *terminalErrors;
    Counter *panics;
    Counter *timeouts;
    Histogram *reconcileTime; ///< controller_runtime_reconcile_time_seconds
    Gauge *maxConcurrent;
    Gauge *activeWorkers;

    /// The 40 buckets of controller_runtime_reconcile_time_seconds.
    static std::vector<double> reconcileTimeBuckets();
};

} // namespace opbench
