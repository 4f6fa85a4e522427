// SPDX-License-Identifier: Apache-2.0
#pragma once
// WorkbenchEngine: the engine side of the desktop workbench, without widgets. It hosts one
// Manager running the operator (its cache, client, controllers and leader elector) and points
// small observers at *that* Manager, so the window shows exactly what the reconciler reads:
//
//   cacheFeed()   the Manager's informer cache (one watch per kind, shared with the controllers)
//   queue()       the selected controller's work queue
//   controller()  the selected controller's reconcile traces and stepping
//   controllers() every controller the definition's setup registered (selectController())
//   leadership()  the Manager's leader elector and the hand-off
//   replay()      a recording replayed instead of a live run (openRecording(); replaysession.h)
//   webhookGate() the operator's webhook requests held at breakpoints (embedded; webhookgate.h;
//                 elsewhere it says why its breakpoints never hit)
//
// and carries the object intents (create, delete, samples) through the Manager's REST client.
// The operator is any OperatorDefinition (engine/sdk/operatordefinition.h).
// Every part lives on the engine thread. The UI connects to their signals once and posts to
// their slots (queued); nothing else crosses the thread.

#include "engine/workbench/leadership.h"
#include "engine/workbench/snapshots.h"

#include "engine/api/expected.h"
#include "engine/api/gvk.h"
#include "engine/api/object.h"
#include "engine/sdk/localwebhooks.h"
#include "engine/sdk/operatordefinition.h"

#include <QObject>
#include <QPointer>
#include <QStringList>

#include <qcoro/qcorotask.h>

#include <memory>

namespace opbench {
class Controller;
class Manager;
class WebhookGate;
} // namespace opbench

namespace opbench::workbench {

class CacheFeed;
class ControllerObserver;
class QueueObserver;
class ReplaySession;

class WorkbenchEngine : public QObject
{
    Q_OBJECT
public:
    explicit WorkbenchEngine(OperatorDefinition def, QObject *parent = nullptr);
    ~WorkbenchEngine() override;

    CacheFeed *cacheFeed() const { return m_cacheFeed; }
    QueueObserver *queue() const { return m_queue; }
    ControllerObserver *controller() const { return m_controller; }
    Leadership *leadership() const { return m_leadership; }
    ReplaySession *replay() const { return m_replay; }
    /// Holds the operator's own webhook requests at breakpoints (embedded cluster; webhookgate.h).
    WebhookGate *webhookGate() const { return m_webhookGate; }
    /// The hosted manager (null before connectTo() or after a failed start).
    Manager *manager() const { return m_manager.get(); }
    /// The names of every controller the definition registered on the manager, in the order
    /// setup created them (empty before connectTo()).
    QStringList controllerNames() const;
    /// The controller queue() and controller() observe now.
    QString currentController() const;

    /// How the webhook certificate is made on an embedded cluster (before connectTo(); without
    /// it the definition's webhooks are not served there).
    void setWebhookTlsGenerator(WebhookTlsGenerator generator) { m_webhookTls = std::move(generator); }

public Q_SLOTS:
    /// Builds the Manager for `kubeconfigPath`/`context`, registers the operator's CRD kinds,
    /// sets it up, points the observers at it and starts it (leader election on, the definition's
    /// lease). With `embedded` the CRDs are installed first, the definition's webhooks served on
    /// loopback and registered (localwebhooks.h), and the samples created. Emits
    /// connected() or failed() (the message says what was wrong).
    void connectTo(const QString &kubeconfigPath, const QString &context, bool embedded,
        const opbench::workbench::HandOffOptions &handOff);
    /// Replays the recording `path` instead of running the operator: the replay manager (set up,
    /// never started) is observed as a live one; replay() carries the transport. Emits
    /// connected() (an empty URL) or failed() (not a recording, the setup failed).
    void openRecording(const QString &path);
    /// Stops the manager and the observers; stopped() follows once the manager has finished
    /// (its runnables, caches and lease release), at once when there is no running manager.
    /// Called before the engine thread quits: ending the thread earlier would strand the
    /// manager's shutdown mid-way (its coroutine frames are never freed).
    void shutdown();
    /// Deletes the object `key` ("ns/name") of the shown kind `kind` (actionFailed() on error).
    void deleteObject(const QString &kind, const QString &key);
    /// Creates `object` in its namespace ("default" when it has none): created(key) or
    /// createFailed(field, message) naming the offending field.
    void createObject(const opbench::Object &object);
    /// Points queue() and controller() at the controller `name` (controllersChanged() follows;
    /// actionFailed() when there is no such controller).
    void selectController(const QString &name);

Q_SIGNALS:
    void connected(const QUrl &server);
    void failed(const QString &message);
    /// The samples were created (or existed); `errors` lists the failures.
    void samplesCreated(int created, const QStringList &errors);
    void actionFailed(const QString &message);
    void createFailed(const QString &field, const QString &message);
    void created(const QString &key);
    /// The definition's controllers (after connectTo()) and the one observed, after each change.
    void controllersChanged(const QStringList &names, const QString &current);
    /// The definition's kinds once setup ran (runSetup() derives them when the definition left
    /// them out), For kind first, each as "group/version/Kind" ("/v1/ConfigMap" for core).
    void kindsResolved(const QStringList &kinds);
    /// The manager finished stopping after shutdown() (emitted once).
    void stopped();

private:
    // Counts the intents (coroutines) still running: stopped() waits for them too, so none is
    // left suspended when the engine thread ends.
    class BusyScope
    {
    public:
        explicit BusyScope(WorkbenchEngine *engine);
        ~BusyScope();
        BusyScope(const BusyScope &) = delete;
        BusyScope &operator=(const BusyScope &) = delete;

    private:
        QPointer<WorkbenchEngine> m_engine;
    };

    bool managerDone() const;
    void collectControllers(Controller *returned);
    void emitStopped();
    void emitKinds();
    /// Why the webhook gate's breakpoints never hit on this cluster ("" when they can).
    QString webhookNeverHits(bool embedded) const;
    QCoro::Task<void> runManager(bool embedded);
    QCoro::Task<void> createSamples();
    QCoro::Task<void> runDelete(GroupVersionKind gvk, QString key);
    QCoro::Task<void> runCreate(Object object);

    OperatorDefinition m_def;
    WebhookTlsGenerator m_webhookTls;
    std::unique_ptr<LocalWebhooks> m_localWebhooks; // embedded: outlives m_manager (declared first)
    std::unique_ptr<Manager> m_manager;
    bool m_managerFinished = false;
    bool m_stopRequested = false;
    bool m_stoppedSent = false;
    int m_busy = 0;                            // running intents (BusyScope)
    QList<QPointer<Controller>> m_controllers; // the manager's (children of it)
    QPointer<Controller> m_current;
    CacheFeed *m_cacheFeed;           // child
    QueueObserver *m_queue;           // child
    ControllerObserver *m_controller; // child
    Leadership *m_leadership;         // child
    ReplaySession *m_replay;          // child
    WebhookGate *m_webhookGate;       // child
};

/// Registers the workbench's value types for queued signals (idempotent).
void registerWorkbenchTypes();

} // namespace opbench::workbench

Q_DECLARE_METATYPE(opbench::workbench::HandOffOptions)
