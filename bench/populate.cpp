// SPDX-License-Identifier: Apache-2.0
// opbench-bench populate --kubeconfig KC [--count N] [--namespace NS] [--concurrency C] [--kind deployment|configmap]
// Creates N realistic Deployments (~1 KB as sent, replicas 0 so the simulator adds no pods) for
// the sync benchmark — or N small ConfigMaps, to measure plain write throughput — and prints
// {"created","seconds","writes_per_second","wire_bytes_per_object","kind"}.
#include "bench/bench.h"

#include "engine/client/restclient.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

#include <qcoro/qcorotask.h>

using namespace opbench;

namespace {

QJsonObject deployment(const QString &ns, int i)
{
    const QString name = QStringLiteral("bench-app-%1").arg(i, 5, 10, QLatin1Char('0'));
    const QJsonObject labels{{QStringLiteral("app.kubernetes.io/name"), name},
        {QStringLiteral("app.kubernetes.io/part-of"), QStringLiteral("opbench-bench")},
        {QStringLiteral("team"), QStringLiteral("team-%1").arg(i % 17)}};
    QJsonObject container{{QStringLiteral("name"), QStringLiteral("app")},
        {QStringLiteral("image"), QStringLiteral("registry.example.com/bench/%1:1.%2.0").arg(name).arg(i % 9)},
        {QStringLiteral("imagePullPolicy"), QStringLiteral("IfNotPresent")},
        {QStringLiteral("ports"),
            QJsonArray{
                QJsonObject{{QStringLiteral("containerPort"), 8080}, {QStringLiteral("name"), QStringLiteral("http")},
                    {QStringLiteral("protocol"), QStringLiteral("TCP")}}}},
        {QStringLiteral("env"),
            QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("LOG_LEVEL")},
                           {QStringLiteral("value"), QStringLiteral("info")}},
                QJsonObject{{QStringLiteral("name"), QStringLiteral("INSTANCE")}, {QStringLiteral("value"), name}}}},
        {QStringLiteral("resources"),
            QJsonObject{{QStringLiteral("requests"),
                            QJsonObject{{QStringLiteral("cpu"), QStringLiteral("100m")},
                                {QStringLiteral("memory"), QStringLiteral("128Mi")}}},
                {QStringLiteral("limits"), QJsonObject{{QStringLiteral("memory"), QStringLiteral("256Mi")}}}}}};
    return {{QStringLiteral("apiVersion"), QStringLiteral("apps/v1")},
        {QStringLiteral("kind"), QStringLiteral("Deployment")},
        {QStringLiteral("metadata"),
            QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), ns},
                {QStringLiteral("labels"), labels},
                {QStringLiteral("annotations"),
                    QJsonObject{{QStringLiteral("opbench.dev/description"),
                        QStringLiteral("benchmark deployment number %1 of the sync benchmark").arg(i)}}}}},
        {QStringLiteral("spec"),
            QJsonObject{{QStringLiteral("replicas"), 0},
                {QStringLiteral("selector"),
                    QJsonObject{{QStringLiteral("matchLabels"),
                        QJsonObject{{QStringLiteral("app.kubernetes.io/name"), name}}}}},
                {QStringLiteral("template"),
                    QJsonObject{{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("labels"), labels}}},
                        {QStringLiteral("spec"),
                            QJsonObject{{QStringLiteral("containers"), QJsonArray{container}}}}}}}}};
}

QJsonObject configMap(const QString &ns, int i)
{
    return {{QStringLiteral("apiVersion"), QStringLiteral("v1")}, {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
        {QStringLiteral("metadata"),
            QJsonObject{{QStringLiteral("name"), QStringLiteral("bench-cm-%1").arg(i, 5, 10, QLatin1Char('0'))},
                {QStringLiteral("namespace"), ns}}},
        {QStringLiteral("data"), QJsonObject{{QStringLiteral("index"), QString::number(i)}}}};
}

struct State
{
    RestClient *client;
    QString ns;
    bool configMaps = false;
    int next = 0;
    int count = 0;
    int created = 0;
    int running = 0;
    QString firstError;
};

QCoro::Task<> worker(State *s)
{
    const GroupVersionResource gvr = s->configMaps
        ? GroupVersionResource{QString(), QStringLiteral("v1"), QStringLiteral("configmaps")}
        : GroupVersionResource{QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("deployments")};
    while (s->next < s->count) {
        const int i = s->next++;
        // Build arguments as locals: g++ 12 mis-destroys temporaries created inside a co_await
        // expression (heap corruption).
        Object obj = Object::fromJson(s->configMaps ? configMap(s->ns, i) : deployment(s->ns, i));
        QString ns = s->ns;
        auto r = co_await s->client->create(gvr, std::move(ns), std::move(obj));
        if (r.ok() || isAlreadyExists(r.error()))
            ++s->created;
        else if (s->firstError.isEmpty())
            s->firstError = r.error().toString();
    }
    if (--s->running == 0)
        QCoreApplication::exit(0);
}

int run(const QStringList &args)
{
    QTextStream err(stderr);
    auto config = loadConfig(
        bench::option(args, QStringLiteral("--kubeconfig")), bench::option(args, QStringLiteral("--context")));
    if (!config.ok()) {
        err << "populate: " << config.error().message() << '\n';
        return 2;
    }
    RestClient client(std::move(*config));
    State s{&client, bench::option(args, QStringLiteral("--namespace"), QStringLiteral("default"))};
    s.configMaps
        = bench::option(args, QStringLiteral("--kind"), QStringLiteral("deployment")) == QLatin1String("configmap");
    s.count = bench::option(args, QStringLiteral("--count"), QStringLiteral("10000")).toInt();
    const int concurrency = bench::option(args, QStringLiteral("--concurrency"), QStringLiteral("6")).toInt();
    QElapsedTimer timer;
    timer.start();
    s.running = concurrency;
    for (int w = 0; w < concurrency; ++w)
        worker(&s);
    if (s.running > 0)
        QCoreApplication::exec();
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    if (!s.firstError.isEmpty())
        err << "populate: first error: " << s.firstError << '\n';
    bench::printJson({{QStringLiteral("created"), s.created}, {QStringLiteral("seconds"), seconds},
        {QStringLiteral("writes_per_second"), double(s.created) / seconds},
        {QStringLiteral("kind"), s.configMaps ? QStringLiteral("configmap") : QStringLiteral("deployment")},
        {QStringLiteral("wire_bytes_per_object"),
            QJsonDocument(s.configMaps ? configMap(s.ns, 1) : deployment(s.ns, 1))
                .toJson(QJsonDocument::Compact)
                .size()}});
    return s.created == s.count ? 0 : 1;
}

const bench::Registrar registrar(
    "populate", "create N Deployments for the sync benchmark (--kubeconfig, --count, --namespace)", &run);

} // namespace
