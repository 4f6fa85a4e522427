// SPDX-License-Identifier: Apache-2.0
#include "ui/mainwindow.h"

#include "ui/dialogs/connectdialog.h"
#include "ui/highlighterinfo.h"
#include "ui/learnertexts.h"
#include "ui/session/hostedoperator.h"

#include "engine/api/restmapper.h"
#include "ui/models/cachetreemodel.h"
#include "ui/models/childrentreemodel.h"
#include "ui/models/idletracker.h"
#include "ui/models/pipelinemodel.h"
#include "ui/models/queueitemsmodel.h"
#include "ui/models/reconcilelistmodel.h"
#include "ui/widgets/cachepanel.h"
#include "ui/widgets/childrenpanel.h"
#include "ui/widgets/faultspanel.h"
#include "ui/widgets/infodock.h"
#include "ui/widgets/leadershippanel.h"
#include "ui/widgets/objectpanel.h"
#include "ui/widgets/pipelinepanel.h"
#include "ui/widgets/queuepanel.h"
#include "ui/widgets/reconcilespanel.h"
#include "ui/widgets/tourpanel.h"

#include "engine/base/allocator.h"
#include "engine/workbench/createform.h"
#include "engine/workbench/tour.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QJsonObject>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>

namespace opbench::ui {

MainWindow::MainWindow(SessionOptions options, QWidget *parent)
    : QMainWindow(parent)
    , m_session(new EngineSession(std::move(options), this))
    , m_cacheModel(new CacheTreeModel(this))
    , m_queueModel(new QueueItemsModel(this))
    , m_reconcileModel(new ReconcileListModel(5000, this))
    , m_childrenModel(new ChildrenTreeModel(workbench::forKindOf(hostedOperator()).kind, this))
    , m_tour(new workbench::Tour(workbench::TourSubject::of(hostedOperator()), this))
{
    setObjectName(QStringLiteral("opbenchMainWindow"));
    setWindowTitle(tr("opbench — starting…"));
    resize(1400, 880);
    setDockNestingEnabled(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowNestedDocks | QMainWindow::AllowTabbedDocks);
    createActions();
    createDocks();
    createStatusBar();
    connectSession();
    createReplayActions();
    if (m_session->isReplay())
        setUpReplay(); // mainwindowreplay.cpp
    restoreSettings();
    if (!m_session->isReplay())
        offerTourOnFirstStart();
    m_session->start();
}

void MainWindow::offerTourOnFirstStart()
{
    QSettings settings;
    if (settings.value(QStringLiteral("tour/offered"), false).toBool()) {
        m_tourPanel->apply(m_tour->state());
        return;
    }
    settings.setValue(QStringLiteral("tour/offered"), true);
    m_tourDock->show();
    m_tourDock->raise(); // the panel offers "Start the tour"
}

MainWindow::~MainWindow() = default;

InfoDock *MainWindow::addDock(
    const QString &title, const QString &name, const QString &explanation, QWidget *content, Qt::DockWidgetArea area)
{
    auto *dock = new InfoDock(title, name, explanation, this);
    dock->setContent(content);
    addDockWidget(area, dock);
    if (auto *menu = menuBar()->findChild<QMenu *>(QStringLiteral("viewMenu")))
        menu->addAction(dock->toggleViewAction());
    return dock;
}

void MainWindow::createDocks()
{
    m_cachePanel = new CachePanel(m_cacheModel);
    m_objectPanel = new ObjectPanel;
    m_queuePanel = new QueuePanel(m_queueModel);
    m_faultsPanel = new FaultsPanel;
    auto *cache = addDock(
        tr("Cache"), QStringLiteral("cacheDock"), learnerText(Panel::Cache), m_cachePanel, Qt::LeftDockWidgetArea);
    m_reconcilesPanel = new ReconcilesPanel(m_reconcileModel);
    auto *reconciles = addDock(tr("Reconciles"), QStringLiteral("reconcilesDock"), learnerText(Panel::Reconciles),
        m_reconcilesPanel, Qt::RightDockWidgetArea);
    auto *queue = addDock(
        tr("Queue"), QStringLiteral("queueDock"), learnerText(Panel::Queue), m_queuePanel, Qt::RightDockWidgetArea);
    auto *object = addDock(tr("Object (YAML)"), QStringLiteral("objectDock"), learnerText(Panel::Object), m_objectPanel,
        Qt::BottomDockWidgetArea);
    m_childrenPanel = new ChildrenPanel(m_childrenModel, hostedCreateForm());
    auto *children = addDock(tr("Children"), QStringLiteral("childrenDock"), learnerText(Panel::Children),
        m_childrenPanel, Qt::BottomDockWidgetArea);
    m_leadershipPanel = new LeadershipPanel;
    auto *leadership = addDock(tr("Leadership"), QStringLiteral("leadershipDock"), learnerText(Panel::Leadership),
        m_leadershipPanel, Qt::BottomDockWidgetArea);
    auto *faults = addDock(tr("Faults"), QStringLiteral("faultsDock"), learnerText(Panel::Faults), m_faultsPanel,
        Qt::BottomDockWidgetArea);
    m_tourPanel = new TourPanel;
    m_tourPanel->apply(m_tour->state()); // "N short lessons" for this operator's tour
    m_tourDock = addDock(tr("Tour"), QStringLiteral("tourDock"),
        tr("The guided tour of the controller pattern. Each lesson is something you do in this "
           "window, and it completes when the engine shows that it happened."),
        m_tourPanel, Qt::RightDockWidgetArea);
    m_pipelineModel = new PipelineModel(this);
    m_pipelinePanel = new PipelinePanel(m_pipelineModel);
    addDock(tr("Pipeline"), QStringLiteral("pipelineDock"), learnerText(Panel::Pipeline), m_pipelinePanel,
        Qt::TopDockWidgetArea);
    splitDockWidget(reconciles, queue, Qt::Horizontal);
    tabifyDockWidget(object, children);
    tabifyDockWidget(children, leadership);
    tabifyDockWidget(leadership, faults);
    createAdmissionDock(faults); // mainwindowadmission.cpp
    object->raise();
    resizeDocks({cache, reconciles, queue}, {320, 640, 340}, Qt::Horizontal);
    createDebuggerDock(reconciles);
    createBreakpointsDock(queue);
    resizeDocks({cache, object}, {640, 220}, Qt::Vertical); // the Object panel a quarter at most
    placeTourDock();                                        // mainwindowtour.cpp
}

void MainWindow::createStatusBar()
{
    auto add = [this](const QString &text, const QString &tip) {
        auto *l = new QLabel(text, this);
        l->setToolTip(tip);
        statusBar()->addPermanentWidget(l);
        return l;
    };
    m_clusterLabel = add(tr("starting…"), tr("The cluster this window talks to"));
    m_syncLabel = add(tr("synced 0/0"), tr("Informers that finished their initial LIST"));
    m_objectsLabel = add(tr("0 objects"), tr("Objects in the informer cache"));
    m_queueLabel = add(tr("queue –"), tr("Work queue depth (ready items)"));
    m_reconcileLabel = add(tr("rec/s –"), tr("Reconciles per second, over the last 5 seconds"));
    m_leaderLabel = add(tr("leader –"), tr("Who holds the operator's leader-election Lease"));
}

void MainWindow::connectSession()
{
    connect(m_session, &EngineSession::started, this, &MainWindow::onStarted);
    connect(m_session, &EngineSession::failed, this, &MainWindow::onFailed);
    connectPanels();
    connectPipeline();
    connectTour();
    connectLeadership();
    connectDefinition();
    connectDebugger();
    connectBreakpoints();
}

void MainWindow::connectPanels()
{
    const WorkbenchEngine *engine = m_session->engine();
    connect(engine, &WorkbenchEngine::samplesCreated, this, [this](int created, const QStringList &errors) {
        if (!errors.isEmpty())
            onFailed(tr("Creating the sample objects failed: %1").arg(errors.join(QStringLiteral("; "))));
        else
            statusBar()->showMessage(tr("Created %1 sample objects in namespace default").arg(created), 5000);
    });
    connect(
        engine, &WorkbenchEngine::actionFailed, this, [this](const QString &m) { statusBar()->showMessage(m, 8000); });
    connect(engine, &WorkbenchEngine::created, this,
        [this](const QString &key) { statusBar()->showMessage(tr("Created %1").arg(key), 5000); });
    connect(engine, &WorkbenchEngine::createFailed, m_childrenPanel, &ChildrenPanel::showCreateError);
    connect(m_childrenPanel, &ChildrenPanel::deleteRequested, engine, &WorkbenchEngine::deleteObject);
    connect(m_childrenPanel, &ChildrenPanel::deleteRejected, this,
        [this](const QString &m) { statusBar()->showMessage(m, 5000); });

    const CacheFeed *feed = m_session->cacheFeed();
    connect(feed, &CacheFeed::batch, this, &MainWindow::onCacheBatch);
    connect(feed, &CacheFeed::versionsReady, this, [this](const ObjectVersions &v) {
        if (v.kind == m_objectPanel->currentKind() && v.key == m_objectPanel->currentKey())
            m_objectPanel->showVersions(v);
    });
    connect(m_cachePanel, &CachePanel::objectSelected, this, &MainWindow::onObjectSelected);
    connect(m_cachePanel, &CachePanel::timeTravelRequested, feed, &CacheFeed::requestCacheAt);
    connect(feed, &CacheFeed::cacheAt, m_cachePanel, &CachePanel::showPast);

    const QueueObserver *queue = m_session->queue();
    connect(queue, &QueueObserver::available, m_queuePanel, &QueuePanel::setAvailable);
    connect(queue, &QueueObserver::sample, this, [this](const QueueSample &s) {
        m_queuePanel->addSample(s);
        ++m_queueSamples;
        m_queueLabel->setText(tr("queue %1").arg(s.depth));
        updateReconcileRate(); // a sample every 500 ms: an idle rate decays to 0
    });

    const ControllerObserver *controller = m_session->controller();
    connect(controller, &ControllerObserver::controlState, this, &MainWindow::onControlState);
    connect(controller, &ControllerObserver::reconcilesFinished, this, &MainWindow::onReconciles);
    connect(m_reconcilesPanel, &ReconcilesPanel::exportRequested, this, &MainWindow::exportTraces);
    connect(m_reconcilesPanel, &ReconcilesPanel::reconcileSelected, this, &MainWindow::followReconcile);
}

void MainWindow::connectPipeline()
{
    const CacheFeed *feed = m_session->cacheFeed();
    const QueueObserver *queue = m_session->queue();
    const ControllerObserver *controller = m_session->controller();
    connect(feed, &CacheFeed::batch, m_pipelineModel, &PipelineModel::applyCache);
    connect(queue, &QueueObserver::sample, m_pipelineModel, &PipelineModel::applyQueue);
    connect(controller, &ControllerObserver::controlState, m_pipelineModel, &PipelineModel::applyControl);
    connect(controller, &ControllerObserver::reconcilesFinished, m_pipelineModel, &PipelineModel::applyReconciles);
    connect(m_pipelinePanel, &PipelinePanel::openDockRequested, this, [this](const QString &name) {
        if (auto *dock = findChild<QDockWidget *>(name)) {
            dock->show();
            dock->raise();
        }
    });
    auto *idle = new IdleTracker(20, this); // ten seconds of queue samples
    connect(queue, &QueueObserver::sample, idle, &IdleTracker::addSample);
    connect(controller, &ControllerObserver::reconcilesFinished, idle,
        [idle](const QList<ReconcileTrace> &t) { idle->addReconciles(int(t.size())); });
    connect(idle, &IdleTracker::idleChanged, m_reconcilesPanel, &ReconcilesPanel::setIdle);

    connect(m_faultsPanel, &FaultsPanel::faultsChanged, m_session, &EngineSession::setFaults);
    connect(m_faultsPanel, &FaultsPanel::dropWatchesRequested, m_session, &EngineSession::dropWatches);
    connect(m_faultsPanel, &FaultsPanel::compactRequested, m_session, &EngineSession::compactHistory);
    m_faultsPanel->setEmbedded(m_session->isEmbedded());
}

void MainWindow::connectLeadership()
{
    const Leadership *leadership = m_session->leadership();
    connect(leadership, &Leadership::leadershipState, this, &MainWindow::onLeadership);
    connect(m_leadershipPanel, &LeadershipPanel::handOffRequested, leadership, &Leadership::handOff);
    connect(m_leadershipPanel, &LeadershipPanel::clusterHandOffRequested, leadership, &Leadership::handOffToCluster);
    connect(m_leadershipPanel, &LeadershipPanel::takeBackRequested, leadership, &Leadership::takeBack);
}

QString MainWindow::kubectlResources()
{
    RestMapper mapper = RestMapper::withBuiltins();
    (void)registerCrds(mapper, hostedOperator().crds);
    QStringList names;
    for (const GroupVersionKind &gvk : hostedOperator().kinds)
        if (const auto m = mapper.forKind(gvk))
            names.append(m->gvr.group.isEmpty() ? m->gvr.resource : m->gvr.resource + u'.' + m->gvr.group);
    return names.join(u',');
}

void MainWindow::onStarted(const ClusterInfo &cluster)
{
    if (m_session->isReplay())
        return; // the replay's state names the recording (onReplayState)
    const QString where = cluster.server.toString();
    setWindowTitle(tr("opbench — %1 cluster %2").arg(cluster.name, where));
    if (cluster.embedded) {
        m_clusterLabel->setText(tr("embedded %1").arg(where));
        m_clusterLabel->setToolTip(
            tr("Reach it with: kubectl --kubeconfig %1 get %2 -A").arg(cluster.kubeconfigPath, kubectlResources()));
        m_actions.value(QStringLiteral("writeKubeconfig"))->setEnabled(true);
    } else {
        m_clusterLabel->setText(tr("%1 %2").arg(cluster.name, where));
        checkCluster();
    }
    QSettings settings;
    settings.setValue(
        QStringLiteral("session/lastCluster"), cluster.embedded ? QStringLiteral("embedded") : cluster.name);
    settings.setValue(QStringLiteral("session/lastServer"), where);
    if (!cluster.embedded) { // the last real cluster, preselected in Connect to cluster…
        settings.setValue(QStringLiteral("session/lastKubeconfig"), m_session->options().kubeconfig);
        settings.setValue(QStringLiteral("session/lastContext"), m_session->options().context);
    }
}

void MainWindow::onFailed(const QString &message)
{
    statusBar()->showMessage(message);
    m_clusterLabel->setText(tr("not connected"));
    m_clusterLabel->setToolTip(message);
}

void MainWindow::onCacheBatch(const CacheBatch &batch)
{
    m_cacheModel->apply(batch);
    m_childrenModel->apply(batch);
    m_syncLabel->setText(tr("synced %1/%2").arg(m_cacheModel->syncedCount()).arg(m_cacheModel->informerCount()));
    m_objectsLabel->setText(tr("%n object(s)", nullptr, m_cacheModel->objectCount()));
    const QString kind = m_objectPanel->currentKind();
    const QString key = m_objectPanel->currentKey();
    if (key.isEmpty())
        return;
    for (const CacheEntry &e : batch.entries) {
        if (e.kind == kind && e.object.key() == key) {
            m_session->post(&CacheFeed::requestVersions, kind, key);
            break;
        }
    }
}

QJsonObject MainWindow::panelReport() const
{
    QJsonObject cache;
    for (const GroupVersionKind &gvk : hostedOperator().kinds)
        cache.insert(gvk.kind, m_cacheModel->objectCount(gvk.kind));
    QJsonObject report{{QStringLiteral("operator"), hostedOperator().name},
        {QStringLiteral("informers"), m_cacheModel->informerCount()},
        {QStringLiteral("synced"), m_cacheModel->syncedCount()}, {QStringLiteral("cache"), cache},
        {QStringLiteral("queueSamples"), m_queueSamples}, {QStringLiteral("reconciles"), m_reconcileModel->rowCount()},
        {QStringLiteral("ownerTrees"), m_childrenModel->rowCount()},
        {QStringLiteral("controllers"), m_controllerPicker ? m_controllerPicker->count() : 0},
        {QStringLiteral("formCreated"), formReport()}};
    if (m_session->isReplay())
        report.insert(QStringLiteral("replay"), replayReport()); // mainwindowreplay.cpp
    return report;
}

void MainWindow::selectObject(const QString &kind, const QString &key) { m_cachePanel->select(kind, key); }

void MainWindow::onObjectSelected(const QString &kind, const QString &key)
{
    ObjectVersions pending;
    pending.kind = kind;
    pending.key = key;
    m_objectPanel->showVersions(pending);
    m_session->post(&CacheFeed::requestVersions, kind, key);
}

void MainWindow::followReconcile(const QString &key)
{
    if (!m_reconcilesPanel->followsSelection() || key == m_objectPanel->currentKey())
        return;
    const QString kind = m_childrenModel->rootKind(); // reconciles are of the operator's For kind
    m_cachePanel->select(kind, key);
    if (m_objectPanel->currentKey() != key) // gone from the cache: its recorded history still shows
        onObjectSelected(kind, key);
}

void MainWindow::writeKubeconfig()
{
    const QString suggested = QDir::home().filePath(QStringLiteral("opbench-kubeconfig.yaml"));
    const QString path = QFileDialog::getSaveFileName(this, tr("Write kubeconfig for the embedded cluster"), suggested,
        tr("Kubeconfig (*.yaml *.yml *.conf);;All files (*)"));
    if (path.isEmpty())
        return;
    if (auto ok = m_session->writeKubeconfig(path); !ok) {
        QMessageBox::warning(this, tr("Write kubeconfig"), ok.error().message());
        return;
    }
    QMessageBox box(QMessageBox::Information, tr("Kubeconfig written"),
        tr("The kubeconfig for the embedded cluster is in %1.").arg(path), QMessageBox::Ok, this);
    box.setInformativeText(tr("Try:\n  kubectl --kubeconfig %1 get %2 -A").arg(path, kubectlResources()));
    box.setTextInteractionFlags(Qt::TextSelectableByMouse);
    box.exec();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About opbench"),
        tr("<h3>opbench %1</h3><p>The operator workbench: the Kubernetes controller pattern made "
           "visible and steppable.</p><p>Qt %2 · syntax highlighting: %3 · allocator: %4</p>")
            .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion()), highlighterName(),
                QString::fromLatin1(allocatorName())));
}

void MainWindow::restoreSettings()
{
    m_defaultLayout = saveState(); // View ▸ Reset layout comes back to it
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    for (auto *split : findChildren<QSplitter *>()) {
        if (!split->objectName().isEmpty())
            split->restoreState(settings.value(QStringLiteral("splitters/") + split->objectName()).toByteArray());
    }
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    for (auto *split : findChildren<QSplitter *>()) {
        if (!split->objectName().isEmpty())
            settings.setValue(QStringLiteral("splitters/") + split->objectName(), split->saveState());
    }
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveSettings();
    event->accept();
}

void MainWindow::onControlState(const ControlState &state)
{
    m_control = state;
    m_reconcilesPanel->setAvailable(state.available);
    m_reconcilesPanel->setPaused(state.paused);
    showDebuggerFor(state);
    applyBreakpointState(state);
    const bool halted = !state.pendingCalls.isEmpty();
    for (const char *name : {"run", "pause", "step", "stepInto", "continue", "breakpoints", "breakOnError"}) {
        QAction *a = m_actions.value(QString::fromLatin1(name));
        a->setEnabled(state.available);
        if (state.available)
            a->setToolTip(QStringLiteral("%1 (%2)").arg(a->text(), a->shortcut().toString(QKeySequence::NativeText)));
    }
    // Continue also lets held webhook calls go on (mainwindowactions.cpp).
    m_actions.value(QStringLiteral("continue"))->setEnabled(state.canContinue());
    if (!state.available)
        return;
    m_actions.value(QStringLiteral("pause"))->setEnabled(!state.paused);
    m_actions.value(QStringLiteral("run"))->setEnabled(state.paused);
    QString text = state.paused ? tr("paused") : tr("running");
    if (halted)
        text = tr("halted before %1").arg(state.pendingCalls.first());
    if (!state.lastBreak.isEmpty() && state.paused) // which breakpoint stopped it
        text
            = halted ? tr("breakpoint: %1 — %2").arg(state.lastBreak, text) : tr("breakpoint: %1").arg(state.lastBreak);
    if (!state.heldWebhookCalls.isEmpty()) { // what is stopped: the reconciles, webhook calls, or both
        const QString first = state.heldWebhookCalls.first();
        const QString keys = m_actions.value(QStringLiteral("continue"))->shortcut().toString(QKeySequence::NativeText);
        const qsizetype n = state.heldWebhookCalls.size();
        const QString held = n == 1
            ? tr("webhook call held: %1 — Continue (%2) lets it go on").arg(first, keys)
            : tr("%1 webhook calls held (the first: %2) — Continue (%3) lets them go on").arg(n).arg(first, keys);
        text = state.paused || halted ? tr("%1; %2").arg(text, held) : held;
    }
    statusBar()->showMessage(text);
}

void MainWindow::onReconciles(const QList<ReconcileTrace> &traces)
{
    m_reconcileModel->append(traces);
    m_reconcileRate.add(int(traces.size()), QDateTime::currentMSecsSinceEpoch());
    updateReconcileRate();
}

void MainWindow::updateReconcileRate()
{
    const double rate = m_reconcileRate.perSecond(QDateTime::currentMSecsSinceEpoch());
    m_reconcileLabel->setText(tr("%1 rec/s").arg(rate, 0, 'f', 1));
}

void MainWindow::exportTraces()
{
    const QByteArray json = m_reconcilesPanel->selectedTracesJson();
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export reconcile traces"), QDir::home().filePath(QStringLiteral("traces.json")), tr("JSON (*.json)"));
    if (path.isEmpty())
        return;
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(json) != json.size())
        QMessageBox::warning(this, tr("Export traces"), tr("Cannot write %1: %2").arg(path, f.errorString()));
}

void MainWindow::onLeadership(const LeadershipState &state)
{
    m_leadership = state;
    m_leadershipPanel->apply(state);
    m_leaderLabel->setText(LeadershipPanel::statusText(state));
    m_leaderLabel->setToolTip(
        tr("Lease %1/%2, holder %3")
            .arg(state.leaseNamespace, state.leaseName, state.holder.isEmpty() ? tr("none") : state.holder));
    // The toolbar's Hand off toggles: Take back when that is offered, else Hand off.
    QAction *a = m_actions.value(QStringLiteral("handOff"));
    const bool back = state.canTakeBack();
    a->setText(back ? tr("Take back") : tr("Hand off"));
    a->setEnabled(back || state.canHandOff());
    a->setToolTip(
        back ? m_leadershipPanel->takeBackButton()->toolTip() : m_leadershipPanel->handOffButton()->toolTip());
}

void MainWindow::onHandOffAction()
{
    if (m_leadership.canTakeBack())
        m_session->post(&Leadership::takeBack);
    else if (m_leadership.canHandOff())
        m_leadershipPanel->handOffButton()->click(); // a real cluster asks for the image first
}

void MainWindow::showConnectDialog()
{
    QSettings settings;
    const SessionOptions &current = m_session->options();
    const QString path = current.kubeconfig.isEmpty()
        ? settings.value(QStringLiteral("session/lastKubeconfig")).toString()
        : current.kubeconfig;
    const QString preselect
        = m_session->isEmbedded() ? settings.value(QStringLiteral("session/lastContext")).toString() : current.context;
    ConnectDialog dialog(path, preselect, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    SessionOptions next = dialog.selectedOptions();
    next.operatorProgram = current.operatorProgram;
    Q_EMIT switchRequested(next);
}

void MainWindow::checkCluster()
{
    // A real cluster that cannot serve the workbench would only show informers retrying:
    // say what is wrong instead (and offer to install a missing CRD).
    auto *probe = new ConnectionProbe(this);
    connect(probe, &ConnectionProbe::finished, this, [this, probe](const ProbeResult &r) {
        if (r.ok()) {
            probe->deleteLater();
            return;
        }
        onFailed(r.message);
        if (r.outcome != ProbeResult::Outcome::CrdMissing) {
            QMessageBox::warning(this, tr("Cluster problem"), r.message);
            probe->deleteLater();
            return;
        }
        if (QMessageBox::question(this, tr("%1 CRD missing").arg(workbench::forKindOf(hostedOperator()).kind),
                r.message + u'\n' + tr("Install it now?"))
            == QMessageBox::Yes)
            probe->installCrd(m_session->options().kubeconfig, m_session->options().context);
        else
            probe->deleteLater();
    });
    connect(probe, &ConnectionProbe::crdInstalled, this, [this, probe](bool ok, const QString &message) {
        statusBar()->showMessage(message, 8000);
        probe->deleteLater();
        if (ok) // the informers and the operator start over against the new CRD
            Q_EMIT switchRequested(m_session->options());
    });
    probe->probe(m_session->options().kubeconfig, m_session->options().context);
}

} // namespace opbench::ui
