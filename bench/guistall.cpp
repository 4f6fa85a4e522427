// SPDX-License-Identifier: Apache-2.0
// opbench-bench gui-stall [--objects N] [--concurrency C] [--interval-ms MS] [--timeout S]
// The real workbench window (offscreen unless QT_QPA_PLATFORM says otherwise) on its embedded
// cluster; a separate thread creates N Deployments (replicas 0; the simulator adds a ReplicaSet
// and status writes for each) while a heartbeat timer on the UI thread records every gap between
// its ticks. Stops once the cache tree shows all N Deployments and the creates are done, then
// prints {"objects","seconds_to_show_all","max_stall_ms","p99_stall_ms",...}. A stall is a gap
// minus the heartbeat interval: how long the UI thread could not serve its event loop.
// max_stall_ui_cpu_ms: the UI thread's own CPU time inside the worst gap (the rest of the gap it
// waited for a core); max_ui_busy_ms: the most CPU the UI thread used between two ticks.
#include "bench/bench.h"

#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"
#include "ui/mainwindow.h"
#include "ui/models/cachetreemodel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTextStream>
#include <QThread>
#include <QTimer>

#include <qcoro/qcorotask.h>

#include <algorithm>
#include <cmath>

#include <time.h>

using namespace opbench;

namespace {

double ms2(double v) { return std::round(v * 100.0) / 100.0; }

QJsonObject deployment(int i)
{
    const QString name = QStringLiteral("stall-%1").arg(i, 5, 10, QLatin1Char('0'));
    const QJsonObject labels{
        {QStringLiteral("app"), name}, {QStringLiteral("team"), QStringLiteral("team-%1").arg(i % 17)}};
    const QJsonObject container{{QStringLiteral("name"), QStringLiteral("app")},
        {QStringLiteral("image"), QStringLiteral("registry.example.com/stall/%1:1.0").arg(name)}};
    return {{QStringLiteral("apiVersion"), QStringLiteral("apps/v1")},
        {QStringLiteral("kind"), QStringLiteral("Deployment")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("labels"), labels}}},
        {QStringLiteral("spec"),
            QJsonObject{{QStringLiteral("replicas"), 0},
                {QStringLiteral("selector"), QJsonObject{{QStringLiteral("matchLabels"), labels}}},
                {QStringLiteral("template"),
                    QJsonObject{{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("labels"), labels}}},
                        {QStringLiteral("spec"),
                            QJsonObject{{QStringLiteral("containers"), QJsonArray{container}}}}}}}}};
}

/// Creates Deployments from its own thread (its own RestClient), `concurrency` at a time.
class Populator : public QObject
{
    Q_OBJECT
public:
    Populator(QString kubeconfig, int count, int concurrency)
        : m_kubeconfig(std::move(kubeconfig))
        , m_count(count)
        , m_concurrency(concurrency)
    { }

    /// Runs on the populator thread; emits done() when every create has answered.
    void start()
    {
        auto config = loadConfig(m_kubeconfig);
        if (!config.ok()) {
            Q_EMIT done(0, config.error().message());
            return;
        }
        m_client = std::make_unique<RestClient>(std::move(*config));
        m_running = m_concurrency;
        for (int w = 0; w < m_concurrency; ++w)
            worker();
    }

Q_SIGNALS:
    void done(int created, const QString &firstError);

private:
    QCoro::Task<> worker()
    {
        const GroupVersionResource gvr{QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("deployments")};
        while (m_next < m_count) {
            Object obj = Object::fromJson(deployment(m_next++));
            QString ns = QStringLiteral("default");
            auto r = co_await m_client->create(gvr, std::move(ns), std::move(obj));
            if (r.ok() || isAlreadyExists(r.error()))
                ++m_created;
            else if (m_firstError.isEmpty())
                m_firstError = r.error().toString();
        }
        if (--m_running == 0)
            Q_EMIT done(m_created, m_firstError);
    }

    QString m_kubeconfig;
    int m_count;
    int m_concurrency;
    std::unique_ptr<RestClient> m_client;
    int m_next = 0;
    int m_created = 0;
    int m_running = 0;
    QString m_firstError;
};

/// Records the gaps between ticks of a timer on the calling (UI) thread.
class Heartbeat : public QObject
{
public:
    explicit Heartbeat(int intervalMs)
        : m_interval(intervalMs)
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(intervalMs);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const double cpu = threadCpuMs();
            const double gap = double(m_clock.nsecsElapsed()) / 1e6;
            m_gapsMs.append(gap);
            m_busyMs = std::max(m_busyMs, cpu - m_lastCpuMs);
            if (gap > m_worstGapMs) {
                m_worstGapMs = gap;
                m_worstGapCpuMs = cpu - m_lastCpuMs;
            }
            m_lastCpuMs = cpu;
            m_clock.restart();
        });
    }
    void start()
    {
        m_lastCpuMs = threadCpuMs();
        m_clock.start();
        m_timer.start();
    }
    /// The most CPU time the UI thread spent between two ticks (its own work, not waiting for a core).
    double maxBusyMs() const { return m_busyMs; }
    /// CPU time the UI thread spent during the worst gap (the rest it waited for a core).
    double worstGapCpuMs() const { return m_worstGapCpuMs; }
    void stop() { m_timer.stop(); }
    /// Stall = gap - interval (>= 0), in ms; `quantile` in [0, 1].
    double stall(double quantile) const
    {
        if (m_gapsMs.isEmpty())
            return 0;
        QList<double> sorted = m_gapsMs;
        std::sort(sorted.begin(), sorted.end());
        const auto i = qsizetype(quantile * double(sorted.size() - 1));
        return std::max(0.0, sorted.at(i) - m_interval);
    }
    qsizetype ticks() const { return m_gapsMs.size(); }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    static double threadCpuMs()
    {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
    }

    QList<double> m_gapsMs;
    double m_interval;
    double m_lastCpuMs = 0;
    double m_busyMs = 0;
    double m_worstGapMs = 0;
    double m_worstGapCpuMs = 0;
};

struct Run
{
    int objects = 10000;
    int concurrency = 6;
    int intervalMs = 5;
    int timeoutS = 300;
    qint64 shownMs = -1;
    qint64 populatedMs = -1;
    int created = 0;
    QString error;
};

std::unique_ptr<QCoreApplication> makeGuiApp(int &argc, char **argv)
{
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication::setOrganizationName(QStringLiteral("opbench-bench"));
    QApplication::setApplicationName(QStringLiteral("gui-stall"));
    return std::make_unique<QApplication>(argc, argv);
}

void measure(Run &run, ui::MainWindow &window, const QString &kubeconfigPath)
{
    Heartbeat heartbeat(run.intervalMs);
    QThread thread;
    auto *populator = new Populator(kubeconfigPath, run.objects, run.concurrency);
    populator->moveToThread(&thread);
    QObject::connect(&thread, &QThread::finished, populator, &QObject::deleteLater);
    QElapsedTimer clock;
    auto finishIfDone = [&run] {
        if (run.shownMs >= 0 && run.populatedMs >= 0)
            QTimer::singleShot(1000, qApp, &QCoreApplication::quit); // one more second of updates
    };
    QObject::connect(populator, &Populator::done, qApp, [&](int created, const QString &error) {
        run.created = created;
        run.error = error;
        run.populatedMs = clock.elapsed();
        finishIfDone();
    });
    QObject::connect(window.session()->cacheFeed(), &workbench::CacheFeed::batch, qApp, [&] {
        if (run.shownMs < 0 && window.cacheModel()->objectCount(QStringLiteral("Deployment")) >= run.objects) {
            run.shownMs = clock.elapsed();
            finishIfDone();
        }
    });
    QTimer::singleShot(run.timeoutS * 1000, qApp, [&run] {
        run.error = QStringLiteral("timed out after %1 s").arg(run.timeoutS);
        QCoreApplication::exit(1);
    });
    thread.start();
    heartbeat.start();
    clock.start();
    QMetaObject::invokeMethod(populator, &Populator::start);
    QCoreApplication::exec();
    heartbeat.stop();
    thread.quit();
    thread.wait();
    bench::printJson({{QStringLiteral("objects"), run.objects}, {QStringLiteral("created"), run.created},
        {QStringLiteral("seconds_to_show_all"), run.shownMs < 0 ? -1.0 : double(run.shownMs) / 1000.0},
        {QStringLiteral("seconds_to_create"), run.populatedMs < 0 ? -1.0 : double(run.populatedMs) / 1000.0},
        {QStringLiteral("max_stall_ms"), ms2(heartbeat.stall(1.0))},
        {QStringLiteral("p99_stall_ms"), ms2(heartbeat.stall(0.99))},
        {QStringLiteral("max_stall_ui_cpu_ms"), ms2(heartbeat.worstGapCpuMs())},
        {QStringLiteral("max_ui_busy_ms"), ms2(heartbeat.maxBusyMs())},
        {QStringLiteral("heartbeat_ms"), run.intervalMs}, {QStringLiteral("ticks"), double(heartbeat.ticks())},
        {QStringLiteral("objects_in_tree"), window.cacheModel()->objectCount()}});
}

int run(const QStringList &args)
{
    QTextStream err(stderr);
    Run r;
    r.objects = bench::option(args, QStringLiteral("--objects"), QStringLiteral("10000")).toInt();
    r.concurrency = bench::option(args, QStringLiteral("--concurrency"), QStringLiteral("6")).toInt();
    r.intervalMs = bench::option(args, QStringLiteral("--interval-ms"), QStringLiteral("5")).toInt();
    r.timeoutS = bench::option(args, QStringLiteral("--timeout"), QStringLiteral("300")).toInt();
    ui::MainWindow window(ui::SessionOptions{});
    window.resize(1400, 900);
    window.show();
    // Start measuring once the informers synced the samples (start-up is not the sync under test).
    QElapsedTimer startup;
    startup.start();
    while (window.cacheModel()->syncedCount() < 4 || window.session()->kubeconfig().isEmpty()) {
        if (startup.elapsed() > 60000) {
            err << "gui-stall: the embedded cluster did not sync within 60 s\n";
            return 1;
        }
        QEventLoop wait;
        QTimer::singleShot(50, &wait, &QEventLoop::quit);
        wait.exec();
    }
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("kubeconfig"));
    if (auto ok = window.session()->writeKubeconfig(path); !ok) {
        err << "gui-stall: " << ok.error().message() << '\n';
        return 1;
    }
    measure(r, window, path);
    if (!r.error.isEmpty())
        err << "gui-stall: " << r.error << '\n';
    return r.shownMs >= 0 && r.created == r.objects ? 0 : 1;
}

const bench::Registrar registrar("gui-stall",
    "worst UI-thread stall of the workbench window while N Deployments sync (--objects, offscreen)", &run, &makeGuiApp);

} // namespace

#include "guistall.moc"
