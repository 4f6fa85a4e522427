// SPDX-License-Identifier: Apache-2.0
#pragma once
// TourPanel: the guided tour's dock. Shows the current lesson of a TourState (what to do, what it
// teaches, whether it happened yet) and emits the learner's intents (next, back, stop). Every
// button is reachable by keyboard (Alt+N next, Alt+B back, Alt+A the lesson's own action). Below the lesson: what a
// kubectl request the lesson's button sent got back (showAnswer()). It holds no logic: Tour decides.

#include "ui/session/snapshots.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
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
    /// The lesson's own button (arms its fault, drops the watches, sends a request as kubectl);
    /// hidden when it has none.
    QPushButton *actionButton() const { return m_action; }
    /// The command the lesson's button ran and what kubectl would print; hidden until then.
    QPlainTextEdit *answerView() const { return m_answer; }

public Q_SLOTS:
    /// Shows `$ command` and `output` (an error in red) under the lesson, until the lesson changes.
    void showAnswer(const QString &command, bool ok, const QString &output);

Q_SIGNALS:
    void startRequested();
    void nextRequested();
    void backRequested();
    void stopRequested();
    /// The lesson's button: arm `fault` (FaultSpec syntax).
    void faultRequested(const QString &fault);
    /// The lesson's button: compact the history and drop every watch (a relist follows).
    void relistRequested();
    /// The lesson's button: send the lesson's TourRequest as kubectl would.
    void kubectlRequested();

private:
    QLabel *m_progress;
    QLabel *m_title;
    QLabel *m_task;
    QLabel *m_lesson;
    QLabel *m_status;
    QPlainTextEdit *m_answer;
    int m_answerIndex = -1; // the lesson the answer belongs to
    QPushButton *m_action;
    QString m_actionKind;
    QString m_fault;
    QPushButton *m_back;
    QPushButton *m_next;
    QPushButton *m_stop;
};

} // namespace opbench::ui
