// SPDX-License-Identifier: Apache-2.0
// opbench-apiserver: the embedded Kubernetes-compatible API server as its own process.
#include "engine/api/version.h"
#include "engine/apiserver/apiserver.h"
#include "engine/base/allocator.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QSocketNotifier>

#include <csignal>
#include <cstdio>
#include <sys/socket.h>
#include <unistd.h>

namespace {

int g_signalFds[2] = {-1, -1};

void onSignal(int)
{
    const char c = 1;
    [[maybe_unused]] const auto n = ::write(g_signalFds[0], &c, 1);
}

/// SIGTERM/SIGINT → a clean quit through the event loop (the state file is flushed on the way out).
void installSignalHandlers(QCoreApplication *app)
{
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalFds) != 0)
        return;
    auto *notifier = new QSocketNotifier(g_signalFds[1], QSocketNotifier::Read, app);
    QObject::connect(notifier, &QSocketNotifier::activated, app, [notifier]() {
        char c = 0;
        [[maybe_unused]] const auto n = ::read(g_signalFds[1], &c, 1);
        notifier->setEnabled(false);
        QCoreApplication::quit();
    });
    struct sigaction sa = {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);
}

[[noreturn]] void fail(QString message)
{
    message.remove(QStringLiteral("Internal error occurred: ")); // start-up errors are not API replies
    std::fprintf(stderr, "opbench-apiserver: %s\n", qPrintable(message));
    std::exit(1);
}

/// --webhook-service-map NAMESPACE/NAME[:PORT]=HOST:PORT (repeatable).
QHash<QString, QString> webhookServices(const QStringList &specs)
{
    QHash<QString, QString> out;
    for (const QString &spec : specs) {
        const QString service = spec.section(u'=', 0, 0);
        const QString target = spec.section(u'=', 1);
        bool ok = service.count(u'/') == 1 && !service.startsWith(u'/') && !service.endsWith(u'/');
        const qsizetype colon = target.lastIndexOf(u':');
        const int port = colon > 0 ? target.mid(colon + 1).toInt(&ok) : 0;
        if (!ok || colon <= 0 || port < 1 || port > 65535)
            fail(QStringLiteral("--webhook-service-map wants NAMESPACE/NAME[:PORT]=HOST:PORT, got \"%1\"").arg(spec));
        out.insert(service, target);
    }
    return out;
}

opbench::apiserver::ApiServerOptions parseOptions(const QCommandLineParser &p)
{
    using opbench::apiserver::FaultSpec;
    opbench::apiserver::ApiServerOptions o;
    const QString listen = p.value(QStringLiteral("listen"));
    const qsizetype colon = listen.lastIndexOf(u':');
    bool ok = colon > 0;
    const int port = ok ? listen.mid(colon + 1).toInt(&ok) : 0;
    if (!ok || port < 0 || port > 65535)
        fail(QStringLiteral("--listen wants HOST:PORT (e.g. 127.0.0.1:6443 or 127.0.0.1:0), got \"%1\"").arg(listen));
    o.host = listen.left(colon);
    if (o.host.startsWith(u'[') && o.host.endsWith(u']'))
        o.host = o.host.mid(1, o.host.size() - 2);
    o.port = quint16(port);
    o.plainHttp = p.isSet(QStringLiteral("plain-http"));
    o.token = p.value(QStringLiteral("token"));
    o.stateFile = p.value(QStringLiteral("state-file"));
    o.watchHistory = p.value(QStringLiteral("watch-history")).toInt(&ok);
    if (!ok || o.watchHistory < 1)
        fail(QStringLiteral("--watch-history wants a positive number of events"));
    const qint64 watchBufferMiB = p.value(QStringLiteral("watch-buffer-limit")).toLongLong(&ok);
    if (!ok || watchBufferMiB < 1)
        fail(QStringLiteral("--watch-buffer-limit wants a positive number of MiB"));
    o.watchBufferLimitBytes = watchBufferMiB * 1024 * 1024;
    o.podReadyDelayMs = p.value(QStringLiteral("pod-ready-delay")).toInt(&ok);
    if (!ok || o.podReadyDelayMs < 0)
        fail(QStringLiteral("--pod-ready-delay wants milliseconds (0 or more)"));
    o.simulatedEvents = !p.isSet(QStringLiteral("no-simulated-events"));
    for (const QString &spec : p.values(QStringLiteral("fault"))) {
        auto f = FaultSpec::parse(spec);
        if (!f)
            fail(f.error().message());
        o.faults << *f;
    }
    o.webhookServices = webhookServices(p.values(QStringLiteral("webhook-service-map")));
    o.auditLog = p.value(QStringLiteral("audit-log"));
    o.rulesFile = p.value(QStringLiteral("rules"));
    if (!p.isSet(QStringLiteral("no-crds"))) {
        QFile crd(QStringLiteral(":/opbench/app/crds/myapplications.example.com.yaml"));
        if (crd.open(QIODevice::ReadOnly))
            o.crds.append(crd.readAll());
    }
    return o;
}

} // namespace

int main(int argc, char **argv)
{
    opbench::configureAllocator(opbench::AllocatorProfile::Server);
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("opbench-apiserver"));
    QCoreApplication::setApplicationVersion(opbench::version());
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Embedded Kubernetes-compatible API server: kubectl, the Python client and opbench work against it unchanged.\n"
        "Prints \"listening on https://HOST:PORT\" once it accepts connections; SIGTERM/SIGINT stop it cleanly."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions({
        {QStringLiteral("listen"), QStringLiteral("Address to listen on (port 0 picks a free one)."),
            QStringLiteral("HOST:PORT"), QStringLiteral("127.0.0.1:0")},
        {QStringLiteral("write-kubeconfig"),
            QStringLiteral("Write a kubeconfig (server URL, CA data, token) to PATH once listening."),
            QStringLiteral("PATH")},
        {QStringLiteral("plain-http"),
            QStringLiteral("Serve plain HTTP instead of HTTPS (kubectl then sends no token; "
                           "requests without one are accepted, a wrong token is refused).")},
        {QStringLiteral("token"),
            QStringLiteral("Admin bearer token (default: random, or the one kept in the state file)."),
            QStringLiteral("TOKEN")},
        {QStringLiteral("state-file"),
            QStringLiteral("Keep objects, the resourceVersion counter, certificates and token in PATH "
                           "across restarts (a corrupt file is refused, never overwritten)."),
            QStringLiteral("PATH")},
        {QStringLiteral("watch-history"),
            QStringLiteral("Events kept for watch resume; older resourceVersions get 410 Expired."),
            QStringLiteral("N"), QStringLiteral("10000")},
        {QStringLiteral("watch-buffer-limit"),
            QStringLiteral("MiB of events a watch client may leave unread before its stream is closed."),
            QStringLiteral("MIB"), QStringLiteral("32")},
        {QStringLiteral("pod-ready-delay"),
            QStringLiteral("Simulated kubelet: milliseconds until a pod becomes Ready."), QStringLiteral("MS"),
            QStringLiteral("500")},
        {QStringLiteral("no-simulated-events"),
            QStringLiteral("The simulated controllers and kubelet write no Events (they do by default, as in a "
                           "real cluster).")},
        {QStringLiteral("fault"),
            QStringLiteral("Inject a fault (repeatable): drop-watch:every=5s, error:rate=0.05,code=500, "
                           "throttle:rate=0.1,retry-after=1, latency:ms=50."),
            QStringLiteral("SPEC")},
        {QStringLiteral("audit-log"),
            QStringLiteral("Append one JSON line per request (time, user, verb, resource, namespace, "
                           "name, code) to PATH."),
            QStringLiteral("PATH")},
        {QStringLiteral("rules"),
            QStringLiteral("Extra users from a YAML/JSON file: users: [{name, token, readOnly, namespaces}]."),
            QStringLiteral("PATH")},
        {QStringLiteral("no-crds"), QStringLiteral("Do not install the MyApplication CRD at start.")},
        {QStringLiteral("webhook-service-map"),
            QStringLiteral("Where an admission webhook's clientConfig.service is reached (repeatable): "
                           "NAMESPACE/NAME[:PORT]=HOST:PORT; TLS is checked against NAME.NAMESPACE.svc."),
            QStringLiteral("MAP")},
    });
    parser.process(app);

    opbench::apiserver::ApiServer server(parseOptions(parser));
    if (auto ok = server.start(); !ok)
        fail(ok.error().message());
    QObject::connect(&server, &opbench::apiserver::ApiServer::stateSaveFailed, &app,
        [](const QString &m) { std::fprintf(stderr, "opbench-apiserver: %s\n", qPrintable(m)); });
    if (parser.isSet(QStringLiteral("write-kubeconfig")))
        if (auto ok = server.writeKubeconfig(parser.value(QStringLiteral("write-kubeconfig"))); !ok)
            fail(ok.error().message());
    installSignalHandlers(&app);
    const QUrl url = server.url();
    std::printf("listening on %s://%s:%d\n", qPrintable(url.scheme()),
        qPrintable(url.host().contains(u':') ? u'[' + url.host() + u']' : url.host()), server.port());
    std::fflush(stdout);
    const int rc = app.exec();
    server.stop();
    return rc;
}
