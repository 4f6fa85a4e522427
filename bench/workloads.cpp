// SPDX-License-Identifier: Apache-2.0
// opbench-bench workloads [--deployments N] [--replicas R]: the embedded cluster's workload
// simulator and garbage collector under load, on a Store with a FakeClock (no HTTP, no sleeps).
//
// Creates N Deployments of R replicas, steps the fake clock until every one reports
// availableReplicas = R, then deletes them all (background) and runs until the garbage
// collector has removed every ReplicaSet and Pod. Figures:
//   settle_seconds / writes_to_settle   wall time and store writes (resourceVersion delta) until
//                                       all are available
//   collect_seconds / writes_to_collect the same for the deletion
//   objects_at_peak                     Deployments + ReplicaSets + Pods stored when settled
//   peak_rss_bytes
#include "bench/bench.h"
#include "engine/apiserver/controllers/garbagecollector.h"
#include "engine/apiserver/controllers/workloadsimulator.h"
#include "engine/apiserver/storage/store.h"
#include "engine/base/clock.h"
#include "engine/testing/fakeclock.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>

#include <functional>

using namespace std::chrono_literals;

namespace {

using opbench::apiserver::Store;

const opbench::GroupVersionResource kDeployments{
    QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("deployments")};
const opbench::GroupVersionResource kReplicaSets{
    QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("replicasets")};
const opbench::GroupVersionResource kPods{QString(), QStringLiteral("v1"), QStringLiteral("pods")};

QJsonObject deployment(int i, int replicas)
{
    const QString name = QStringLiteral("app-%1").arg(i);
    const QJsonObject labels{{QStringLiteral("app"), name}};
    return QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("apps/v1")},
        {QStringLiteral("kind"), QStringLiteral("Deployment")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}},
        {QStringLiteral("spec"),
            QJsonObject{{QStringLiteral("replicas"), replicas},
                {QStringLiteral("selector"), QJsonObject{{QStringLiteral("matchLabels"), labels}}},
                {QStringLiteral("template"),
                    QJsonObject{{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("labels"), labels}}},
                        {QStringLiteral("spec"),
                            QJsonObject{{QStringLiteral("containers"),
                                QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("app")},
                                    {QStringLiteral("image"), QStringLiteral("nginx:1.25")}}}}}}}}}}};
}

// Processes queued work, stepping the fake clock between rounds, until `done`.
bool runUntil(opbench::testing::FakeClock &clock, const std::function<bool()> &done)
{
    for (int round = 0; round < 10000; ++round) {
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        if (done())
            return true;
        clock.advance(100ms);
    }
    return false;
}

int run(const QStringList &args)
{
    const int n = opbench::bench::option(args, QStringLiteral("--deployments"), QStringLiteral("200")).toInt();
    const int replicas = opbench::bench::option(args, QStringLiteral("--replicas"), QStringLiteral("3")).toInt();
    opbench::testing::FakeClock clock;
    Store store(&clock);
    opbench::apiserver::GarbageCollector gc(&store, &clock);
    opbench::apiserver::WorkloadSimulator sim(&store, &clock, 500ms);
    sim.events().setEnabled(false); // the writes of the workload objects only, comparable across rounds

    QElapsedTimer timer;
    timer.start();
    const quint64 rv0 = store.resourceVersion();
    for (int i = 0; i < n; ++i)
        (void)store.create(kDeployments, QStringLiteral("default"), deployment(i, replicas));
    const auto allAvailable = [&] {
        const auto list = store.list(kDeployments);
        for (const opbench::Object &d : list->items) {
            if (d.json().value(QLatin1String("status")).toObject().value(QLatin1String("availableReplicas")).toInt()
                != replicas)
                return false;
        }
        return true;
    };
    const bool settled = runUntil(clock, allAvailable);
    const double settleSeconds = timer.nsecsElapsed() / 1e9;
    const quint64 rv1 = store.resourceVersion();
    const qint64 objects = store.count(kDeployments) + store.count(kReplicaSets) + store.count(kPods);

    timer.restart();
    for (int i = 0; i < n; ++i)
        (void)store.remove(kDeployments, QStringLiteral("default"), QStringLiteral("app-%1").arg(i));
    const bool collected = runUntil(clock, [&] { return store.count(kReplicaSets) == 0 && store.count(kPods) == 0; });
    opbench::bench::printJson({
        {QStringLiteral("benchmark"), QStringLiteral("workloads")},
        {QStringLiteral("deployments"), n},
        {QStringLiteral("replicas"), replicas},
        {QStringLiteral("settled"), settled},
        {QStringLiteral("settle_seconds"), settleSeconds},
        {QStringLiteral("writes_to_settle"), qint64(rv1 - rv0)},
        {QStringLiteral("objects_at_peak"), objects},
        {QStringLiteral("collected"), collected},
        {QStringLiteral("collect_seconds"), timer.nsecsElapsed() / 1e9},
        {QStringLiteral("writes_to_collect"), qint64(store.resourceVersion() - rv1)},
        {QStringLiteral("peak_rss_bytes"), opbench::bench::peakRssBytes()},
    });
    return settled && collected ? 0 : 1;
}

const opbench::bench::Registrar registrar(
    "workloads", "simulator + garbage collector: N deployments to available and back", &run);

} // namespace
