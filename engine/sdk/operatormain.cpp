// SPDX-License-Identifier: Apache-2.0
#include "engine/sdk/operatormain.h"

#include "engine/api/restmapper.h"
#include "engine/api/version.h"
#include "engine/base/allocator.h"
#include "engine/base/logger.h"
#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"
#include "engine/controller/controller.h"
#include "engine/controller/reconciletrace.h"
#include "engine/manager/manager.h"
#include "engine/manager/signalhandler.h"
#include "engine/manager/zaplogging.h"
#include "engine/sdk/embeddedcluster.h"
#include "engine/sdk/localwebhooks.h"
#include "engine/sdk/recordingflags.h"
#include "engine/webhook/webhookserver.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QPointer>
#include <QTemporaryDir>

#include <cstdio>
#include <memory>

namespace opbench {

namespace {

struct Flags
{
    QString kubeconfig, context, namespaceName, leaderElectionId, leaderElectionNamespace, identity;
    QString metricsBindAddress, healthProbeBindAddress, traceFile, webhookCertDir;
    QString recordPath;                         // --record (engine/recording)
    qint64 recordMaxBytes = 64LL * 1024 * 1024; // --record-max-bytes
    QByteArray recordingToken;                  // --recording-token / OPBENCH_RECORDING_TOKEN
    int maxConcurrent = 1;
    int webhookPort = 9443;
    bool leaderElect = false;
    bool controllerWarmup = false;
    bool embedded = false;
};

QString program() { return QCoreApplication::applicationName(); }

void fail(int code, const QString &message)
{
    Logger().withName(QStringLiteral("setup")).error(message, QStringLiteral("unable to start the operator"));
    std::fprintf(stderr, "%s: %s\n", qPrintable(program()), qPrintable(message));
    std::fflush(stderr);
    QCoreApplication::exit(code);
}

QCoro::Task<PreflightResult> check(RestClient *client, const OperatorDefinition &def, RestMapper mapper, QString ns)
{
    auto spec = preflightSpecFor(def, mapper, ns, {});
    if (!spec) {
        PreflightResult r;
        r.outcome = PreflightResult::Outcome::Failed;
        r.message = spec.error().message();
        co_return r;
    }
    co_return co_await preflight(client, std::move(spec.value()));
}

// The Manager's options from the flags (out of cluster, the lease lives in the context's namespace).
ManagerOptions managerOptions(const Flags &flags, const RestConfig &config, bool embedded)
{
    ManagerOptions mo;
    mo.restConfig = config;
    mo.namespaceName = flags.namespaceName;
    mo.leaderElection = flags.leaderElect;
    mo.leaderElectionId = flags.leaderElectionId;
    mo.leaderElectionNamespace = flags.leaderElectionNamespace;
    if (mo.leaderElectionNamespace.isEmpty() && (embedded || !config.source.startsWith(QLatin1String("in-cluster"))))
        mo.leaderElectionNamespace = config.namespaceName; // out of cluster: the context's namespace
    mo.identity = flags.identity;
    mo.maxConcurrentReconciles = flags.maxConcurrent;
    mo.controllerWarmup = flags.controllerWarmup;
    mo.metricsBindAddress = flags.metricsBindAddress;
    mo.healthProbeBindAddress = flags.healthProbeBindAddress;
    mo.webhookPort = flags.webhookPort;
    mo.webhookCertDir = flags.webhookCertDir;
    return mo;
}

// Traces, health checks, SIGTERM/SIGINT and the exit code of a created manager.
void wireManager(Manager *mgr, TraceWriter *traceWriter, Controller *ctrl)
{
    if (traceWriter && ctrl)
        QObject::connect(ctrl, &Controller::reconcileFinished, traceWriter, &TraceWriter::write);
    mgr->addHealthzCheck(QStringLiteral("healthz"), pingCheck);
    mgr->addReadyzCheck(QStringLiteral("readyz"), pingCheck);
    auto *sigs = new SignalHandler(mgr);
    QObject::connect(sigs, &SignalHandler::terminationRequested, mgr, [mgr](int) {
        Logger()
            .withName(QStringLiteral("setup"))
            .info(QStringLiteral("Shutdown signal received, waiting for all workers to finish"));
        mgr->stop(0);
    });
    QObject::connect(mgr, &Manager::finished, QCoreApplication::instance(), [](int code, const QString &reason) {
        if (code != 0)
            std::fprintf(stderr, "%s: %s\n", qPrintable(program()), qPrintable(reason));
        QCoreApplication::exit(code);
    });
}

// --embedded: the samples, created once the operator (and its webhooks) run ("already exists" is fine).
QCoro::Task<void> createSamples(RestClient *client, RestMapper mapper, QList<Object> samples)
{
    QPointer<RestClient> guard(client);
    for (const Object &sample : std::as_const(samples)) {
        const auto m = mapper.forKind(sample.gvk());
        if (!m || !guard)
            continue;
        GroupVersionResource gvr = m->gvr;
        const QString ns = m->namespaced
            ? (sample.namespaceName().isEmpty() ? QStringLiteral("default") : sample.namespaceName())
            : QString();
        (void)co_await guard->create(std::move(gvr), ns, sample);
    }
}

// On a real cluster the webhooks are served when their certificate is there (cert-manager
// mounts it) and ENABLE_WEBHOOKS (kubebuilder's switch) is not "false"; "true" requires them.
bool servesWebhooksOnCluster(const ManagerOptions &mo)
{
    const QByteArray env = qgetenv("ENABLE_WEBHOOKS");
    if (env == "false")
        return false;
    WebhookServerOptions o;
    o.certDir = mo.webhookCertDir;
    return env == "true" || QFileInfo::exists(QDir(o.effectiveCertDir()).filePath(o.certName));
}

// The manager with the controllers and, where they are served, the webhooks; nullptr after fail().
Manager *createManager(
    const Flags &flags, OperatorDefinition &def, const RestConfig &config, LocalWebhooks *local, Controller **observed)
{
    ManagerOptions mo = managerOptions(flags, config, local != nullptr);
    if (local)
        local->configure(mo);
    auto created = Manager::create(mo, QCoreApplication::instance());
    if (!created) {
        fail(ExitCodes::Usage, created.error().message());
        return nullptr;
    }
    Manager *mgr = created->release(); // a child of the application; deleted before it (runOperator)
    Expected<void> step = registerCrds(mgr->cache()->mapper(), def.crds);
    int code = ExitCodes::Usage;
    if (step) {
        code = ExitCodes::Failure;
        auto ctrl = runSetup(def, mgr); // also derives def.kinds from the controllers when it is empty
        step = ctrl ? Expected<void>()
                    : Status::badRequest(QStringLiteral("unable to create controller: ") + ctrl.error().message());
        if (ctrl)
            *observed = *ctrl;
    }
    if (step && (local || servesWebhooksOnCluster(mo))) {
        step = runWebhookSetup(def, mgr);
        if (step && local)
            step = local->prepare(mgr);
    }
    if (!step) {
        fail(code, step.error().message());
        return nullptr;
    }
    return mgr;
}

// --embedded: the running webhooks registered with the embedded API server.
QCoro::Task<bool> registerWebhooks(Manager *mgr, LocalWebhooks *local, QString operatorName)
{
    QPointer<Manager> guard(mgr);
    Expected<WebhookRegistration> reg = local->registration(mgr, operatorName);
    if (reg && !reg->isEmpty()) {
        const qsizetype count = reg->configurations.size() + reg->conversions.size();
        Expected<void> ok = co_await applyWebhookRegistration(mgr->restClient(), *reg);
        if (!ok)
            reg = ok.error();
        else if (guard)
            Logger()
                .withName(QStringLiteral("setup"))
                .info(QStringLiteral("webhooks registered with the embedded API server"),
                    {{QStringLiteral("objects"), QString::number(count)},
                        {QStringLiteral("certDir"), local->certDir()}});
    }
    if (!reg) {
        fail(ExitCodes::Failure, reg.error().message());
        if (guard)
            guard->stop(ExitCodes::Failure, reg.error().message());
        co_return false;
    }
    co_return true;
}

// Everything after flag parsing runs here, on the event loop.
QCoro::Task<void> run(
    Flags flags, OperatorDefinition def, RestConfig config, LocalWebhooks *local, TraceWriter *traceWriter)
{
    auto probe = std::make_unique<RestClient>(config);
    RestMapper mapper = RestMapper::withBuiltins();
    if (auto ok = registerCrds(mapper, def.crds); !ok) {
        fail(ExitCodes::Usage, ok.error().message());
        co_return;
    }
    const PreflightResult pre = co_await check(probe.get(), def, mapper, flags.namespaceName);
    if (!pre.ok()) {
        const int code = exitCodeOf(pre.outcome);
        fail(code,
            code == ExitCodes::Unreachable
                ? QStringLiteral("no cluster reachable: %1 Start one, or pass --kubeconfig/--context, or use "
                                 "--embedded for a demo without a cluster.")
                      .arg(pre.message)
                : pre.message);
        co_return;
    }
    Controller *observed = nullptr;
    Manager *mgr = createManager(flags, def, config, local, &observed);
    if (!mgr)
        co_return;
    wireManager(mgr, traceWriter, observed);
    if (!flags.recordPath.isEmpty()) {
        auto rec = startRecording(mgr, def, flags.recordPath, flags.recordMaxBytes);
        if (!rec) {
            fail(ExitCodes::Usage, QStringLiteral("--record: ") + rec.error().message());
            co_return;
        }
        serveRecording(mgr, *rec, flags.recordingToken);
    }
    Logger()
        .withName(QStringLiteral("setup"))
        .info(QStringLiteral("starting manager"),
            {{QStringLiteral("server"), config.server.toString()}, {QStringLiteral("config"), config.source}});
    const Expected<void> started = co_await mgr->start();
    if (!started) {
        fail(ExitCodes::Failure, QStringLiteral("problem running manager: ") + started.error().message());
        co_return;
    }
    if (local && co_await registerWebhooks(mgr, local, def.name))
        co_await createSamples(probe.get(), std::move(mapper), def.samples);
}

void addOptions(QCommandLineParser &p, const OperatorDefinition &def)
{
    const QString lease = def.leaseName.isEmpty() ? def.name + QStringLiteral("-operator") : def.leaseName;
    p.addOptions({
        {QStringLiteral("kubeconfig"),
            QStringLiteral("Path to a kubeconfig (else KUBECONFIG, in-cluster, ~/.kube/config)."),
            QStringLiteral("path")},
        {QStringLiteral("context"), QStringLiteral("The kubeconfig context to use."), QStringLiteral("name")},
        {QStringLiteral("namespace"),
            QStringLiteral("Only watch this namespace, or these (comma-separated; default: all)."),
            QStringLiteral("ns")},
        {QStringLiteral("max-concurrent-reconciles"),
            QStringLiteral("Reconciles in flight at once (controllers that take the manager's default)."),
            QStringLiteral("n"), QStringLiteral("1")},
        {QStringLiteral("leader-elect"), QStringLiteral("Enable leader election: only one replica reconciles.")},
        {QStringLiteral("controller-warmup"),
            QStringLiteral("With --leader-elect: list and watch the controllers' kinds before leading (faster "
                           "failover; every standby holds the caches).")},
        {QStringLiteral("leader-election-id"), QStringLiteral("Name of the leader-election Lease."),
            QStringLiteral("id"), lease},
        {QStringLiteral("leader-election-namespace"),
            QStringLiteral("Namespace of the Lease (default: the service-account or context namespace)."),
            QStringLiteral("ns")},
        {QStringLiteral("identity"), QStringLiteral("Leader-election identity (default: hostname_uuid)."),
            QStringLiteral("id")},
        {QStringLiteral("metrics-bind-address"), QStringLiteral("Address of /metrics; 0 disables."),
            QStringLiteral("addr"), QStringLiteral("0")},
        {QStringLiteral("health-probe-bind-address"), QStringLiteral("Address of /healthz and /readyz."),
            QStringLiteral("addr"), QStringLiteral(":8081")},
        {QStringLiteral("webhook-port"), QStringLiteral("Port of the webhook server (when webhooks are registered)."),
            QStringLiteral("port"), QStringLiteral("9443")},
        {QStringLiteral("webhook-cert-dir"),
            QStringLiteral("Folder with the webhook server's tls.crt and tls.key (default: "
                           "<tmp>/k8s-webhook-server/serving-certs)."),
            QStringLiteral("dir")},
        {QStringLiteral("zap-log-level"), QStringLiteral("debug, info, error, or an integer verbosity."),
            QStringLiteral("level"), QStringLiteral("info")},
        {QStringLiteral("zap-encoder"), QStringLiteral("json or console."), QStringLiteral("encoder"),
            QStringLiteral("json")},
        {QStringLiteral("embedded"),
            QStringLiteral("Start an embedded API server with the CRDs and samples (demo without a cluster).")},
        {QStringLiteral("trace-file"), QStringLiteral("Write every reconcile trace as a JSON line to this file."),
            QStringLiteral("path")},
        {QStringLiteral("record"),
            QStringLiteral("Record the run (events, reconciles, client calls; no secrets) to this file for --replay."),
            QStringLiteral("path")},
        {QStringLiteral("record-max-bytes"),
            QStringLiteral("Rotate the recording (to PATH.1) at this size; 0 = never."), QStringLiteral("bytes"),
            QStringLiteral("67108864")},
        {QStringLiteral("recording-token"),
            QStringLiteral("Serve the recording at GET /debug/recording on the metrics server to requests bearing this "
                           "token (also OPBENCH_RECORDING_TOKEN)."),
            QStringLiteral("token")},
        {QStringLiteral("replay"),
            QStringLiteral("Re-execute a recording headless, compare, print one JSON line; non-zero on divergence."),
            QStringLiteral("path")},
        {QStringLiteral("print-crd"),
            QStringLiteral(
                "Print the operator's CustomResourceDefinitions (YAML, generated from its types) and exit.")},
    });
}

Flags readFlags(const QCommandLineParser &p)
{
    Flags f;
    f.kubeconfig = p.value(QStringLiteral("kubeconfig"));
    f.context = p.value(QStringLiteral("context"));
    f.namespaceName = p.value(QStringLiteral("namespace"));
    f.leaderElect = p.isSet(QStringLiteral("leader-elect"));
    f.controllerWarmup = p.isSet(QStringLiteral("controller-warmup"));
    f.leaderElectionId = p.value(QStringLiteral("leader-election-id"));
    f.leaderElectionNamespace = p.value(QStringLiteral("leader-election-namespace"));
    f.identity = p.value(QStringLiteral("identity"));
    f.metricsBindAddress = p.value(QStringLiteral("metrics-bind-address"));
    f.healthProbeBindAddress = p.value(QStringLiteral("health-probe-bind-address"));
    f.embedded = p.isSet(QStringLiteral("embedded"));
    f.traceFile = p.value(QStringLiteral("trace-file"));
    f.recordPath = p.value(QStringLiteral("record"));
    f.recordMaxBytes = p.value(QStringLiteral("record-max-bytes")).toLongLong();
    f.recordingToken = p.isSet(QStringLiteral("recording-token")) ? p.value(QStringLiteral("recording-token")).toUtf8()
                                                                  : qgetenv("OPBENCH_RECORDING_TOKEN");
    f.webhookCertDir = p.value(QStringLiteral("webhook-cert-dir"));
    return f;
}

/// --print-crd: every CRD of the definition as one YAML stream (what opbench-gen writes to config/crd).
int printCrds(const OperatorDefinition &def)
{
    QByteArray out;
    for (const QByteArray &crd : def.crds) {
        if (!out.isEmpty())
            out += "---\n";
        out += crd;
        if (!crd.endsWith('\n'))
            out += '\n';
    }
    std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
    return ExitCodes::Ok;
}

int usage(const QString &message)
{
    std::fprintf(stderr, "%s: %s\n", qPrintable(program()), qPrintable(message));
    return ExitCodes::Usage;
}

} // namespace

int exitCodeOf(PreflightResult::Outcome outcome)
{
    using O = PreflightResult::Outcome;
    switch (outcome) {
    case O::Ok:
        return ExitCodes::Ok;
    case O::Unreachable:
    case O::Tls:
        return ExitCodes::Unreachable;
    case O::Unauthorized:
    case O::Forbidden:
        return ExitCodes::Denied;
    case O::ResourceMissing:
        return ExitCodes::CrdMissing;
    case O::Failed:
        break;
    }
    return ExitCodes::Failure;
}

int runOperator(int argc, char **argv, OperatorDefinition def)
{
    configureAllocator();
    QCoreApplication app(argc, argv);
    if (QCoreApplication::applicationVersion().isEmpty())
        QCoreApplication::setApplicationVersion(opbench::version());
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("The %1 operator, headless (in-cluster or with a kubeconfig).").arg(def.name));
    parser.addHelpOption();
    parser.addVersionOption();
    addOptions(parser, def);
    parser.process(app);
    if (parser.isSet(QStringLiteral("print-crd")))
        return printCrds(def);
    if (parser.isSet(QStringLiteral("replay")))
        return replayOperator(parser.value(QStringLiteral("replay")), std::move(def));

    ZapOptions zo;
    if (auto ok = zo.parseLevel(parser.value(QStringLiteral("zap-log-level"))); !ok)
        return usage(ok.error().message());
    if (auto ok = zo.parseEncoder(parser.value(QStringLiteral("zap-encoder"))); !ok)
        return usage(ok.error().message());
    static ZapSink sink(zo);
    ZapSink::install(&sink);

    Flags f = readFlags(parser);
    bool numeric = false;
    f.maxConcurrent = parser.value(QStringLiteral("max-concurrent-reconciles")).toInt(&numeric);
    if (!numeric || f.maxConcurrent < 1)
        return usage(QStringLiteral("--max-concurrent-reconciles must be an integer >= 1"));
    f.webhookPort = parser.value(QStringLiteral("webhook-port")).toInt(&numeric);
    if (!numeric || f.webhookPort < 0 || f.webhookPort > 65535)
        return usage(QStringLiteral("--webhook-port must be an integer from 0 to 65535"));
    std::unique_ptr<EmbeddedCluster> embedded;
    QTemporaryDir tmp;
    QString kubeconfig = f.kubeconfig;
    if (f.embedded) {
        embedded = makeEmbeddedCluster();
        if (!embedded)
            return usage(QStringLiteral("--embedded needs the embedded API server, which this executable does not "
                                        "carry: link opbench::embedded (CMake) to build it in"));
        if (auto started = embedded->start(); !started)
            return std::fprintf(stderr, "%s: embedded API server: %s\n", qPrintable(program()),
                       qPrintable(started.error().message())),
                   ExitCodes::Failure;
        for (const QByteArray &crd : std::as_const(def.crds))
            if (auto ok = embedded->installCrd(crd); !ok)
                return usage(QStringLiteral("the operator's CRD cannot be installed: ") + ok.error().message());
        kubeconfig = tmp.filePath(QStringLiteral("kubeconfig"));
        if (auto w = embedded->writeKubeconfig(kubeconfig); !w)
            return std::fprintf(stderr, "%s: %s\n", qPrintable(program()), qPrintable(w.error().message())),
                   ExitCodes::Failure;
        Logger()
            .withName(QStringLiteral("setup"))
            .info(QStringLiteral("embedded API server started"),
                {{QStringLiteral("url"), embedded->url().toString()}, {QStringLiteral("kubeconfig"), kubeconfig}});
    }
    Expected<RestConfig> config = loadConfig(kubeconfig, f.context);
    if (!config)
        return usage(QStringLiteral("no usable cluster configuration: ") + config.error().message());
    std::unique_ptr<TraceWriter> trace;
    if (!f.traceFile.isEmpty()) {
        trace = std::make_unique<TraceWriter>(f.traceFile);
        if (QString why; !trace->open(&why))
            return usage(QStringLiteral("--trace-file: ") + why);
    }
    std::unique_ptr<LocalWebhooks> local;
    if (embedded)
        local = std::make_unique<LocalWebhooks>([cluster = embedded.get()] { return cluster->generateWebhookTls(); });
    run(f, std::move(def), config.value(), local.get(), trace.get());
    const int code = app.exec();
    // The manager (a child of the application) owns network managers whose threads close their TLS
    // sockets on exit: delete it while the application object is still whole, or Qt warns then.
    qDeleteAll(app.findChildren<Manager *>(Qt::FindDirectChildrenOnly));
    ZapSink::install(nullptr);
    return code;
}

} // namespace opbench
