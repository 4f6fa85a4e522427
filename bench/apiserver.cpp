// SPDX-License-Identifier: Apache-2.0
// opbench-bench apiserver [--kubeconfig KC] [--writes N] [--clients K] [--concurrency C]
//                         [--list-count N] [--watchers N] [--events M] [--event-interval-ms MS]
//                         [--raw-connections N] [--plain-http] [--skip-list] [--skip-watch]
//                         [--list-namespace NS]
// The API server's performance goals (issue 3): creates per second from one client process,
// the time to serve a list of 10,000 Deployments, and watch fan-out. Without --kubeconfig an
// embedded server runs on its own thread of this process (HTTPS unless --plain-http).
// Prints one JSON line: writes_per_second, list_10k_deployments_ms (median of 5, min too),
// watch_watchers, watch_delivered, watch_expected, watch_p50_ms, watch_p99_ms, ...
// --raw-connections N adds raw_writes_per_second: the same creates over N raw keep-alive sockets
// (no client library), i.e. what the server sustains. --list-namespace NS times the list of an
// existing namespace holding --list-count objects (e.g. after `opbench-bench populate`), no fill. --clients K uses K
// RestClients (K QNAMs).
#include "bench/apiserverrawwriter.h"
#include "bench/apiserverwatchfanout.h"
#include "bench/bench.h"
#include "bench/rawget.h"
#include "bench/sampledeployment.h"
#include "bench/serverthread.h"

#include "engine/apiserver/apiserver.h"
#include "engine/client/auth.h"
#include "engine/client/restclient.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTextStream>

#include <qcoro/qcorotask.h>
#include <qcoro/qcorotimer.h>

using namespace opbench;
using namespace std::chrono_literals;

namespace {

const GroupVersionResource kNamespaces{QString(), QStringLiteral("v1"), QStringLiteral("namespaces")};
const GroupVersionResource kConfigMaps{QString(), QStringLiteral("v1"), QStringLiteral("configmaps")};
const GroupVersionResource kDeployments{QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("deployments")};

struct Settings
{
    int writes = 10000;
    int clients = 1;
    int concurrency = 6;
    int listCount = 10000;
    int watchers = 1000;
    int events = 20;
    int eventIntervalMs = 50;
    int rawConnections = 0;
    bool list = true;
    bool watch = true;
    QString runId;
    QString listNamespace; // time the list of this existing namespace instead of filling one
};

QJsonObject configMap(const QString &name, const QJsonObject &data)
{
    return {{QStringLiteral("apiVersion"), QStringLiteral("v1")}, {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}}, {QStringLiteral("data"), data}};
}

struct CreateJob
{
    QList<RestClient *> clients;
    GroupVersionResource gvr;
    QString ns;
    QJsonObject (*make)(const QString &runId, int i) = nullptr;
    QString runId;
    int count = 0;
    int next = 0;
    int created = 0;
    QString firstError;
};

QJsonObject writeObject(const QString &runId, int i)
{
    return configMap(QStringLiteral("w-%1-%2").arg(runId).arg(i), {{QStringLiteral("i"), QString::number(i)}});
}
QJsonObject listObject(const QString &, int i) { return bench::sampleDeployment("list-", i); }

QCoro::Task<> createWorker(CreateJob *job, RestClient *client)
{
    while (job->next < job->count) {
        const int i = job->next++;
        Object obj = Object::fromJson(job->make(job->runId, i)); // locals: g++ 12 co_await temporaries bug
        GroupVersionResource gvr = job->gvr;
        QString ns = job->ns;
        auto r = co_await client->create(std::move(gvr), std::move(ns), std::move(obj));
        if (r.ok())
            ++job->created;
        else if (job->firstError.isEmpty())
            job->firstError = r.error().toString();
    }
}

/// Runs `job` with `concurrency` workers per client; returns the seconds taken.
QCoro::Task<double> runCreates(CreateJob *job, int concurrency)
{
    QElapsedTimer t;
    t.start();
    std::vector<QCoro::Task<>> workers;
    for (RestClient *c : std::as_const(job->clients))
        for (int w = 0; w < concurrency; ++w)
            workers.push_back(createWorker(job, c));
    for (auto &w : workers)
        co_await w;
    co_return double(t.nsecsElapsed()) / 1e9;
}

QCoro::Task<> ensureNamespace(RestClient *client, QString name)
{
    Object ns
        = Object::fromJson(QJsonObject{{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}}});
    GroupVersionResource gvr = kNamespaces;
    auto r = co_await client->create(std::move(gvr), QString(), std::move(ns));
    Q_UNUSED(r); // AlreadyExists is fine; other errors show up in the next step
}

struct Raw
{
    QUrl server;
    QByteArray authorization;
    QSslConfiguration ssl;
};

QCoro::Task<Raw> rawAccess(RestConfig config)
{
    Raw raw{config.server, {}, QSslConfiguration::defaultConfiguration()};
    if (config.auth) {
        auto creds = co_await config.auth->credentials();
        if (creds)
            raw.authorization = creds->authorization;
    }
    if (!config.tls.caCertificates.isEmpty())
        raw.ssl.setCaCertificates(config.tls.caCertificates);
    if (config.tls.insecure)
        raw.ssl.setPeerVerifyMode(QSslSocket::VerifyNone);
    co_return raw;
}

/// GETs the whole Deployment list 5 times over one raw keep-alive socket (bench/rawget.h: no
/// client library, the body collected into a buffer reused by every GET); returns [min, median]
/// ms from the request's write to its last byte. The items are counted after the clock stops.
QCoro::Task<QList<double>> timeLists(Raw raw, QString ns, int expected, QString *problem)
{
    bench::RawGet client(raw.server, raw.authorization, raw.ssl);
    const QString path = QStringLiteral("/apis/apps/v1/namespaces/%1/deployments").arg(ns);
    QList<double> ms;
    for (int i = 0; i < 5; ++i) {
        QElapsedTimer t;
        t.start();
        client.get(path);
        // Poll: the socket's readyRead drives RawGet; a 1 ms sleep adds at most 1 ms.
        while (!client.finished() && t.elapsed() < 60000)
            co_await QCoro::sleepFor(1ms);
        ms << double(t.nsecsElapsed()) / 1e6;
        const qsizetype items
            = QJsonDocument::fromJson(client.body()).object().value(QLatin1String("items")).toArray().size();
        if (items != expected && problem->isEmpty())
            *problem = QStringLiteral("list returned %1 items, expected %2 (HTTP %3 %4)")
                           .arg(items)
                           .arg(expected)
                           .arg(client.status())
                           .arg(client.failed());
    }
    std::sort(ms.begin(), ms.end());
    co_return QList<double>{ms.first(), ms.at(ms.size() / 2)};
}

QCoro::Task<> watchFanout(RestClient *client, Raw raw, Settings s, QJsonObject *out)
{
    const QString ns = QStringLiteral("bench-watch-%1").arg(s.runId);
    co_await ensureNamespace(client, ns);
    bench::WatchFanout fanout(raw.server, raw.authorization, raw.ssl);
    fanout.open(s.watchers, QStringLiteral("/api/v1/namespaces/%1/configmaps?watch=1").arg(ns));
    // Poll (a signal await that fires repeatedly trips QCoro 0.8); latencies are taken on arrival.
    for (int waited = 0; fanout.established() + fanout.failed() < s.watchers && waited < 3000; ++waited)
        co_await QCoro::sleepFor(20ms);
    const qint64 expected = qint64(fanout.established()) * s.events;
    for (int i = 0; i < s.events; ++i) {
        Object obj = Object::fromJson(configMap(
            QStringLiteral("e-%1").arg(i), {{QStringLiteral("sentNs"), QString::number(bench::steadyNowNs())}}));
        GroupVersionResource gvr = kConfigMaps;
        QString n = ns;
        auto r = co_await client->create(std::move(gvr), std::move(n), std::move(obj));
        Q_UNUSED(r);
        co_await QCoro::sleepFor(std::chrono::milliseconds(s.eventIntervalMs));
    }
    for (int waited = 0; fanout.delivered() < expected && waited < 500; ++waited)
        co_await QCoro::sleepFor(20ms);
    out->insert(QStringLiteral("watch_watchers"), fanout.established());
    out->insert(QStringLiteral("watch_failed"), fanout.failed());
    out->insert(QStringLiteral("watch_events_written"), s.events);
    out->insert(QStringLiteral("watch_expected"), double(expected));
    out->insert(QStringLiteral("watch_delivered"), double(fanout.delivered()));
    out->insert(QStringLiteral("watch_p50_ms"), fanout.percentileMs(50));
    out->insert(QStringLiteral("watch_p99_ms"), fanout.percentileMs(99));
    out->insert(QStringLiteral("watch_max_ms"), fanout.percentileMs(100));
}

/// The same creates over raw keep-alive sockets (no client library): the server's capacity.
QCoro::Task<> rawWrites(Raw raw, Settings s, QJsonObject *out)
{
    bench::RawWriter writer(raw.server, raw.authorization, raw.ssl);
    QElapsedTimer t;
    t.start();
    writer.start(s.rawConnections, s.writes, QStringLiteral("bench-writes-%1").arg(s.runId), QStringLiteral("raw"));
    for (int waited = 0; !writer.finished() && waited < 30000; ++waited)
        co_await QCoro::sleepFor(1ms);
    const double seconds = double(t.nsecsElapsed()) / 1e9;
    out->insert(QStringLiteral("raw_connections"), s.rawConnections);
    out->insert(QStringLiteral("raw_writes"), writer.created());
    out->insert(QStringLiteral("raw_writes_per_second"), double(writer.created()) / seconds);
    if (writer.lost() > 0 || writer.created() != s.writes)
        out->insert(QStringLiteral("raw_problem"),
            QStringLiteral("%1 answered, %2 created, %3 lost")
                .arg(writer.answered())
                .arg(writer.created())
                .arg(writer.lost()));
}

QCoro::Task<int> benchmark(RestConfig config, Settings s, QJsonObject *out)
{
    std::vector<std::unique_ptr<RestClient>> owned;
    QList<RestClient *> clients;
    for (int i = 0; i < qMax(1, s.clients); ++i) {
        owned.push_back(std::make_unique<RestClient>(config));
        clients << owned.back().get();
    }
    const QString writeNs = QStringLiteral("bench-writes-%1").arg(s.runId);
    co_await ensureNamespace(clients.first(), writeNs);
    CreateJob writes{clients, kConfigMaps, writeNs, &writeObject, s.runId, s.writes};
    const double writeSeconds = co_await runCreates(&writes, s.concurrency);
    out->insert(QStringLiteral("writes"), writes.created);
    out->insert(QStringLiteral("writes_seconds"), writeSeconds);
    out->insert(QStringLiteral("writes_per_second"), double(writes.created) / writeSeconds);
    if (!writes.firstError.isEmpty())
        out->insert(QStringLiteral("writes_first_error"), writes.firstError);
    Raw raw = co_await rawAccess(config);
    if (s.rawConnections > 0)
        co_await rawWrites(raw, s, out);
    if (s.list) {
        const QString listNs
            = s.listNamespace.isEmpty() ? QStringLiteral("bench-list-%1").arg(s.runId) : s.listNamespace;
        CreateJob fill{clients, kDeployments, listNs, &listObject, s.runId, s.listCount};
        double fillSeconds = 0;
        if (s.listNamespace.isEmpty()) {
            co_await ensureNamespace(clients.first(), listNs);
            fillSeconds = co_await runCreates(&fill, s.concurrency);
        } else {
            fill.created = s.listCount;
        }
        QString problem;
        const QList<double> ms = co_await timeLists(raw, listNs, fill.created, &problem);
        out->insert(QStringLiteral("list_count"), fill.created);
        out->insert(QStringLiteral("list_fill_seconds"), fillSeconds);
        out->insert(QStringLiteral("list_10k_deployments_ms"), ms.at(1));
        out->insert(QStringLiteral("list_min_ms"), ms.at(0));
        if (!problem.isEmpty())
            out->insert(QStringLiteral("list_problem"), problem);
    }
    if (s.watch)
        co_await watchFanout(clients.first(), raw, s, out);
    co_return writes.created == s.writes ? 0 : 1;
}

int run(const QStringList &args)
{
    QTextStream err(stderr);
    Settings s;
    s.writes = bench::option(args, QStringLiteral("--writes"), QStringLiteral("10000")).toInt();
    s.clients = bench::option(args, QStringLiteral("--clients"), QStringLiteral("1")).toInt();
    s.concurrency = bench::option(args, QStringLiteral("--concurrency"), QStringLiteral("6")).toInt();
    s.listCount = bench::option(args, QStringLiteral("--list-count"), QStringLiteral("10000")).toInt();
    s.watchers = bench::option(args, QStringLiteral("--watchers"), QStringLiteral("1000")).toInt();
    s.events = bench::option(args, QStringLiteral("--events"), QStringLiteral("20")).toInt();
    s.eventIntervalMs = bench::option(args, QStringLiteral("--event-interval-ms"), QStringLiteral("50")).toInt();
    s.rawConnections = bench::option(args, QStringLiteral("--raw-connections"), QStringLiteral("0")).toInt();
    s.list = !args.contains(QStringLiteral("--skip-list"));
    s.listNamespace = bench::option(args, QStringLiteral("--list-namespace"));
    s.watch = !args.contains(QStringLiteral("--skip-watch"));
    s.runId = QString::number(QRandomGenerator::global()->bounded(1u << 30), 36);
    QString kubeconfig = bench::option(args, QStringLiteral("--kubeconfig"));
    QTemporaryDir dir;
    std::unique_ptr<bench::ServerThread> embedded;
    if (kubeconfig.isEmpty()) {
        kubeconfig = dir.filePath(QStringLiteral("kubeconfig"));
        apiserver::ApiServerOptions o;
        o.plainHttp = args.contains(QStringLiteral("--plain-http"));
        o.anonymousOnPlainHttp = true;
        embedded = std::make_unique<bench::ServerThread>(o);
        if (auto ok = embedded->start(kubeconfig); !ok) {
            err << "apiserver: embedded server: " << ok.error().message() << '\n';
            return 2;
        }
    }
    auto config = loadConfig(kubeconfig);
    if (!config) {
        err << "apiserver: " << config.error().message() << '\n';
        return 2;
    }
    QJsonObject out{
        {QStringLiteral("server"), embedded ? QStringLiteral("embedded (own thread)") : config->server.toString()},
        {QStringLiteral("clients"), s.clients}, {QStringLiteral("concurrency_per_client"), s.concurrency}};
    const int rc = QCoro::waitFor(benchmark(*config, s, &out));
    out.insert(QStringLiteral("peak_rss_mb"), double(bench::peakRssBytes()) / 1e6);
    bench::printJson(out);
    return rc;
}

const bench::Registrar registrar("apiserver",
    "API server goals: ConfigMap creates/s, 10k-Deployment list ms, watch fan-out delivery and p99 "
    "(--kubeconfig or embedded; --writes --clients --concurrency --list-count --watchers --events)",
    &run);

} // namespace
