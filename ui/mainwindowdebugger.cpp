// SPDX-License-Identifier: Apache-2.0
// MainWindow's debugger frame (the rest of MainWindow is in mainwindow.cpp): the Current
// reconcile dock, placed in the centre column under the Reconciles list, shown when the
// controller pauses or a reconcile is stepped and hidden again on Run (unless the user opened
// it), fed by the controller observer's currentReconcile snapshots; its buttons post intents.
#include "ui/mainwindow.h"

#include "ui/learnertexts.h"
#include "ui/models/currentreconcilemodel.h"
#include "ui/models/queueitemsmodel.h"
#include "ui/widgets/currentreconcileview.h"
#include "ui/widgets/infodock.h"
#include "ui/widgets/queuepanel.h"

#include <QDockWidget>
#include <QTableView>
#include <QTimer>

namespace opbench::ui {

void MainWindow::createDebuggerDock(QDockWidget *reconciles)
{
    m_currentModel = new CurrentReconcileModel(this);
    m_currentView = new CurrentReconcileView(m_currentModel);
    m_currentDock = addDock(tr("Current reconcile"), QStringLiteral("currentReconcileDock"),
        learnerText(Panel::CurrentReconcile), m_currentView, Qt::RightDockWidgetArea);
    splitDockWidget(reconciles, m_currentDock, Qt::Vertical);
    resizeDocks({reconciles, m_currentDock}, {220, 480}, Qt::Vertical);
    m_currentDock->hide(); // the Reconciles list has the room while the controller runs
}

void MainWindow::showDebugger()
{
    m_currentAutoShown = true;
    m_currentDock->show();
    m_currentDock->raise();
    // The frame gets the centre column's room, and the Object panel below gives some back.
    // After the layout placed the dock just shown (resizing it before does nothing).
    QTimer::singleShot(0, this, [this] {
        auto *reconciles = findChild<QDockWidget *>(QStringLiteral("reconcilesDock"));
        auto *object = findChild<QDockWidget *>(QStringLiteral("objectDock"));
        if (object && object->isVisible() && !object->isFloating())
            resizeDocks({object}, {height() / 6}, Qt::Vertical);
        if (reconciles && reconciles->isVisible() && !reconciles->isFloating() && !m_currentDock->isFloating())
            resizeDocks({reconciles, m_currentDock}, {height() / 4, height() * 3 / 5}, Qt::Vertical);
    });
}

void MainWindow::connectDebugger()
{
    const ControllerObserver *controller = m_session->controller();
    connect(controller, &ControllerObserver::currentReconcile, this, [this](const CurrentReconcile &frame) {
        m_currentView->apply(frame);
        if (!m_currentDock->isVisible() && !frame.reconcileId.isEmpty())
            showDebugger();
    });
    connect(m_currentView, &CurrentReconcileView::stepOverRequested, controller, &ControllerObserver::stepOver);
    connect(m_currentView, &CurrentReconcileView::stepOutRequested, controller, &ControllerObserver::stepOut);
    connect(m_currentView, &CurrentReconcileView::continueRequested, controller, &ControllerObserver::continueAll);
    connect(m_currentView, &CurrentReconcileView::runToKeyRequested, controller, &ControllerObserver::runToKey);
}

void MainWindow::showDebuggerFor(const ControlState &state)
{
    m_currentView->setAvailable(state.available);
    const bool paused = state.available && state.paused;
    if (paused && !m_wasPaused && !m_currentDock->isVisible()) {
        showDebugger();
    } else if (!paused && m_wasPaused && m_currentAutoShown && state.runTo.isEmpty()) {
        m_currentAutoShown = false;
        m_currentDock->hide();
    }
    m_wasPaused = paused;
}

QString MainWindow::selectedQueuedKey() const
{
    const QModelIndex current = m_queuePanel->view()->currentIndex();
    if (!current.isValid())
        return {};
    const QString state = current.siblingAtColumn(QueueItemsModel::StateColumn).data(Qt::DisplayRole).toString();
    const bool ready = state == u"queued" || state.startsWith(QStringLiteral("retry"));
    return ready ? current.siblingAtColumn(QueueItemsModel::KeyColumn).data().toString() : QString();
}

} // namespace opbench::ui
