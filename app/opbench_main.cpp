// SPDX-License-Identifier: Apache-2.0
// opbench: the desktop workbench. With no flags it starts an embedded cluster with sample
// MyApplications; --kubeconfig/--context use a real cluster; --screenshot/--exit-after render
// the window to a PNG and quit (docs, tests).
#include "engine/api/allocator.h"
#include "ui/mainwindow.h"
#include "ui/workbenchhost.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include <cstdio>

int main(int argc, char **argv)
{
    opbench::configureAllocator();
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("opbench"));
    QApplication::setApplicationName(QStringLiteral("opbench"));
    QApplication::setApplicationVersion(QStringLiteral(OPBENCH_VERSION));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "opbench, the operator workbench: the informer cache, the work queue and every reconcile of a Kubernetes "
        "controller, live. With no options it starts an embedded API server with five sample MyApplications."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption kubeconfig(QStringLiteral("kubeconfig"),
                                        QStringLiteral("Use the cluster of this kubeconfig instead of the embedded one."),
                                        QStringLiteral("path"));
    const QCommandLineOption context(QStringLiteral("context"),
                                     QStringLiteral("The kubeconfig context to use (default: its current-context)."),
                                     QStringLiteral("name"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Render the main window to this PNG file, then quit."),
                                        QStringLiteral("path"));
    const QCommandLineOption exitAfter(QStringLiteral("exit-after"),
                                       QStringLiteral("Quit after this many seconds (the screenshot is taken then; "
                                                      "default 5 with --screenshot)."),
                                       QStringLiteral("seconds"));
    parser.addOptions({kubeconfig, context, screenshot, exitAfter});
    parser.process(app);

    bool ok = true;
    const double seconds = parser.isSet(exitAfter) ? parser.value(exitAfter).toDouble(&ok) : (parser.isSet(screenshot) ? 5 : -1);
    if (!ok || (parser.isSet(exitAfter) && seconds < 0)) {
        std::fprintf(stderr, "opbench: --exit-after needs a number of seconds >= 0, got \"%s\"\n",
                     qPrintable(parser.value(exitAfter)));
        return 2;
    }

    opbench::ui::SessionOptions options;
    options.kubeconfig = parser.value(kubeconfig);
    options.context = parser.value(context);
    opbench::ui::WorkbenchHost host; // Connect to cluster… replaces the window
    host.open(options);

    int rc = 0;
    if (seconds >= 0) {
        const QString path = parser.value(screenshot);
        if (!path.isEmpty()) {
            // Show one object in the Object panel for the picture.
            QTimer::singleShot(int(seconds * 600), &app, [&host] {
                if (host.window())
                    host.window()->selectObject(QStringLiteral("MyApplication"), QStringLiteral("default/frontend"));
            });
        }
        QTimer::singleShot(int(seconds * 1000), &app, [&host, &rc, path] {
            if (host.window() && !path.isEmpty() && !host.window()->grab().save(path, "PNG")) {
                std::fprintf(stderr, "opbench: cannot write the screenshot to %s\n", qPrintable(path));
                rc = 1;
            }
            if (host.window())
                host.window()->close();
            QApplication::exit(rc);
        });
    }
    const int loop = app.exec();
    return rc != 0 ? rc : loop;
}
