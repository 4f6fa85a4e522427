// SPDX-License-Identifier: Apache-2.0
#pragma once
// ReconcilesPanel: the list of reconciles (filter by key and result) and the selected one's
// details: causes, client calls, the diff of every write, the error. Exports selected traces as
// JSON. Shows an honest placeholder while no controller runs.

#include <QWidget>

class QComboBox;
class QLineEdit;
class QPlainTextEdit;
class QStackedWidget;
class QTableView;
class QTabWidget;

namespace opbench::ui {

class ReconcileListModel;
class ReconcileFilterProxy;

class ReconcilesPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ReconcilesPanel(ReconcileListModel *model, QWidget *parent = nullptr);

    void setAvailable(bool available);
    QTableView *view() const { return m_view; }
    /// The selected traces as a JSON array (one object per trace).
    QByteArray selectedTracesJson() const;

Q_SIGNALS:
    void exportRequested();

private:
    void updateFilter();
    void showDetails();

    ReconcileListModel *m_model;
    ReconcileFilterProxy *m_proxy;
    QStackedWidget *m_stack;
    QLineEdit *m_keyFilter;
    QComboBox *m_resultFilter;
    QTableView *m_view;
    QPlainTextEdit *m_causes;
    QPlainTextEdit *m_calls;
    QPlainTextEdit *m_diffs;
};

} // namespace opbench::ui
