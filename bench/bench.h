// SPDX-License-Identifier: Apache-2.0
#pragma once
// Benchmark registry: each bench/<name>.cpp defines one sub-command of opbench-bench with
//   static opbench::bench::Registrar r("name", "one-line help", &run);
// where run(args) prints exactly one JSON line on stdout and returns the exit code.

#include <QJsonObject>
#include <QStringList>

#include <memory>

class QCoreApplication;

namespace opbench::bench {

using Fn = int (*)(const QStringList &args);
/// Makes the application object for a benchmark that needs more than a QCoreApplication
/// (gui-stall: a QApplication). `argc` outlives the application.
using AppFactory = std::unique_ptr<QCoreApplication> (*)(int &argc, char **argv);

struct Registrar
{
    Registrar(const char *name, const char *help, Fn fn, AppFactory app = nullptr);
};

/// Prints `obj` as one compact JSON line on stdout.
void printJson(const QJsonObject &obj);
/// Current resident set size of this process, in bytes (from /proc/self/statm).
qint64 rssBytes();
/// Peak resident set size (VmHWM), in bytes.
qint64 peakRssBytes();
/// The value after `--flag` in args, or `fallback`.
QString option(const QStringList &args, const QString &flag, const QString &fallback = {});

} // namespace opbench::bench
