// SPDX-License-Identifier: Apache-2.0
#include "engine/manager/processmetrics.h"

#include "engine/base/metrics.h"

#include <QDir>
#include <QFile>

#include <set>

#include <sys/resource.h>
#include <unistd.h>

namespace opbench {

namespace {

QList<QByteArray> statFields()
{
    QFile f(QStringLiteral("/proc/self/stat"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray line = f.readAll();
    // Field 2 (comm) may contain spaces: everything after the last ')' is space separated.
    const qsizetype close = line.lastIndexOf(')');
    if (close < 0)
        return {};
    return line.mid(close + 2).trimmed().split(' '); // [0] is field 3 (state)
}

double bootTimeSeconds()
{
    QFile f(QStringLiteral("/proc/stat"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith("btime "))
            return line.mid(6).trimmed().toDouble();
    return 0;
}

struct ProcessGauges
{
    Gauge *cpu;
    Gauge *rss;
    Gauge *vms;
    Gauge *fds;
    Gauge *maxFds;
    Gauge *start;
};

void collect(const ProcessGauges &g)
{
    const QList<QByteArray> f = statFields();
    const double ticks = double(sysconf(_SC_CLK_TCK));
    const double page = double(sysconf(_SC_PAGESIZE));
    if (f.size() > 21 && ticks > 0) {
        g.cpu->set((f[11].toDouble() + f[12].toDouble()) / ticks);  // utime (14) + stime (15)
        g.start->set(bootTimeSeconds() + f[19].toDouble() / ticks); // starttime (22)
        g.vms->set(f[20].toDouble());                               // vsize (23)
        g.rss->set(f[21].toDouble() * page);                        // rss pages (24)
    }
    g.fds->set(double(QDir(QStringLiteral("/proc/self/fd"))
                          .entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::System)
                          .size()));
    rlimit lim{};
    if (getrlimit(RLIMIT_NOFILE, &lim) == 0)
        g.maxFds->set(double(lim.rlim_cur));
}

} // namespace

void registerProcessMetrics(MetricsRegistry &registry)
{
    static QMutex mutex;
    static std::set<MetricsRegistry *> done;
    QMutexLocker lock(&mutex);
    if (!done.insert(&registry).second)
        return;
    auto gauge = [&](const char *name, const char *help) {
        return registry.gauge(QString::fromLatin1(name), QString::fromLatin1(help))->labels({});
    };
    // process_cpu_seconds_total is a counter in the Go client; we set it from /proc, so it is
    // exported through a counter family whose single child is adjusted to the absolute value.
    Counter *cpuCounter = registry
                              .counter(QStringLiteral("process_cpu_seconds_total"),
                                  QStringLiteral("Total user and system CPU time spent in seconds."))
                              ->labels({});
    ProcessGauges g{nullptr, gauge("process_resident_memory_bytes", "Resident memory size in bytes."),
        gauge("process_virtual_memory_bytes", "Virtual memory size in bytes."),
        gauge("process_open_fds", "Number of open file descriptors."),
        gauge("process_max_fds", "Maximum number of open file descriptors."),
        gauge("process_start_time_seconds", "Start time of the process since unix epoch in seconds.")};
    registry.addCollector([g, cpuCounter]() mutable {
        Gauge cpu;
        g.cpu = &cpu;
        collect(g);
        const double delta = cpu.value() - cpuCounter->value();
        if (delta > 0)
            cpuCounter->inc(delta);
    });
}

} // namespace opbench
