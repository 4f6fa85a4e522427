// SPDX-License-Identifier: Apache-2.0
#pragma once
// FaultHarness: Sieve/Acto-style fault testing of any operator (an OperatorDefinition) against
// an embedded API server on loopback (TestApiServer), with a differential oracle.
//
//   testing::FaultHarness h(myapp::definition());          // seed: $OPBENCH_FAULT_SEED or printed default
//   testing::Workload w = {testing::Step::create(app1), testing::Step::create(app2)};
//   testing::RunReport ref = h.reference(w);              // fault-free: end state + audit counts
//   for (int i = 1; i <= ref.operatorWrites; ++i) {          // intermediate states
//       testing::RunReport r = h.crashAfterWrite(w, i);
//       QVERIFY2(r.ok, qPrintable(r.failure));               // names the seed and the command
//   }
//
// Every run starts a fresh server and a fresh Manager (the definition's setup, no leader
// election) on the calling thread's event loop, applies the workload, waits until the operator
// is quiescent (queue drained, no reconcile in flight, every cached kind equal to the server's)
// and records the end state: every object of the definition's kinds (uids, resourceVersions,
// timestamps, managedFields and generated name suffixes masked) plus per-object create and
// delete counts from the server's audit log. Faulty runs are compared with the reference run of
// the same workload; a difference fails with both states shown.
//
// All randomness (fault draws, mutation values) comes from one seed. Blocking calls: they spin
// a nested event loop (fine in Qt Test functions). Controller names are unique per process:
// destroy any other Manager running the same operator before a harness run.

#include "engine/api/object.h"
#include "engine/sdk/operatordefinition.h"

#include <QJsonObject>
#include <QMap>
#include <QStringList>

#include <chrono>
#include <functional>
#include <memory>

namespace opbench::testing {

/// One change the workload makes (through the API server, as a user would).
struct Step
{
    enum class Action { Create, MergePatch, Delete };
    Action action = Action::Create;
    /// Create: the object. MergePatch / Delete: apiVersion, kind, namespace and name of the target.
    Object object;
    QByteArray patch; ///< MergePatch body
    /// Wait until the operator is quiescent after this step (before the next one).
    bool settle = false;

    static Step create(const Object &object, bool settle = false);
    static Step mergePatch(const Object &target, const QByteArray &patch, bool settle = false);
    static Step remove(const Object &target, bool settle = false);
    QString describe() const;
};
using Workload = QList<Step>;

/// What a run ended with, masked for comparison.
struct EndState
{
    /// "Kind namespace/name" → the masked object (compact JSON).
    QMap<QString, QByteArray> objects;
    /// "resource namespace/name" → successful creates / deletes (the audit log).
    QMap<QString, int> creates;
    QMap<QString, int> deletes;
    /// HTTP status code → requests on the definition's kinds (and non-resource paths) answered
    /// with it (the audit log; shows the injected faults did fire). Not compared.
    QMap<int, int> codes;
    [[nodiscard]] QString toText() const;
};

/// Empty when `actual` equals `expected`; otherwise a readable diff (each differing object and
/// count with both values) followed by both states in full.
QString compareEndStates(const EndState &expected, const EndState &actual);

struct RunReport
{
    bool ok = false;
    /// Why the run failed: the difference or the timeout, the seed and the command to repeat it.
    QString failure;
    EndState end;
    /// The operator's writes the server accepted, in order ("create Deployment default/a 201").
    QStringList writes;
    int operatorWrites = 0;  ///< accepted writes (2xx)
    int conflicts = 0;       ///< writes answered 409 Conflict (stale reads the server caught)
    int transportErrors = 0; ///< writes that got no complete answer (connection reset)
    /// Faults that fired, by kind ("error", "throttle", "reset", "expire-continue",
    /// "expire-watches", "restart"): a fault run where nothing fired proves nothing.
    QMap<QString, int> injected;
    int unconditionalWrites = 0; ///< accepted updates/deletes sent without a resourceVersion while the cache was stale
    int reconciles = 0;
};

struct StabilityReport
{
    bool ok = false;
    QString failure;
    int reconcilesToConverge = 0; ///< reconciles from the first step until quiescent
    int writesToConverge = 0;
    int reconcilesAfter = 0; ///< reconciles of the extra round (every For object queued once)
    int writesAfter = 0;     ///< writes the extra round made (must be 0)
};

struct MutationReport
{
    bool ok = false;
    QString failure;
    /// One line per mutation tried: "valid spec.replicas=2: converged, reverted" …
    QStringList log;
    int valid = 0;
    int invalid = 0;
};

struct HarnessOptions
{
    /// How long a run may take to become quiescent.
    std::chrono::milliseconds convergeTimeout{30000};
    /// How long the quiescent condition must hold (the workload simulator's timers fire in
    /// between; conditions are re-checked, nothing is asserted about time).
    std::chrono::milliseconds settle{300};
    /// 0: $OPBENCH_FAULT_SEED, else a default (printed when the harness is built).
    quint32 seed = 0;
    /// Printed with every failure after "OPBENCH_FAULT_SEED=<seed>" (e.g. "ctest -R tst_fault_crash").
    QString reproduceCommand;
    /// Objects of these namespaces are left out of end states ("" = none).
    QStringList ignoredNamespaces{QStringLiteral("opbench-fault-padding")};
    /// Extra masking of each recorded object (after the built-in one).
    std::function<void(QJsonObject &)> mask;
    /// A directory: every run's operator is recorded there (engine/recording, one file per
    /// operator start); a failing run keeps its recordings and its failure names them (replay one
    /// with `<operator> --replay PATH`), a passing run's are deleted when the next run starts or
    /// the harness goes. Empty (the default): nothing is recorded.
    QString recordingDir;
};

class FaultHarness
{
public:
    explicit FaultHarness(OperatorDefinition definition, HarnessOptions options = {});
    ~FaultHarness();
    FaultHarness(const FaultHarness &) = delete;
    FaultHarness &operator=(const FaultHarness &) = delete;

    [[nodiscard]] quint32 seed() const { return m_seed; }
    [[nodiscard]] const HarnessOptions &options() const { return m_options; }

    /// The fault-free run (cached per workload description: later modes compare with it).
    RunReport reference(const Workload &workload);

    /// Intermediate state: the operator "crashes" right after its `writeIndex`-th accepted write
    /// (1-based; later writes never reach the server, its Manager with cache and queue is dropped),
    /// a fresh Manager starts, and the end state must equal the reference.
    RunReport crashAfterWrite(const Workload &workload, int writeIndex);

    /// Stale state: after `setup` converged, the cached kinds in `heldKinds` (empty: all) stop
    /// receiving events while `changes` are applied and the operator reconciles on the stale
    /// cache; then the cache catches up. The operator must converge to the reference of
    /// setup + changes, with the same create/delete counts (a live object deleted or recreated
    /// on stale data shows up there) and no unconditional write on stale data.
    RunReport staleCache(const Workload &setup, const Workload &changes, const QList<GroupVersionKind> &heldKinds = {});

    /// Unobserved state: after `setup` converged, every watch event of the kinds in `kinds`
    /// (empty: all) produced by `dropped` is lost; then `after` is applied (normally). The end
    /// state must equal the reference of setup + dropped + after.
    RunReport unobserved(const Workload &setup, const Workload &dropped, const Workload &after,
        const QList<GroupVersionKind> &kinds = {});

    /// API faults: `faults` (FaultSpec syntax, e.g. "error:rate=0.2,code=503",
    /// "throttle:rate=0.2,retry-after=1", "latency:ms=20", "reset:rate=0.1",
    /// "expire-continue:rate=0.5") are active from the operator's start until it is quiescent;
    /// with `expireWatches`, the server forgets its watch history and drops every watch after
    /// each step (410 on the resume); with `restartServer`, the server is restarted from its
    /// state file after each step; `paddingCount` copies of `paddingTemplate` (named pad-N) in a
    /// namespace of their own, created before the operator starts, make its first list of that
    /// kind paginated (500 per page) so that continue tokens are used (and can expire).
    struct ApiFaults
    {
        QStringList faults;
        bool expireWatches = false;
        bool restartServer = false;
        int paddingCount = 0;
        Object paddingTemplate;
    };
    RunReport apiFaults(const Workload &workload, const ApiFaults &faults);

    /// Stability: after the workload converged, every object of the For kind is queued once
    /// more; those reconciles must write nothing and queue nothing new (no hot loop), and the
    /// convergence itself must take at most `maxReconcilesPerStep` reconciles per workload step.
    StabilityReport stability(const Workload &workload, int maxReconcilesPerStep = 10);

    /// Acto-style spec mutations of `target` (an object of the For kind created by `workload`),
    /// generated from the CRD's openAPIV3Schema: for each spec property, valid changes must
    /// converge and reverting them must restore every object `target` controls; invalid values
    /// (0, negative, too large, wrong type, missing required, empty string) must be refused with
    /// 422 Invalid and change nothing. Labels are changed too.
    MutationReport specMutations(const Workload &workload, const Object &target);

private:
    class Session;         // one run's server, operator and counters (faultsession_p.h)
    class SpecMutationRun; // the mutations of one target and their checks (specmutations.cpp)
    QString failureText(const QString &what) const;

    /// Deletes the current run's recordings unless a failure named them; starts a new run.
    void forgetRecordings() const;

    OperatorDefinition m_def;
    HarnessOptions m_options;
    quint32 m_seed = 0;
    QMap<QString, RunReport> m_references;
    mutable QStringList m_runRecordings; // this run's (HarnessOptions::recordingDir)
    mutable bool m_keepRecordings = false;
    mutable int m_recordingCount = 0;
};

} // namespace opbench::testing
