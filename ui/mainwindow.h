// SPDX-License-Identifier: Apache-2.0
#pragma once
// MainWindow: the workbench window. Docks (Cache, Reconciles, Queue, Object, Children,
// Leadership, Faults, Pipeline), the stepping toolbar, the status bar, About, and window/dock/splitter
// state in QSettings. It wires the EngineSession's snapshots to the models and the panels'
// intents back to the session; it holds no engine logic.

#include "ui/models/reconcilerate.h"
#include "ui/session/enginesession.h"

#include <QJsonObject>
#include <QMainWindow>

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;

namespace opbench::workbench {
class Tour;
struct CreateForm;
struct TourState;
} // namespace opbench::workbench

namespace opbench::ui {

class TransportBar; // replay only (mainwindowreplay.cpp)
class CacheTreeModel;
class QueueItemsModel;
class ReconcileListModel;
class ReconcilesPanel;
class ChildrenTreeModel;
class ChildrenPanel;
class CachePanel;
class ObjectPanel;
class QueuePanel;
class FaultsPanel;
class InfoDock;
class LeadershipPanel;
class TourPanel;
class PipelineModel;
class PipelinePanel;
class BreakpointListModel;
class BreakpointsPanel;
class CurrentReconcileModel;
class CurrentReconcileView;
class AdmissionListModel;
class AdmissionPanel;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(SessionOptions options, QWidget *parent = nullptr);
    ~MainWindow() override;

    EngineSession *session() const { return m_session; }
    CacheTreeModel *cacheModel() const { return m_cacheModel; }
    /// The replay's transport (null unless a recording is replayed; mainwindowreplay.cpp).
    TransportBar *transportBar() const { return m_transport; }
    ReconcileListModel *reconcileModel() const { return m_reconcileModel; }
    CachePanel *cachePanel() const { return m_cachePanel; }
    ObjectPanel *objectPanel() const { return m_objectPanel; }
    LeadershipPanel *leadershipPanel() const { return m_leadershipPanel; }
    ReconcilesPanel *reconcilesPanel() const { return m_reconcilesPanel; }
    PipelinePanel *pipelinePanel() const { return m_pipelinePanel; }
    /// The debugger's frame (the reconcile being stepped), in the "currentReconcileDock".
    CurrentReconcileView *currentReconcileView() const { return m_currentView; }
    BreakpointsPanel *breakpointsPanel() const { return m_breakpointsPanel; }
    /// The embedded server's webhook calls, in the "admissionDock".
    AdmissionPanel *admissionPanel() const { return m_admissionPanel; }
    /// Toolbar/menu actions by objectName ("run", "pause", "step", "stepInto", "continue",
    /// "breakpoints", "handOff", "writeKubeconfig", "about").
    QAction *action(const QString &name) const;
    /// Selects an object in the cache tree (and shows it in the Object panel).
    void selectObject(const QString &kind, const QString &key);
    /// What the panels hold, for --report-after and tests: {"operator", "informers", "synced",
    /// "cache": {kind: objects}, "queueSamples", "reconciles", "ownerTrees", "controllers",
    /// "formCreated": {"key", "reconciles"} after createFromForm(), and in a replay "replay":
    /// {"path", "records", "position", "reconciles", "replayed", "diverged", "marked", "damage"}}.
    QJsonObject panelReport() const;
    /// Creates an object of the operator's kind named `name` from the Children panel's form as
    /// it stands (its sample values, or the sample's YAML renamed), as a click on Create would;
    /// panelReport()'s "formCreated" then says how often that key was reconciled.
    void createFromForm(const QString &name);
    workbench::Tour *tour() const { return m_tour; }
    TourPanel *tourPanel() const { return m_tourPanel; }
    /// Help ▸ Tour: shows the tour dock and starts (or resumes) the tour.
    void startTour();
    /// The hosted operator's kinds as kubectl resource names ("myapplications.example.com,deployments.apps,…").
    static QString kubectlResources();

Q_SIGNALS:
    /// The user chose another cluster (Connect to cluster…): the workbench restarts with it.
    void switchRequested(const opbench::ui::SessionOptions &options);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions(); // mainwindowactions.cpp
    void createControlActions(QToolBar *tb, QMenu *controlMenu);
    void createFileActions(QToolBar *tb, QMenu *fileMenu, QMenu *helpMenu);
    void createDocks();
    void createStatusBar();
    void connectSession();
    void connectPanels();
    void connectPipeline();
    void connectTour();
    void connectLeadership();
    void connectDefinition(); // mainwindowdefinition.cpp
    // A recording replayed (mainwindowreplay.cpp).
    void createReplayActions();
    void setUpReplay();
    void lockWritesForReplay();
    void onReplayState(const ReplayState &state);
    QJsonObject replayReport() const;
    void createDebuggerDock(QDockWidget *reconciles); // mainwindowdebugger.cpp
    void connectDebugger();
    // The Breakpoints dock (mainwindowbreakpoints.cpp).
    void createBreakpointsDock(QDockWidget *tabWith);
    void connectBreakpoints();
    void applyBreakpointState(const ControlState &state);
    /// The Admission dock and its feed (mainwindowadmission.cpp).
    void createAdmissionDock(QDockWidget *tabWith);
    // The default layout, Reset layout (mainwindowlayout.cpp).
    void createLayoutActions(QMenu *viewMenu);
    /// Sizes the docks for the window's size: the centre column (Reconciles, Current reconcile)
    /// gets the room, the Object panel a quarter of the height at most.
    void applyDefaultSizes();
    void resetLayout();
    void showDebuggerFor(const ControlState &state);
    void showDebugger();
    /// The key selected in the Queue panel if it is ready to be handed out, else "".
    QString selectedQueuedKey() const;
    static workbench::CreateForm hostedCreateForm();
    QJsonObject formReport() const;
    void restoreSettings();
    void saveSettings() const;
    void onStarted(const ClusterInfo &cluster);
    void onFailed(const QString &message);
    void onCacheBatch(const CacheBatch &batch);
    void onObjectSelected(const QString &kind, const QString &key);
    /// The Object panel follows the selected reconcile's key (unless the user turned it off).
    void followReconcile(const QString &key);
    void writeKubeconfig();
    void showAbout();
    void onControlState(const ControlState &state);
    void onReconciles(const QList<ReconcileTrace> &traces);
    /// The status bar's rec/s at this moment (called on reconciles and on every queue sample, so
    /// it falls to 0 when nothing reconciles).
    void updateReconcileRate();
    void toggleBreakpointOnSelection();
    void exportTraces();
    void onLeadership(const LeadershipState &state);
    void offerTourOnFirstStart();
    // mainwindowtour.cpp
    void onTourState(const opbench::workbench::TourState &state);
    /// The Tour dock on the right edge, alone: never tabbed with a dock a lesson raises.
    void placeTourDock();
    /// A lesson's button: its fault on top of the Faults panel's, or a compaction and dropped watches.
    void armTourFault(const QString &fault);
    void dropWatchesForTour();
    void onHandOffAction();
    void showConnectDialog();
    void checkCluster();
    InfoDock *addDock(const QString &title, const QString &name, const QString &explanation, QWidget *content,
        Qt::DockWidgetArea area);

    EngineSession *m_session;
    CacheTreeModel *m_cacheModel;
    QueueItemsModel *m_queueModel;
    ReconcileListModel *m_reconcileModel;
    ReconcilesPanel *m_reconcilesPanel = nullptr;
    ChildrenTreeModel *m_childrenModel;
    ChildrenPanel *m_childrenPanel = nullptr;
    ControlState m_control;
    ReconcileRate m_reconcileRate; // the status bar's rec/s
    CachePanel *m_cachePanel = nullptr;
    ObjectPanel *m_objectPanel = nullptr;
    QueuePanel *m_queuePanel = nullptr;
    FaultsPanel *m_faultsPanel = nullptr;
    LeadershipPanel *m_leadershipPanel = nullptr;
    LeadershipState m_leadership;
    workbench::Tour *m_tour;
    TourPanel *m_tourPanel = nullptr;
    QDockWidget *m_tourDock = nullptr;
    PipelineModel *m_pipelineModel = nullptr;
    PipelinePanel *m_pipelinePanel = nullptr;
    int m_queueSamples = 0;
    QLabel *m_clusterLabel = nullptr;
    QLabel *m_syncLabel = nullptr;
    QLabel *m_objectsLabel = nullptr;
    QLabel *m_queueLabel = nullptr;
    QLabel *m_reconcileLabel = nullptr;
    QLabel *m_leaderLabel = nullptr;
    QHash<QString, QAction *> m_actions;
    TransportBar *m_transport = nullptr; // replay only
    ReplayState m_replayState;
    QComboBox *m_controllerPicker = nullptr;
    QString m_formCreated; // the key createFromForm() created
    CurrentReconcileModel *m_currentModel = nullptr;
    CurrentReconcileView *m_currentView = nullptr;
    QDockWidget *m_currentDock = nullptr;
    bool m_currentAutoShown = false; // shown by a pause or a step, hidden again on Run
    bool m_wasPaused = false;
    BreakpointListModel *m_breakpointModel = nullptr;
    BreakpointsPanel *m_breakpointsPanel = nullptr;
    QDockWidget *m_breakpointsDock = nullptr;
    AdmissionListModel *m_admissionModel = nullptr;
    AdmissionPanel *m_admissionPanel = nullptr;
    QByteArray m_defaultLayout; // saveState() before the saved layout was restored (Reset layout)
};

} // namespace opbench::ui
