// SPDX-License-Identifier: Apache-2.0
// opbench-bench reconcile [--apps N] [--max-concurrent-reconciles C] [--replicas R]
//                         [--pod-ready-delay MS] [--creators K] [--record PATH]
// The whole loop in one process: an embedded API server (plain HTTP, its own thread, workload
// simulator on) plus a Manager running the MyApplication operator over real HTTP. Creates N
// MyApplications at once (K concurrent creators) and times until every one is Running, i.e. its
// Deployment reports all replicas available. Prints one JSON line:
//   apps, seconds, apps_per_second          the headline (creation included)
//   create_seconds                          until the last create returned
//   reconciles, reconcile_errors, requeues  from the controller's traces
//   api_writes / api_reads_live             client calls in the traces (cache reads excluded)
//   writes_by_verb                          {"create":…, "updateStatus":…}
//   server_requests                         requests the API server served (all clients)
//   server_thread_cpu_seconds               CPU of the API server's thread (HTTP, store,
//                                           watches, workload simulator, GC)
//   operator_thread_cpu_seconds             CPU of the operator's thread (client, informers,
//                                           queue, reconciles)
//   reconcile_seconds_sum / _mean_ms        sum of reconcile durations (awaits included)
//   peak_rss_bytes
//   record_bytes, record_records,           with --record PATH (engine/recording): the run is
//   record_reconciles, record_events        recorded as `--record` does; compare the figures
//                                           above with and without it for its overhead
//                                           (bench/recording-figures.sh counts it). Its cost
//                                           probe is named reconcile_recorded, not reconcile
// Where the time goes (N=5000, 2 cores, quiet machine, c38c449): ~0.85 ms of API server thread
// CPU per app (about 40 % of it the workload simulator's six writes per app: ReplicaSet create +
// status, pod create + status, the Deployment's revision annotation and one status; the rest
// HTTP handling) and ~0.65 ms of operator thread per app (two reconciles, one create, two status
// writes, one Event); the two threads and the kernel's loopback traffic share the 2 cores.
// Compare the *_cpu_seconds figures with `seconds` to see how much of the wall time other
// processes took.
#include "bench/bench.h"
#include "bench/costprobe.h"
#include "bench/serverthread.h"

#include "engine/recording/runrecorder.h"

#include "engine/apiserver/apiserver.h"
#include "engine/client/restclient.h"
#include "engine/controller/controller.h"
#include "engine/manager/manager.h"
#include "engine/manager/zaplogging.h"
#include "engine/operator/definition.h"
#include "engine/operator/myapplication.h"
#include "engine/operator/setup.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>

#include <qcoro/qcorotask.h>

using namespace opbench;
using namespace opbench::myapp;

namespace {

struct Figures
{
    int apps = 0;
    int replicas = 1;
    int nextToCreate = 0;
    int creatorsRunning = 0;
    int created = 0;
    double createSeconds = 0;
    QString firstError;
    QSet<QString> running;
    qint64 reconciles = 0, errors = 0, requeues = 0, liveReads = 0;
    QHash<QString, qint64> writes;
    double reconcileSeconds = 0;
    QElapsedTimer timer;
};

QCoro::Task<> creator(RestClient *rest, Figures *f)
{
    while (f->nextToCreate < f->apps) {
        const int i = f->nextToCreate++;
        MyApplication app;
        app.meta().setName(QStringLiteral("bench-%1").arg(i, 5, 10, QLatin1Char('0')));
        app.meta().setNamespace(QStringLiteral("default"));
        app.setImage(QStringLiteral("registry.example.com/bench/app:1.%1").arg(i % 7));
        app.setReplicas(f->replicas);
        // Locals moved in: g++ 12 mis-destroys temporaries built inside a co_await argument list.
        Object obj = app.toObject();
        QString ns = QStringLiteral("default");
        GroupVersionResource gvr = myapp::resource();
        Expected<Object> r = co_await rest->create(std::move(gvr), std::move(ns), std::move(obj));
        if (r.ok())
            ++f->created;
        else if (f->firstError.isEmpty())
            f->firstError = r.error().toString();
    }
    if (--f->creatorsRunning == 0) {
        f->createSeconds = double(f->timer.nsecsElapsed()) / 1e9;
        if (f->running.size() == f->apps)
            QCoreApplication::exit(0);
    }
}

void count(Figures *f, const ReconcileTrace &t)
{
    ++f->reconciles;
    f->reconcileSeconds += std::chrono::duration<double>(t.duration).count();
    if (t.result == ReconcileTrace::Result::Error || t.result == ReconcileTrace::Result::TerminalError)
        ++f->errors;
    if (t.result == ReconcileTrace::Result::Requeue || t.result == ReconcileTrace::Result::RequeueAfter)
        ++f->requeues;
    for (const TraceCall &c : t.calls) {
        if (c.verb == QLatin1String("get") || c.verb == QLatin1String("list")) {
            if (!c.fromCache)
                ++f->liveReads;
        } else {
            ++f->writes[c.verb];
        }
    }
}

void track(Figures *f, const CacheChange &change)
{
    if (change.type == CacheChange::Type::Deleted)
        return;
    if (MyApplication(change.newObject).phase() == Phase::Running)
        f->running.insert(change.key);
    else
        f->running.remove(change.key);
    if (f->running.size() == f->apps && f->creatorsRunning == 0)
        QCoreApplication::exit(0);
}

struct Settings
{
    int apps = 1000;
    int replicas = 1;
    // Best measured at N=5000 on 2 cores, load ~3: 2 → 235, 4 → 287, 8 → 306-332, 16 → 293,
    // 32 → 248 apps/s. Fewer workers leave the pipeline latency-bound (2 × ~4 ms reconciles).
    int maxConcurrent = 8;
    int creators = 6;
    int podReadyDelayMs = 0;
    int timeoutSeconds = 600;
    QString recordPath;
};

Settings parse(const QStringList &args)
{
    Settings s;
    s.apps = bench::option(args, QStringLiteral("--apps"), QStringLiteral("1000")).toInt();
    s.replicas = bench::option(args, QStringLiteral("--replicas"), QStringLiteral("1")).toInt();
    s.maxConcurrent = bench::option(args, QStringLiteral("--max-concurrent-reconciles"), QStringLiteral("8")).toInt();
    s.creators = bench::option(args, QStringLiteral("--creators"), QStringLiteral("6")).toInt();
    s.podReadyDelayMs = bench::option(args, QStringLiteral("--pod-ready-delay"), QStringLiteral("0")).toInt();
    s.timeoutSeconds = bench::option(args, QStringLiteral("--timeout"), QStringLiteral("600")).toInt();
    s.recordPath = bench::option(args, QStringLiteral("--record"), QString());
    return s;
}

QJsonObject report(const Settings &s, const Figures &f, double seconds, bench::ServerThread &server, double operatorCpu)
{
    QJsonObject writes;
    qint64 totalWrites = 0;
    for (auto it = f.writes.begin(); it != f.writes.end(); ++it) {
        writes.insert(it.key(), it.value());
        totalWrites += it.value();
    }
    return {{QStringLiteral("apps"), s.apps}, {QStringLiteral("seconds"), seconds},
        {QStringLiteral("apps_per_second"), double(s.apps) / seconds},
        {QStringLiteral("running"), int(f.running.size())}, {QStringLiteral("create_seconds"), f.createSeconds},
        {QStringLiteral("max_concurrent_reconciles"), s.maxConcurrent}, {QStringLiteral("replicas"), s.replicas},
        {QStringLiteral("pod_ready_delay_ms"), s.podReadyDelayMs}, {QStringLiteral("reconciles"), f.reconciles},
        {QStringLiteral("reconcile_errors"), f.errors}, {QStringLiteral("requeues"), f.requeues},
        {QStringLiteral("api_writes"), totalWrites}, {QStringLiteral("writes_by_verb"), writes},
        {QStringLiteral("api_reads_live"), f.liveReads}, {QStringLiteral("server_requests"), qint64(server.requests())},
        {QStringLiteral("server_thread_cpu_seconds"), server.cpuSeconds()},
        {QStringLiteral("operator_thread_cpu_seconds"), operatorCpu},
        {QStringLiteral("reconcile_seconds_sum"), f.reconcileSeconds},
        {QStringLiteral("reconcile_mean_ms"), f.reconciles ? 1000.0 * f.reconcileSeconds / double(f.reconciles) : 0.0},
        {QStringLiteral("peak_rss_bytes"), bench::peakRssBytes()}};
}

QCoro::Task<Expected<void>> startManager(Manager *mgr) { co_return co_await mgr->start(); }

int run(const QStringList &args)
{
    QTextStream err(stderr);
    const Settings s = parse(args);
    ZapOptions zo;
    (void)zo.parseLevel(QStringLiteral("error"));
    static ZapSink sink(zo);
    ZapSink::install(&sink);

    apiserver::ApiServerOptions so;
    so.plainHttp = true;
    so.podReadyDelayMs = s.podReadyDelayMs;
    // The simulated kubelet's and controllers' Events are the test cluster's work, done on other
    // machines in a real one: they are left out of the operator's throughput.
    so.simulatedEvents = false;
    so.watchHistory = std::max(10000, s.apps * 12);
    so.crds = {myapp::crdYaml()};
    bench::ServerThread server(so);
    QTemporaryDir dir;
    const QString kubeconfig = dir.filePath(QStringLiteral("kubeconfig"));
    if (auto started = server.start(kubeconfig); !started) {
        err << "reconcile: embedded API server: " << started.error().message() << '\n';
        return 2;
    }
    Expected<RestConfig> cfg = loadConfig(kubeconfig);
    if (!cfg) {
        err << "reconcile: " << cfg.error().message() << '\n';
        return 2;
    }
    ManagerOptions mo;
    mo.restConfig = *cfg;
    auto mgr = Manager::create(mo);
    if (!mgr) {
        err << "reconcile: " << mgr.error().message() << '\n';
        return 2;
    }
    Expected<Controller *> ctrl = setupWithManager(mgr->get(), {s.maxConcurrent});
    if (!ctrl) {
        err << "reconcile: " << ctrl.error().message() << '\n';
        return 2;
    }
    std::unique_ptr<RunRecorder> recorder;
    if (!s.recordPath.isEmpty()) {
        RunRecorderOptions ro;
        ro.path = s.recordPath;
        ro.maxBytes = 0;
        ro.operatorName = QStringLiteral("myapplication");
        ro.crds = {myapp::crdYaml()};
        recorder = std::make_unique<RunRecorder>(ro);
        if (auto ok = recorder->start(mgr->get()); !ok) {
            err << "reconcile: --record: " << ok.error().message() << '\n';
            return 2;
        }
    }
    Figures f;
    f.apps = s.apps;
    f.replicas = s.replicas;
    QObject::connect(*ctrl, &Controller::reconcileFinished, qApp, [&f](const ReconcileTrace &t) { count(&f, t); });
    Expected<void> started = QCoro::waitFor(startManager(mgr->get()));
    if (!started) {
        err << "reconcile: manager: " << started.error().message() << '\n';
        return 2;
    }
    Expected<Informer *> appInformer = (*mgr)->cache()->informerFor(kMyApplicationGvk);
    if (appInformer)
        QObject::connect(*appInformer, &Informer::changed, qApp, [&f](const CacheChange &c) { track(&f, c); });
    RestClient rest(*cfg);
    const double cpu0 = bench::threadCpuSeconds();
    // For bench/cost-guard.sh and bench/recording-figures.sh (costprobe.h).
    bench::CostProbe probe(s.recordPath.isEmpty() ? QStringLiteral("reconcile") : QStringLiteral("reconcile_recorded"));
    f.timer.start();
    f.creatorsRunning = s.creators;
    for (int i = 0; i < s.creators; ++i)
        creator(&rest, &f);
    QTimer::singleShot(std::chrono::seconds(s.timeoutSeconds), qApp, [] { QCoreApplication::exit(1); });
    const int rc = QCoreApplication::exec();
    probe.end();
    const double seconds = double(f.timer.nsecsElapsed()) / 1e9;
    const double operatorCpu = bench::threadCpuSeconds() - cpu0;
    if (!f.firstError.isEmpty())
        err << "reconcile: first create error: " << f.firstError << '\n';
    if (rc != 0)
        err << "reconcile: timed out after " << s.timeoutSeconds << " s with " << f.running.size() << " of " << s.apps
            << " Running\n";
    QJsonObject out = report(s, f, seconds, server, operatorCpu);
    if (recorder) {
        recorder->flush();
        out.insert(QStringLiteral("record_bytes"), recorder->bytesWritten());
        out.insert(QStringLiteral("record_records"), recorder->recordsWritten());
        out.insert(QStringLiteral("record_reconciles"), recorder->reconcilesRecorded());
        out.insert(QStringLiteral("record_events"), recorder->eventsRecorded());
        recorder->stop();
    }
    bench::printJson(out);
    bool stopped = false;
    QObject::connect(mgr->get(), &Manager::finished, qApp, [&stopped] { stopped = true; });
    (*mgr)->stop();
    while (!stopped)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    ZapSink::install(nullptr);
    return rc;
}

const bench::Registrar registrar("reconcile",
    "N MyApplications through the operator to Running against an in-process API server "
    "(--apps, --max-concurrent-reconciles, --replicas, --pod-ready-delay)",
    &run);

} // namespace
