// SPDX-License-Identifier: Apache-2.0
// opbench-bench object-memory [--count N]: what a cache of N Deployments costs.
//
// Generates N realistic Deployments (~3.7 KB each on the wire, managedFields included, varied
// names, labels and images) as ONE list document, then measures:
//   wire_bytes_per_object      list bytes / N
//   parse_seconds              Object::parseList(…, stripManagedFields = true)
//   held_bytes_per_object      sum of Object::memoryFootprint() / N
//   rss_bytes_per_object       RSS growth / N after parsing, with the wire buffer and the
//                              parser's scratch memory freed (parse runs on a thread that ends)
//   qjsonobject_rss_bytes_per_object  the same items held as QJsonObjects (managedFields removed)
#include "bench/bench.h"
#include "engine/api/object.h"

#include <QElapsedTimer>
#include <QJsonDocument>

#include <malloc.h>

#include <cstdio>
#include <string>
#include <thread>

namespace {

// One Deployment as the API server sends it; %-placeholders are filled per object.
constexpr const char *kTemplate
    = R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"@NAME@","namespace":"@NS@","uid":"@UID@","resourceVersion":"@RV@","generation":@GEN@,"creationTimestamp":"2026-10-01T09:12:44Z","labels":{"app.kubernetes.io/name":"@NAME@","app.kubernetes.io/instance":"@NAME@","app.kubernetes.io/managed-by":"opbench","team":"@TEAM@"},"annotations":{"deployment.kubernetes.io/revision":"@GEN@"},"ownerReferences":[{"apiVersion":"example.com/v1alpha1","kind":"MyApplication","name":"@NAME@","uid":"@OWNER@","controller":true,"blockOwnerDeletion":true}],"managedFields":[{"manager":"opbench-operator","operation":"Update","apiVersion":"apps/v1","time":"2026-10-01T09:12:44Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{".":{},"f:app.kubernetes.io/instance":{},"f:app.kubernetes.io/managed-by":{},"f:app.kubernetes.io/name":{},"f:team":{}},"f:ownerReferences":{".":{},"k:{\"uid\":\"@OWNER@\"}":{}}},"f:spec":{"f:progressDeadlineSeconds":{},"f:replicas":{},"f:revisionHistoryLimit":{},"f:selector":{},"f:strategy":{"f:rollingUpdate":{".":{},"f:maxSurge":{},"f:maxUnavailable":{}},"f:type":{}},"f:template":{"f:metadata":{"f:labels":{".":{},"f:app.kubernetes.io/name":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}}}},{"manager":"kube-controller-manager","operation":"Update","apiVersion":"apps/v1","time":"2026-10-01T09:13:02Z","fieldsType":"FieldsV1","subresource":"status","fieldsV1":{"f:metadata":{"f:annotations":{".":{},"f:deployment.kubernetes.io/revision":{}}},"f:status":{"f:availableReplicas":{},"f:conditions":{".":{},"k:{\"type\":\"Available\"}":{".":{},"f:lastTransitionTime":{},"f:lastUpdateTime":{},"f:message":{},"f:reason":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Progressing\"}":{".":{},"f:lastTransitionTime":{},"f:lastUpdateTime":{},"f:message":{},"f:reason":{},"f:status":{},"f:type":{}}},"f:observedGeneration":{},"f:readyReplicas":{},"f:replicas":{},"f:updatedReplicas":{}}}}]},"spec":{"replicas":@REPLICAS@,"selector":{"matchLabels":{"app.kubernetes.io/name":"@NAME@"}},"template":{"metadata":{"creationTimestamp":null,"labels":{"app.kubernetes.io/name":"@NAME@"}},"spec":{"containers":[{"name":"app","image":"@IMAGE@","imagePullPolicy":"IfNotPresent","ports":[{"containerPort":8080,"protocol":"TCP","name":"http"}],"resources":{"requests":{"cpu":"100m","memory":"128Mi"},"limits":{"memory":"256Mi"}},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","securityContext":{},"schedulerName":"default-scheduler"}},"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"25%","maxSurge":"25%"}},"revisionHistoryLimit":10,"progressDeadlineSeconds":600},"status":{"observedGeneration":@GEN@,"replicas":@REPLICAS@,"updatedReplicas":@REPLICAS@,"readyReplicas":@REPLICAS@,"availableReplicas":@REPLICAS@,"conditions":[{"type":"Available","status":"True","lastUpdateTime":"2026-10-01T09:13:02Z","lastTransitionTime":"2026-10-01T09:13:02Z","reason":"MinimumReplicasAvailable","message":"Deployment has minimum availability."},{"type":"Progressing","status":"True","lastUpdateTime":"2026-10-01T09:13:02Z","lastTransitionTime":"2026-10-01T09:12:44Z","reason":"NewReplicaSetAvailable","message":"ReplicaSet \"@NAME@-7d9c8b6f5d\" has successfully progressed."}]}})";

const char *const kWords[] = {"checkout", "cart", "payments", "search", "catalog", "orders", "shipping", "auth",
    "profile", "reviews", "inventory", "pricing", "gateway", "notify", "billing", "ledger"};
const char *const kTeams[]
    = {"payments", "storefront", "platform", "search", "logistics", "identity", "growth", "data"};

std::string uuid(quint64 seed)
{
    // Deterministic, UUID-shaped.
    quint64 a = seed * 0x9E3779B97F4A7C15ULL + 0x1234567ULL;
    quint64 b = (seed + 7) * 0xC2B2AE3D27D4EB4FULL;
    char buf[40];
    std::snprintf(buf, sizeof buf, "%08llx-%04llx-4%03llx-a%03llx-%012llx", (unsigned long long)(a >> 32),
        (unsigned long long)(a & 0xffff), (unsigned long long)((a >> 16) & 0xfff), (unsigned long long)(b & 0xfff),
        (unsigned long long)(b >> 16 & 0xffffffffffffULL));
    return buf;
}

void replaceAll(std::string &s, const std::string &from, const std::string &to)
{
    for (size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size()))
        s.replace(pos, from.size(), to);
}

std::string deploymentJson(int i)
{
    std::string s = kTemplate;
    const std::string name = std::string(kWords[i % 16]) + "-" + kWords[(i / 16) % 16] + "-" + std::to_string(i);
    replaceAll(s, "@NAME@", name);
    replaceAll(s, "@NS@", "team-" + std::to_string(i % 50));
    replaceAll(s, "@UID@", uuid(quint64(i)));
    replaceAll(s, "@OWNER@", uuid(quint64(i) + 1000000007ULL));
    replaceAll(s, "@RV@", std::to_string(1800000 + i));
    replaceAll(s, "@GEN@", std::to_string(1 + i % 9));
    replaceAll(s, "@TEAM@", kTeams[i % 8]);
    replaceAll(s, "@REPLICAS@", std::to_string(1 + i % 5));
    replaceAll(s, "@IMAGE@",
        "registry.example.com/" + std::string(kWords[i % 16]) + "/service:1." + std::to_string(i % 40) + "."
            + std::to_string(i % 7));
    return s;
}

QByteArray listJson(int n)
{
    QByteArray out;
    out.reserve(qsizetype(n) * 3900 + 200);
    out.append(R"({"kind":"DeploymentList","apiVersion":"apps/v1","metadata":{"resourceVersion":"2000000"},"items":[)");
    for (int i = 0; i < n; ++i) {
        if (i > 0)
            out.append(',');
        const std::string item = deploymentJson(i);
        out.append(item.data(), qsizetype(item.size()));
    }
    out.append("]}");
    return out;
}

qint64 trimmedRss()
{
    malloc_trim(0);
    return opbench::bench::rssBytes();
}

// Parses on a short-lived thread so the thread-local simdjson parser (scratch memory about the
// size of the document) is freed before RSS is measured.
opbench::Expected<opbench::Object::List> parseOnThread(const QByteArray &wire, double *seconds)
{
    // std::thread::join (unlike QThread::wait) returns only after thread_local destructors ran.
    std::optional<opbench::Expected<opbench::Object::List>> result;
    std::thread thread([&] {
        QElapsedTimer t;
        t.start();
        result.emplace(opbench::Object::parseList(wire, {}, {}, true));
        *seconds = double(t.nsecsElapsed()) / 1e9;
    });
    thread.join();
    return std::move(*result);
}

double qjsonObjectRssPerObject(int n)
{
    const qint64 before = trimmedRss();
    QList<QJsonObject> held;
    held.reserve(n);
    for (int i = 0; i < n; ++i) {
        const std::string item = deploymentJson(i);
        QJsonObject o = QJsonDocument::fromJson(QByteArray::fromRawData(item.data(), qsizetype(item.size()))).object();
        QJsonObject meta = o.value(QLatin1String("metadata")).toObject();
        meta.remove(QLatin1String("managedFields"));
        o.insert(QLatin1String("metadata"), meta);
        held.append(o);
    }
    const qint64 after = trimmedRss();
    return double(after - before) / n;
}

int run(const QStringList &args)
{
    const int n = qMax(1, opbench::bench::option(args, QStringLiteral("--count"), QStringLiteral("100000")).toInt());
    const qint64 base = trimmedRss();
    QByteArray wire = listJson(n);
    const double wirePerObject = double(wire.size()) / n;

    double parseSeconds = 0;
    auto parsed = parseOnThread(wire, &parseSeconds);
    if (!parsed.ok()) {
        std::fprintf(stderr, "parse failed: %s\n", qPrintable(parsed.error().message()));
        return 1;
    }
    wire = QByteArray(); // free the wire buffer
    QList<opbench::Object> objects = std::move(parsed.value().items);
    parsed = opbench::Object::List{};
    qint64 held = 0;
    for (const opbench::Object &o : std::as_const(objects))
        held += o.memoryFootprint();
    const double rssPerObject = double(trimmedRss() - base) / n;
    objects.clear();
    objects.squeeze();

    const double qjsonPerObject = qjsonObjectRssPerObject(n);

    QJsonObject out;
    out.insert(QLatin1String("objects"), n);
    out.insert(QLatin1String("wire_bytes_per_object"), qRound64(wirePerObject));
    out.insert(QLatin1String("held_bytes_per_object"), qRound64(double(held) / n));
    out.insert(QLatin1String("rss_bytes_per_object"), qRound64(rssPerObject));
    out.insert(QLatin1String("qjsonobject_rss_bytes_per_object"), qRound64(qjsonPerObject));
    out.insert(QLatin1String("parse_seconds"), qRound64(parseSeconds * 1000) / 1000.0);
    opbench::bench::printJson(out);
    return 0;
}

const opbench::bench::Registrar registrar(
    "object-memory", "memory per cached Deployment: wire vs Object vs QJsonObject", &run);

} // namespace
