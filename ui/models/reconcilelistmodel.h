// SPDX-License-Identifier: Apache-2.0
#pragma once
// ReconcileListModel: every reconcile the controller finished, newest last (bounded), with its
// key, causes, result (coloured per gui.md), duration and number of client calls. In a replay,
// a reconcile that did something else than recorded is marked: its result reads "… ≠ recorded"
// and DivergenceRole holds the message.

#include "engine/controller/reconciletrace.h"

#include <QAbstractTableModel>
#include <QHash>

namespace opbench::ui {

class ReconcileListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns { IdColumn, KeyColumn, CausesColumn, ResultColumn, DurationColumn, CallsColumn, ColumnCount };
    enum Roles { KeyRole = Qt::UserRole + 1, ResultRole, IdRole, DivergenceRole };

    /// Keeps at most `capacity` traces (oldest dropped first).
    explicit ReconcileListModel(int capacity = 5000, QObject *parent = nullptr);

    /// Appends finished traces (one insert per batch; trimming emits one removal).
    void append(const QList<opbench::ReconcileTrace> &traces);
    const ReconcileTrace &traceAt(int row) const { return m_traces.at(row); }
    /// Drops every trace (another controller is shown) and every divergence.
    void clear();
    /// A replay: the reconcile `id` (shown or still to come) diverged from the recording.
    void setDivergence(const QString &id, const QString &message);
    /// The divergence message of the trace at `row` ("" when it did what was recorded).
    QString divergenceAt(int row) const { return m_divergences.value(m_traces.at(row).id); }
    int divergenceCount() const { return int(m_divergences.size()); }
    /// A replay: the tooltip of the reconcile `id`'s duration (shown or still to come), e.g. how
    /// long it ran when re-executed.
    void setDurationNote(const QString &id, const QString &note) { m_durationNotes.insert(id, note); }
    /// Reconciles appended since construction (including dropped ones).
    qint64 totalAppended() const { return m_total; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(const ReconcileTrace &t, int column) const;
    int m_capacity;
    qint64 m_total = 0;
    QList<ReconcileTrace> m_traces;
    QHash<QString, QString> m_divergences;   // reconcile id -> message
    QHash<QString, QString> m_durationNotes; // reconcile id -> its duration's tooltip
};

/// The gui.md colour of a reconcile result.
QColor colourForResult(ReconcileTrace::Result result);
/// Milliseconds of a clock duration, as shown in the lists ("12.3 ms").
QString formatDuration(Clock::Duration d);

} // namespace opbench::ui
