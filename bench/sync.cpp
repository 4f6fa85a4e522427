// SPDX-License-Identifier: Apache-2.0
// opbench-bench sync --kubeconfig KC --resource deployments.apps [--namespace NS] [--context C]
//                    [--watch-list] [--page-size N]
// Runs one informer against a server until it has synced, then prints
// {"objects","seconds","rss_bytes","peak_rss_bytes","start_rss_bytes","trimmed_rss_bytes",
//  "bytes_per_object","rss_bytes_per_object","bytes_per_object_source","page_size","watch_list"}:
// bytes_per_object is the cache's own accounting (Object footprint summed by the store);
// rss_bytes_per_object is the process's RSS growth during the sync; start_rss_bytes is the RSS
// before the informer starts (libraries, TLS); trimmed_rss_bytes is the RSS once malloc has
// returned free memory to the system (what the cache really holds, without heap fragmentation).
// --page-size sets the first list's limit (default 500 as client-go; 0 = unpaginated).
#include "bench/bench.h"

#include "engine/api/restmapper.h"
#include "engine/cache/informer.h"
#include "engine/cache/reflector.h"
#include "engine/client/restclient.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>

#include <malloc.h>

using namespace opbench;

namespace {

int run(const QStringList &args)
{
    const QString kubeconfig = bench::option(args, QStringLiteral("--kubeconfig"));
    const QString context = bench::option(args, QStringLiteral("--context"));
    const QString resource = bench::option(args, QStringLiteral("--resource"), QStringLiteral("deployments.apps"));
    const QString ns = bench::option(args, QStringLiteral("--namespace"));
    QTextStream err(stderr);
    auto config = loadConfig(kubeconfig, context);
    if (!config.ok()) {
        err << "sync: " << config.error().message() << '\n';
        return 2;
    }
    auto mapping = RestMapper::withBuiltins().resolve(resource);
    if (!mapping.ok()) {
        err << "sync: " << mapping.error().message() << '\n';
        return 2;
    }
    RestClient client(std::move(*config));
    InformerOptions opts;
    opts.resource = mapping->gvr;
    opts.kind = mapping->kind;
    opts.namespaceName = ns;
    opts.client = &client;
    opts.useWatchList = args.contains(QStringLiteral("--watch-list"));
    opts.pageSize = bench::option(args, QStringLiteral("--page-size"), QStringLiteral("500")).toLongLong();
    const qint64 pageSize = opts.pageSize;
    Informer informer(std::move(opts));
    const qint64 rssBefore = bench::rssBytes();
    QElapsedTimer timer;
    int rc = 0;
    QObject::connect(&informer, &Informer::synced, qApp, [&] { QCoreApplication::exit(0); });
    timer.start();
    informer.start();
    QObject::connect(informer.reflector(), &Reflector::errorOccurred, qApp, [&](const Status &s) {
        err << "sync: " << s.toString() << '\n';
        if (!isGone(s)) {
            rc = 1;
            QCoreApplication::exit(1);
        }
    });
    QCoreApplication::exec();
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    if (rc != 0 || !informer.hasSynced())
        return rc ? rc : 1;
    const qint64 n = informer.store().size();
    const qint64 rss = bench::rssBytes();
    const qint64 peak = bench::peakRssBytes();
    malloc_trim(0);
    const qint64 trimmed = bench::rssBytes();
    QJsonObject out{{QStringLiteral("objects"), n},
        {QStringLiteral("watch_list"), informer.reflector()->watchListCount() > 0},
        {QStringLiteral("seconds"), seconds}, {QStringLiteral("rss_bytes"), rss},
        {QStringLiteral("peak_rss_bytes"), peak}, {QStringLiteral("start_rss_bytes"), rssBefore},
        {QStringLiteral("trimmed_rss_bytes"), trimmed}, {QStringLiteral("page_size"), pageSize},
        {QStringLiteral("bytes_per_object"), n ? double(informer.store().bytesHeld()) / double(n) : 0.0},
        {QStringLiteral("rss_bytes_per_object"), n ? double(rss - rssBefore) / double(n) : 0.0},
        {QStringLiteral("bytes_per_object_source"),
            QStringLiteral("cache accounting (Object::memoryFootprint summed)")}};
    bench::printJson(out);
    return 0;
}

const bench::Registrar registrar("sync",
    "one informer against a server until synced (--kubeconfig, --resource, --namespace, --watch-list, --page-size)",
    &run);

} // namespace
