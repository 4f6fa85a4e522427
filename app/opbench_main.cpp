// SPDX-License-Identifier: Apache-2.0
// opbench: the desktop workbench. With no flags it starts an embedded cluster with sample
// MyApplications; --kubeconfig/--context use a real cluster; --screenshot/--exit-after render
// the window to a PNG and quit (docs, tests).
#include "ui/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QPointer>
#include <QTimer>

#include <cstdio>
#include <functional>

int main(int argc, char **argv)
{
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
    auto *first = new opbench::ui::MainWindow(options);
    first->setAttribute(Qt::WA_DeleteOnClose);
    QPointer<opbench::ui::MainWindow> current = first;
    QList<QPointer<opbench::ui::MainWindow>> windows{first}; // deleted after the loop if still there
    // Connect to cluster… restarts the workbench: a new window (new session, fresh models)
    // replaces the old one, whose session stops and releases its lease as it is deleted.
    std::function<void(opbench::ui::MainWindow *)> watch = [&current, &windows, &watch](opbench::ui::MainWindow *w) {
        QObject::connect(w, &opbench::ui::MainWindow::switchRequested, w, [w, &current, &windows, &watch](const opbench::ui::SessionOptions &o) {
            auto *next = new opbench::ui::MainWindow(o);
            next->setAttribute(Qt::WA_DeleteOnClose);
            windows.append(next);
            watch(next);
            current = next;
            next->show();
            w->close();
        });
    };
    watch(first);
    first->show();

    int rc = 0;
    if (seconds >= 0) {
        const QString path = parser.value(screenshot);
        if (!path.isEmpty()) {
            // Show one object in the Object panel for the picture.
            QTimer::singleShot(int(seconds * 600), &app, [&current] {
                if (current)
                    current->selectObject(QStringLiteral("MyApplication"), QStringLiteral("default/frontend"));
            });
        }
        QTimer::singleShot(int(seconds * 1000), &app, [&current, &rc, path] {
            if (current && !path.isEmpty() && !current->grab().save(path, "PNG")) {
                std::fprintf(stderr, "opbench: cannot write the screenshot to %s\n", qPrintable(path));
                rc = 1;
            }
            if (current)
                current->close();
            QApplication::exit(rc);
        });
    }
    const int loop = app.exec();
    for (const auto &w : std::as_const(windows))
        delete w.data(); // joins its session's threads
    return rc != 0 ? rc : loop;
}
