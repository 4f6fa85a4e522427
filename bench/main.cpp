// SPDX-License-Identifier: Apache-2.0
// opbench-bench: runs one benchmark sub-command and prints its figures as one JSON line.
#include "bench/bench.h"
#include "engine/base/allocator.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QMap>
#include <QTextStream>

#include <unistd.h>

namespace opbench::bench {

namespace {
struct Entry
{
    QString help;
    Fn fn;
    AppFactory app = nullptr;
};
QMap<QString, Entry> &registry()
{
    static QMap<QString, Entry> r;
    return r;
}

qint64 statusField(const char *field)
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith(field)) {
            const QList<QByteArray> parts = line.simplified().split(' ');
            return parts.size() >= 2 ? parts.at(1).toLongLong() * 1024 : 0;
        }
    }
    return 0;
}
} // namespace

Registrar::Registrar(const char *name, const char *help, Fn fn, AppFactory app)
{
    registry().insert(QString::fromLatin1(name), {QString::fromLatin1(help), fn, app});
}

void printJson(const QJsonObject &obj)
{
    QTextStream(stdout) << QJsonDocument(obj).toJson(QJsonDocument::Compact) << Qt::endl;
}

qint64 rssBytes() { return statusField("VmRSS:"); }
qint64 peakRssBytes() { return statusField("VmHWM:"); }

QString option(const QStringList &args, const QString &flag, const QString &fallback)
{
    const qsizetype i = args.indexOf(flag);
    return (i >= 0 && i + 1 < args.size()) ? args.at(i + 1) : fallback;
}

} // namespace opbench::bench

int main(int argc, char **argv)
{
    // The API server's own benchmarks run with its allocator profile, as opbench-apiserver does;
    // every other one with the controller profile of the engine's executables.
    const bool serverBench = argc > 1 && (qstrcmp(argv[1], "apiserver") == 0 || qstrcmp(argv[1], "workloads") == 0);
    opbench::configureAllocator(
        serverBench ? opbench::AllocatorProfile::Server : opbench::AllocatorProfile::Controller);
    auto &reg = opbench::bench::registry();
    const auto factory = argc > 1 ? reg.value(QString::fromLocal8Bit(argv[1])).app : nullptr;
    const std::unique_ptr<QCoreApplication> app
        = factory ? factory(argc, argv) : std::make_unique<QCoreApplication>(argc, argv);
    QStringList args = QCoreApplication::arguments().mid(1);
    if (args.isEmpty() || args.first() == QLatin1String("--help") || !reg.contains(args.first())) {
        QTextStream err(stderr);
        if (!args.isEmpty() && args.first() == QLatin1String("gui-stall"))
            err << "opbench-bench: gui-stall drives the workbench window: run it with opbench-bench-gui (GUI builds)\n";
        else if (!args.isEmpty() && args.first() != QLatin1String("--help"))
            err << "opbench-bench: unknown benchmark '" << args.first() << "'\n";
        err << "usage: opbench-bench BENCHMARK [options]\n\nbenchmarks:\n";
        for (auto it = reg.cbegin(); it != reg.cend(); ++it)
            err << "  " << it.key().leftJustified(16) << it->help << '\n';
        return args.isEmpty() || args.first() == QLatin1String("--help") ? 0 : 2;
    }
    const QString name = args.takeFirst();
    return reg.value(name).fn(args);
}
