// SPDX-License-Identifier: Apache-2.0
#pragma once
// TourPanel: the guided tour's dock. Shows the current lesson of a TourState (what to do, what it
// teaches, whether it happened yet) and emits the learner's intents (next, back, stop). Every
// button is reachable by keyboard (Alt+N next, Alt+B back, Alt+A the lesson's own action). It holds no logic: Tour
// decides.

#include "ui/session/snapshots.h"

#include <QWidget>

class QLabel;
class QPushButton;

namespace opbench::workbench {
struct TourState;
}

namespace opbench::ui {

class TourPanel : public QWidget
{
    Q_OBJECT
public:
    explicit TourPanel(QWidget *parent = nullptr);

    void apply(const opbench::workbench::TourState &state);

    QLabel *titleLabel() const { return m_title; }
    QLabel *statusLabel() const { return m_status; }
    QPushButton *nextButton() const { return m_next; }
    QPushButton *backButton() const { return m_back; }
    /// "Start the tour" / "Stop the tour".
    QPushButton *startButton() const { return m_stop; }
    /// The lesson's own button (arms its fault, drops the watches); hidden when it has none.
    QPushButton *actionButton() const { return m_action; }

Q_SIGNALS:
    void startRequested();
    void nextRequested();
    void backRequested();
    void stopRequested();
    /// The lesson's button: arm `fault` (FaultSpec syntax).
    void faultRequested(const QString &fault);
    /// The lesson's button: compact the history and drop every watch (a relist follows).
    void relistRequested();

private:
    QLabel *m_progress;
    QLabel *m_title;
    QLabel *m_task;
    QLabel *m_lesson;
    QLabel *m_status;
    QPushButton *m_action;
    QString m_actionKind;
    QString m_fault;
    QPushButton *m_back;
    QPushButton *m_next;
    QPushButton *m_stop;
};

} // namespace opbench::ui
