// SPDX-License-Identifier: Apache-2.0
#pragma once
// Job (batch/v1): the typed pod template (restartPolicy "Never" or "OnFailure"), backoffLimit,
// completions, parallelism, and the status counts. The server makes a Job's template immutable
// and adds its own labels to it (controller-uid, job-name), so Job::setTemplate merges the
// template labels instead of replacing them: re-applying the same template never writes.

#include "engine/api/builtin/workloadview.h"
#include "engine/api/kind.h"

namespace opbench {

class Job : public WorkloadView
{
public:
    /// batch/v1 Job, "jobs", namespaced.
    static const KindInfo &kindInfo();

    /// A new, empty batch/v1 Job.
    Job();
    /// A new batch/v1 Job `name` in `namespaceName`.
    Job(const QString &namespaceName, const QString &name);
    explicit Job(const Object &object)
        : WorkloadView(object)
    { }

    /// Overlays `t` onto spec.template; the labels merge (labels already there are kept).
    void setTemplate(const PodTemplate &t);

    /// spec.backoffLimit; 6 when absent (the API server's default).
    int backoffLimit() const { return int(intAt({"spec", "backoffLimit"}, 6)); }
    void setBackoffLimit(int n) { setAt({"spec", "backoffLimit"}, n); }
    /// spec.completions; 1 when absent.
    int completions() const { return int(intAt({"spec", "completions"}, 1)); }
    void setCompletions(int n) { setAt({"spec", "completions"}, n); }
    /// spec.parallelism; 1 when absent.
    int parallelism() const { return int(intAt({"spec", "parallelism"}, 1)); }
    void setParallelism(int n) { setAt({"spec", "parallelism"}, n); }
    /// spec.ttlSecondsAfterFinished; -1 when absent (kept forever).
    int ttlSecondsAfterFinished() const { return int(intAt({"spec", "ttlSecondsAfterFinished"}, -1)); }
    void setTtlSecondsAfterFinished(int s) { setAt({"spec", "ttlSecondsAfterFinished"}, s); }

    // status (0 when absent)
    int active() const { return int(intAt({"status", "active"})); }
    int succeeded() const { return int(intAt({"status", "succeeded"})); }
    int failed() const { return int(intAt({"status", "failed"})); }
    /// The condition "Complete" is True.
    bool isComplete() const { return hasTrueCondition(QStringLiteral("Complete")); }
    /// The condition "Failed" is True.
    bool isFailed() const { return hasTrueCondition(QStringLiteral("Failed")); }

private:
    bool hasTrueCondition(const QString &type) const;
};

} // namespace opbench
