// SPDX-License-Identifier: Apache-2.0
// libFuzzer builds: a QCoreApplication for the whole run (targets that use QObjects, timers or
// the event loop need one), and Qt's messages silenced unless OPBENCH_FUZZ_VERBOSE is set.
#include "tests/fuzz/fuzztarget.h"

#include <QCoreApplication>

namespace {
void quietHandler(QtMsgType type, const QMessageLogContext &, const QString &msg)
{
    if (type == QtFatalMsg) {
        std::fprintf(stderr, "qFatal: %s\n", qPrintable(msg));
        std::abort();
    }
}
} // namespace

bool opbench::fuzz::registerTarget(const char *, TargetFn) { return true; }

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    if (qEnvironmentVariableIsEmpty("OPBENCH_FUZZ_VERBOSE"))
        qInstallMessageHandler(quietHandler);
    static int qargc = 1;
    static char *qargv[] = {(*argv)[0], nullptr};
    static QCoreApplication *app = new QCoreApplication(qargc, qargv); // reachable until exit
    Q_UNUSED(app);
    Q_UNUSED(argc);
    return 0;
}
