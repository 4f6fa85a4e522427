// SPDX-License-Identifier: Apache-2.0
#include "engine/manager/manager.h"

#include "engine/base/logger.h"
#include "engine/base/metrics.h"
#include "engine/client/auth.h"
#include "engine/client/inclusterconfig.h"
#include "engine/manager/eventrecorder.h"
#include "engine/manager/httpendpoint.h"
#include "engine/manager/leaderelector.h"
#include "engine/manager/processmetrics.h"
#include "engine/webhook/webhookserver.h"

#include <QDir>
#include <QFile>
#include <QHostInfo>
#include <QThread>

#include "engine/client/awaitsignal.h"

#include <qcoro/qcorosignal.h>

namespace opbench {

namespace {

Status configError(const QString &msg) { return Status(0, QString::fromLatin1(StatusReason::ConfigError), msg); }

class ControllerRunnable final : public Runnable
{
public:
    explicit ControllerRunnable(Controller *c)
        : m_controller(c)
    { }
    QString name() const override { return m_controller ? m_controller->name() : QString(); }
    QCoro::Task<Expected<void>> start() override
    {
        if (!m_controller)
            co_return Expected<void>();
        if (m_controller->isRunning()) { // resumed after a hand-off
            m_controller->resume();
            co_return Expected<void>();
        }
        co_return co_await m_controller->start();
    }
    QCoro::Task<void> stop() override
    {
        if (m_controller && m_controller->isRunning())
            co_await m_controller->shutdown();
    }
    void pause() override
    {
        if (m_controller)
            m_controller->pause();
    }
    Expected<void> warmup() override { return m_controller ? m_controller->warmup() : Expected<void>(); }

private:
    QPointer<Controller> m_controller;
};

HttpReply metricsReply(const QString &path)
{
    if (path != QLatin1String("/metrics"))
        return {404, QByteArrayLiteral("404 page not found\n")};
    return {200, MetricsRegistry::global().exposition(), QByteArrayLiteral("text/plain; version=0.0.4; charset=utf-8")};
}

} // namespace

Manager::Manager(ManagerOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_clock(m_options.clock ? m_options.clock : Clock::system())
{ }

Manager::~Manager()
{
    *m_alive = false;
    if (m_electionThread) { // the elector and its client are deleted on their thread as it ends
        m_electionThread->quit();
        m_electionThread->wait();
        m_elector = nullptr;
        m_electionRest = nullptr;
    }
    // Wake a shutdown() still waiting for one of these: it returns at once (*m_alive is false).
    // A coroutine left suspended on a signal of a destroyed object never finishes (its frame
    // leaks: LeakSanitizer in the workbench's tests, whose engine is destroyed mid-shutdown).
    Q_EMIT leaseReleased();
    Q_EMIT nonElectionRunnablesStopped();
    Q_EMIT electionRunnablesStopped();
}

void Manager::onElectorThread(std::function<void(LeaderElector *)> fn)
{
    if (!m_elector)
        return;
    if (!m_electionThread) {
        fn(m_elector);
        return;
    }
    LeaderElector *elector = m_elector;
    QMetaObject::invokeMethod(
        elector, [elector, fn = std::move(fn)] { fn(elector); }, Qt::QueuedConnection);
}

Expected<std::unique_ptr<Manager>> Manager::create(ManagerOptions options, QObject *parent)
{
    std::unique_ptr<Manager> mgr(new Manager(std::move(options), parent));
    if (Expected<void> ok = mgr->init(); !ok)
        return ok.error();
    return mgr;
}

Expected<void> Manager::init()
{
    RestConfig cfg = m_options.restConfig;
    if (!cfg.clock)
        cfg.clock = m_clock;
    m_rest = new RestClient(cfg, this);
    InformerCacheOptions co;
    co.client = m_rest;
    // --namespace a,b caches several namespaces (controller-runtime's DefaultNamespaces).
    const QStringList scope = m_options.namespaceName.split(u',', Qt::SkipEmptyParts);
    if (scope.size() > 1)
        co.defaultScope.namespaces = scope;
    else
        co.defaultScope.namespaceName = m_options.namespaceName;
    co.clock = m_clock;
    co.syncPeriod = m_options.syncPeriod;
    co.historyCapacity = m_options.cacheHistory;
    m_cache = new InformerCache(std::move(co), this);
    m_client = new Client(m_cache, m_rest, m_clock, this);

    if (Expected<void> ok = initEndpoints(); !ok)
        return ok.error();
    registerProcessMetrics(MetricsRegistry::global());

    if (!m_options.leaderElection)
        return {};
    return initLeaderElection(cfg);
}

Expected<void> Manager::initEndpoints()
{
    auto metricsAddr = BindAddress::parse(m_options.metricsBindAddress);
    if (!metricsAddr)
        return metricsAddr.error();
    auto probeAddr = BindAddress::parse(m_options.healthProbeBindAddress);
    if (!probeAddr)
        return probeAddr.error();
    m_metrics = new HttpEndpoint(
        QStringLiteral("metrics"), [](const QString &p, const QUrlQuery &) { return metricsReply(p); }, this);
    m_probes = new HttpEndpoint(
        QStringLiteral("health probe"),
        [this](const QString &p, const QUrlQuery &q) {
            for (auto *checks : {&m_healthz, &m_readyz}) {
                const QString base = checks == &m_healthz ? QStringLiteral("/healthz") : QStringLiteral("/readyz");
                if (p == base || p == base + u'/' || p.startsWith(base + u'/')) {
                    const HealthResponse r = checks->serve(p.mid(base.size() + 1), q);
                    return HttpReply{r.code, r.body};
                }
            }
            return HttpReply{404, QByteArrayLiteral("404 page not found\n")};
        },
        this);
    return {};
}

Expected<void> Manager::initLeaderElection(const RestConfig &cfg)
{
    QString ns = m_options.leaderElectionNamespace;
    if (ns.isEmpty()) {
        QFile f(QDir(serviceAccountDir()).filePath(QStringLiteral("namespace"))); // OPBENCH_SERVICEACCOUNT_DIR aware
        if (f.open(QIODevice::ReadOnly))
            ns = QString::fromUtf8(f.readAll()).trimmed();
    }
    if (ns.isEmpty())
        return configError(QStringLiteral("unable to find leader election namespace: not running in-cluster, "
                                          "please specify --leader-election-namespace"));
    LeaderElectionConfig le;
    le.name = m_options.leaderElectionId;
    le.identity = m_options.identity;
    le.leaseDuration = m_options.leaseDuration;
    le.renewDeadline = m_options.renewDeadline;
    le.retryPeriod = m_options.retryPeriod;
    le.clock = m_clock;
    if (Expected<void> v = le.validate(); !v)
        return v.error();
    RestConfig ecfg = cfg;
    ecfg.timeout = std::max(std::chrono::milliseconds(1000), m_options.renewDeadline / 2);
    // Renewals on their own thread, with their own clock (timers belong to the thread that arms
    // them) and client, unless time is injected (a FakeClock is driven from the test's thread).
    const bool ownThread = m_options.leaderElectionThread && !m_options.clock && (!cfg.auth || cfg.auth->threadSafe());
    if (ownThread) {
        m_electionClock = std::make_unique<SystemClock>();
        ecfg.clock = m_electionClock.get();
        le.clock = m_electionClock.get();
    }
    m_electionRest = new RestClient(ecfg, ownThread ? nullptr : this);
    m_elector = new LeaderElector(
        std::make_unique<RestLeaseLock>(m_electionRest, ns, le.name), le, ownThread ? nullptr : this);
    if (ownThread) {
        m_electionThread = new QThread(this);
        m_electionThread->setObjectName(QStringLiteral("leader-election"));
        m_electionRest->moveToThread(m_electionThread);
        m_elector->moveToThread(m_electionThread);
        // The elector first: its coroutines still waiting on the client see it gone when the
        // client's destructor finishes them.
        connect(m_electionThread, &QThread::finished, m_elector, &QObject::deleteLater);
        connect(m_electionThread, &QThread::finished, m_electionRest, &QObject::deleteLater);
        m_electionThread->start();
    }
    connect(m_elector, &LeaderElector::released, this, &Manager::leaseReleased);
    connect(m_elector, &LeaderElector::startedLeading, this, [this] {
        Logger()
            .withName(QStringLiteral("leaderelection"))
            .info(QStringLiteral("successfully acquired lease"),
                {{QStringLiteral("lease"), m_options.leaderElectionId},
                    {QStringLiteral("identity"), m_elector->identity()}});
        Q_EMIT leadershipChanged(true);
        startElected();
    });
    connect(m_elector, &LeaderElector::stoppedLeading, this, &Manager::onStoppedLeading);
    // Once the lease may have run out for the others (or was lost), no write of ours goes out,
    // even if a reconcile kept the event loop too busy for the elector's timers to run.
    m_client->setWriteFence([elector = QPointer<LeaderElector>(m_elector)]() -> std::optional<Status> {
        if (!elector || !(elector->lost() || (elector->isLeader() && !elector->mayAct())))
            return std::nullopt;
        return Status::transport(QString::fromLatin1(StatusReason::Cancelled),
            QStringLiteral("write refused: the leader lease may have expired (leader election lost)"));
    });
    return {};
}

EventRecorder *Manager::eventRecorder(const QString &name)
{
    EventRecorder *&r = m_recorders[name];
    if (!r)
        r = new EventRecorder(m_rest, name, QHostInfo::localHostName(), m_clock, this);
    return r;
}

QList<Controller *> Manager::controllers() const
{
    QList<Controller *> out;
    for (const QPointer<Controller> &c : m_controllers)
        if (c)
            out.append(c.data());
    return out;
}

void Manager::add(Controller *controller)
{
    if (controller) {
        controller->setDefaultWarmup(m_options.controllerWarmup);
        m_controllers.append(controller);
    }
    add(std::make_unique<ControllerRunnable>(controller));
}

void Manager::add(std::unique_ptr<Runnable> runnable)
{
    Runnable *r = runnable.get();
    m_runnables.push_back(std::move(runnable));
    if (!m_started || m_stopping)
        return;
    if (!r->needLeaderElection() || m_electedRunning)
        r->start();
    else if (Expected<void> ok = r->warmup(); !ok)
        stop(1, ok.error().message());
}

void Manager::addHealthzCheck(const QString &name, HealthCheck check) { m_healthz.add(name, std::move(check)); }
void Manager::addReadyzCheck(const QString &name, HealthCheck check) { m_readyz.add(name, std::move(check)); }
WebhookServer *Manager::webhookServer()
{
    if (!m_webhooks) {
        WebhookServerOptions o;
        o.port = m_options.webhookPort;
        o.certDir = m_options.webhookCertDir;
        o.host = m_options.webhookHost;
        o.clock = m_clock;
        m_webhooks = new WebhookServer(o, this);
        addReadyzCheck(QStringLiteral("webhook"), m_webhooks->startedChecker());
    }
    return m_webhooks;
}

quint16 Manager::metricsPort() const { return m_metrics->port(); }

void Manager::addProtectedMetricsRoute(const QString &path, QByteArray token, std::function<HttpReply()> handler)
{
    m_metrics->addProtectedRoute(path, std::move(token), std::move(handler));
}
quint16 Manager::healthProbePort() const { return m_probes->port(); }
bool Manager::isLeader() const { return m_elector ? m_elector->isLeader() : m_electedRunning; }

QCoro::Task<Expected<void>> Manager::start()
{
    QPointer<Manager> self(this);
    Logger log = Logger().withName(QStringLiteral("manager"));
    if (Expected<void> ok = m_metrics->listen(*BindAddress::parse(m_options.metricsBindAddress)); !ok)
        co_return ok.error();
    if (m_metrics->isListening())
        log.info(QStringLiteral("Starting metrics server"),
            {{QStringLiteral("bindAddress"), m_options.metricsBindAddress},
                {QStringLiteral("port"), int(m_metrics->port())}});
    if (Expected<void> ok = m_probes->listen(*BindAddress::parse(m_options.healthProbeBindAddress)); !ok)
        co_return ok.error();
    if (m_probes->isListening())
        log.info(QStringLiteral("starting server"),
            {{QStringLiteral("name"), QStringLiteral("health probe")},
                {QStringLiteral("addr"), m_options.healthProbeBindAddress}});
    // Webhooks start after the HTTP servers and before the caches, as in controller-runtime.
    if (m_webhooks && m_webhooks->hasHandlers())
        if (Expected<void> ok = m_webhooks->start(); !ok)
            co_return ok.error();
    m_started = true;
    m_cache->start();
    const bool synced = co_await m_cache->waitForCacheSync(std::chrono::minutes(2));
    if (!self)
        co_return Status::transport(QString::fromLatin1(StatusReason::Cancelled), QStringLiteral("manager destroyed"));
    if (!synced && m_stopping)
        co_return Status::transport(QString::fromLatin1(StatusReason::Cancelled),
            QStringLiteral("the manager was stopped before its caches synced"));
    if (!synced)
        co_return configError(QStringLiteral("caches did not sync within 2 minutes (kinds: %1)").arg([this] {
            QStringList k;
            for (const auto &g : m_cache->kinds())
                k << g.toString();
            return k.join(u',');
        }()));
    for (auto &r : m_runnables) {
        if (r->needLeaderElection())
            continue;
        if (Expected<void> ok = co_await r->start(); !ok)
            co_return ok.error();
        if (!self)
            co_return Expected<void>();
    }
    // Warm-up (controllers with enableWarmup): their informers start now, before the election.
    for (auto &r : m_runnables) {
        if (!r->needLeaderElection())
            continue;
        if (Expected<void> ok = r->warmup(); !ok)
            co_return ok.error();
    }
    if (m_elector) {
        log.info(QStringLiteral("attempting to acquire leader lease..."),
            {{QStringLiteral("lease"), m_options.leaderElectionId}});
        onElectorThread([](LeaderElector *e) { e->start(); });
    } else {
        startElected();
    }
    co_return Expected<void>();
}

QCoro::Task<void> Manager::startElected()
{
    if (m_electedRunning || m_stopping)
        co_return;
    m_electedRunning = true;
    QPointer<Manager> self(this);
    for (size_t i = 0; i < m_runnables.size(); ++i) {
        Runnable *r = m_runnables[i].get();
        if (!r->needLeaderElection())
            continue;
        r->resume();
        Expected<void> ok = co_await r->start();
        if (!self || m_stopping)
            co_return;
        if (!ok) {
            Logger()
                .withName(QStringLiteral("manager"))
                .error(ok.error().message(), QStringLiteral("failed to start runnable"),
                    {{QStringLiteral("runnable"), r->name()}});
            stop(1, ok.error().message());
            co_return;
        }
    }
}

void Manager::onStoppedLeading()
{
    Q_EMIT leadershipChanged(false);
    if (m_stopping)
        return;
    if (m_elector->handedOff()) {
        for (auto &r : m_runnables)
            if (r->needLeaderElection())
                r->pause();
        m_electedRunning = false;
        return;
    }
    Logger()
        .withName(QStringLiteral("manager"))
        .error(QStringLiteral("leader election lost"), QStringLiteral("problem running manager"));
    stop(1, QStringLiteral("leader election lost"));
}

void Manager::handOff()
{
    onElectorThread([](LeaderElector *e) { e->handOff(); });
}

void Manager::takeBack()
{
    onElectorThread([](LeaderElector *e) { e->takeBack(); });
}

void Manager::stop(int exitCode, const QString &reason)
{
    if (m_stopping)
        return;
    m_stopping = true;
    shutdown(exitCode, reason);
}

QCoro::Task<void> Manager::stopRunnables(bool elected)
{
    // By index, and not past ~Manager: a stop resumed while the runnables are being destroyed
    // (a lost lease does not wait for them) must not touch the next one.
    const std::shared_ptr<bool> alive = m_alive;
    for (size_t i = 0; *alive && i < m_runnables.size(); ++i)
        if (m_runnables[i]->needLeaderElection() == elected)
            co_await m_runnables[i]->stop();
}

bool Manager::hasElectionRunnables() const
{
    return std::any_of(m_runnables.begin(), m_runnables.end(), [](const auto &r) { return r->needLeaderElection(); });
}

QCoro::Task<void> Manager::stopElectedAndSignal()
{
    QPointer<Manager> self(this);
    const std::shared_ptr<bool> alive = m_alive;
    co_await stopRunnables(true);
    if (!self || !*alive)
        co_return;
    m_electedStopped = true;
    Q_EMIT electionRunnablesStopped();
}

QCoro::Task<void> Manager::stopNonElectedAndSignal()
{
    QPointer<Manager> self(this);
    const std::shared_ptr<bool> alive = m_alive;
    co_await stopRunnables(false);
    if (!self || !*alive)
        co_return;
    m_nonElectedStopped = true;
    Q_EMIT nonElectionRunnablesStopped();
}

std::chrono::milliseconds Manager::remainingGrace(const QDeadlineTimer &deadline)
{
    if (deadline.isForever())
        return std::chrono::milliseconds(-1);
    return std::chrono::milliseconds(std::max<qint64>(0, deadline.remainingTime()));
}

QCoro::Task<void> Manager::shutdown(int exitCode, QString reason)
{
    QPointer<Manager> self(this);
    const std::shared_ptr<bool> alive = m_alive; // false from the start of ~Manager
    Logger log = Logger().withName(QStringLiteral("manager"));
    // One grace period (negative = forever) bounds the wait for all runnables, as in
    // controller-runtime; running out of it is an error.
    const QDeadlineTimer deadline = m_options.gracefulShutdownTimeout.count() < 0
        ? QDeadlineTimer(QDeadlineTimer::Forever)
        : QDeadlineTimer(m_options.gracefulShutdownTimeout);
    // A lost lease skips the grace period, as controller-runtime's OnStoppedLeading does: another
    // replica may already lead, so the runnables are told to stop and not waited for (the process
    // exits on finished(); nothing it still has in flight outlives it).
    const bool leaseLost = m_elector && m_elector->lost();
    if (leaseLost) {
        log.info(QStringLiteral("Leader election lost: stopping runnables without waiting for them"));
        stopNonElectedAndSignal();
        if (!self || !*alive)
            co_return;
        stopElectedAndSignal();
        if (!self || !*alive)
            co_return;
    } else {
        log.info(QStringLiteral("Stopping and waiting for non leader election runnables"));
        stopNonElectedAndSignal();
        if (!m_nonElectedStopped)
            co_await detail::SignalWait(this, &Manager::nonElectionRunnablesStopped, remainingGrace(deadline));
        if (!self || !*alive)
            co_return;
        log.info(QStringLiteral("Stopping and waiting for leader election runnables"));
        stopElectedAndSignal();
        if ((m_electedRunning || hasElectionRunnables()) && !m_electedStopped && m_nonElectedStopped)
            co_await detail::SignalWait(this, &Manager::electionRunnablesStopped, remainingGrace(deadline));
        if (!self || !*alive)
            co_return;
    }
    if (!leaseLost && (!m_nonElectedStopped || ((m_electedRunning || hasElectionRunnables()) && !m_electedStopped))) {
        const QString msg = QStringLiteral(
            "failed waiting for all runnables to end within grace period of %1s: context deadline exceeded")
                                .arg(double(m_options.gracefulShutdownTimeout.count()) / 1000.0);
        log.error(msg, QStringLiteral("error received after stop sequence was engaged"));
        if (exitCode == 0) {
            exitCode = 1;
            reason = msg;
        }
    }
    m_electedRunning = false;
    log.info(QStringLiteral("Stopping and waiting for caches"));
    m_cache->stop();
    if (m_webhooks) {
        log.info(QStringLiteral("Stopping and waiting for webhooks"));
        m_webhooks->stop();
    }
    log.info(QStringLiteral("Stopping and waiting for HTTP servers"));
    m_metrics->close();
    m_probes->close();
    if (m_elector && m_elector->isLeader()) {
        log.info(QStringLiteral("Releasing the leader lease"), {{QStringLiteral("lease"), m_options.leaderElectionId}});
        onElectorThread([](LeaderElector *e) { e->stop(); });
        co_await detail::SignalWait(this, &Manager::leaseReleased, m_options.renewDeadline);
        if (!self || !*alive)
            co_return;
    } else if (m_elector) {
        onElectorThread([](LeaderElector *e) { e->stop(); });
    }
    log.info(QStringLiteral("Wait completed, proceeding to shutdown the manager"));
    Q_EMIT finished(exitCode, reason);
}

} // namespace opbench
