// SPDX-License-Identifier: Apache-2.0
#include "ui/workbenchmain.h"

#include "engine/api/version.h"
#include "engine/base/allocator.h"
#include "ui/mainwindow.h"
#include "ui/session/hostedoperator.h"
#include "ui/workbenchhost.h"

#include "engine/workbench/tour.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QJsonDocument>
#include <QPointer>
#include <QTimer>

#include <cstdio>

namespace opbench {

namespace {

int usage(const QString &message)
{
    std::fprintf(stderr, "%s: %s\n", qPrintable(QCoreApplication::applicationName()), qPrintable(message));
    return 2;
}

/// The seconds of option `o`, or -1 when it is not set; `ok` false when it is not a number >= 0.
double secondsOf(const QCommandLineParser &parser, const QCommandLineOption &o, bool *ok)
{
    *ok = true;
    if (!parser.isSet(o))
        return -1;
    const double s = parser.value(o).toDouble(ok);
    *ok = *ok && s >= 0;
    return s;
}

struct WorkbenchOptions
{
    QCommandLineOption kubeconfig, context, samples, screenshot, exitAfter, reportAfter, tour, createFromForm, replay,
        play;
};

WorkbenchOptions workbenchOptions()
{
    const QCommandLineOption kubeconfig(QStringLiteral("kubeconfig"),
        QStringLiteral("Use the cluster of this kubeconfig instead of the embedded one."), QStringLiteral("path"));
    const QCommandLineOption context(QStringLiteral("context"),
        QStringLiteral("The kubeconfig context to use (default: its current-context)."), QStringLiteral("name"));
    const QCommandLineOption samples(QStringLiteral("samples"),
        QStringLiteral("Create the objects of this folder's YAML/JSON files on the embedded "
                       "cluster (default: the operator's samples, else ./config/samples)."),
        QStringLiteral("dir"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
        QStringLiteral("Render the main window to this PNG file, then quit."), QStringLiteral("path"));
    const QCommandLineOption exitAfter(QStringLiteral("exit-after"),
        QStringLiteral("Quit after this many seconds (the screenshot is taken then; "
                       "default 5 with --screenshot)."),
        QStringLiteral("seconds"));
    const QCommandLineOption reportAfter(QStringLiteral("report-after"),
        QStringLiteral("After this many seconds print one JSON line with what the "
                       "panels hold (objects per kind, reconciles, queue samples), "
                       "then quit."),
        QStringLiteral("seconds"));
    const QCommandLineOption tour(QStringLiteral("tour"),
        QStringLiteral("Open the guided tour at this lesson (1: the first) at start."), QStringLiteral("lesson"));
    const QCommandLineOption createFromForm(QStringLiteral("create-from-form"),
        QStringLiteral("Once the cluster is ready, create an object of the operator's kind with this name from "
                       "the Children panel's form (its sample values); --report-after then says how often it "
                       "was reconciled (\"formCreated\")."),
        QStringLiteral("name"));
    const QCommandLineOption replay(QStringLiteral("replay"),
        QStringLiteral("Open this recording (made with --record) instead of running the operator: every panel "
                       "shows the recorded run, stepped with the Replay bar."),
        QStringLiteral("path"));
    const QCommandLineOption play(QStringLiteral("play"),
        QStringLiteral("With --replay: start playing at this speed (1, 10 or max; default: paused, or max with "
                       "--report-after)."),
        QStringLiteral("speed"));
    return {kubeconfig, context, samples, screenshot, exitAfter, reportAfter, tour, createFromForm, replay, play};
}

/// --replay: the speed --play asks for (0 = max; -1: stay paused); `ok` false for a bad value.
double replaySpeed(const QCommandLineParser &parser, const QCommandLineOption &play, bool reporting, bool *ok)
{
    *ok = true;
    if (!parser.isSet(play))
        return reporting ? 0 : -1;
    const QString v = parser.value(play);
    if (v == QLatin1String("max"))
        return 0;
    const double speed = v.toDouble(ok);
    *ok = *ok && speed > 0;
    return speed;
}

/// --report-after and --exit-after/--screenshot: timers that report or grab, then quit with `rc`.
void scheduleQuit(QApplication &app, ui::WorkbenchHost &host, int &rc, double report, double seconds,
    const QString &path, const Object &first, const QString &firstKey)
{
    if (report >= 0) {
        QTimer::singleShot(int(report * 1000), &app, [&host, &rc] {
            ui::MainWindow *w = host.window();
            if (!w) {
                rc = 1;
                QApplication::exit(rc);
                return;
            }
            std::printf("%s\n", QJsonDocument(w->panelReport()).toJson(QJsonDocument::Compact).constData());
            std::fflush(stdout);
            w->close();
            QApplication::exit(0);
        });
    }
    if (seconds >= 0) {
        if (!path.isEmpty() && !first.isNull()) {
            QTimer::singleShot(int(seconds * 600), &app, [&host, kind = first.gvk().kind, firstKey] {
                if (host.window())
                    host.window()->selectObject(kind, firstKey);
            });
        }
        QTimer::singleShot(int(seconds * 1000), &app, [&host, &rc, path] {
            if (host.window() && !path.isEmpty() && !host.window()->grab().save(path, "PNG")) {
                std::fprintf(stderr, "%s: cannot write the screenshot to %s\n",
                    qPrintable(QCoreApplication::applicationName()), qPrintable(path));
                rc = 1;
            }
            if (host.window())
                host.window()->close();
            QApplication::exit(rc);
        });
    }
}

/// --create-from-form: once the operator runs (and, embedded, its samples exist: the CRDs are
/// installed by then), the window's form creates `name`.
void createFromFormWhenReady(ui::WorkbenchHost &host, const QString &name)
{
    ui::MainWindow *w = host.window();
    if (!w)
        return;
    const ui::WorkbenchEngine *engine = w->session()->engine();
    QPointer<ui::MainWindow> window(w);
    const auto create = [window, name] {
        if (window)
            window->createFromForm(name);
    };
    if (w->session()->isEmbedded())
        QObject::connect(engine, &ui::WorkbenchEngine::samplesCreated, w, create, Qt::SingleShotConnection);
    else
        QObject::connect(engine, &ui::WorkbenchEngine::connected, w, create, Qt::SingleShotConnection);
}

} // namespace

int runWorkbench(int argc, char **argv, OperatorDefinition def)
{
    configureAllocator();
    QApplication app(argc, argv);
    if (QApplication::organizationName().isEmpty())
        QApplication::setOrganizationName(QStringLiteral("opbench"));
    if (QApplication::applicationVersion().isEmpty())
        QApplication::setApplicationVersion(opbench::version());
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "The opbench workbench for the %1 operator: the informer cache, the work queue and every reconcile, live. "
        "With no options it starts an embedded API server with the operator's CRDs and samples.")
                                         .arg(def.name));
    parser.addHelpOption();
    parser.addVersionOption();
    const auto [kubeconfig, context, samples, screenshot, exitAfter, reportAfter, tour, formCreate, replay, play]
        = workbenchOptions();
    parser.addOptions(
        {kubeconfig, context, samples, screenshot, exitAfter, reportAfter, tour, formCreate, replay, play});
    parser.process(app);

    bool ok = true;
    double seconds = secondsOf(parser, exitAfter, &ok);
    if (!ok)
        return usage(
            QStringLiteral("--exit-after needs a number of seconds >= 0, got \"%1\"").arg(parser.value(exitAfter)));
    if (seconds < 0 && parser.isSet(screenshot))
        seconds = 5;
    const double report = secondsOf(parser, reportAfter, &ok);
    if (!ok)
        return usage(
            QStringLiteral("--report-after needs a number of seconds >= 0, got \"%1\"").arg(parser.value(reportAfter)));
    const QString samplesDir = parser.isSet(samples)
        ? parser.value(samples)
        : (def.samples.isEmpty() && QDir(QStringLiteral("config/samples")).exists() ? QStringLiteral("config/samples")
                                                                                    : QString());
    if (!samplesDir.isEmpty()) {
        if (!QDir(samplesDir).exists())
            return usage(QStringLiteral("--samples: no folder %1").arg(samplesDir));
        auto loaded = loadObjects(samplesDir);
        if (!loaded)
            return usage(loaded.error().message());
        def.samples = *loaded;
    }
    // The screenshot shows the first sample in the Object panel.
    const Object first = def.samples.value(0);
    const QString firstKey
        = first.namespaceName().isEmpty() && !first.isNull() ? QStringLiteral("default/") + first.name() : first.key();
    ui::setHostedOperator(std::move(def));

    ui::SessionOptions options;
    options.kubeconfig = parser.value(kubeconfig);
    options.context = parser.value(context);
    options.replay = parser.value(replay);
    const double speed = replaySpeed(parser, play, report >= 0, &ok);
    if (!ok)
        return usage(QStringLiteral("--play needs 1, 10 or max, got \"%1\"").arg(parser.value(play)));
    ui::WorkbenchHost host; // Connect to cluster… replaces the window
    host.open(options);
    if (!options.replay.isEmpty() && speed >= 0 && host.window())
        host.window()->session()->post(&ui::ReplaySession::play, speed);
    if (parser.isSet(tour)) {
        const int lesson = parser.value(tour).toInt(&ok);
        if (!ok || lesson < 1)
            return usage(QStringLiteral("--tour needs a lesson number >= 1, got \"%1\"").arg(parser.value(tour)));
        if (host.window()) {
            host.window()->startTour();
            host.window()->tour()->start(lesson - 1);
        }
    }

    if (parser.isSet(formCreate))
        createFromFormWhenReady(host, parser.value(formCreate));
    int rc = 0;
    scheduleQuit(app, host, rc, report, seconds, parser.value(screenshot), first, firstKey);
    const int loop = app.exec();
    return rc != 0 ? rc : loop;
}

} // namespace opbench
