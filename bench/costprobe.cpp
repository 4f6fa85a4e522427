// SPDX-License-Identifier: Apache-2.0
#include "bench/costprobe.h"
#include "bench/bench.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <sys/resource.h>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define OPBENCH_HAVE_CALLGRIND 1
#endif

namespace opbench::bench {

namespace {
long minorFaults()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_minflt;
}
} // namespace

bool underValgrind()
{
#ifdef OPBENCH_HAVE_CALLGRIND
    return RUNNING_ON_VALGRIND != 0;
#else
    return false;
#endif
}

CostProbe::CostProbe(QString name)
    : m_name(std::move(name))
{
#ifdef OPBENCH_HAVE_CALLGRIND
    CALLGRIND_START_INSTRUMENTATION;
    CALLGRIND_ZERO_STATS;
#endif
    QFile clear(QStringLiteral("/proc/self/clear_refs"));
    if (clear.open(QIODevice::WriteOnly))
        clear.write("5"); // resets the peak RSS (VmHWM) to the current RSS
    m_rssBytes = rssBytes();
    m_faults = minorFaults();
}

void CostProbe::end()
{
    if (m_ended)
        return;
    m_ended = true;
    const long faults = minorFaults() - m_faults;
    const qint64 peakGrowth = qMax<qint64>(0, peakRssBytes() - m_rssBytes);
#ifdef OPBENCH_HAVE_CALLGRIND
    const QByteArray name = m_name.toUtf8();
    CALLGRIND_DUMP_STATS_AT(name.constData());
    CALLGRIND_STOP_INSTRUMENTATION;
#endif
    if (underValgrind())
        return; // faults and RSS under valgrind are valgrind's own
    const QByteArray path = qgetenv("OPBENCH_COST_OUT");
    if (path.isEmpty())
        return;
    QFile out(QString::fromLocal8Bit(path));
    if (!out.open(QIODevice::WriteOnly | QIODevice::Append))
        return;
    const QJsonObject line{{QStringLiteral("workload"), m_name}, {QStringLiteral("minor_faults"), qint64(faults)},
        {QStringLiteral("peak_rss_growth_kb"), peakGrowth / 1024}};
    out.write(QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n');
}

} // namespace opbench::bench
