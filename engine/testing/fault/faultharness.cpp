// SPDX-License-Identifier: Apache-2.0
#include "engine/testing/fault/faultharness.h"

#include "engine/api/restmapper.h"
#include "engine/api/status.h"
#include "engine/api/yamlcodec.h"
#include "engine/apiserver/apiserver.h"
#include "engine/cache/informer.h"
#include "engine/cache/informercache.h"
#include "engine/cache/reflector.h"
#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"
#include "engine/controller/client.h"
#include "engine/controller/controller.h"
#include "engine/manager/manager.h"
#include "engine/testing/testapiserver.h"

#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTimer>

#include <qcoro/qcorotask.h>

#include <cstdio>

namespace opbench::testing {

namespace {

constexpr quint32 kDefaultSeed = 16;
const QString kPaddingNamespace = QStringLiteral("opbench-fault-padding");

/// Runs the event loop for `ms` (lets the operator, the server thread's replies and timers run).
void spin(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

bool retriable(const Status &s)
{
    return isTransportError(s) || isTooManyRequests(s) || isTimeout(s) || isInternalError(s) || s.code() >= 500
        || s.code() == 0;
}

QJsonValue maskValue(const QJsonValue &v)
{
    static const QRegularExpression time(QStringLiteral(R"(^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)"));
    if (v.isString())
        return time.match(v.toString()).hasMatch() ? QJsonValue(QStringLiteral("<time>")) : v;
    if (v.isArray()) {
        QJsonArray out;
        for (const QJsonValue &e : v.toArray())
            out.append(maskValue(e));
        return out;
    }
    if (v.isObject()) {
        QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            it.value() = maskValue(it.value());
        return o;
    }
    return v;
}

/// The built-in masking: identity, versions, timestamps, managedFields, generated suffixes.
QJsonObject masked(const QJsonObject &in)
{
    QJsonObject o = maskValue(in).toObject();
    QJsonObject meta = o.value(QLatin1String("metadata")).toObject();
    for (const char *k : {"uid", "resourceVersion", "creationTimestamp", "managedFields", "selfLink"})
        meta.remove(QLatin1String(k));
    if (const QString gen = meta.value(QLatin1String("generateName")).toString(); !gen.isEmpty()) {
        meta.insert(QStringLiteral("name"), gen + QStringLiteral("<generated>"));
    } else {
        // Names a controller generated as "<owner>-<5 random characters>" (pods of a ReplicaSet).
        const QString name = meta.value(QLatin1String("name")).toString();
        for (const QJsonValue &r : meta.value(QLatin1String("ownerReferences")).toArray()) {
            const QString owner = r.toObject().value(QLatin1String("name")).toString();
            if (r.toObject().value(QLatin1String("controller")).toBool() && name.size() == owner.size() + 6
                && name.startsWith(owner + u'-'))
                meta.insert(QStringLiteral("name"), owner + QStringLiteral("-<generated>"));
        }
    }
    // Addresses handed out in creation order (pod IPs) depend on how many objects came and went.
    QJsonObject status = o.value(QLatin1String("status")).toObject();
    if (status.contains(QLatin1String("podIP"))) {
        status.insert(QStringLiteral("podIP"), QStringLiteral("<ip>"));
        status.remove(QLatin1String("podIPs"));
        o.insert(QStringLiteral("status"), status);
    }
    if (meta.contains(QLatin1String("ownerReferences"))) {
        QJsonArray refs;
        for (const QJsonValue &r : meta.value(QLatin1String("ownerReferences")).toArray()) {
            QJsonObject ref = r.toObject();
            ref.insert(QStringLiteral("uid"), QStringLiteral("<uid>"));
            refs.append(ref);
        }
        meta.insert(QStringLiteral("ownerReferences"), refs);
    }
    o.insert(QStringLiteral("metadata"), meta);
    return o;
}

QString describeObject(const Object &o)
{
    return o.kind() + u' ' + (o.namespaceName().isEmpty() ? o.name() : o.namespaceName() + u'/' + o.name());
}

bool rvAtLeast(const QString &rv, const QString &target) { return rv.toULongLong() >= target.toULongLong(); }

} // namespace

// ---------------------------------------------------------------------------------------------

Step Step::create(const Object &object, bool settle) { return {Action::Create, object, {}, settle}; }
Step Step::mergePatch(const Object &target, const QByteArray &patch, bool settle)
{
    return {Action::MergePatch, target, patch, settle};
}
Step Step::remove(const Object &target, bool settle) { return {Action::Delete, target, {}, settle}; }

QString Step::describe() const
{
    switch (action) {
    case Action::Create:
        return QStringLiteral("create ") + describeObject(object) + u' '
            + QString::fromUtf8(
                QJsonDocument(object.json().value(QLatin1String("spec")).toObject()).toJson(QJsonDocument::Compact));
    case Action::MergePatch:
        return QStringLiteral("patch ") + describeObject(object) + u' ' + QString::fromUtf8(patch);
    case Action::Delete:
        return QStringLiteral("delete ") + describeObject(object);
    }
    return {};
}

QString EndState::toText() const
{
    QString out;
    for (auto it = objects.cbegin(); it != objects.cend(); ++it)
        out += QStringLiteral("  %1: %2\n").arg(it.key(), QString::fromUtf8(it.value()));
    for (auto it = creates.cbegin(); it != creates.cend(); ++it)
        out += QStringLiteral("  creates %1: %2\n").arg(it.key()).arg(it.value());
    for (auto it = deletes.cbegin(); it != deletes.cend(); ++it)
        out += QStringLiteral("  deletes %1: %2\n").arg(it.key()).arg(it.value());
    return out;
}

QString compareEndStates(const EndState &expected, const EndState &actual)
{
    QStringList diff;
    const auto keysOf = [](const auto &a, const auto &b) {
        QStringList keys = a.keys() + b.keys();
        keys.removeDuplicates();
        keys.sort();
        return keys;
    };
    for (const QString &k : keysOf(expected.objects, actual.objects)) {
        const QByteArray e = expected.objects.value(k), a = actual.objects.value(k);
        if (e == a)
            continue;
        if (e.isEmpty())
            diff << QStringLiteral("+ %1 (only in the faulty run): %2").arg(k, QString::fromUtf8(a));
        else if (a.isEmpty())
            diff << QStringLiteral("- %1 (missing from the faulty run): %2").arg(k, QString::fromUtf8(e));
        else {
            // Field by field (top two levels) so the difference is readable.
            const QJsonObject eo = QJsonDocument::fromJson(e).object(), ao = QJsonDocument::fromJson(a).object();
            QStringList fields;
            for (const QString &top : keysOf(eo, ao)) {
                const QJsonValue ev = eo.value(top), av = ao.value(top);
                if (ev == av)
                    continue;
                if (ev.isObject() && av.isObject()) {
                    const QJsonObject es = ev.toObject(), as = av.toObject();
                    for (const QString &sub : keysOf(es, as))
                        if (es.value(sub) != as.value(sub))
                            fields << QStringLiteral("    %1.%2: reference %3, faulty %4")
                                          .arg(top, sub,
                                              QString::fromUtf8(QJsonDocument(QJsonArray{es.value(sub)})
                                                                    .toJson(QJsonDocument::Compact)),
                                              QString::fromUtf8(QJsonDocument(QJsonArray{as.value(sub)})
                                                                    .toJson(QJsonDocument::Compact)));
                } else {
                    fields << QStringLiteral("    %1 differs").arg(top);
                }
            }
            diff << QStringLiteral("~ %1:\n%2").arg(k, fields.join(u'\n'));
        }
    }
    for (const QString &k : keysOf(expected.creates, actual.creates))
        if (expected.creates.value(k) != actual.creates.value(k))
            diff << QStringLiteral("~ creates of %1: reference %2, faulty %3")
                        .arg(k)
                        .arg(expected.creates.value(k))
                        .arg(actual.creates.value(k));
    for (const QString &k : keysOf(expected.deletes, actual.deletes))
        if (expected.deletes.value(k) != actual.deletes.value(k))
            diff << QStringLiteral("~ deletes of %1: reference %2, faulty %3")
                        .arg(k)
                        .arg(expected.deletes.value(k))
                        .arg(actual.deletes.value(k));
    if (diff.isEmpty())
        return {};
    return QStringLiteral("end states differ:\n%1\nreference end state:\n%2faulty end state:\n%3")
        .arg(diff.join(u'\n'), expected.toText(), actual.toText());
}

// ---------------------------------------------------------------------------------------------
// Session: one server (restartable from its state file), one operator (crashable), counters.

class FaultHarness::Session
{
public:
    explicit Session(const FaultHarness &h)
        : m_h(h)
        , m_mapper(RestMapper::withBuiltins())
    {
        m_random.seed(h.m_seed);
        (void)registerCrds(m_mapper, h.m_def.crds); // errors surface when the operator starts
    }
    ~Session()
    {
        stopOperator();
        m_rest.reset();
        m_server.reset();
    }

    // --- the server ---
    bool startServer()
    {
        apiserver::ApiServerOptions o = testing::TestApiServer::plainOptions();
        o.crds += m_h.m_def.crds;
        o.auditLog = m_dir.filePath(QStringLiteral("audit.log"));
        o.stateFile = m_dir.filePath(QStringLiteral("state.json"));
        o.port = m_port;
        m_server = std::make_unique<testing::TestApiServer>(o);
        if (!m_server->start())
            return fail(QStringLiteral("the API server did not start: ") + m_server->errorString());
        m_port = quint16(m_server->url().port());
        m_server->runOnServerThread([seed = m_h.m_seed](apiserver::ApiServer &s) { s.faultInjector()->setSeed(seed); });
        auto cfg = loadConfig(m_server->kubeconfigPath());
        if (!cfg)
            return fail(cfg.error().message());
        m_config = *cfg;
        m_rest = std::make_unique<RestClient>(m_config);
        return true;
    }
    /// Adds the server's fired-fault counts to m_fired (before it goes away, and at the end).
    void collectFired()
    {
        if (!m_server)
            return;
        m_server->runOnServerThread([this](apiserver::ApiServer &s) {
            using K = apiserver::FaultSpec::Kind;
            for (K k : {K::Error, K::Throttle, K::Reset, K::ExpireContinue})
                if (const int n = s.faultInjector()->firedCount(k))
                    m_fired[apiserver::FaultSpec{k}.toString().section(u':', 0, 0)] += n;
        });
    }
    bool restartServer()
    {
        collectFired();
        m_server->stop(); // flushes the state file
        m_server.reset();
        m_rest.reset();
        return startServer();
    }
    void setFaults(const QStringList &faults)
    {
        m_server->runOnServerThread([faults](apiserver::ApiServer &s) { s.setFaults(faults); });
    }
    /// Moves the server's resourceVersion past what the operator's caches saw (a write no
    /// informer of theirs watches), forgets the watch history and drops every watch: each
    /// resume gets 410, and so does the relist at the cache's version, so the reflector falls
    /// back to a consistent (paginated) list.
    void expireWatches()
    {
        if (!m_bumpNamespace) {
            Object ns = Object::fromJson(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                {QStringLiteral("kind"), QStringLiteral("Namespace")},
                {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), kPaddingNamespace}}}});
            Expected<Object> made = retried([&] {
                return QCoro::waitFor(
                    m_rest->create({QString(), QStringLiteral("v1"), QStringLiteral("namespaces")}, QString(), ns));
            });
            m_bumpNamespace = made.ok() || isAlreadyExists(made.error());
        }
        const Object bump = Object::fromJson(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
            {QStringLiteral("metadata"),
                QJsonObject{{QStringLiteral("name"), QStringLiteral("bump-%1").arg(++m_bumps)},
                    {QStringLiteral("namespace"), kPaddingNamespace}}}});
        (void)retried([&] {
            return QCoro::waitFor(m_rest->create(
                {QString(), QStringLiteral("v1"), QStringLiteral("configmaps")}, kPaddingNamespace, bump));
        });
        m_server->runOnServerThread([](apiserver::ApiServer &s) {
            s.compactHistory();
            s.dropWatches();
        });
        ++m_fired[QStringLiteral("expire-watches")];
    }

    // --- the operator ---
    bool startOperator()
    {
        ManagerOptions mo;
        mo.restConfig = m_config;
        mo.gracefulShutdownTimeout = std::chrono::seconds(5);
        auto mgr = Manager::create(mo);
        if (!mgr)
            return fail(mgr.error().message());
        m_mgr = std::move(*mgr);
        if (auto ok = registerCrds(m_mgr->cache()->mapper(), m_h.m_def.crds); !ok)
            return fail(ok.error().message());
        auto ctrl = m_h.m_def.setup(m_mgr.get());
        if (!ctrl)
            return fail(QStringLiteral("setup failed: ") + ctrl.error().message());
        m_ctrl = *ctrl;
        QObject::connect(m_ctrl, &Controller::reconcileFinished, m_mgr.get(), [this] { ++m_reconciles; });
        Client *client = m_mgr->client();
        client->setWriteObserver(
            [this, client](const TraceCall &call, const Object &sent) { observe(client, call, sent); });
        Expected<void> started = QCoro::waitFor(m_mgr->start());
        if (!started)
            return fail(QStringLiteral("the manager did not start: ") + started.error().message());
        return true;
    }
    void stopOperator()
    {
        if (!m_mgr)
            return;
        bool done = false;
        QObject::connect(m_mgr.get(), &Manager::finished, m_mgr.get(), [&done] { done = true; });
        m_mgr->stop();
        QElapsedTimer t;
        t.start();
        while (!done && t.elapsed() < 15000)
            spin(20);
        m_ctrl = nullptr;
        m_mgr.reset();
    }
    void crashAfter(int writeIndex) { m_crashAfter = writeIndex; }
    bool crashed() const { return m_crashed; }
    void observe(Client *client, const TraceCall &call, const Object &sent)
    {
        if (call.code == 409)
            ++m_conflicts;
        if (call.code == 0 && !m_crashed)
            ++m_transportErrors;
        if (!call.ok())
            return;
        ++m_writes;
        m_writeLog << QStringLiteral("%1 %2 %3 %4").arg(call.verb, call.gvk.kind, call.key).arg(call.code);
        const bool conditional = !sent.resourceVersion().isEmpty();
        if (m_staleWindow && !conditional && call.verb != QLatin1String("create")
            && !call.verb.startsWith(QLatin1String("patch")))
            ++m_unconditional;
        if (m_crashAfter > 0 && m_writes == m_crashAfter && !m_crashed) {
            m_crashed = true;
            // The process is gone: nothing it would still send reaches the server.
            client->setWriteFence([] {
                return std::optional<Status>(Status(503, QStringLiteral("ServiceUnavailable"),
                    QStringLiteral("the operator crashed (fault injection)")));
            });
        }
    }

    // --- the workload ---
    std::optional<ResourceMapping> mappingOf(const GroupVersionKind &gvk) const { return m_mapper.forKind(gvk); }
    bool apply(const Step &step)
    {
        const auto mapping = mappingOf(step.object.gvk());
        if (!mapping)
            return fail(QStringLiteral("%1: kind not known").arg(step.describe()));
        const QString ns = !mapping->namespaced     ? QString()
            : step.object.namespaceName().isEmpty() ? QStringLiteral("default")
                                                    : step.object.namespaceName();
        QElapsedTimer t;
        t.start();
        for (int attempt = 0;; ++attempt) {
            Status error;
            bool done = false;
            if (step.action == Step::Action::Create) {
                Expected<Object> r = QCoro::waitFor(m_rest->create(mapping->gvr, ns, step.object));
                done = r.ok() || (attempt > 0 && isAlreadyExists(r.error())); // a reset reply may hide a success
                if (!r)
                    error = r.error();
            } else if (step.action == Step::Action::MergePatch) {
                Expected<Object> r
                    = QCoro::waitFor(m_rest->patch(mapping->gvr, ns, step.object.name(), PatchType::Merge, step.patch));
                done = r.ok();
                if (!r)
                    error = r.error();
            } else {
                Expected<DeleteResult> r = QCoro::waitFor(m_rest->remove(mapping->gvr, ns, step.object.name()));
                done = r.ok() || (attempt > 0 && isNotFound(r.error()));
                if (!r)
                    error = r.error();
            }
            if (done)
                break;
            if (!retriable(error) || t.elapsed() > m_h.m_options.convergeTimeout.count())
                return fail(QStringLiteral("%1 failed: %2").arg(step.describe(), error.toString()));
            spin(50);
        }
        if (step.settle)
            return waitQuiescent();
        return true;
    }
    bool applyAll(const Workload &w)
    {
        for (const Step &s : w)
            if (!apply(s))
                return false;
        return true;
    }
    template<class Fn> auto retried(Fn fn) -> decltype(fn())
    {
        QElapsedTimer t;
        t.start();
        for (;;) {
            auto r = fn();
            if (r.ok() || !retriable(r.error()) || t.elapsed() > m_h.m_options.convergeTimeout.count())
                return r;
            spin(50);
        }
    }
    Expected<QList<Object>> listAll(const GroupVersionResource &gvr)
    {
        Expected<Object::List> l = retried([&] { return QCoro::waitFor(m_rest->list(gvr, QString())); });
        if (!l)
            return l.error();
        return l->items;
    }
    Expected<Object> get(const Object &target)
    {
        const auto mapping = mappingOf(target.gvk());
        if (!mapping)
            return Status::badRequest(QStringLiteral("kind %1 not known").arg(target.kind()));
        const QString ns = mapping->namespaced ? target.namespaceName() : QString();
        return retried([&] { return QCoro::waitFor(m_rest->get(mapping->gvr, ns, target.name())); });
    }
    bool createPadding(int count, const Object &templ)
    {
        if (count <= 0)
            return true;
        Object ns = Object::fromJson(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("Namespace")},
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), kPaddingNamespace}}}});
        if (!apply(Step::create(ns)))
            return false;
        for (int i = 0; i < count; ++i) {
            QJsonObject o = templ.json();
            QJsonObject meta = o.value(QLatin1String("metadata")).toObject();
            meta.insert(QStringLiteral("name"), QStringLiteral("pad-%1").arg(i));
            meta.insert(QStringLiteral("namespace"), kPaddingNamespace);
            o.insert(QStringLiteral("metadata"), meta);
            if (!apply(Step::create(Object::fromJson(o))))
                return false;
        }
        return true;
    }

    // --- quiescence and the end state ---
    /// Why the operator is not quiescent right now ("" when it is).
    QString busy()
    {
        if (!m_mgr || !m_ctrl)
            return QStringLiteral("no operator");
        const WorkQueue *q = m_ctrl->queue();
        if (q->len() || q->processingCount() || q->waitingCount() || m_ctrl->activeWorkers())
            return QStringLiteral("queue: %1 queued, %2 processing, %3 waiting")
                .arg(q->len())
                .arg(q->processingCount())
                .arg(q->waitingCount());
        for (Informer *inf : m_mgr->cache()->informers()) {
            if (inf->heldDeltaCount() > 0)
                return QStringLiteral("%1: events held").arg(inf->options().kind);
            if (!inf->hasSynced())
                return QStringLiteral("%1: not synced").arg(inf->options().kind);
            Expected<QList<Object>> live = listAll(inf->options().resource);
            if (!live)
                return QStringLiteral("%1: %2").arg(inf->options().kind, live.error().toString());
            QMap<QString, QString> server, cache;
            for (const Object &o : *live)
                server.insert(o.key(), o.resourceVersion());
            for (const Object &o : inf->store().list())
                cache.insert(o.key(), o.resourceVersion());
            if (server != cache)
                return QStringLiteral("%1: the cache lags the server").arg(inf->options().kind);
        }
        return {};
    }
    /// Waits until busy() stays empty, with no reconcile, for the settle time.
    bool waitQuiescent(std::chrono::milliseconds timeout = {})
    {
        if (timeout.count() == 0)
            timeout = m_h.m_options.convergeTimeout;
        QElapsedTimer total, quiet;
        total.start();
        int reconcilesAtQuiet = -1;
        QString why;
        while (total.elapsed() < timeout.count()) {
            if (m_crashed && m_crashAfter > 0)
                return true; // the operator is gone; the crash run goes on from here
            why = busy();
            if (why.isEmpty() && reconcilesAtQuiet == m_reconciles) {
                if (quiet.elapsed() >= m_h.m_options.settle.count())
                    return true;
            } else if (why.isEmpty()) {
                reconcilesAtQuiet = m_reconciles;
                quiet.start();
            } else {
                reconcilesAtQuiet = -1;
            }
            spin(25);
        }
        return fail(QStringLiteral("not quiescent after %1 ms: %2").arg(timeout.count()).arg(why));
    }
    /// Waits until the queue is drained and nothing runs (delayed retries may wait): the operator
    /// has done what it does on its current (possibly stale) view.
    bool waitIdle()
    {
        QElapsedTimer total, quiet;
        total.start();
        quiet.start();
        int last = m_reconciles;
        while (total.elapsed() < m_h.m_options.convergeTimeout.count()) {
            const WorkQueue *q = m_ctrl->queue();
            const bool idle = !q->len() && !q->processingCount() && !m_ctrl->activeWorkers();
            if (!idle || last != m_reconciles) {
                last = m_reconciles;
                quiet.start();
            } else if (quiet.elapsed() >= m_h.m_options.settle.count()) {
                return true;
            }
            spin(25);
        }
        return fail(QStringLiteral("the operator did not become idle"));
    }
    EndState snapshot()
    {
        EndState s;
        QSet<QString> resources;
        for (const GroupVersionKind &gvk : m_h.m_def.kinds) {
            const auto mapping = mappingOf(gvk);
            if (!mapping)
                continue;
            resources.insert(mapping->gvr.resource);
            Expected<QList<Object>> items = listAll(mapping->gvr);
            if (!items) {
                fail(QStringLiteral("listing %1 failed: %2").arg(gvk.kind, items.error().toString()));
                continue;
            }
            QMap<QString, QList<QByteArray>> byKey;
            for (const Object &o : *items) {
                if (m_h.m_options.ignoredNamespaces.contains(o.namespaceName()))
                    continue;
                QJsonObject m = masked(o.json());
                if (m_h.m_options.mask)
                    m_h.m_options.mask(m);
                const QString name
                    = m.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
                const QString key
                    = gvk.kind + u' ' + (o.namespaceName().isEmpty() ? name : o.namespaceName() + u'/' + name);
                byKey[key] << QJsonDocument(m).toJson(QJsonDocument::Compact);
            }
            for (auto it = byKey.begin(); it != byKey.end(); ++it) {
                std::sort(it->begin(), it->end());
                for (int i = 0; i < it->size(); ++i)
                    s.objects.insert(
                        it->size() == 1 ? it.key() : it.key() + QStringLiteral(" #%1").arg(i + 1), it->at(i));
            }
        }
        QFile audit(m_dir.filePath(QStringLiteral("audit.log")));
        if (audit.open(QIODevice::ReadOnly)) {
            while (!audit.atEnd()) {
                const QJsonObject line = QJsonDocument::fromJson(audit.readLine()).object();
                const QString verb = line.value(QLatin1String("verb")).toString();
                const int code = line.value(QLatin1String("code")).toInt();
                const QString resource = line.value(QLatin1String("resource")).toString();
                const QString ns = line.value(QLatin1String("namespace")).toString();
                if (resources.contains(resource) || resource.isEmpty())
                    ++s.codes[code];
                if (code < 200 || code > 299 || !resources.contains(resource)
                    || m_h.m_options.ignoredNamespaces.contains(ns))
                    continue;
                const QString key = resource + u' ' + (ns.isEmpty() ? QString() : ns + u'/')
                    + line.value(QLatin1String("name")).toString();
                if (verb == QLatin1String("create"))
                    ++s.creates[key];
                else if (verb == QLatin1String("delete"))
                    ++s.deletes[key];
            }
        }
        return s;
    }
    /// The objects `owner` controls (masked, generation and revision counters left out).
    QMap<QString, QByteArray> controlledBy(const Object &owner)
    {
        QMap<QString, QByteArray> out;
        for (int k = 1; k < m_h.m_def.kinds.size(); ++k) {
            const auto mapping = mappingOf(m_h.m_def.kinds.at(k));
            if (!mapping)
                continue;
            Expected<QList<Object>> items = listAll(mapping->gvr);
            if (!items)
                continue;
            for (const Object &o : *items) {
                const auto ref = o.controllerReference();
                if (!ref || ref->uid != owner.uid())
                    continue;
                QJsonObject m = masked(o.json());
                QJsonObject meta = m.value(QLatin1String("metadata")).toObject();
                meta.remove(QLatin1String("generation"));
                m.insert(QStringLiteral("metadata"), meta);
                QJsonObject status = m.value(QLatin1String("status")).toObject();
                status.remove(QLatin1String("observedGeneration"));
                m.insert(QStringLiteral("status"), status);
                if (m_h.m_options.mask)
                    m_h.m_options.mask(m);
                out.insert(describeObject(o), QJsonDocument(m).toJson(QJsonDocument::Compact));
            }
        }
        return out;
    }

    // --- hooks on the operator's informers ---
    QList<Informer *> informersOf(const QList<GroupVersionKind> &kinds) const
    {
        QList<Informer *> out;
        for (Informer *inf : m_mgr->cache()->informers()) {
            bool match = kinds.isEmpty();
            for (const GroupVersionKind &gvk : kinds)
                match = match || (inf->options().kind == gvk.kind && inf->options().resource.group == gvk.group);
            if (match)
                out << inf;
        }
        return out;
    }

    bool fail(const QString &why)
    {
        if (m_error.isEmpty())
            m_error = why;
        return false;
    }
    RunReport report(bool ok)
    {
        RunReport r;
        r.ok = ok && m_error.isEmpty();
        r.failure = m_error;
        r.writes = m_writeLog;
        r.operatorWrites = m_writes;
        r.conflicts = m_conflicts;
        r.transportErrors = m_transportErrors;
        collectFired();
        r.injected = m_fired;
        m_fired.clear();
        r.unconditionalWrites = m_unconditional;
        r.reconciles = m_reconciles;
        return r;
    }

    const FaultHarness &m_h;
    RestMapper m_mapper;
    QRandomGenerator m_random;
    QTemporaryDir m_dir;
    quint16 m_port = 0;
    std::unique_ptr<testing::TestApiServer> m_server;
    RestConfig m_config;
    std::unique_ptr<RestClient> m_rest;
    std::unique_ptr<Manager> m_mgr;
    QPointer<Controller> m_ctrl;
    int m_reconciles = 0;
    int m_writes = 0;
    int m_conflicts = 0;
    int m_transportErrors = 0;
    QMap<QString, int> m_fired;
    bool m_bumpNamespace = false;
    int m_bumps = 0;
    int m_unconditional = 0;
    bool m_staleWindow = false;
    int m_crashAfter = 0;
    bool m_crashed = false;
    QStringList m_writeLog;
    QString m_error;
};

// ---------------------------------------------------------------------------------------------

FaultHarness::FaultHarness(OperatorDefinition definition, HarnessOptions options)
    : m_def(std::move(definition))
    , m_options(std::move(options))
{
    m_seed = m_options.seed;
    if (m_seed == 0) {
        bool ok = false;
        const quint32 env = qEnvironmentVariable("OPBENCH_FAULT_SEED").toUInt(&ok);
        m_seed = ok && env != 0 ? env : kDefaultSeed;
    }
    std::fprintf(stderr, "opbench fault harness: operator %s, seed %u (set OPBENCH_FAULT_SEED to change it)\n",
        qPrintable(m_def.name), m_seed);
}

FaultHarness::~FaultHarness() = default;

QString FaultHarness::failureText(const QString &what) const
{
    QString cmd = QStringLiteral("OPBENCH_FAULT_SEED=%1").arg(m_seed);
    if (!m_options.reproduceCommand.isEmpty())
        cmd += u' ' + m_options.reproduceCommand;
    return QStringLiteral("%1\nseed %2; reproduce with: %3").arg(what).arg(m_seed).arg(cmd);
}

namespace {
QString workloadKey(const Workload &w)
{
    QStringList parts;
    for (const Step &s : w)
        parts << s.describe();
    return parts.join(u'\n');
}
} // namespace

RunReport FaultHarness::reference(const Workload &workload)
{
    const QString key = workloadKey(workload);
    if (m_references.contains(key))
        return m_references.value(key);
    Session s(*this);
    bool ok = s.startServer() && s.startOperator() && s.applyAll(workload) && s.waitQuiescent();
    RunReport r = s.report(ok);
    r.end = s.snapshot();
    if (!r.ok)
        r.failure = failureText(QStringLiteral("reference run: ") + r.failure);
    else
        m_references.insert(key, r);
    return r;
}

namespace {
/// Compares `r` with `ref`; fills ok/failure.
void judge(
    RunReport &r, const RunReport &ref, const QString &mode, const std::function<QString(const QString &)> &failureText)
{
    if (!ref.ok) {
        r.ok = false;
        r.failure = ref.failure;
        return;
    }
    QString why = r.failure;
    if (r.ok) {
        if (QString diff = compareEndStates(ref.end, r.end); !diff.isEmpty())
            why = diff;
    }
    r.ok = why.isEmpty();
    if (!r.ok)
        r.failure = failureText(mode + QStringLiteral(": ") + why + QStringLiteral("\noperator writes:\n  ")
            + r.writes.join(QStringLiteral("\n  ")));
}
} // namespace

RunReport FaultHarness::crashAfterWrite(const Workload &workload, int writeIndex)
{
    const RunReport ref = reference(workload);
    Session s(*this);
    s.crashAfter(writeIndex);
    bool ok = s.startServer() && s.startOperator();
    // Apply the workload until the crash (or to its end), then wait for the crash.
    int applied = 0;
    for (; ok && applied < workload.size() && !s.crashed(); ++applied)
        ok = s.apply(workload.at(applied));
    QElapsedTimer t;
    t.start();
    while (ok && !s.crashed() && t.elapsed() < m_options.convergeTimeout.count())
        spin(10);
    if (ok && !s.crashed())
        ok = s.fail(QStringLiteral("the operator made fewer than %1 writes").arg(writeIndex));
    if (ok) {
        s.stopOperator(); // its cache, queue and in-flight reconciles are gone
        s.crashAfter(0);
        ok = s.startOperator() && s.applyAll(workload.mid(applied)) && s.waitQuiescent();
    }
    RunReport r = s.report(ok);
    r.end = s.snapshot();
    judge(r, ref, QStringLiteral("crash after write %1").arg(writeIndex),
        [this](const QString &w) { return failureText(w); });
    return r;
}

RunReport FaultHarness::staleCache(
    const Workload &setup, const Workload &changes, const QList<GroupVersionKind> &heldKinds)
{
    const RunReport ref = reference(setup + changes);
    Session s(*this);
    bool ok = s.startServer() && s.startOperator() && s.applyAll(setup) && s.waitQuiescent();
    QList<Informer *> held;
    if (ok) {
        held = s.informersOf(heldKinds);
        for (Informer *inf : held)
            inf->setDeltaFilter([](const Informer::Delta &) { return Informer::DeltaAction::Hold; });
        s.m_staleWindow = true;
        ok = s.applyAll(changes) && s.waitIdle();
        s.m_staleWindow = false;
        for (Informer *inf : held) {
            inf->setDeltaFilter({});
            inf->releaseHeldDeltas();
        }
        ok = ok && s.waitQuiescent();
    }
    RunReport r = s.report(ok);
    r.end = s.snapshot();
    if (r.ok && r.unconditionalWrites > 0)
        r.ok = s.fail(
            QStringLiteral("%1 update(s)/delete(s) without a resourceVersion were accepted while the cache was stale")
                .arg(r.unconditionalWrites));
    if (!r.ok && r.failure.isEmpty())
        r.failure = s.m_error;
    judge(r, ref, QStringLiteral("stale cache"), [this](const QString &w) { return failureText(w); });
    return r;
}

RunReport FaultHarness::unobserved(
    const Workload &setup, const Workload &dropped, const Workload &after, const QList<GroupVersionKind> &kinds)
{
    const RunReport ref = reference(setup + dropped + after);
    Session s(*this);
    bool ok = s.startServer() && s.startOperator() && s.applyAll(setup) && s.waitQuiescent();
    if (ok) {
        const QList<Informer *> dropping = s.informersOf(kinds);
        int droppedCount = 0;
        for (Informer *inf : dropping)
            inf->setDeltaFilter([&droppedCount](const Informer::Delta &d) {
                if (d.type == Informer::Delta::Type::Replace || d.type == Informer::Delta::Type::Bookmark)
                    return Informer::DeltaAction::Apply;
                ++droppedCount;
                return Informer::DeltaAction::Drop;
            });
        ok = s.applyAll(dropped);
        // Wait until the reflectors have read past the last dropped change.
        QString target;
        if (ok && !dropping.isEmpty()) {
            Expected<Object::List> l = s.retried(
                [&] { return QCoro::waitFor(s.m_rest->list(dropping.first()->options().resource, QString())); });
            if (l)
                target = l->resourceVersion;
        }
        QElapsedTimer t;
        t.start();
        const auto caughtUp = [&] {
            for (Informer *inf : dropping)
                if (!inf->reflector() || !rvAtLeast(inf->reflector()->lastSyncResourceVersion(), target))
                    return false;
            return true;
        };
        while (ok && !caughtUp() && t.elapsed() < m_options.convergeTimeout.count())
            spin(10);
        for (Informer *inf : dropping)
            inf->setDeltaFilter({});
        if (ok && droppedCount == 0)
            ok = s.fail(
                QStringLiteral("no event was dropped (the workload's dropped part changed nothing the kinds watch)"));
        ok = ok && s.applyAll(after) && s.waitQuiescent();
    }
    RunReport r = s.report(ok);
    r.end = s.snapshot();
    judge(r, ref, QStringLiteral("unobserved state"), [this](const QString &w) { return failureText(w); });
    return r;
}

RunReport FaultHarness::apiFaults(const Workload &workload, const ApiFaults &faults)
{
    const RunReport ref = reference(workload);
    Session s(*this);
    bool ok = s.startServer() && s.createPadding(faults.paddingCount, faults.paddingTemplate);
    if (ok) {
        s.setFaults(faults.faults);
        ok = s.startOperator();
    }
    for (int i = 0; ok && i < workload.size(); ++i) {
        ok = s.apply(workload.at(i));
        if (ok && faults.expireWatches)
            s.expireWatches();
        if (ok && faults.restartServer) {
            ++s.m_fired[QStringLiteral("restart")];
            ok = s.restartServer();
            if (ok)
                s.setFaults(faults.faults);
        }
    }
    ok = ok && s.waitQuiescent(); // converged with the faults still on
    if (ok) {
        s.setFaults({});
        ok = s.waitQuiescent();
    }
    RunReport r = s.report(ok);
    r.end = s.snapshot();
    judge(r, ref,
        QStringLiteral("API faults (%1%2%3)")
            .arg(faults.faults.join(QLatin1String("; ")),
                faults.expireWatches ? QStringLiteral(", 410 on watch") : QString(),
                faults.restartServer ? QStringLiteral(", server restarts") : QString()),
        [this](const QString &w) { return failureText(w); });
    return r;
}

StabilityReport FaultHarness::stability(const Workload &workload, int maxReconcilesPerStep)
{
    StabilityReport out;
    Session s(*this);
    bool ok = s.startServer() && s.startOperator() && s.applyAll(workload) && s.waitQuiescent();
    out.reconcilesToConverge = s.m_reconciles;
    out.writesToConverge = s.m_writes;
    if (ok && s.m_reconciles > maxReconcilesPerStep * qMax(1, int(workload.size())))
        ok = s.fail(QStringLiteral("%1 reconciles to converge %2 steps (bound %3 per step): a hot loop?")
                        .arg(s.m_reconciles)
                        .arg(workload.size())
                        .arg(maxReconcilesPerStep));
    if (ok) {
        const int r0 = s.m_reconciles, w0 = s.m_writes;
        const QList<Informer *> forInformers = s.informersOf({m_def.kinds.value(0)});
        int queued = 0;
        for (Informer *inf : forInformers)
            for (const Object &o : inf->store().list()) {
                s.m_ctrl->queue()->add(QueueKey{o.namespaceName(), o.name()});
                ++queued;
            }
        ok = s.waitQuiescent();
        out.reconcilesAfter = s.m_reconciles - r0;
        out.writesAfter = s.m_writes - w0;
        if (ok && out.writesAfter > 0)
            ok = s.fail(QStringLiteral("reconciling converged objects wrote %1 time(s):\n  %2")
                            .arg(out.writesAfter)
                            .arg(s.m_writeLog.mid(w0).join(QStringLiteral("\n  "))));
        if (ok && out.reconcilesAfter > queued)
            ok = s.fail(QStringLiteral("%1 objects queued once gave %2 reconciles (no hot loop allowed)")
                            .arg(queued)
                            .arg(out.reconcilesAfter));
    }
    out.ok = ok;
    if (!ok)
        out.failure = failureText(QStringLiteral("stability: ") + s.m_error);
    return out;
}

MutationReport FaultHarness::specMutations(const Workload &workload, const Object &target)
{
    MutationReport out;
    Session s(*this);
    bool ok = s.startServer() && s.startOperator() && s.applyAll(workload) && s.waitQuiescent();
    // The spec schema of the target's kind and version.
    QJsonObject specSchema;
    for (const QByteArray &yaml : m_def.crds) {
        Expected<QList<QJsonObject>> docs = yamlToJson(yaml);
        if (!docs)
            continue;
        for (const QJsonObject &crd : *docs) {
            const QJsonObject spec = crd.value(QLatin1String("spec")).toObject();
            if (spec.value(QLatin1String("names")).toObject().value(QLatin1String("kind")).toString() != target.kind())
                continue;
            for (const QJsonValue &v : spec.value(QLatin1String("versions")).toArray())
                if (spec.value(QLatin1String("group")).toString() + u'/'
                        + v.toObject().value(QLatin1String("name")).toString()
                    == target.apiVersion())
                    specSchema = v.toObject()
                                     .value(QLatin1String("schema"))
                                     .toObject()
                                     .value(QLatin1String("openAPIV3Schema"))
                                     .toObject()
                                     .value(QLatin1String("properties"))
                                     .toObject()
                                     .value(QLatin1String("spec"))
                                     .toObject();
        }
    }
    if (ok && specSchema.isEmpty())
        ok = s.fail(QStringLiteral("no openAPIV3Schema for %1 %2 in the definition's CRDs")
                        .arg(target.apiVersion(), target.kind()));
    const auto mapping = s.mappingOf(target.gvk());
    const QJsonObject props = specSchema.value(QLatin1String("properties")).toObject();
    QStringList required;
    for (const QJsonValue &v : specSchema.value(QLatin1String("required")).toArray())
        required << v.toString();
    const auto specPatch = [](const QString &field, const QJsonValue &value) {
        return QJsonDocument(QJsonObject{{QStringLiteral("spec"), QJsonObject{{field, value}}}})
            .toJson(QJsonDocument::Compact);
    };
    const auto patchTarget = [&](const QByteArray &patch) {
        return s.retried([&] {
            return QCoro::waitFor(
                s.m_rest->patch(mapping->gvr, target.namespaceName(), target.name(), PatchType::Merge, patch));
        });
    };
    struct Mutation
    {
        QString label;
        QByteArray patch;
        QByteArray revert;
        bool valid;
    };
    QList<Mutation> mutations;
    Expected<Object> live = ok ? s.get(target) : Expected<Object>(Status::badRequest(QStringLiteral("not started")));
    if (ok && !live)
        ok = s.fail(
            QStringLiteral("the target %1 is not there: %2").arg(describeObject(target), live.error().toString()));
    if (ok) {
        const QJsonObject spec = live->json().value(QLatin1String("spec")).toObject();
        for (auto it = props.begin(); it != props.end(); ++it) {
            const QString field = it.key();
            const QJsonObject p = it.value().toObject();
            const QString type = p.value(QLatin1String("type")).toString();
            const QJsonValue cur = spec.value(field);
            const QByteArray revert = specPatch(field, cur.isUndefined() ? QJsonValue(QJsonValue::Null) : cur);
            const auto add = [&](const QString &what, const QJsonValue &v, bool valid) {
                mutations << Mutation{
                    QStringLiteral("%1 spec.%2=%3")
                        .arg(valid ? QStringLiteral("valid") : QStringLiteral("invalid"), field, what),
                    specPatch(field, v), revert, valid};
            };
            if (type == QLatin1String("integer")) {
                const bool hasMin = p.contains(QLatin1String("minimum")), hasMax = p.contains(QLatin1String("maximum"));
                const qint64 min = p.value(QLatin1String("minimum")).toInteger(),
                             max = p.value(QLatin1String("maximum")).toInteger();
                const qint64 now = cur.isUndefined() ? p.value(QLatin1String("default")).toInteger(hasMin ? min : 0)
                                                     : cur.toInteger();
                qint64 next = now + 1 + qint64(s.m_random.bounded(2));
                if (hasMax && next > max)
                    next = hasMin ? qMax(min, now - 1) : now - 1;
                add(QString::number(next), next, true);
                if (hasMin) {
                    add(QString::number(min - 1), min - 1, false);
                    if (min > 1)
                        add(QStringLiteral("0"), 0, false);
                    if (min >= 0 && min - 1 != -1)
                        add(QStringLiteral("-1"), -1, false);
                    else if (min >= 0)
                        add(QStringLiteral("-5"), -5, false);
                }
                if (hasMax)
                    add(QString::number(max + 1), max + 1, false);
                else if (p.value(QLatin1String("format")).toString() == QLatin1String("int32"))
                    add(QStringLiteral("2147483648"), double(2147483648.0), false);
                add(QStringLiteral("\"three\""), QStringLiteral("three"), false);
            } else if (type == QLatin1String("string")) {
                const QJsonArray en = p.value(QLatin1String("enum")).toArray();
                if (!en.isEmpty()) {
                    for (const QJsonValue &e : en)
                        if (e != cur) {
                            add(e.toString(), e, true);
                            break;
                        }
                    add(QStringLiteral("\"not-in-enum\""), QStringLiteral("not-in-enum"), false);
                } else {
                    const QString v = cur.toString() + QStringLiteral("-m%1").arg(s.m_random.bounded(100));
                    add(v, v, true);
                }
                if (p.value(QLatin1String("minLength")).toInt() >= 1)
                    add(QStringLiteral("\"\""), QString(), false);
                if (p.contains(QLatin1String("maxLength")))
                    add(QStringLiteral("(too long)"), QString(p.value(QLatin1String("maxLength")).toInt() + 1, u'x'),
                        false);
                add(QStringLiteral("42"), 42, false);
            } else if (type == QLatin1String("boolean")) {
                add(cur.toBool() ? QStringLiteral("false") : QStringLiteral("true"), !cur.toBool(), true);
                add(QStringLiteral("\"yes\""), QStringLiteral("yes"), false);
            }
            if (required.contains(field))
                mutations << Mutation{QStringLiteral("invalid spec.%1 missing").arg(field),
                    specPatch(field, QJsonValue(QJsonValue::Null)), revert, false};
        }
        mutations << Mutation{QStringLiteral("valid metadata.labels +fault.opbench.io/mutated"),
            R"({"metadata":{"labels":{"fault.opbench.io/mutated":"yes"}}})",
            R"({"metadata":{"labels":{"fault.opbench.io/mutated":null}}})", true};
    }
    for (const Mutation &m : std::as_const(mutations)) {
        if (!ok)
            break;
        const QMap<QString, QByteArray> before = s.controlledBy(*live);
        const EndState all = s.snapshot();
        const Expected<Object> beforeTarget = s.get(target);
        Expected<Object> patched = patchTarget(m.patch);
        if (!m.valid) {
            ++out.invalid;
            if (patched.ok()) {
                ok = s.fail(QStringLiteral("%1 was accepted (expected 422 Invalid)").arg(m.label));
                (void)patchTarget(m.revert);
                break;
            }
            if (!isInvalid(patched.error())) {
                ok = s.fail(QStringLiteral("%1 was refused with %2 (expected 422 Invalid)")
                                .arg(m.label, patched.error().toString()));
                break;
            }
            const Expected<Object> afterTarget = s.get(target);
            if (!beforeTarget || !afterTarget || beforeTarget->resourceVersion() != afterTarget->resourceVersion()) {
                ok = s.fail(QStringLiteral("%1 was refused but the object changed").arg(m.label));
                break;
            }
            if (QString d = compareEndStates(all, s.snapshot()); !d.isEmpty()) {
                ok = s.fail(QStringLiteral("%1 was refused but something changed: %2").arg(m.label, d));
                break;
            }
            out.log << m.label + QStringLiteral(": refused with 422, nothing changed");
            continue;
        }
        ++out.valid;
        if (!patched) {
            ok = s.fail(QStringLiteral("%1 was refused: %2").arg(m.label, patched.error().toString()));
            break;
        }
        if (!s.waitQuiescent()) {
            ok = s.fail(QStringLiteral("%1 did not converge").arg(m.label));
            break;
        }
        const Expected<Object> now = s.get(target);
        const QJsonValue observed = now
            ? now->json().value(QLatin1String("status")).toObject().value(QLatin1String("observedGeneration"))
            : QJsonValue();
        if (now && !observed.isUndefined() && observed.toInteger() != now->generation()) {
            ok = s.fail(QStringLiteral("%1: status.observedGeneration %2 after converging, generation %3")
                            .arg(m.label)
                            .arg(observed.toInteger())
                            .arg(now->generation()));
            break;
        }
        if (!patchTarget(m.revert) || !s.waitQuiescent()) {
            ok = s.fail(QStringLiteral("reverting %1 did not converge: %2").arg(m.label, s.m_error));
            break;
        }
        const QMap<QString, QByteArray> after = s.controlledBy(*live);
        if (after != before) {
            EndState b, a;
            b.objects = before;
            a.objects = after;
            ok = s.fail(QStringLiteral("reverting %1 did not restore what the object controls: %2")
                            .arg(m.label, compareEndStates(b, a)));
            break;
        }
        out.log << m.label + QStringLiteral(": converged, reverted, children restored");
    }
    out.ok = ok;
    if (!ok)
        out.failure
            = failureText(QStringLiteral("spec mutations: ") + s.m_error + QStringLiteral("\n") + out.log.join(u'\n'));
    return out;
}

} // namespace opbench::testing
