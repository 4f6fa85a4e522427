// SPDX-License-Identifier: Apache-2.0
// opbench-bench cost --workload list|queue [--objects N] [--lists L] [--cycles C]
// Small fixed workloads for the CI cost guard (bench/cost-guard.sh), measured with CostProbe
// (costprobe.h) in instructions (under callgrind) and minor page faults (natively), never in
// time:
//   list   an embedded API server (plain HTTP, this thread) holding N Deployments (default 1000,
//          ~1.6 KB each as served, managedFields included) answers L lists (default 5) of all of
//          them to a raw keep-alive socket on the same thread: the server's whole list path
//          (routing, store, encoding, framing, socket) plus a client that only reads the bytes.
//          One list before the probe warms the connection and the allocator.
//   queue  C add/get/done cycles (default 100,000) of the plain work queue, metrics on, in rounds
//          of 1,000 keys (as `opbench-bench queue`).
// Prints one JSON line with what it did (items, bytes, cycles).
#include "bench/bench.h"
#include "bench/costprobe.h"
#include "bench/sampledeployment.h"

#include "engine/apiserver/apiserver.h"
#include "engine/apiserver/storage/store.h"
#include "engine/base/metrics.h"
#include "engine/queue/workqueue.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QJsonDocument>
#include <QTcpSocket>
#include <QTextStream>
#include <QTimer>

#include <cstring>
#include <vector>

using namespace opbench;

namespace {

const GroupVersionResource kDeployments{QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("deployments")};

/// Reads one HTTP response (Content-Length or chunked) from `s` into a fixed buffer (the client
/// side costs the same whatever the server does); returns its size in bytes, or -1 on a timeout
/// or a closed connection.
qint64 readResponse(QTcpSocket *s)
{
    static char block[64 * 1024];
    QByteArray head; // until the header block is complete
    qint64 total = 0;
    qint64 bodyLeft = -1; // Content-Length bodies: bytes still to come
    bool chunked = false;
    bool headDone = false;
    char tail[5] = {}; // chunked: the last 5 bytes seen (the terminator may span reads)
    const auto body = [&](const char *p, qint64 n) -> bool { // true when the response is complete
        if (!chunked) {
            bodyLeft -= n;
            return bodyLeft <= 0;
        }
        for (qint64 i = qMax<qint64>(0, n - 5); i < n; ++i) {
            std::memmove(tail, tail + 1, 4);
            tail[4] = p[i];
        }
        return std::memcmp(tail, "0\r\n\r\n", 5) == 0; // JSON holds no raw CR/LF
    };
    const auto consume = [&]() -> bool {
        for (qint64 n; (n = s->read(block, sizeof block)) > 0;) {
            total += n;
            if (headDone) {
                if (body(block, n))
                    return true;
                continue;
            }
            head.append(block, n);
            const qsizetype end = head.indexOf("\r\n\r\n");
            if (end < 0)
                continue;
            headDone = true;
            const QByteArray h = head.left(end).toLower();
            chunked = h.contains("transfer-encoding: chunked");
            const qsizetype cl = h.indexOf("content-length:");
            if (cl >= 0)
                bodyLeft = h.mid(cl + 15, h.indexOf("\r\n", cl) - cl - 15).trimmed().toLongLong();
            if (body(head.constData() + end + 4, head.size() - end - 4))
                return true;
        }
        return false;
    };
    QEventLoop loop;
    QTimer timeout;
    timeout.setSingleShot(true);
    QObject::connect(&timeout, &QTimer::timeout, &loop, [&loop] { loop.exit(1); });
    QObject::connect(s, &QAbstractSocket::disconnected, &loop, [&loop] { loop.exit(1); });
    QObject::connect(s, &QIODevice::readyRead, &loop, [&] {
        if (consume())
            loop.exit(0);
    });
    timeout.start(60000);
    if (s->bytesAvailable() > 0 && consume())
        return total;
    return loop.exec() == 0 ? total : -1;
}

int listWorkload(const QStringList &args, QJsonObject *out)
{
    QTextStream err(stderr);
    const int objects = bench::option(args, QStringLiteral("--objects"), QStringLiteral("1000")).toInt();
    const int lists = bench::option(args, QStringLiteral("--lists"), QStringLiteral("5")).toInt();
    apiserver::ApiServerOptions so;
    so.plainHttp = true;
    apiserver::ApiServer server(so);
    if (auto started = server.start(); !started) {
        err << "cost: embedded API server: " << started.error().message() << '\n';
        return 2;
    }
    apiserver::WriteOptions wo;
    wo.fieldManager = QStringLiteral("opbench-bench"); // managedFields as a client's create leaves them
    for (int i = 0; i < objects; ++i) {
        if (auto r
            = server.store()->create(kDeployments, QStringLiteral("default"), bench::sampleDeployment("cost-", i), wo);
            !r) {
            err << "cost: create: " << r.error().message() << '\n';
            return 2;
        }
    }
    // The workload simulator answers the creates (ReplicaSets, statuses) from the event loop: let
    // it finish, so that only the lists run inside the probe.
    for (quint64 rv = 0; rv != server.store()->resourceVersion();) {
        rv = server.store()->resourceVersion();
        QEventLoop settle;
        QTimer::singleShot(300, &settle, &QEventLoop::quit);
        settle.exec();
    }
    QTcpSocket socket;
    socket.setReadBufferSize(qint64(64) * 1024); // a bounded client: the server's backpressure is exercised
    socket.connectToHost(QHostAddress::LocalHost, server.port());
    if (!socket.waitForConnected(5000)) {
        err << "cost: cannot connect: " << socket.errorString() << '\n';
        return 2;
    }
    const QByteArray request = "GET /apis/apps/v1/namespaces/default/deployments HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                               "Accept: application/json\r\n\r\n";
    socket.write(request);
    const qint64 warm = readResponse(&socket);
    if (warm < 0) {
        err << "cost: the warm-up list got no complete response\n";
        return 2;
    }
    bench::CostProbe probe(QStringLiteral("list"));
    qint64 bytes = 0;
    for (int i = 0; i < lists; ++i) {
        socket.write(request);
        const qint64 n = readResponse(&socket);
        if (n < 0) {
            err << "cost: list " << i << " got no complete response\n";
            return 2;
        }
        bytes += n;
    }
    probe.end();
    out->insert(QStringLiteral("list_objects"), objects);
    out->insert(QStringLiteral("lists"), lists);
    out->insert(QStringLiteral("list_response_bytes"), double(bytes) / lists);
    return 0;
}

int queueWorkload(const QStringList &args, QJsonObject *out)
{
    const qint64 cycles = bench::option(args, QStringLiteral("--cycles"), QStringLiteral("100000")).toLongLong();
    constexpr int kKeys = 1000;
    std::vector<QueueKey> keys;
    keys.reserve(kKeys);
    for (int i = 0; i < kKeys; ++i)
        keys.push_back({QStringLiteral("default"), QStringLiteral("myapp-%1").arg(i)});
    const Cause cause = Cause::watchEvent(Cause::EventType::Modified, QStringLiteral("MyApplication.v1.example.com"),
        QStringLiteral("default/myapp"), QStringLiteral("12345"));
    MetricsRegistry registry;
    WorkQueueOptions options;
    options.name = QStringLiteral("cost");
    options.metrics = &registry;
    auto queue = makeWorkQueue(WorkQueue::Kind::Plain, std::move(options));
    for (const QueueKey &k : keys) // one round outside the probe: the queue's tables reach size
        queue->add(k, cause);
    while (auto item = queue->tryGet())
        queue->done(item->key);
    bench::CostProbe probe(QStringLiteral("queue"));
    qint64 done = 0;
    while (done < cycles) {
        for (const QueueKey &k : keys)
            queue->add(k, cause);
        while (auto item = queue->tryGet()) {
            queue->done(item->key);
            ++done;
        }
    }
    probe.end();
    out->insert(QStringLiteral("queue_cycles"), done);
    return 0;
}

int run(const QStringList &args)
{
    const QString workload = bench::option(args, QStringLiteral("--workload"));
    QJsonObject out{{QStringLiteral("workload"), workload}};
    int rc = 2;
    if (workload == QLatin1String("list"))
        rc = listWorkload(args, &out);
    else if (workload == QLatin1String("queue"))
        rc = queueWorkload(args, &out);
    else
        QTextStream(stderr) << "cost: --workload list|queue\n";
    if (rc == 0)
        bench::printJson(out);
    return rc;
}

const bench::Registrar registrar("cost",
    "fixed workloads for the CI cost guard, counted in instructions and page faults "
    "(--workload list|queue; see bench/cost-guard.sh)",
    &run);

} // namespace
