// SPDX-License-Identifier: Apache-2.0
// opbench-gen: writes the CustomResourceDefinitions an operator generates from its C++ types
// (engine/api/typed/crdgen.h) into config/crd/, as `make manifests` (controller-gen) does in a
// kubebuilder project:
//
//   opbench-gen crd build/guestbook-operator                 # runs it with --print-crd
//   opbench-gen crd build/guestbook-operator --check         # CI: exit 1 when a file is stale
//   build/guestbook-operator --print-crd | opbench-gen crd - --output-dir config/crd
//
// C++ has no reflection a separate tool could read the types with, so the operator binary
// prints its own CRDs (runOperator's --print-crd, from the kinds its definition lists) and this
// tool only splits them into one file per CRD: <plural>.<group>.yaml.
#include "engine/api/typed/crdfiles.h"
#include "engine/api/version.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>

#include <cstdio>

namespace {

int fail(const QString &message, int code = 2)
{
    std::fprintf(stderr, "opbench-gen: %s\n", qPrintable(message));
    return code;
}

/// The CRD stream: the binary's `--print-crd` output, or standard input for "-".
opbench::Expected<QByteArray> readStream(const QString &source, int timeoutMs)
{
    if (source == QLatin1String("-")) {
        QFile in;
        if (!in.open(stdin, QIODevice::ReadOnly))
            return opbench::Status::badRequest(QStringLiteral("cannot read standard input"));
        return in.readAll();
    }
    QProcess p;
    p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p.start(source, QStringList{QStringLiteral("--print-crd")});
    if (!p.waitForFinished(timeoutMs) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        const QString why = p.error() == QProcess::FailedToStart ? QStringLiteral("could not be started")
            : p.state() != QProcess::NotRunning                  ? QStringLiteral("did not finish in time")
                                                : QStringLiteral("exited with code %1").arg(p.exitCode());
        p.kill();
        p.waitForFinished(1000);
        return opbench::Status::badRequest(QStringLiteral("%1 --print-crd %2").arg(source, why));
    }
    return p.readAllStandardOutput();
}

int writeOrCheck(const QList<opbench::CrdFile> &files, const QDir &dir, bool check)
{
    int stale = 0;
    for (const opbench::CrdFile &f : files) {
        const QString path = dir.filePath(f.fileName);
        QFile file(path);
        const bool same = file.open(QIODevice::ReadOnly) && file.readAll() == f.content;
        file.close();
        if (check) {
            if (!same) {
                std::fprintf(
                    stderr, "opbench-gen: %s is out of date: regenerate it with opbench-gen crd\n", qPrintable(path));
                ++stale;
            }
            continue;
        }
        if (same)
            continue;
        if (!dir.mkpath(QStringLiteral(".")) || !file.open(QIODevice::WriteOnly | QIODevice::Truncate)
            || file.write(f.content) != f.content.size())
            return fail(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()), 1);
        std::printf("wrote %s\n", qPrintable(path));
    }
    return stale > 0 ? 1 : 0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationVersion(opbench::version());
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Writes the CRDs an operator generates from its C++ types."));
    p.addHelpOption();
    p.addVersionOption();
    p.addPositionalArgument(QStringLiteral("crd"), QStringLiteral("The command (only crd for now)."));
    p.addPositionalArgument(QStringLiteral("source"),
        QStringLiteral("The operator binary (run with --print-crd), or - for standard input."));
    p.addOptions({
        {QStringLiteral("output-dir"), QStringLiteral("Where the files go (default config/crd)."),
            QStringLiteral("dir"), QStringLiteral("config/crd")},
        {QStringLiteral("check"), QStringLiteral("Write nothing; exit 1 naming each file that is missing or stale.")},
        {QStringLiteral("timeout-ms"), QStringLiteral("How long the binary may take (default 30000)."),
            QStringLiteral("ms"), QStringLiteral("30000")},
    });
    p.process(app);
    const QStringList args = p.positionalArguments();
    if (args.size() != 2 || args.first() != QLatin1String("crd"))
        return fail(QStringLiteral("usage: opbench-gen crd <operator-binary | -> [--output-dir DIR] [--check]"));
    const opbench::Expected<QByteArray> stream = readStream(args.at(1), p.value(QStringLiteral("timeout-ms")).toInt());
    if (!stream)
        return fail(stream.error().message(), 1);
    const auto files = opbench::crdFiles(*stream);
    if (!files)
        return fail(QStringLiteral("%1: %2").arg(args.at(1), files.error().message()), 1);
    if (files->isEmpty())
        return fail(QStringLiteral("%1 printed no CustomResourceDefinition").arg(args.at(1)), 1);
    return writeOrCheck(*files, QDir(p.value(QStringLiteral("output-dir"))), p.isSet(QStringLiteral("check")));
}
