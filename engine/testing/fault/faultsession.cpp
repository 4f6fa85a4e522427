// SPDX-License-Identifier: Apache-2.0
#include "engine/testing/fault/faultsession_p.h"

#include "engine/apiserver/apiserver.h"
#include "engine/cache/informercache.h"

#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTimer>

#include <qcoro/qcorotask.h>

namespace opbench::testing {

namespace detail {

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

QString describeObject(const Object &o)
{
    return o.kind() + u' ' + (o.namespaceName().isEmpty() ? o.name() : o.namespaceName() + u'/' + o.name());
}

} // namespace detail

namespace {

using detail::describeObject;
using detail::retriable;
using detail::spin;

const QString kPaddingNamespace = QStringLiteral("opbench-fault-padding");

QJsonValue maskValue(const QJsonValue &v)
{
    static const QRegularExpression time(QStringLiteral(R"(^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)"));
    if (v.isString())
        return time.match(v.toString()).hasMatch() ? QJsonValue(QStringLiteral("<time>")) : v;
    if (v.isArray()) {
        QJsonArray out;
        for (const QJsonValue e : v.toArray())
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
        for (const QJsonValue r : meta.value(QLatin1String("ownerReferences")).toArray()) {
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
        for (const QJsonValue r : meta.value(QLatin1String("ownerReferences")).toArray()) {
            QJsonObject ref = r.toObject();
            ref.insert(QStringLiteral("uid"), QStringLiteral("<uid>"));
            refs.append(ref);
        }
        meta.insert(QStringLiteral("ownerReferences"), refs);
    }
    o.insert(QStringLiteral("metadata"), meta);
    return o;
}

} // namespace

FaultHarness::Session::Session(const FaultHarness &h)
    : m_h(h)
    , m_mapper(RestMapper::withBuiltins())
{
    m_random.seed(h.m_seed);
    (void)registerCrds(m_mapper, h.m_def.crds); // errors surface when the operator starts
    h.forgetRecordings();
}

FaultHarness::Session::~Session()
{
    stopOperator();
    m_rest.reset();
    m_server.reset();
}

bool FaultHarness::Session::startServer()
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

void FaultHarness::Session::collectFired()
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

bool FaultHarness::Session::restartServer()
{
    collectFired();
    m_server->stop(); // flushes the state file
    m_server.reset();
    m_rest.reset();
    return startServer();
}

void FaultHarness::Session::setFaults(const QStringList &faults)
{
    m_server->runOnServerThread([faults](apiserver::ApiServer &s) { s.setFaults(faults); });
}

void FaultHarness::Session::expireWatches()
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
        return QCoro::waitFor(
            m_rest->create({QString(), QStringLiteral("v1"), QStringLiteral("configmaps")}, kPaddingNamespace, bump));
    });
    m_server->runOnServerThread([](apiserver::ApiServer &s) {
        s.compactHistory();
        s.dropWatches();
    });
    ++m_fired[QStringLiteral("expire-watches")];
}

bool FaultHarness::Session::startOperator()
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
    OperatorDefinition def = m_h.m_def; // runSetup fills kinds when the definition left it empty
    auto ctrl = runSetup(def, m_mgr.get());
    if (!ctrl)
        return fail(QStringLiteral("setup failed: ") + ctrl.error().message());
    m_ctrl = *ctrl;
    if (!m_h.m_options.recordingDir.isEmpty()) {
        RunRecorderOptions ro;
        ro.path
            = QStringLiteral("%1/%2-run%3.rec").arg(m_h.m_options.recordingDir, def.name).arg(++m_h.m_recordingCount);
        ro.operatorName = def.name;
        ro.crds = def.crds;
        m_recorder = std::make_unique<RunRecorder>(ro);
        if (auto rec = m_recorder->start(m_mgr.get()); !rec)
            return fail(rec.error().message());
        m_h.m_runRecordings.append(ro.path);
    }
    QObject::connect(m_ctrl, &Controller::reconcileFinished, m_mgr.get(), [this] { ++m_reconciles; });
    Client *client = m_mgr->client();
    client->setWriteObserver(
        [this, client](const TraceCall &call, const Object &sent) { observe(client, call, sent); });
    Expected<void> started = QCoro::waitFor(m_mgr->start());
    if (!started)
        return fail(QStringLiteral("the manager did not start: ") + started.error().message());
    return true;
}

void FaultHarness::Session::stopOperator()
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
    m_recorder.reset(); // flushed and closed, detached from the manager
    m_mgr.reset();
}

void FaultHarness::Session::observe(Client *client, const TraceCall &call, const Object &sent)
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
            return std::optional<Status>(Status(
                503, QStringLiteral("ServiceUnavailable"), QStringLiteral("the operator crashed (fault injection)")));
        });
    }
}

bool FaultHarness::Session::apply(const Step &step)
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

bool FaultHarness::Session::applyAll(const Workload &w)
{
    for (const Step &s : w)
        if (!apply(s))
            return false;
    return true;
}

Expected<QList<Object>> FaultHarness::Session::listAll(const GroupVersionResource &gvr)
{
    Expected<Object::List> l = retried([&] { return QCoro::waitFor(m_rest->list(gvr, QString())); });
    if (!l)
        return l.error();
    return l->items;
}

Expected<Object> FaultHarness::Session::get(const Object &target)
{
    const auto mapping = mappingOf(target.gvk());
    if (!mapping)
        return Status::badRequest(QStringLiteral("kind %1 not known").arg(target.kind()));
    const QString ns = mapping->namespaced ? target.namespaceName() : QString();
    return retried([&] { return QCoro::waitFor(m_rest->get(mapping->gvr, ns, target.name())); });
}

bool FaultHarness::Session::createPadding(int count, const Object &templ)
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

QString FaultHarness::Session::busy()
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

bool FaultHarness::Session::waitQuiescent(std::chrono::milliseconds timeout)
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

bool FaultHarness::Session::waitIdle()
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

EndState FaultHarness::Session::snapshot()
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
            const QString name = m.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
            const QString key
                = gvk.kind + u' ' + (o.namespaceName().isEmpty() ? name : o.namespaceName() + u'/' + name);
            byKey[key] << QJsonDocument(m).toJson(QJsonDocument::Compact);
        }
        for (auto it = byKey.begin(); it != byKey.end(); ++it) {
            std::sort(it->begin(), it->end());
            for (int i = 0; i < it->size(); ++i)
                s.objects.insert(it->size() == 1 ? it.key() : it.key() + QStringLiteral(" #%1").arg(i + 1), it->at(i));
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

QMap<QString, QByteArray> FaultHarness::Session::controlledBy(const Object &owner)
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

QList<Informer *> FaultHarness::Session::informersOf(const QList<GroupVersionKind> &kinds) const
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

bool FaultHarness::Session::fail(const QString &why)
{
    if (m_error.isEmpty())
        m_error = why;
    return false;
}

RunReport FaultHarness::Session::report(bool ok)
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
} // namespace opbench::testing
