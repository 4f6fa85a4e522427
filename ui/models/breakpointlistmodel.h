// SPDX-License-Identifier: Apache-2.0
#pragma once
// BreakpointListModel: the Breakpoints dock's rows, from ControlState::breakpointList — a check
// box (enabled), what the breakpoint stops on, how often it hit; the one that hit last is bold;
// one that never hits in this session (BreakpointRow::neverHits) is grey, its tooltip says why.
// Checking a box changes nothing here: it emits enableRequested() (an intent), and the next
// ControlState says what the controller did.

#include "engine/workbench/snapshots.h"

#include <QAbstractTableModel>

namespace opbench::ui {

class BreakpointListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns { BreakpointColumn, TypeColumn, HitsColumn, ColumnCount };
    enum Roles { IdRole = Qt::UserRole + 1 };

    explicit BreakpointListModel(QObject *parent = nullptr);

    /// Takes the list and the last hit from a control state.
    void apply(const workbench::ControlState &state);
    /// The row of breakpoint `id`, or -1.
    [[nodiscard]] int rowOf(int id) const;
    [[nodiscard]] int lastHitId() const { return m_lastHit; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role) override;

Q_SIGNALS:
    void enableRequested(int id, bool enabled);

private:
    QList<workbench::BreakpointRow> m_rows;
    int m_lastHit = 0;
};

} // namespace opbench::ui
