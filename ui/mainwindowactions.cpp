// SPDX-License-Identifier: Apache-2.0
// MainWindow's menus, toolbar and actions (the rest of MainWindow is in mainwindow.cpp).
#include "ui/mainwindow.h"

#include <QAction>
#include <QMenuBar>
#include <QStyle>
#include <QToolBar>

namespace opbench::ui {

namespace {

QAction *makeAction(QWidget *window, QHash<QString, QAction *> &actions, const QString &name, const QString &text,
    QStyle::StandardPixmap icon, QKeySequence key)
{
    auto *a = new QAction(window->style()->standardIcon(icon), text, window);
    a->setObjectName(name);
    a->setShortcut(key);
    actions.insert(name, a);
    return a;
}

} // namespace

QAction *MainWindow::action(const QString &name) const { return m_actions.value(name); }

void MainWindow::createActions()
{
    auto *tb = addToolBar(tr("Control"));
    tb->setObjectName(QStringLiteral("controlToolBar"));
    tb->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    auto *fileMenu = menuBar()->addMenu(tr("&File"));
    auto *controlMenu = menuBar()->addMenu(tr("&Control"));
    auto *viewMenu = menuBar()->addMenu(tr("&View"));
    viewMenu->setObjectName(QStringLiteral("viewMenu"));
    auto *helpMenu = menuBar()->addMenu(tr("&Help"));
    createControlActions(tb, controlMenu);
    createFileActions(tb, fileMenu, helpMenu);
    createLayoutActions(viewMenu);
}

void MainWindow::createControlActions(QToolBar *tb, QMenu *controlMenu)
{
    auto make = [this](const QString &name, const QString &text, QStyle::StandardPixmap icon, QKeySequence key) {
        return makeAction(this, m_actions, name, text, icon, key);
    };
    const QString noController = tr("Not available yet: no controller is running (yet).");
    struct Step
    {
        const char *name;
        QString text;
        QStyle::StandardPixmap icon;
        QKeySequence key;
    };
    const Step steps[] = {
        {"run", tr("Run"), QStyle::SP_MediaPlay, QKeySequence(Qt::Key_F5)},
        {"pause", tr("Pause"), QStyle::SP_MediaPause, QKeySequence(Qt::Key_F6)},
        {"step", tr("Step"), QStyle::SP_MediaSeekForward, QKeySequence(Qt::Key_F10)},
        {"stepInto", tr("Step into"), QStyle::SP_ArrowDown, QKeySequence(Qt::Key_F11)},
        {"continue", tr("Continue"), QStyle::SP_MediaSkipForward, QKeySequence(Qt::SHIFT | Qt::Key_F5)},
        {"breakpoints", tr("Breakpoints"), QStyle::SP_DialogNoButton, QKeySequence(Qt::CTRL | Qt::Key_B)},
        {"handOff", tr("Hand off"), QStyle::SP_BrowserReload, QKeySequence(Qt::CTRL | Qt::Key_H)},
    };
    for (const Step &s : steps) {
        QAction *a = make(QString::fromLatin1(s.name), s.text, s.icon, s.key);
        a->setEnabled(false);
        a->setToolTip(
            QStringLiteral("%1 (%2)\n%3").arg(s.text, s.key.toString(QKeySequence::NativeText), noController));
        tb->addAction(a);
        controlMenu->addAction(a);
    }
    m_actions.value(QStringLiteral("handOff"))
        ->setToolTip(tr("Hand off (Ctrl+H)\nNot available yet: the operator is not running."));
    connect(m_actions.value(QStringLiteral("handOff")), &QAction::triggered, this, &MainWindow::onHandOffAction);
    connect(m_actions.value(QStringLiteral("run")), &QAction::triggered, m_session->controller(),
        &ControllerObserver::resume);
    connect(m_actions.value(QStringLiteral("pause")), &QAction::triggered, m_session->controller(),
        &ControllerObserver::pause);
    // Step and Step into take the key selected in the Queue panel when it is ready, else the next.
    connect(m_actions.value(QStringLiteral("step")), &QAction::triggered, this,
        [this] { m_session->post(&ControllerObserver::step, selectedQueuedKey()); });
    connect(m_actions.value(QStringLiteral("stepInto")), &QAction::triggered, this,
        [this] { m_session->post(&ControllerObserver::stepInto, selectedQueuedKey()); });
    connect(m_actions.value(QStringLiteral("continue")), &QAction::triggered, m_session->controller(),
        &ControllerObserver::continueRunning);
    connect(m_actions.value(QStringLiteral("breakpoints")), &QAction::triggered, this,
        &MainWindow::toggleBreakpointOnSelection);
    QAction *onError = make(QStringLiteral("breakOnError"), tr("Break on errors"), QStyle::SP_MessageBoxCritical, {});
    onError->setCheckable(true);
    onError->setEnabled(false);
    connect(onError, &QAction::toggled, m_session->controller(), &ControllerObserver::setBreakOnError);
    controlMenu->addAction(onError);
}

void MainWindow::createFileActions(QToolBar *tb, QMenu *fileMenu, QMenu *helpMenu)
{
    auto make = [this](const QString &name, const QString &text, QStyle::StandardPixmap icon, QKeySequence key) {
        return makeAction(this, m_actions, name, text, icon, key);
    };
    QAction *connectTo = make(QStringLiteral("connect"), tr("Connect to cluster…"), QStyle::SP_DriveNetIcon,
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    connectTo->setToolTip(tr("Choose the embedded cluster or a kubeconfig context; the workbench restarts against it"));
    connect(connectTo, &QAction::triggered, this, &MainWindow::showConnectDialog);
    fileMenu->addAction(connectTo);
    tb->insertAction(tb->actions().value(0), connectTo);
    tb->insertSeparator(tb->actions().value(1));
    QAction *kube = make(QStringLiteral("writeKubeconfig"), tr("Write kubeconfig…"), QStyle::SP_DialogSaveButton,
        QKeySequence(Qt::CTRL | Qt::Key_K));
    kube->setEnabled(false);
    connect(kube, &QAction::triggered, this, &MainWindow::writeKubeconfig);
    fileMenu->addAction(kube);
    tb->addSeparator();
    tb->addAction(kube);
    fileMenu->addSeparator();
    QAction *quit = make(QStringLiteral("quit"), tr("Quit"), QStyle::SP_DialogCloseButton, QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);
    fileMenu->addAction(quit);
    QAction *about = make(QStringLiteral("about"), tr("About opbench"), QStyle::SP_MessageBoxInformation, {});
    connect(about, &QAction::triggered, this, &MainWindow::showAbout);
    QAction *tour = make(QStringLiteral("tour"), tr("Tour"), QStyle::SP_DialogHelpButton, QKeySequence(Qt::Key_F1));
    tour->setToolTip(tr("A guided tour of the controller pattern: short lessons, each something you do here (F1)"));
    connect(tour, &QAction::triggered, this, &MainWindow::startTour);
    helpMenu->addAction(tour);
    helpMenu->addAction(about);
}

} // namespace opbench::ui
