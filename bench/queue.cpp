// SPDX-License-Identifier: Apache-2.0
// opbench-bench queue [--items N] [--seconds S]
// Add/get/done cycles per second on one thread, metrics on, for the plain (client-go) and the
// priority (controller-runtime) queue. Each round adds N distinct keys (each with a watch-event
// cause), then takes and finishes all of them, like controller-runtime's BenchmarkAddGetDone.
// cycles_per_second is wall-clock; cpu_cycles_per_second divides by this thread's CPU time, which
// stays meaningful when other processes share the cores.
#include "bench/bench.h"
#include "engine/base/metrics.h"
#include "engine/queue/workqueue.h"

#include <QElapsedTimer>

#include <time.h>

#include <vector>

namespace {

using namespace opbench;

struct Result
{
    double cyclesPerSecond = 0;    // wall clock
    double cpuCyclesPerSecond = 0; // this thread's CPU time (meaningful on a busy machine)
    qint64 cycles = 0;
};

qint64 threadCpuNs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

Result run(WorkQueue::Kind kind, const std::vector<QueueKey> &keys, const Cause &cause, double seconds)
{
    MetricsRegistry registry;
    WorkQueueOptions options;
    options.name = QStringLiteral("bench");
    options.metrics = &registry;
    auto queue = makeWorkQueue(kind, std::move(options));
    QElapsedTimer timer;
    timer.start();
    const qint64 cpuStart = threadCpuNs();
    qint64 cycles = 0;
    qint64 elapsed = 0;
    do {
        for (const QueueKey &k : keys)
            queue->add(k, cause);
        while (auto item = queue->tryGet())
            queue->done(item->key);
        cycles += qint64(keys.size());
        elapsed = timer.nsecsElapsed();
    } while (elapsed < qint64(seconds * 1e9));
    const double cpuSeconds = double(threadCpuNs() - cpuStart) / 1e9;
    return {double(cycles) / (double(elapsed) / 1e9), double(cycles) / cpuSeconds, cycles};
}

int runQueue(const QStringList &args)
{
    const int items = bench::option(args, QStringLiteral("--items"), QStringLiteral("1000")).toInt();
    const double seconds = bench::option(args, QStringLiteral("--seconds"), QStringLiteral("2")).toDouble();
    if (items <= 0 || seconds <= 0) {
        qWarning("queue: --items and --seconds must be positive");
        return 2;
    }
    std::vector<QueueKey> keys;
    keys.reserve(size_t(items));
    for (int i = 0; i < items; ++i)
        keys.push_back({QStringLiteral("default"), QStringLiteral("myapp-%1").arg(i)});
    const Cause cause = Cause::watchEvent(Cause::EventType::Modified, QStringLiteral("MyApplication.v1.example.com"),
        QStringLiteral("default/myapp"), QStringLiteral("12345"));
    // --kind plain|priority runs one queue only: under callgrind the instructions of run() divided
    // by the cycles printed give the instructions per add/get/done cycle.
    const QString kind = bench::option(args, QStringLiteral("--kind"), QStringLiteral("both"));
    const bool doPlain = kind != u"priority";
    const bool doPriority = kind != u"plain";
    Result warm, plain, priority;
    if (doPlain) {
        warm = run(WorkQueue::Kind::Plain, keys, cause, seconds / 10); // warm-up
        plain = run(WorkQueue::Kind::Plain, keys, cause, seconds);
    }
    if (doPriority) {
        const Result w = run(WorkQueue::Kind::Priority, keys, cause, seconds / 10);
        warm.cycles += w.cycles;
        priority = run(WorkQueue::Kind::Priority, keys, cause, seconds);
    }
    bench::printJson({
        {QStringLiteral("plain_cycles"), plain.cycles},
        {QStringLiteral("priority_cycles"), priority.cycles},
        {QStringLiteral("warmup_cycles"), warm.cycles},
        {QStringLiteral("cycles_per_second"), qRound64(plain.cyclesPerSecond)},
        {QStringLiteral("priority_cycles_per_second"), qRound64(priority.cyclesPerSecond)},
        {QStringLiteral("items"), items},
        {QStringLiteral("ns_per_cycle"), plain.cycles ? 1e9 / plain.cyclesPerSecond : 0.0},
        {QStringLiteral("priority_ns_per_cycle"), priority.cycles ? 1e9 / priority.cyclesPerSecond : 0.0},
        {QStringLiteral("cpu_cycles_per_second"), qRound64(plain.cpuCyclesPerSecond)},
        {QStringLiteral("priority_cpu_cycles_per_second"), qRound64(priority.cpuCyclesPerSecond)},
        {QStringLiteral("metrics"), true},
    });
    return 0;
}

const bench::Registrar registrar("queue", "work queue add/get/done cycles per second (plain and priority)", &runQueue);

} // namespace
