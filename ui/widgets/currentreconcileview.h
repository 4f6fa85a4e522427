// SPDX-License-Identifier: Apache-2.0
#pragma once
// CurrentReconcileView: the debugger's frame — the reconcile being stepped, filled as it
// advances: its key, worker and causes; the client calls made so far and, highlighted, the call
// it is halted before; the selected call's object (as read) or request (as a YAML diff against
// the object it replaces), noise fields hidden unless asked; and the buttons Step over call,
// Step out, Continue and Run to the next reconcile of this key, which only emit intents. A banner
// names the breakpoint that stopped the controller.

#include "ui/session/snapshots.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace opbench::ui {

class CurrentReconcileModel;

class CurrentReconcileView : public QWidget
{
    Q_OBJECT
public:
    explicit CurrentReconcileView(CurrentReconcileModel *model, QWidget *parent = nullptr);

    /// Shows `frame`; the selection follows the reconcile (its halted call, else its last call).
    void apply(const opbench::workbench::CurrentReconcile &frame);
    /// Whether a controller runs (the buttons need one).
    void setAvailable(bool available);
    /// The breakpoint that stopped the controller, described ("" while none did): a banner over
    /// the frame says which.
    void setBreakpointHit(const QString &description);
    QLabel *breakpointLabel() const { return m_breakpoint; }

    QLabel *headerLabel() const { return m_header; }
    QLabel *causesLabel() const { return m_causes; }
    QTableView *callsView() const { return m_calls; }
    QPlainTextEdit *detailView() const { return m_detail; }
    QCheckBox *noiseBox() const { return m_showNoise; }
    QPushButton *stepOverButton() const { return m_stepOver; }
    QPushButton *stepOutButton() const { return m_stepOut; }
    QPushButton *continueButton() const { return m_continue; }
    QPushButton *runToKeyButton() const { return m_runTo; }

Q_SIGNALS:
    void stepOverRequested();
    void stepOutRequested();
    void continueRequested();
    /// Run to the next reconcile of `key` ("ns/name").
    void runToKeyRequested(const QString &key);

private:
    void showDetail();
    void updateButtons();

    CurrentReconcileModel *m_model;
    bool m_available = false;
    QLabel *m_breakpoint;
    QLabel *m_header;
    QLabel *m_causes;
    QTableView *m_calls;
    QPlainTextEdit *m_detail;
    QCheckBox *m_showNoise;
    QPushButton *m_stepOver;
    QPushButton *m_stepOut;
    QPushButton *m_continue;
    QPushButton *m_runTo;
};

} // namespace opbench::ui
