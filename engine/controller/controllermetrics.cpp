// SPDX-License-Identifier: Apache-2.0
#include "engine/controller/controllermetrics.h"

namespace opbench {

std::vector<double> ControllerMetrics::reconcileTimeBuckets()
{
    return {0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25,
        1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 15.0, 20.0, 25.0, 30.0, 40.0, 50.0,
        60.0};
}

ControllerMetrics::ControllerMetrics(MetricsRegistry *registry, const QString &controller)
{
    const QStringList c{QStringLiteral("controller")};
    auto *total = registry->counter(QStringLiteral("controller_runtime_reconcile_total"),
        QStringLiteral("Total number of reconciliations per controller"),
        {QStringLiteral("controller"), QStringLiteral("result")});
    success = total->labels({controller, QStringLiteral("success")});
    error = total->labels({controller, QStringLiteral("error")});
    requeue = total->labels({controller, QStringLiteral("requeue")});
    requeueAfter = total->labels({controller, QStringLiteral("requeue_after")});
    errors = registry
                 ->counter(QStringLiteral("controller_runtime_reconcile_errors_total"),
                     QStringLiteral("Total number of reconciliation errors per controller"), c)
                 ->labels({controller});
    terminalErrors = registry
                         ->counter(QStringLiteral("controller_runtime_terminal_reconcile_errors_total"),
                             QStringLiteral("Total number of terminal reconciliation errors per controller"), c)
                         ->labels({controller});
    panics = registry
                 ->counter(QStringLiteral("controller_runtime_reconcile_panics_total"),
                     QStringLiteral("Total number of reconciliation panics per controller"), c)
                 ->labels({controller});
    timeouts = registry
                   ->counter(QStringLiteral("controller_runtime_reconcile_timeouts_total"),
                       QStringLiteral("Total number of reconciliation timeouts per controller"), c)
                   ->labels({controller});
    reconcileTime
        = registry
              ->histogram(QStringLiteral("controller_runtime_reconcile_time_seconds"),
                  QStringLiteral("Length of time per reconciliation per controller"), c, reconcileTimeBuckets())
              ->labels({controller});
    maxConcurrent = registry
                        ->gauge(QStringLiteral("controller_runtime_max_concurrent_reconciles"),
                            QStringLiteral("Maximum number of concurrent reconciles per controller"), c)
                        ->labels({controller});
    activeWorkers = registry
                        ->gauge(QStringLiteral("controller_runtime_active_workers"),
                            QStringLiteral("Number of currently used workers per controller"), c)
                        ->labels({controller});
}

} // namespace opbench
