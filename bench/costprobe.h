// SPDX-License-Identifier: Apache-2.0
#pragma once
// Cost probes for the CI cost guard (bench/cost-guard.sh): figures that do not depend on the
// machine's speed or load. CostProbe brackets one workload:
//   - under callgrind (valgrind --tool=callgrind --instr-atstart=no), instrumentation runs only
//     between begin and end, and end dumps a profile named after the workload (instructions of
//     every thread, and the calls to malloc/calloc/realloc in it);
//   - natively, end() measures the workload's minor page faults (getrusage, whole process) and how
//     far it raised the peak RSS, and appends them as one JSON line to $OPBENCH_COST_OUT.
// Without valgrind's headers at build time the callgrind part compiles to nothing.

#include <QString>

namespace opbench::bench {

class CostProbe
{
public:
    /// Starts measuring `name` ("list", "queue", "reconcile").
    explicit CostProbe(QString name);
    /// Stops measuring and reports (see above). Called once; the destructor does not report.
    void end();

private:
    QString m_name;
    long m_faults = 0;
    qint64 m_rssBytes = 0;
    bool m_ended = false;
};

/// True when this process runs under valgrind.
bool underValgrind();

} // namespace opbench::bench
