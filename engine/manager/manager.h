// SPDX-License-Identifier: Apache-2.0
#pragma once
// Manager: controller-runtime's manager. Owns the REST client, the informer cache, the cached
// Client, the leader elector, the metrics and probe servers and the event recorders, and runs
// runnables (controllers) in controller-runtime's order:
//
//   start: HTTP servers → caches (synced) → non-election runnables → warm-up → elector →
//          election runnables (controllers), these only while leading. A controller's informers
//          start with it (after the lease is won), or at warm-up with enableWarmup;
//   stop:  non-election and election runnables → caches → HTTP servers → elector (release).
//
// With leader election the elector runs on its own thread (ManagerOptions::leaderElectionThread)
// with its own RestClient; its signals reach the manager queued. Everything else stays on the
// manager's thread.
// Losing the lease stops everything and finishes with exit code 1 and "leader election lost".
// handOff()/takeBack() (GUI) pause the controllers and release the lease / campaign again.
// A stop waits at most gracefulShutdownTimeout (default 30 s; negative = forever) for all
// runnables, election or not; when it runs out, the stop goes on (caches, servers, lease release)
// and finishes with exit code 1 and "failed waiting for all runnables to end within grace period
// of Ns". finished(code, reason) is emitted once everything stopped.

#include "engine/api/expected.h"
#include "engine/base/clock.h"
#include "engine/cache/informercache.h"
#include "engine/client/restclient.h"
#include "engine/controller/client.h"
#include "engine/controller/controller.h"
#include "engine/manager/healthchecks.h"
#include "engine/manager/httpendpoint.h"
#include "engine/manager/runnable.h"

#include <QDeadlineTimer>
#include <QObject>
#include <QPointer>

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

class QThread;

namespace opbench {

class EventRecorder;
class HttpEndpoint;
class WebhookServer;
class LeaderElector;

struct ManagerOptions
{
    RestConfig restConfig;
    /// Cache scope: "" for all namespaces, one namespace, or several separated by commas
    /// ("team-a,team-b": one list and watch per namespace, reads elsewhere fail with "unknown
    /// namespace for the cache").
    QString namespaceName;
    bool leaderElection = false;
    QString leaderElectionId;
    /// Namespace of the Lease; "" = the in-cluster service-account namespace, else an error.
    QString leaderElectionNamespace;
    QString identity; // "" = hostname_uuid
    std::chrono::milliseconds leaseDuration{15000};
    std::chrono::milliseconds renewDeadline{10000};
    std::chrono::milliseconds retryPeriod{2000};
    /// "0" disables; ":8080", "127.0.0.1:8080".
    QString metricsBindAddress = QStringLiteral("0");
    QString healthProbeBindAddress = QStringLiteral("0");
    std::chrono::milliseconds gracefulShutdownTimeout{30000};
    /// Resync period of the shared cache's informers (controller-runtime's SyncPeriod: 10 h, each
    /// informer jittered by ±10 %); every cached object is handed to the handlers again. 0 = none.
    std::chrono::milliseconds syncPeriod{std::chrono::hours(10)};
    /// Changes each cached kind keeps for time travel (Informer::history()); 0 records none.
    /// Defaults to 0; the workbench sets it so its panels can show earlier versions.
    int cacheHistory = 0;
    /// Reconciles in flight at once for controllers that take the manager's default (the
    /// --max-concurrent-reconciles flag; controller-runtime's Controller.MaxConcurrentReconciles).
    int maxConcurrentReconciles = 1;
    /// Warm-up for controllers that leave ControllerOptions::enableWarmup unset (the
    /// --controller-warmup flag; controller-runtime's Options.Controller.EnableWarmup): their
    /// informers start before the election, so a standby holds synced caches. Defaults to false.
    bool controllerWarmup = false;
    /// Lease renewal on its own thread (with its own RestClient), as client-go's elector runs in
    /// its own goroutine: a reconcile or handler that keeps the engine thread busy cannot starve
    /// renewals. Only with the real clock and an auth provider that can be shared across threads
    /// (not an exec plugin): otherwise (an injected `clock` in tests) the elector stays on the
    /// manager's thread.
    bool leaderElectionThread = true;
    /// The webhook server (controller-runtime's webhook.Options), started with the HTTP servers
    /// when a webhook is registered (WebhookBuilder(manager)): port 9443 (0 = any free port),
    /// tls.crt/tls.key from webhookCertDir ("" = <tmp>/k8s-webhook-server/serving-certs),
    /// webhookHost "" = all interfaces. Its StartedChecker is added to /readyz as "webhook".
    int webhookPort = 9443;
    QString webhookCertDir;
    QString webhookHost;
    Clock *clock = nullptr;
};

class Manager : public QObject
{
    Q_OBJECT
public:
    /// Validates the options (leader-election settings, bind addresses) and builds the clients.
    static Expected<std::unique_ptr<Manager>> create(ManagerOptions options, QObject *parent = nullptr);
    ~Manager() override;

    RestClient *restClient() const { return m_rest; }
    InformerCache *cache() const { return m_cache; }
    Client *client() const { return m_client; }
    LeaderElector *elector() const { return m_elector; }
    const ManagerOptions &options() const { return m_options; }
    /// An event recorder with source.component `name` (created on first use, owned).
    EventRecorder *eventRecorder(const QString &name);

    /// Adds a controller (an election runnable); it is started by start() or at once if running.
    void add(Controller *controller);
    /// The controllers added so far (and not destroyed), in the order they were added.
    [[nodiscard]] QList<Controller *> controllers() const;
    void add(std::unique_ptr<Runnable> runnable);
    void addHealthzCheck(const QString &name, HealthCheck check);
    void addReadyzCheck(const QString &name, HealthCheck check);

    /// The webhook server (created on first use, owned); started by start() when it has handlers.
    WebhookServer *webhookServer();
    /// The webhook server when one was created (a WebhookBuilder ran), else nullptr.
    [[nodiscard]] WebhookServer *existingWebhookServer() const { return m_webhooks; }

    /// Serves GET `path` on the metrics server to requests bearing `token` only (401 otherwise);
    /// no-op when the metrics server is disabled. E.g. the run recording (/debug/recording).
    void addProtectedMetricsRoute(const QString &path, QByteArray token, std::function<HttpReply()> handler);

    /// Bound ports once started (0 when disabled), for tests.
    quint16 metricsPort() const;
    quint16 healthProbePort() const;

    /// Starts everything in order. Returns when the non-election part is running (the
    /// controllers start when leadership is acquired). Errors stop what was started.
    QCoro::Task<Expected<void>> start();
    /// Graceful stop; emits finished(code, reason) once done. Idempotent.
    void stop(int exitCode = 0, const QString &reason = {});
    bool isLeader() const;

    void handOff();
    void takeBack();

Q_SIGNALS:
    void finished(int exitCode, const QString &reason);
    void leadershipChanged(bool leading);
    /// Internal: the election runnables finished stopping.
    void electionRunnablesStopped();
    /// Internal: the non-election runnables finished stopping.
    void nonElectionRunnablesStopped();
    /// Internal: the elector's release write finished (relayed to the manager's thread).
    void leaseReleased();

private:
    explicit Manager(ManagerOptions options, QObject *parent);
    Expected<void> init();
    Expected<void> initEndpoints();                           // metrics and health probes
    Expected<void> initLeaderElection(const RestConfig &cfg); // the elector, maybe on its thread
    QCoro::Task<void> startElected();
    QCoro::Task<void> shutdown(int exitCode, QString reason);
    QCoro::Task<void> stopRunnables(bool elected);
    void onStoppedLeading();
    QCoro::Task<void> stopElectedAndSignal();
    QCoro::Task<void> stopNonElectedAndSignal();
    static std::chrono::milliseconds remainingGrace(const QDeadlineTimer &deadline);
    bool hasElectionRunnables() const;
    /// Runs `fn` on the elector's thread (now when it shares ours).
    void onElectorThread(std::function<void(LeaderElector *)> fn);

    ManagerOptions m_options;
    Clock *m_clock;
    RestClient *m_rest = nullptr;           // child
    RestClient *m_electionRest = nullptr;   // child or on m_electionThread (timeout max(renewDeadline/2, 1 s))
    InformerCache *m_cache = nullptr;       // child
    Client *m_client = nullptr;             // child
    LeaderElector *m_elector = nullptr;     // child or on m_electionThread
    QThread *m_electionThread = nullptr;    // child; runs the elector and m_electionRest
    std::unique_ptr<Clock> m_electionClock; // the elector thread's own real clock
    HttpEndpoint *m_metrics = nullptr;      // child
    HttpEndpoint *m_probes = nullptr;       // child
    WebhookServer *m_webhooks = nullptr;    // child, created by webhookServer()
    HealthChecks m_healthz{QStringLiteral("healthz")};
    HealthChecks m_readyz{QStringLiteral("readyz")};
    QHash<QString, EventRecorder *> m_recorders; // children
    std::vector<std::unique_ptr<Runnable>> m_runnables;
    QList<QPointer<Controller>> m_controllers;
    bool m_started = false;
    bool m_electedRunning = false;
    bool m_stopping = false;
    bool m_electedStopped = false;
    bool m_nonElectedStopped = false;
    std::shared_ptr<bool> m_alive = std::make_shared<bool>(true); // false once ~Manager begins
};

} // namespace opbench
