// SPDX-License-Identifier: Apache-2.0
#pragma once
// EngineSession: the UI side of the engine<->UI bridge. Owns two threads: the embedded API
// server's and the engine's (a WorkbenchEngine hosting the operator's Manager). The UI thread
// never touches an engine object: it connects once to the engine parts' signals (immutable
// snapshots, delivered queued) and sends intents to their slots in one hop (post(), or a
// connect() from a UI signal, which is queued across the threads).
//
//   EngineSession session({});          // embedded cluster, the hosted operator (hostedoperator.h)
//   connect(session.cacheFeed(), &CacheFeed::batch, model, &CacheTreeModel::apply);
//   session.post(&ControllerObserver::step, QString());
//   session.start();                    // returns at once; started() or failed() follows

#include "engine/workbench/admissionlog.h"
#include "engine/workbench/cachefeed.h"
#include "engine/workbench/controllerobserver.h"
#include "engine/workbench/leadership.h"
#include "engine/workbench/queueobserver.h"
#include "engine/workbench/replaysession.h"
#include "engine/workbench/snapshots.h"
#include "engine/workbench/workbenchengine.h"
#include "ui/session/snapshots.h"

#include "engine/api/expected.h"

#include <QObject>
#include <QPointer>
#include <QTemporaryDir>
#include <QThread>

#include <type_traits>

namespace opbench::apiserver {
class ApiServer;
}

namespace opbench::ui {

// The bridge's vocabulary (engine/workbench): snapshots.h names the values; these are the
// engine-side objects the session owns or hands to the widgets.
using workbench::AdmissionLog;
using workbench::CacheFeed;
using workbench::ControllerObserver;
using workbench::HandOffOptions;
using workbench::Leadership;
using workbench::QueueObserver;
using workbench::ReplaySession;
using workbench::ReplayState;
using workbench::WorkbenchEngine;

struct SessionOptions
{
    QString kubeconfig; ///< empty and no context: embedded cluster
    QString context;
    bool createSamples = true;  ///< embedded only: the operator's sample objects
    int podReadyDelayMs = 1500; ///< embedded only: simulated kubelet delay
    QString auditLog;           ///< embedded only: the server's audit log (JSON lines); empty: none
    /// The headless operator for "Hand off"; empty: the hosted operator's headless program
    /// (OperatorDefinition::headlessProgram) next to this executable.
    QString operatorProgram;
    /// A recording to replay instead of running the operator (no cluster; docs/recording.md).
    QString replay;
};

class EngineSession : public QObject
{
    Q_OBJECT
public:
    explicit EngineSession(SessionOptions options, QObject *parent = nullptr);
    /// Stops the engine, then the server, and joins both threads.
    ~EngineSession() override;

    const SessionOptions &options() const { return m_options; }
    bool isEmbedded() const { return m_options.kubeconfig.isEmpty() && m_options.context.isEmpty() && !isReplay(); }
    /// A recording is replayed (SessionOptions::replay): no cluster, every write is disabled.
    bool isReplay() const { return !m_options.replay.isEmpty(); }
    /// Starts the embedded server (if any) and the engine; non-blocking.
    void start();
    const ClusterInfo &cluster() const { return m_cluster; }
    /// The embedded cluster's kubeconfig (empty before started() or on a real cluster).
    QByteArray kubeconfig() const { return m_kubeconfig; }
    /// Writes the embedded cluster's kubeconfig to `path` (mode 0600). Errors: not embedded or
    /// not started yet, or the file cannot be written (the message names it).
    Expected<void> writeKubeconfig(const QString &path) const;

    /// The engine parts, to connect to (their signals arrive queued on the UI thread). Never
    /// call their slots directly: reach them through post() or connect a UI signal to them
    /// (queued, since they live on the engine thread), as MainWindow does.
    const WorkbenchEngine *engine() const { return m_engine; }
    const ReplaySession *replay() const { return m_engine->replay(); }
    const CacheFeed *cacheFeed() const { return m_engine->cacheFeed(); }
    const QueueObserver *queue() const { return m_engine->queue(); }
    const ControllerObserver *controller() const { return m_engine->controller(); }
    const Leadership *leadership() const { return m_engine->leadership(); }
    /// The embedded server's webhook calls (on the engine thread; empty on a real cluster).
    const AdmissionLog *admissionLog() const { return m_admission; }

    /// Posts an intent to the engine part that declares `method`, run on the engine thread:
    /// `post(&ControllerObserver::step, key)`, `post(&Leadership::takeBack)`.
    template<typename Part, typename... Params, typename... Args>
    void post(void (Part::*method)(Params...), Args &&...args)
    {
        QPointer<Part> part(partOf<Part>());
        QMetaObject::invokeMethod(part.data(), [part, method, ... a = std::decay_t<Params>(std::forward<Args>(args))] {
            if (part)
                (part.data()->*method)(a...);
        });
    }

    /// Intents for the embedded server's fault injector (ignored on a real cluster).
    void setFaults(const QStringList &specs);
    void dropWatches();
    void compactHistory();
    /// Creates `object` through the engine (the Children panel's form): created() or
    /// createFailed() follows on engine().
    void createObject(const opbench::Object &object);
    /// The program Hand off starts.
    QString operatorProgram() const;

Q_SIGNALS:
    void started(const opbench::workbench::ClusterInfo &cluster);
    void failed(const QString &message);

private:
    void startEngine(const QString &kubeconfigPath, const QString &context);
    void onServerStarted(const QByteArray &kubeconfig, const QUrl &url);
    HandOffOptions handOffOptions() const;
    template<typename Part> Part *partOf() const
    {
        if constexpr (std::is_same_v<Part, WorkbenchEngine>)
            return m_engine;
        else if constexpr (std::is_same_v<Part, CacheFeed>)
            return m_engine->cacheFeed();
        else if constexpr (std::is_same_v<Part, QueueObserver>)
            return m_engine->queue();
        else if constexpr (std::is_same_v<Part, ControllerObserver>)
            return m_engine->controller();
        else if constexpr (std::is_same_v<Part, ReplaySession>)
            return m_engine->replay();
        else
            return m_engine->leadership();
    }

    SessionOptions m_options;
    ClusterInfo m_cluster;
    QByteArray m_kubeconfig;
    QTemporaryDir m_tempDir;
    QThread m_serverThread;
    QThread m_engineThread;
    QPointer<apiserver::ApiServer> m_server; // lives on m_serverThread
    WorkbenchEngine *m_engine;               // lives on m_engineThread, deleted when it finishes
    AdmissionLog *m_admission;               // lives on m_engineThread, deleted when it finishes
};

} // namespace opbench::ui
