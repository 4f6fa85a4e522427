// SPDX-License-Identifier: Apache-2.0
#pragma once
// QueueItemsModel: the work queue's items (key, state, priority, retries, causes). apply()
// diffs the new snapshot against the rows shown (keyed by queue key) so selection survives.

#include "ui/session/snapshots.h"

#include <QAbstractTableModel>

namespace opbench::ui {

class QueueItemsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns { KeyColumn, StateColumn, PriorityColumn, RetriesColumn, CausesColumn, ColumnCount };
    enum Roles { KeyRole = Qt::UserRole + 1, CausesRole };

    explicit QueueItemsModel(QObject *parent = nullptr);

    /// Replaces the rows with `rows` (any order), emitting row inserts/removals/changes.
    void apply(const QList<opbench::workbench::QueueRow> &rows);
    const QueueRow &rowAt(int row) const { return m_rows.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(const QueueRow &row, int column) const;
    static QString stateText(const QueueRow &row);
    QList<QueueRow> m_rows; // sorted by key
};

} // namespace opbench::ui
