// SPDX-License-Identifier: Apache-2.0
#pragma once
// ReconcilesPanel: the list of reconciles, newest first (filter by key and result), and the
// selected one's details: causes, client calls, the YAML diff of every write (noise fields hidden
// unless asked), the error. Exports selected traces as JSON. Above the list, a timeline of the
// same reconciles whose lanes follow the key filter and scroll (click a bar to select it). Below,
// in a place it keeps even while hidden, the "nothing to reconcile" hint. Shows an honest
// placeholder while no controller runs.

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QStackedWidget;
class QTableView;
class QTabWidget;

namespace opbench::ui {

class ReconcileListModel;
class ReconcileFilterProxy;
class ReconcileTimelineView;

class ReconcilesPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ReconcilesPanel(ReconcileListModel *model, QWidget *parent = nullptr);

    void setAvailable(bool available);
    QTableView *view() const { return m_view; }
    ReconcileTimelineView *timeline() const { return m_timeline; }
    /// The controller paused or ran again (the timeline shades paused periods).
    void setPaused(bool paused);
    /// Selects model row `row` in the list (clearing the filters if they hide it).
    void selectRow(int row);
    /// The selected traces as a JSON array (one object per trace).
    QByteArray selectedTracesJson() const;
    /// Whether the Object panel should follow the selected reconcile's key (on by default).
    bool followsSelection() const;
    QCheckBox *followBox() const { return m_follow; }
    /// Shows or hides the "nothing to reconcile" hint above the timeline.
    void setIdle(bool idle);
    QLabel *idleHint() const { return m_idleHint; }
    /// The selected reconcile's writes as YAML diffs (the Diffs tab).
    QPlainTextEdit *diffsView() const { return m_diffs; }
    /// Hides resourceVersion, generation, managedFields, uid in the diffs (on by default).
    QCheckBox *hideNoiseBox() const { return m_hideNoise; }
    /// Newest reconcile on top (on by default).
    QCheckBox *newestFirstBox() const { return m_newestFirst; }

Q_SIGNALS:
    void exportRequested();
    /// The user selected a reconcile (its key, "ns/name").
    void reconcileSelected(const QString &key);

private:
    void updateFilter();
    void showDetails();
    QWidget *makeTimelineBox();
    void setUpHintAndToggles();
    void setUpList();

    ReconcileListModel *m_model;
    ReconcileFilterProxy *m_proxy;
    QStackedWidget *m_stack;
    QLineEdit *m_keyFilter;
    QComboBox *m_resultFilter;
    QTableView *m_view;
    ReconcileTimelineView *m_timeline;
    QPlainTextEdit *m_causes;
    QPlainTextEdit *m_calls;
    QPlainTextEdit *m_diffs;
    QCheckBox *m_hideNoise;
    QCheckBox *m_newestFirst;
    QCheckBox *m_follow;
    QLabel *m_idleHint;
};

} // namespace opbench::ui
