// SPDX-License-Identifier: Apache-2.0
#pragma once
// EngineSession: the UI side of the engine<->UI bridge. Owns two threads: the embedded API
// server's and the engine's (EngineWorker). The UI thread only receives immutable snapshots
// through queued signals and sends intents back as queued calls; it never touches an engine
// object.
//
//   EngineSession session({});          // embedded cluster
//   connect(&session, &EngineSession::cacheBatch, model, &CacheTreeModel::apply);
//   session.start();                    // returns at once; started() or failed() follows

#include "ui/session/leadershipstate.h"
#include "ui/session/snapshots.h"

#include "engine/api/expected.h"
#include "engine/controller/reconciletrace.h"

#include <QObject>
#include <QPointer>
#include <QTemporaryDir>
#include <QThread>

namespace opbench::apiserver {
class ApiServer;
}

namespace opbench::ui {

class EngineWorker;

struct SessionOptions
{
    QString kubeconfig; ///< empty and no context: embedded cluster
    QString context;
    bool createSamples = true; ///< embedded only: the five sample MyApplications
    int podReadyDelayMs = 1500; ///< embedded only: simulated kubelet delay
    /// The headless operator for "Hand off"; empty: opbench-operator next to this executable.
    QString operatorProgram;
};

class EngineSession : public QObject
{
    Q_OBJECT
public:
    explicit EngineSession(SessionOptions options, QObject *parent = nullptr);
    /// Stops the engine, then the server, and joins both threads.
    ~EngineSession() override;

    const SessionOptions &options() const { return m_options; }
    bool isEmbedded() const { return m_options.kubeconfig.isEmpty() && m_options.context.isEmpty(); }
    /// Starts the embedded server (if any) and the engine; non-blocking.
    void start();
    const ClusterInfo &cluster() const { return m_cluster; }
    /// The embedded cluster's kubeconfig (empty before started() or on a real cluster).
    QByteArray kubeconfig() const { return m_kubeconfig; }
    /// Writes the embedded cluster's kubeconfig to `path` (mode 0600). Errors: not embedded or
    /// not started yet, or the file cannot be written (the message names it).
    Expected<void> writeKubeconfig(const QString &path) const;

    /// Intent: send versionsReady() for `key` of `kind`.
    void requestVersions(const QString &kind, const QString &key);
    /// Intent: send cacheAt() with the whole cache as it was at resourceVersion `rv`.
    void requestCacheAt(const QString &rv);
    /// Intents for the embedded server's fault injector (ignored on a real cluster).
    void setFaults(const QStringList &specs);
    void dropWatches();
    void compactHistory();
    /// Stepping intents (queued to the engine thread). `key` empty: the next item.
    void pause();
    void resume();
    void step(const QString &key = {});
    void stepInto(const QString &key = {});
    void continueCall();
    void continueToEnd();
    void toggleBreakpoint(const QString &key);
    void setBreakOnError(bool on);
    /// Object intents (Children panel): delete an object; create a MyApplication in "default".
    void deleteObject(const QString &kind, const QString &key);
    void createApplication(const QString &name, const QString &image, int replicas);
    /// Leadership intents (embedded cluster): start opbench-operator in-cluster style and
    /// release the lease to it / stop it and re-acquire (on a real cluster takeBack() undoes
    /// handOffToCluster()). See leadershipState().
    void handOff();
    void takeBack();
    /// Leadership intent (real cluster): apply the CRD and packaging/manifests with the operator
    /// `image`, then release the lease to that Deployment; takeBack() scales it to 0 and
    /// re-acquires. The steps' outcomes arrive in leadershipState().deploymentMessage.
    void handOffToCluster(const QString &image);
    /// The program handOff() starts.
    QString operatorProgram() const;

Q_SIGNALS:
    void started(const opbench::ui::ClusterInfo &cluster);
    void failed(const QString &message);
    void cacheBatch(const opbench::ui::CacheBatch &batch);
    void queueAvailable(bool available);
    void queueSample(const opbench::ui::QueueSample &sample);
    void versionsReady(const opbench::ui::ObjectVersions &versions);
    void cacheAt(const opbench::ui::CachePast &past);
    void samplesCreated(int created, const QStringList &errors);
    void reconcilesFinished(const QList<opbench::ReconcileTrace> &traces);
    void controlState(const opbench::ui::ControlState &state);
    void actionFailed(const QString &message);
    void createFailed(const QString &field, const QString &message);
    void created(const QString &key);
    void leadershipState(const opbench::ui::LeadershipState &state);

private:
    void startEngine(const QString &kubeconfigPath, const QString &context);
    void onServerStarted(const QByteArray &kubeconfig, const QUrl &url);
    template<typename Fn>
    void toWorker(Fn fn);

    SessionOptions m_options;
    ClusterInfo m_cluster;
    QByteArray m_kubeconfig;
    QTemporaryDir m_tempDir;
    QThread m_serverThread;
    QThread m_engineThread;
    QPointer<apiserver::ApiServer> m_server; // lives on m_serverThread
    QPointer<EngineWorker> m_worker;         // lives on m_engineThread
};

/// Registers the snapshot metatypes (idempotent); EngineSession does it in its constructor.
void registerSnapshotTypes();

} // namespace opbench::ui
