// SPDX-License-Identifier: Apache-2.0
// MainWindow's layout (the rest of MainWindow is in mainwindow.cpp): the default dock sizes — the
// reconcile being inspected gets the room, the Object panel a quarter of the height at most —
// and View ▸ Reset layout, back to the layout the window opened with the first time. The layout
// the user leaves is saved on close and restored on the next start (saveSettings/restoreSettings).
#include "ui/mainwindow.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QStatusBar>
#include <QTimer>

namespace opbench::ui {

namespace {
bool docked(const QDockWidget *d) { return d && d->isVisible() && !d->isFloating(); }
} // namespace

void MainWindow::createLayoutActions(QMenu *viewMenu)
{
    auto *reset = new QAction(tr("Reset layout"), this);
    reset->setObjectName(QStringLiteral("resetLayout"));
    reset->setToolTip(tr("Put every panel back where it was when opbench first opened"));
    m_actions.insert(QStringLiteral("resetLayout"), reset);
    connect(reset, &QAction::triggered, this, &MainWindow::resetLayout);
    viewMenu->addAction(reset);
    viewMenu->addSeparator();
}

void MainWindow::applyDefaultSizes()
{
    auto *cache = findChild<QDockWidget *>(QStringLiteral("cacheDock"));
    auto *reconciles = findChild<QDockWidget *>(QStringLiteral("reconcilesDock"));
    auto *queue = findChild<QDockWidget *>(QStringLiteral("queueDock"));
    auto *object = findChild<QDockWidget *>(QStringLiteral("objectDock"));
    const int w = width();
    const int h = height();
    if (docked(cache) && docked(reconciles) && docked(queue))
        resizeDocks({cache, reconciles, queue}, {w / 5, w * 11 / 20, w / 4}, Qt::Horizontal);
    if (docked(object))
        resizeDocks({object}, {h / 4}, Qt::Vertical);
    // The frame being inspected gets two thirds of the centre column, the list the rest.
    if (docked(reconciles) && docked(m_currentDock))
        resizeDocks({reconciles, m_currentDock}, {h / 4, h / 2}, Qt::Vertical);
}

void MainWindow::resetLayout()
{
    if (!m_defaultLayout.isEmpty())
        restoreState(m_defaultLayout);
    m_currentAutoShown = false;
    // After the layout placed the restored docks (resizing before does nothing).
    QTimer::singleShot(0, this, &MainWindow::applyDefaultSizes);
    statusBar()->showMessage(tr("Layout reset."), 4000);
}

} // namespace opbench::ui
