// SPDX-License-Identifier: Apache-2.0
#pragma once
// BreakpointsPanel: the debugger's list of breakpoints (BreakpointListModel) — check to enable,
// Remove to delete — and a line to add one by typing what it stops on, with examples in a menu:
// a key, a kind, any error, a kind of call ("before write Deployment"), a condition of the
// object ("status.phase == Failed"). Says why a typed breakpoint was refused, that one was added
// but never hits here (a webhook breakpoint on a real cluster), which one hit, and which webhook
// call is held.
// Emits intents only.

#include "engine/workbench/snapshots.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace opbench::ui {

class BreakpointListModel;

class BreakpointsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit BreakpointsPanel(BreakpointListModel *model, QWidget *parent = nullptr);

    void apply(const workbench::ControlState &state);
    QTableView *view() const { return m_view; }
    QLineEdit *specEdit() const { return m_spec; }
    QLabel *statusLabel() const { return m_status; }
    /// Puts `spec` in the add line (e.g. "key default/web" for the selected object) and focuses it.
    void propose(const QString &spec);

Q_SIGNALS:
    void addRequested(const QString &spec);
    void removeRequested(int id);
    void enableRequested(int id, bool enabled);

private:
    void add();
    void removeSelected();

    BreakpointListModel *m_model;
    QTableView *m_view;
    QLineEdit *m_spec;
    QPushButton *m_remove;
    QLabel *m_status;
    QString m_pendingSpec; // added, not yet confirmed by a state
};

} // namespace opbench::ui
