// SPDX-License-Identifier: Apache-2.0
// MainWindow's Breakpoints dock (the rest of MainWindow is in mainwindow.cpp): the list of
// breakpoints, tabbed with the Queue; its intents go to the controller observer; the control
// state fills it and names the breakpoint that hit (status bar, Current reconcile banner). The
// Breakpoints action (Ctrl+B) toggles a key breakpoint on the cache selection and says so.
#include "ui/mainwindow.h"

#include "ui/models/breakpointlistmodel.h"
#include "ui/widgets/breakpointspanel.h"
#include "ui/widgets/cachepanel.h"
#include "ui/widgets/currentreconcileview.h"
#include "ui/widgets/infodock.h"

#include <QDockWidget>
#include <QLineEdit>
#include <QStatusBar>

namespace opbench::ui {

void MainWindow::createBreakpointsDock(QDockWidget *tabWith)
{
    m_breakpointModel = new BreakpointListModel(this);
    m_breakpointsPanel = new BreakpointsPanel(m_breakpointModel);
    m_breakpointsDock = addDock(tr("Breakpoints"), QStringLiteral("breakpointsDock"),
        tr("Where the controller stops, as a debugger's breakpoints: before a key or a kind is reconciled, before "
           "a kind of client call (\"before write Deployment\"), when the object matches a condition "
           "(\"status.phase == Failed\"), or after any error. Uncheck one to keep it without stopping. "
           "A breakpoint on a key stops before the key is taken from the queue: Step into (F11) then "
           "walks through that reconcile. A webhook breakpoint (\"webhook /validate-…\", \"webhook validate "
           "op=CREATE\", \"webhook any name=default/web\") holds a call to the operator's own webhooks before "
           "its handler runs: the Admission dock shows it, with Continue and Step."),
        m_breakpointsPanel, Qt::RightDockWidgetArea);
    if (tabWith) {
        tabifyDockWidget(tabWith, m_breakpointsDock);
        tabWith->raise();
    }
}

void MainWindow::connectBreakpoints()
{
    connect(m_breakpointsPanel, &BreakpointsPanel::addRequested, this,
        [this](const QString &spec) { m_session->post(&ControllerObserver::addBreakpoint, spec); });
    connect(m_breakpointsPanel, &BreakpointsPanel::removeRequested, this,
        [this](int id) { m_session->post(&ControllerObserver::removeBreakpoint, id); });
    connect(m_breakpointsPanel, &BreakpointsPanel::enableRequested, this,
        [this](int id, bool on) { m_session->post(&ControllerObserver::setBreakpointEnabled, id, on); });
}

void MainWindow::applyBreakpointState(const ControlState &state)
{
    m_breakpointsPanel->apply(state);
    m_currentView->setBreakpointHit(state.paused ? state.lastBreak : QString());
}

void MainWindow::toggleBreakpointOnSelection()
{
    const auto [kind, key] = m_cachePanel->selectedObject();
    m_breakpointsDock->show();
    m_breakpointsDock->raise();
    if (key.isEmpty()) {
        m_breakpointsPanel->propose(QStringLiteral("key "));
        statusBar()->showMessage(tr("No object selected in the Cache: type a breakpoint in the Breakpoints dock "
                                    "(key, kind, error, before write Deployment, status.phase == Failed)."),
            8000);
        return;
    }
    const bool had = m_control.breakpoints.contains(key);
    m_session->post(&ControllerObserver::toggleBreakpoint, key);
    statusBar()->showMessage(had
            ? tr("Breakpoint on %1 removed.").arg(key)
            : tr("Breakpoint on %1 set: the controller stops before reconciling it (see Breakpoints).").arg(key),
        8000);
}

} // namespace opbench::ui
