// SPDX-License-Identifier: Apache-2.0
// tst_fuzz_corpus: runs every file of tests/fuzz/corpus/<target>/ and tests/fuzz/regressions/<target>/
// through that target's fuzz function (the same code the libFuzzer executables run), so that
// seeds and crash inputs are replayed by the ordinary test command, without clang.
// A crash or a broken invariant aborts the process (the file being replayed is printed first);
// a target with no corpus, or a corpus folder naming no target, is a failure too.
// An input that makes the process's peak resident size grow by more than
// OPBENCH_FUZZ_REPLAY_RSS_MB (default 256; what libFuzzer's -rss_limit_mb catches in
// packaging/fuzz.sh) fails too: memory blow-ups such as YAML alias bombs are bugs even when
// nothing crashes. Not checked under AddressSanitizer (its quarantine keeps freed memory).
//
// Usage: tst_fuzz_corpus [target-regex] [file...]   (files: replayed through the one target)
#include "tests/fuzz/fuzztarget.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QMap>
#include <QRegularExpression>

#include <cstdio>

#if defined(__SANITIZE_ADDRESS__)
#define OPBENCH_REPLAY_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OPBENCH_REPLAY_ASAN 1
#endif
#endif

namespace {

QMap<QString, opbench::fuzz::TargetFn> &targets()
{
    static QMap<QString, opbench::fuzz::TargetFn> t;
    return t;
}

void quietHandler(QtMsgType type, const QMessageLogContext &, const QString &msg)
{
    if (type == QtFatalMsg) {
        std::fprintf(stderr, "qFatal: %s\n", qPrintable(msg));
        std::abort();
    }
}

qint64 statusKiB(const char *field)
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith(field))
            return line.mid(qstrlen(field)).trimmed().split(' ').value(0).toLongLong();
    return -1;
}

/// Resets the kernel's peak-RSS mark (VmHWM) to the current RSS; false where that is not possible.
bool resetPeakRss()
{
#ifdef OPBENCH_REPLAY_ASAN
    return false;
#else
    QFile clear(QStringLiteral("/proc/self/clear_refs"));
    return clear.open(QIODevice::WriteOnly) && clear.write("5") == 1;
#endif
}

qint64 rssLimitKiB()
{
    bool ok = false;
    const qint64 mb = qEnvironmentVariableIntValue("OPBENCH_FUZZ_REPLAY_RSS_MB", &ok);
    return (ok && mb > 0 ? mb : 256) * 1024;
}

int replay(const QString &target, opbench::fuzz::TargetFn fn, const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "FAIL cannot read %s\n", qPrintable(path));
        return 1;
    }
    const QByteArray data = f.readAll();
    std::fprintf(stderr, "%s %s (%lld bytes)\n", qPrintable(target), qPrintable(path), qlonglong(data.size()));
    std::fflush(stderr);
    const bool measured = resetPeakRss();
    const qint64 before = statusKiB("VmRSS:");
    fn(reinterpret_cast<const std::uint8_t *>(data.constData()), std::size_t(data.size()));
    if (measured && before > 0) {
        const qint64 grown = statusKiB("VmHWM:") - before;
        if (grown > rssLimitKiB()) {
            std::fprintf(stderr, "FAIL %s: peak RSS grew by %lld MiB (limit %lld MiB, OPBENCH_FUZZ_REPLAY_RSS_MB)\n",
                qPrintable(path), grown / 1024, rssLimitKiB() / 1024);
            return 1;
        }
    }
    return 0;
}

} // namespace

bool opbench::fuzz::registerTarget(const char *name, TargetFn fn)
{
    targets().insert(QString::fromLatin1(name), fn);
    return true;
}

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("OPBENCH_FUZZ_VERBOSE"))
        qInstallMessageHandler(quietHandler);
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    const QRegularExpression only(args.isEmpty() ? QStringLiteral(".*") : QStringLiteral("^(%1)$").arg(args.first()));
    const QString root = QStringLiteral(OPBENCH_SOURCE_DIR "/tests/fuzz");
    int failures = 0;

    // Every target the build lists must have registered, and every corpus folder must name one.
    const QStringList listed = QStringLiteral(OPBENCH_FUZZ_TARGETS).split(u',', Qt::SkipEmptyParts);
    for (const QString &name : listed)
        if (!targets().contains(name)) {
            std::fprintf(stderr, "FAIL target %s is listed in CMake but did not register\n", qPrintable(name));
            ++failures;
        }
    for (const char *kind : {"corpus", "regressions"})
        for (const QString &dir : QDir(root + u'/' + QLatin1String(kind)).entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            if (!targets().contains(dir)) {
                std::fprintf(stderr, "FAIL %s/%s names no fuzz target\n", kind, qPrintable(dir));
                ++failures;
            }

    if (args.size() > 1) { // explicit files through one target
        const auto fn = targets().value(args.first());
        if (!fn) {
            std::fprintf(stderr, "FAIL no target %s\n", qPrintable(args.first()));
            return 1;
        }
        for (const QString &path : args.mid(1))
            failures += replay(args.first(), fn, path);
        return failures ? 1 : 0;
    }

    int files = 0;
    for (auto it = targets().cbegin(); it != targets().cend(); ++it) {
        if (!only.match(it.key()).hasMatch())
            continue;
        int seeds = 0;
        for (const char *kind : {"corpus", "regressions"}) {
            const QDir dir(root + u'/' + QLatin1String(kind) + u'/' + it.key());
            for (const QString &file : dir.entryList(QDir::Files, QDir::Name)) {
                failures += replay(it.key(), it.value(), dir.filePath(file));
                ++files;
                if (QLatin1String(kind) == QLatin1String("corpus"))
                    ++seeds;
            }
        }
        if (seeds == 0) {
            std::fprintf(stderr, "FAIL target %s has no seed corpus (tests/fuzz/corpus/%s/)\n", qPrintable(it.key()),
                qPrintable(it.key()));
            ++failures;
        }
    }
    std::fprintf(stderr, "%s: %d files replayed through %lld targets, %d failures\n", failures ? "FAIL" : "PASS", files,
        qlonglong(targets().size()), failures);
    return failures ? 1 : 0;
}
