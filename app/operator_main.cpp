// SPDX-License-Identifier: Apache-2.0
// opbench-operator: the MyApplication operator, headless (in-cluster or with a kubeconfig).
// Flags follow the kubebuilder scaffold; see docs in architecture.md and `--help`.
#include "engine/api/allocator.h"
#include "engine/apiserver/apiserver.h"
#include "engine/client/restconfig.h"
#include "engine/controller/controller.h"
#include "engine/controller/logger.h"
#include "engine/controller/reconciletrace.h"
#include "engine/manager/manager.h"
#include "engine/manager/signalhandler.h"
#include "engine/manager/zaplogging.h"
#include "engine/operator/myapplication.h"
#include "engine/operator/preflight.h"
#include "engine/operator/samples.h"
#include "engine/operator/setup.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QTemporaryDir>

#include <cstdio>
#include <memory>

using namespace opbench;
namespace ExitCode = opbench::myapp::ExitCode;

namespace {

struct Flags
{
    QString kubeconfig, context, namespaceName, leaderElectionId, leaderElectionNamespace, identity;
    QString metricsBindAddress, healthProbeBindAddress, traceFile;
    int maxConcurrent = 1;
    bool leaderElect = false;
    bool embedded = false;
};

void fail(int code, const QString &message)
{
    Logger().withName(QStringLiteral("setup")).error(message, QStringLiteral("unable to start the operator"));
    std::fprintf(stderr, "opbench-operator: %s\n", qPrintable(message));
    std::fflush(stderr);
    QCoreApplication::exit(code);
}

// Everything after flag parsing runs here, on the event loop.
QCoro::Task<void> run(Flags flags, RestConfig config, apiserver::ApiServer *embedded, TraceWriter *traceWriter)
{
    auto probe = std::make_unique<RestClient>(config);
    if (embedded) {
        for (const Object &app : myapp::sampleApplications()) {
            GroupVersionResource gvr = myapp::resource();
            (void)co_await probe->create(std::move(gvr), app.namespaceName(), app);
        }
    }
    const PreflightResult pre = co_await opbench::preflight(probe.get(), myapp::preflightSpec(flags.namespaceName));
    if (!pre.ok()) {
        const int code = myapp::exitCodeOf(pre.outcome);
        fail(code, code == ExitCode::Unreachable
                       ? QStringLiteral("no cluster reachable: %1 Start one, or pass --kubeconfig/--context, or use "
                                        "--embedded for a demo without a cluster.").arg(pre.message)
                       : pre.message);
        co_return;
    }
    ManagerOptions mo;
    mo.restConfig = config;
    mo.namespaceName = flags.namespaceName;
    mo.leaderElection = flags.leaderElect;
    mo.leaderElectionId = flags.leaderElectionId;
    mo.leaderElectionNamespace = flags.leaderElectionNamespace;
    if (mo.leaderElectionNamespace.isEmpty() && (embedded || !config.source.startsWith(QLatin1String("in-cluster"))))
        mo.leaderElectionNamespace = config.namespaceName; // out of cluster: the context's namespace
    mo.identity = flags.identity;
    mo.metricsBindAddress = flags.metricsBindAddress;
    mo.healthProbeBindAddress = flags.healthProbeBindAddress;
    auto created = Manager::create(mo, QCoreApplication::instance());
    if (!created) {
        fail(ExitCode::Usage, created.error().message());
        co_return;
    }
    Manager *mgr = created->release();
    auto ctrl = myapp::setupWithManager(mgr, {flags.maxConcurrent});
    if (!ctrl) {
        fail(ExitCode::Failure, QStringLiteral("unable to create controller myapplication: ") + ctrl.error().message());
        co_return;
    }
    if (traceWriter)
        QObject::connect(*ctrl, &Controller::reconcileFinished, traceWriter, &TraceWriter::write);
    mgr->addHealthzCheck(QStringLiteral("healthz"), pingCheck);
    mgr->addReadyzCheck(QStringLiteral("readyz"), pingCheck);
    auto *sigs = new SignalHandler(mgr);
    QObject::connect(sigs, &SignalHandler::terminationRequested, mgr, [mgr](int) {
        Logger().withName(QStringLiteral("setup")).info(QStringLiteral("Shutdown signal received, waiting for all workers to finish"));
        mgr->stop(0);
    });
    QObject::connect(mgr, &Manager::finished, QCoreApplication::instance(), [](int code, const QString &reason) {
        if (code != 0)
            std::fprintf(stderr, "opbench-operator: %s\n", qPrintable(reason));
        QCoreApplication::exit(code);
    });
    Logger().withName(QStringLiteral("setup")).info(QStringLiteral("starting manager"),
        {{QStringLiteral("server"), config.server.toString()}, {QStringLiteral("config"), config.source}});
    const Expected<void> started = co_await mgr->start();
    if (!started)
        fail(ExitCode::Failure, QStringLiteral("problem running manager: ") + started.error().message());
}

void addOptions(QCommandLineParser &p)
{
    p.addOptions({
        {QStringLiteral("kubeconfig"), QStringLiteral("Path to a kubeconfig (else KUBECONFIG, in-cluster, ~/.kube/config)."), QStringLiteral("path")},
        {QStringLiteral("context"), QStringLiteral("The kubeconfig context to use."), QStringLiteral("name")},
        {QStringLiteral("namespace"), QStringLiteral("Only watch this namespace (default: all)."), QStringLiteral("ns")},
        {QStringLiteral("max-concurrent-reconciles"), QStringLiteral("Reconciles in flight at once."), QStringLiteral("n"), QStringLiteral("1")},
        {QStringLiteral("leader-elect"), QStringLiteral("Enable leader election: only one replica reconciles.")},
        {QStringLiteral("leader-election-id"), QStringLiteral("Name of the leader-election Lease."), QStringLiteral("id"), myapp::leaseName()},
        {QStringLiteral("leader-election-namespace"), QStringLiteral("Namespace of the Lease (default: the service-account or context namespace)."), QStringLiteral("ns")},
        {QStringLiteral("identity"), QStringLiteral("Leader-election identity (default: hostname_uuid)."), QStringLiteral("id")},
        {QStringLiteral("metrics-bind-address"), QStringLiteral("Address of /metrics; 0 disables."), QStringLiteral("addr"), QStringLiteral("0")},
        {QStringLiteral("health-probe-bind-address"), QStringLiteral("Address of /healthz and /readyz."), QStringLiteral("addr"), QStringLiteral(":8081")},
        {QStringLiteral("zap-log-level"), QStringLiteral("debug, info, error, or an integer verbosity."), QStringLiteral("level"), QStringLiteral("info")},
        {QStringLiteral("zap-encoder"), QStringLiteral("json or console."), QStringLiteral("encoder"), QStringLiteral("json")},
        {QStringLiteral("embedded"), QStringLiteral("Start an embedded API server with sample apps (demo without a cluster).")},
        {QStringLiteral("trace-file"), QStringLiteral("Write every reconcile trace as a JSON line to this file."), QStringLiteral("path")},
    });
}

} // namespace

int main(int argc, char **argv)
{
    opbench::configureAllocator();
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("opbench-operator"));
    QCoreApplication::setApplicationVersion(QStringLiteral(OPBENCH_VERSION));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("The MyApplication operator, headless (in-cluster or with a kubeconfig)."));
    parser.addHelpOption();
    parser.addVersionOption();
    addOptions(parser);
    parser.process(app);

    ZapOptions zo;
    if (auto ok = zo.parseLevel(parser.value(QStringLiteral("zap-log-level"))); !ok)
        return std::fprintf(stderr, "opbench-operator: %s\n", qPrintable(ok.error().message())), ExitCode::Usage;
    if (auto ok = zo.parseEncoder(parser.value(QStringLiteral("zap-encoder"))); !ok)
        return std::fprintf(stderr, "opbench-operator: %s\n", qPrintable(ok.error().message())), ExitCode::Usage;
    static ZapSink sink(zo);
    ZapSink::install(&sink);

    Flags f;
    f.kubeconfig = parser.value(QStringLiteral("kubeconfig"));
    f.context = parser.value(QStringLiteral("context"));
    f.namespaceName = parser.value(QStringLiteral("namespace"));
    f.leaderElect = parser.isSet(QStringLiteral("leader-elect"));
    f.leaderElectionId = parser.value(QStringLiteral("leader-election-id"));
    f.leaderElectionNamespace = parser.value(QStringLiteral("leader-election-namespace"));
    f.identity = parser.value(QStringLiteral("identity"));
    f.metricsBindAddress = parser.value(QStringLiteral("metrics-bind-address"));
    f.healthProbeBindAddress = parser.value(QStringLiteral("health-probe-bind-address"));
    f.embedded = parser.isSet(QStringLiteral("embedded"));
    f.traceFile = parser.value(QStringLiteral("trace-file"));
    bool ok = false;
    f.maxConcurrent = parser.value(QStringLiteral("max-concurrent-reconciles")).toInt(&ok);
    if (!ok || f.maxConcurrent < 1)
        return std::fprintf(stderr, "opbench-operator: --max-concurrent-reconciles must be an integer >= 1\n"), ExitCode::Usage;

    std::unique_ptr<apiserver::ApiServer> embedded;
    QTemporaryDir tmp;
    QString kubeconfig = f.kubeconfig;
    if (f.embedded) {
        embedded = std::make_unique<apiserver::ApiServer>();
        if (auto started = embedded->start(); !started)
            return std::fprintf(stderr, "opbench-operator: embedded API server: %s\n", qPrintable(started.error().message())), ExitCode::Failure;
        kubeconfig = tmp.filePath(QStringLiteral("kubeconfig"));
        if (auto w = embedded->writeKubeconfig(kubeconfig); !w)
            return std::fprintf(stderr, "opbench-operator: %s\n", qPrintable(w.error().message())), ExitCode::Failure;
        Logger().withName(QStringLiteral("setup")).info(QStringLiteral("embedded API server started"),
                                                        {{QStringLiteral("url"), embedded->url().toString()}});
    }
    Expected<RestConfig> config = loadConfig(kubeconfig, f.context);
    if (!config)
        return std::fprintf(stderr, "opbench-operator: no usable cluster configuration: %s\n", qPrintable(config.error().message())),
               ExitCode::Usage;
    std::unique_ptr<TraceWriter> trace;
    if (!f.traceFile.isEmpty()) {
        trace = std::make_unique<TraceWriter>(f.traceFile);
        if (QString why; !trace->open(&why))
            return std::fprintf(stderr, "opbench-operator: --trace-file: %s\n", qPrintable(why)), ExitCode::Usage;
    }
    run(f, config.value(), embedded.get(), trace.get());
    const int code = app.exec();
    // The manager (a child of the application) owns network managers whose threads close their TLS
    // sockets on exit: delete it while the application object is still whole, or Qt warns then.
    qDeleteAll(app.findChildren<Manager *>(Qt::FindDirectChildrenOnly));
    ZapSink::install(nullptr);
    return code;
}
