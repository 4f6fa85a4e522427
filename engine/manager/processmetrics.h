// SPDX-License-Identifier: Apache-2.0
#pragma once
// Process collectors (what the Prometheus Go client's process collector exports), read from
// /proc on each scrape: process_cpu_seconds_total, process_resident_memory_bytes,
// process_virtual_memory_bytes, process_open_fds, process_max_fds, process_start_time_seconds.

namespace opbench {

class MetricsRegistry;

/// Registers the process families and their collector once per registry (idempotent).
void registerProcessMetrics(MetricsRegistry &registry);

} // namespace opbench
