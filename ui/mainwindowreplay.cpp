// SPDX-License-Identifier: Apache-2.0
// MainWindow in replay mode (a recording opened with --replay or File ▸ Open recording): the
// transport bar, the title and status bar naming the recording, the divergence marks, the
// recording's queues fed to the Queue panel, breakpoints stopping the play, and every write
// intent disabled with a tooltip saying why. File ▸ Open recording… is here too.
#include "ui/mainwindow.h"

#include "ui/models/queueitemsmodel.h"
#include "ui/models/reconcilelistmodel.h"
#include "ui/widgets/childrenpanel.h"
#include "ui/widgets/createformwidget.h"
#include "ui/widgets/faultspanel.h"
#include "ui/widgets/leadershippanel.h"
#include "ui/widgets/reconcilespanel.h"
#include "ui/widgets/reconciletimelineview.h"
#include "ui/widgets/transportbar.h"

#include <QAction>
#include <QDateTime>
#include <QDockWidget>
#include <QFileDialog>
#include <QJsonArray>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QStatusBar>
#include <QToolBar>

namespace opbench::ui {

void MainWindow::createReplayActions()
{
    QMenu *fileMenu = menuBar()->actions().value(0) ? menuBar()->actions().value(0)->menu() : nullptr;
    auto *open = new QAction(tr("Open recording…"), this);
    open->setObjectName(QStringLiteral("openRecording"));
    open->setToolTip(tr("Replay a run recorded with --record: every panel shows the recording, stepped with the "
                        "transport bar"));
    m_actions.insert(open->objectName(), open);
    connect(open, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open recording"), QString(), tr("Recordings (*.rec *.jsonl);;All files (*)"));
        if (path.isEmpty())
            return;
        SessionOptions next;
        next.replay = path;
        Q_EMIT switchRequested(next);
    });
    if (fileMenu && !fileMenu->actions().isEmpty())
        fileMenu->insertAction(fileMenu->actions().value(1), open);
    // Take back offers the recording the headless build made while it led: open it here.
    connect(m_leadershipPanel, &LeadershipPanel::openRecordingRequested, this, [this](const QString &path) {
        SessionOptions next;
        next.replay = path;
        Q_EMIT switchRequested(next);
    });
}

void MainWindow::setUpReplay()
{
    auto *tb = addToolBar(tr("Replay"));
    tb->setObjectName(QStringLiteral("replayToolBar"));
    m_transport = new TransportBar(tb);
    tb->addWidget(m_transport);
    const ReplaySession *replay = m_session->replay();
    connect(m_transport, &TransportBar::playRequested, replay, &ReplaySession::play);
    connect(m_transport, &TransportBar::pauseRequested, replay, &ReplaySession::pause);
    connect(m_transport, &TransportBar::stepRequested, replay, &ReplaySession::step);
    connect(m_transport, &TransportBar::stepIntoRequested, replay, &ReplaySession::stepInto);
    connect(m_transport, &TransportBar::seekToTimeRequested, replay, &ReplaySession::seekToTime);
    connect(m_transport, &TransportBar::seekToResourceVersionRequested, replay, &ReplaySession::seekToResourceVersion);
    connect(m_transport, &TransportBar::stepIntoRequested, this, [this] {
        m_currentDock->show(); // the call it halts before
        m_currentDock->raise();
    });
    connect(replay, &ReplaySession::replayState, this, &MainWindow::onReplayState);
    connect(replay, &ReplaySession::divergence, this, [this](const QString &id, const QString &message) {
        m_reconcileModel->setDivergence(id, message);
        m_reconcilesPanel->timeline()->update();
    });
    connect(replay, &ReplaySession::replayedDuration, this, [this](const QString &id, qint64 recordedNs, qint64 nowNs) {
        const auto ms = [](qint64 ns) { return QString::number(double(ns) / 1e6, 'f', 2); };
        m_reconcileModel->setDurationNote(
            id, tr("%1 ms in the recorded run; re-executed now in %2 ms").arg(ms(recordedNs), ms(nowNs)));
    });
    connect(replay, &ReplaySession::restarted, this, [this] { m_reconcileModel->clear(); });
    connect(replay, &ReplaySession::seekFailed, this, [this](const QString &m) { statusBar()->showMessage(m, 8000); });
    // The recording's queues and breakpoint stops reach the observers the panels listen to (both
    // live on the engine thread with the replay).
    connect(replay, &ReplaySession::queueSample, m_session->queue(), &QueueObserver::replayed);
    connect(replay, &ReplaySession::breakpointHit, m_session->controller(), &ControllerObserver::replayBreakpointHit);
    // The live stepping actions would act on a controller that never runs: F10/F11 step the replay.
    // Breakpoints (Ctrl+B, break on errors) stay: they stop the play.
    for (const char *name : {"run", "pause", "continue"})
        disconnect(m_actions.value(QString::fromLatin1(name)), &QAction::triggered, nullptr, nullptr);
    for (const char *name : {"step", "stepInto"})
        disconnect(m_actions.value(QString::fromLatin1(name)), &QAction::triggered, nullptr, nullptr);
    connect(m_actions.value(QStringLiteral("step")), &QAction::triggered, replay, &ReplaySession::step);
    connect(m_actions.value(QStringLiteral("stepInto")), &QAction::triggered, m_transport,
        &TransportBar::stepIntoRequested);
    // After every state the live panels apply, the writes stay off (connected after them).
    connect(m_session->controller(), &ControllerObserver::controlState, this, &MainWindow::lockWritesForReplay);
    connect(m_session->leadership(), &Leadership::leadershipState, this, &MainWindow::lockWritesForReplay);
    lockWritesForReplay();
}

void MainWindow::lockWritesForReplay()
{
    const QString why = tr("Not available in a replay: the recording's inputs are fixed (File ▸ Connect to "
                           "cluster… to work on a live one).");
    for (const char *name : {"run", "pause", "continue", "handOff", "writeKubeconfig"}) {
        QAction *a = m_actions.value(QString::fromLatin1(name));
        a->setEnabled(false);
        a->setToolTip(why);
    }
    for (const char *name : {"step", "stepInto"}) {
        QAction *a = m_actions.value(QString::fromLatin1(name));
        a->setEnabled(!m_replayState.finished && m_replayState.open);
        a->setToolTip(tr("%1 (%2): steps the replay").arg(a->text(), a->shortcut().toString(QKeySequence::NativeText)));
    }
    for (QWidget *w : std::initializer_list<QWidget *>{m_faultsPanel, m_leadershipPanel->handOffButton(),
             m_leadershipPanel->takeBackButton(), m_childrenPanel->createForm()}) {
        w->setEnabled(false);
        w->setToolTip(why);
    }
    for (QPushButton *b : m_childrenPanel->findChildren<QPushButton *>()) {
        b->setEnabled(false);
        b->setToolTip(why);
    }
}

void MainWindow::onReplayState(const ReplayState &s)
{
    m_replayState = s;
    m_transport->apply(s);
    const QString name = s.operatorName.isEmpty() ? tr("an operator") : s.operatorName;
    setWindowTitle(tr("opbench — replay of %1 (%2, started %3)").arg(s.path, name, s.started));
    m_clusterLabel->setText(tr("replay %1").arg(s.path));
    m_clusterLabel->setToolTip(s.damage.isEmpty()
            ? tr("Replaying the recording %1 of %2, started %3").arg(s.path, name, s.started)
            : s.damage);
    if (!s.damage.isEmpty())
        statusBar()->showMessage(tr("The recording is damaged; replaying what was read: %1").arg(s.damage));
    else
        statusBar()->showMessage(m_transport->positionText());
    if (!s.at.isEmpty()) // the timeline ends where the replay is
        m_reconcilesPanel->timeline()->setNowMs(
            QDateTime::fromString(s.at, Qt::ISODateWithMs).toMSecsSinceEpoch() + 1000);
    lockWritesForReplay();
}

} // namespace opbench::ui

namespace opbench::ui {

QJsonObject MainWindow::replayReport() const
{
    const ReplayState &s = m_replayState;
    // The Queue panel's items as it lists them, counted by state.
    QJsonArray items;
    QHash<QString, int> states;
    for (int row = 0; row < m_queueModel->rowCount(); ++row) {
        const QueueRow &r = m_queueModel->rowAt(row);
        ++states[r.state];
        items.append(QJsonObject{{QStringLiteral("key"), r.key}, {QStringLiteral("state"), r.state},
            {QStringLiteral("causes"), QJsonArray::fromStringList(r.causes)}});
    }
    const QJsonObject queue{{QStringLiteral("ready"), states.value(QStringLiteral("queued"))},
        {QStringLiteral("processing"),
            states.value(QStringLiteral("processing")) + states.value(QStringLiteral("held"))},
        {QStringLiteral("waiting"), states.value(QStringLiteral("waiting"))}, {QStringLiteral("items"), items}};
    return {{QStringLiteral("path"), s.path}, {QStringLiteral("records"), s.records},
        {QStringLiteral("position"), s.position}, {QStringLiteral("reconciles"), s.reconciles},
        {QStringLiteral("replayed"), s.replayed}, {QStringLiteral("diverged"), s.diverged},
        {QStringLiteral("marked"), m_reconcileModel->divergenceCount()}, {QStringLiteral("finished"), s.finished},
        {QStringLiteral("damage"), s.damage}, {QStringLiteral("breakpoint"), s.breakpoint},
        {QStringLiteral("queue"), queue}};
}

} // namespace opbench::ui
