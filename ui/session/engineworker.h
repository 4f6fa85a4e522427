// SPDX-License-Identifier: Apache-2.0
#pragma once
// EngineWorker: the engine side of the bridge. Lives on the engine thread and owns every engine
// object (REST client, informer cache, informers, the observed work queue). It never touches a
// widget: it batches what changed and emits immutable snapshots (snapshots.h) every 100 ms, and
// acts on intents the UI sends as queued calls.

#include "ui/session/leadershipstate.h"
#include "ui/session/snapshots.h"

#include "engine/controller/reconciletrace.h"
#include "engine/queue/workqueue.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>

#include <qcoro/qcorotask.h>

#include <memory>

class QTimer;

namespace opbench {
class Controller;
class InformerCache;
class Manager;
struct RestConfig;
class Informer;
class RestClient;
}

namespace opbench::ui {

class HeadlessOperator;
struct HeadlessLaunch;

class EngineWorker : public QObject, private WorkQueueListener
{
    Q_OBJECT
public:
    /// The kinds the cache panel shows, in display order.
    static QStringList watchedKinds();

    explicit EngineWorker(QObject *parent = nullptr);
    ~EngineWorker() override;

    /// Connects to the cluster of `kubeconfigPath`/`context`, starts the informers and, when
    /// `createSamples`, creates the sample MyApplications in "default". Emits connected() or
    /// failed() (the message says what was wrong).
    Q_INVOKABLE void connectTo(const QString &kubeconfigPath, const QString &context, bool createSamples);
    /// Stops informers and timers; called (blocking) before the engine thread quits.
    Q_INVOKABLE void shutdown();
    /// Replies with versionsReady() for the object `key` ("ns/name") of `kind`.
    Q_INVOKABLE void requestVersions(const QString &kind, const QString &key);
    /// Replies with cacheAt(): every watched kind's content at resourceVersion `rv`.
    Q_INVOKABLE void requestCacheAt(const QString &rv);
    /// Observes `queue` (not owned; may be null to stop): queueSample() every 500 ms.
    void observeQueue(WorkQueue *queue);
    /// Observes `controller` (not owned; null to stop): its traces, stepping state and queue.
    void observeController(Controller *controller);

    /// Stepping intents (no-ops without a controller). `key` empty: the next item.
    Q_INVOKABLE void pause();
    Q_INVOKABLE void resume();
    Q_INVOKABLE void step(const QString &key);
    Q_INVOKABLE void stepInto(const QString &key);
    Q_INVOKABLE void continueCall();
    Q_INVOKABLE void continueToEnd();
    Q_INVOKABLE void toggleBreakpoint(const QString &key);
    Q_INVOKABLE void setBreakOnError(bool on);
    /// Deletes the object `key` of `kind` through the API server (actionFailed() on error).
    Q_INVOKABLE void deleteObject(const QString &kind, const QString &key);
    /// Creates MyApplication `name` in "default" (createFailed() names the offending field).
    Q_INVOKABLE void createApplication(const QString &name, const QString &image, int replicas);

    /// Leadership (engineleadership.cpp). Whether "Hand off" is offered, and why not.
    void setHandOffAvailability(bool possible, const QString &whyNot);
    /// Starts the headless operator with `launch` (lease name, namespace filled in here) and
    /// releases the lease once the process runs. Errors: actionFailed() and the state's message.
    void handOff(const HeadlessLaunch &launch);
    /// Stops the headless operator (SIGTERM) and re-acquires once it exited; without a
    /// process, campaigns again at once.
    void takeBack();
    /// Real cluster (engineclusterhandoff.cpp): Hand off applies packaging/manifests instead of
    /// starting a process, and Take back scales that Deployment to 0 before campaigning again.
    void setClusterHandOff(bool on);
    /// Applies the CRD and packaging/manifests with `image` (replicas 1, the workbench's Lease),
    /// then releases the lease. Errors: actionFailed() and the state's deploymentMessage.
    void handOffToCluster(const QString &image);

Q_SIGNALS:
    void connected(const QUrl &server);
    void failed(const QString &message);
    void cacheBatch(const opbench::ui::CacheBatch &batch);
    void queueAvailable(bool available);
    void queueSample(const opbench::ui::QueueSample &sample);
    void versionsReady(const opbench::ui::ObjectVersions &versions);
    void cacheAt(const opbench::ui::CachePast &past);
    /// The sample MyApplications were created (or existed); `errors` lists the failures.
    void samplesCreated(int created, const QStringList &errors);
    /// Reconciles finished since the previous flush (batched every 100 ms).
    void reconcilesFinished(const QList<opbench::ReconcileTrace> &traces);
    void controlState(const opbench::ui::ControlState &state);
    void actionFailed(const QString &message);
    void createFailed(const QString &field, const QString &message);
    void created(const QString &key);
    /// The lease and the hand-off, every 500 ms and on every change.
    void leadershipState(const opbench::ui::LeadershipState &state);

private:
    void keyChanged(const KeyState &state) override;
    void keyRemoved(const QueueKey &key) override;
    void startInformers();
    void onChange(const QString &kind, const CacheChange &change);
    void flush();
    void sampleQueue();
    QList<InformerState> informerStates() const;
    QString oldestReachableRv() const;
    QCoro::Task<void> createSamples();
    /// Builds the manager and the MyApplication operator on this thread and starts them.
    void startOperator(const RestConfig &config);
    QCoro::Task<void> runManager();
    void stopOperator();
    void emitControlState();
    QCoro::Task<void> runDelete(QString kind, QString key);
    QCoro::Task<void> runCreate(QString name, QString image, int replicas);
    void startLeadership(const QString &leaseNamespace, const QString &identity);
    void stopLeadership();
    QCoro::Task<void> pollLease();
    void publishLeadership();
    void onHeadlessStarted();
    void onHeadlessFinished(int exitCode, bool crashed, const QString &message);
    QCoro::Task<void> runClusterHandOff(QString image);
    QCoro::Task<void> runClusterTakeBack();
    void setDeploymentStep(LeadershipState::Deployment step, const QString &message);

    LeadershipState m_leadership;
    QTimer *m_leaseTimer = nullptr;
    bool m_leasePollBusy = false;
    HeadlessOperator *m_headless = nullptr; // child
    bool m_takeBackPending = false;

    std::unique_ptr<Manager> m_manager;
    QPointer<Controller> m_controller;
    QList<ReconcileTrace> m_pendingTraces;
    QString m_lastBreak;

    std::unique_ptr<RestClient> m_client;
    std::unique_ptr<InformerCache> m_cache;
    QHash<QString, Informer *> m_informers; // kind -> informer (owned by m_cache)
    QHash<QString, CacheEntry> m_pending;   // kind|key|uid -> latest entry (coalescing)
    QList<QString> m_pendingOrder;
    bool m_statesDirty = false;
    QTimer *m_flushTimer = nullptr;
    QTimer *m_queueTimer = nullptr;
    QPointer<WorkQueue> m_queue;
    QHash<QString, int> m_causeTotals; // key -> causes seen this round (rate counting)
    int m_adds = 0;
    int m_retries = 0;
    QElapsedTimer m_rateClock;
    QElapsedTimer m_sessionClock;
};

} // namespace opbench::ui
