// SPDX-License-Identifier: Apache-2.0
#include "ui/models/breakpointlistmodel.h"

#include <QBrush>
#include <QFont>

namespace opbench::ui {

BreakpointListModel::BreakpointListModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void BreakpointListModel::apply(const workbench::ControlState &state)
{
    const bool sameIds = [&] {
        if (state.breakpointList.size() != m_rows.size())
            return false;
        for (qsizetype i = 0; i < m_rows.size(); ++i)
            if (m_rows.at(i).id != state.breakpointList.at(i).id)
                return false;
        return true;
    }();
    m_lastHit = state.paused ? state.lastBreakId : 0;
    if (!sameIds) {
        beginResetModel();
        m_rows = state.breakpointList;
        endResetModel();
        return;
    }
    m_rows = state.breakpointList;
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
}

int BreakpointListModel::rowOf(int id) const
{
    for (qsizetype i = 0; i < m_rows.size(); ++i)
        if (m_rows.at(i).id == id)
            return int(i);
    return -1;
}

int BreakpointListModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }

int BreakpointListModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant BreakpointListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const workbench::BreakpointRow &r = m_rows.at(index.row());
    if (role == IdRole)
        return r.id;
    if (role == Qt::FontRole && r.id == m_lastHit) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (!r.neverHits.isEmpty()) { // greyed, every column saying why
        if (role == Qt::ForegroundRole)
            return QBrush(Qt::gray);
        if (role == Qt::ToolTipRole)
            return r.neverHits;
    }
    switch (index.column()) {
    case BreakpointColumn:
        if (role == Qt::CheckStateRole)
            return r.enabled ? Qt::Checked : Qt::Unchecked;
        if (role == Qt::DisplayRole)
            return r.id == m_lastHit ? tr("%1  ← hit").arg(r.description) : r.description;
        if (role == Qt::ToolTipRole)
            return r.enabled ? tr("Uncheck to keep it without stopping") : tr("Disabled: check to stop here again");
        break;
    case TypeColumn:
        if (role == Qt::DisplayRole)
            return r.type;
        break;
    case HitsColumn:
        if (role == Qt::DisplayRole)
            return r.hits;
        break;
    default:
        break;
    }
    return {};
}

QVariant BreakpointListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case BreakpointColumn:
        return tr("Breakpoint");
    case TypeColumn:
        return tr("Type");
    case HitsColumn:
        return tr("Hits");
    default:
        return {};
    }
}

Qt::ItemFlags BreakpointListModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() == BreakpointColumn)
        f |= Qt::ItemIsUserCheckable;
    return f;
}

bool BreakpointListModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (!index.isValid() || index.column() != BreakpointColumn || role != Qt::CheckStateRole)
        return false;
    // An intent: the row changes when the controller's next state says so.
    Q_EMIT enableRequested(m_rows.at(index.row()).id, value.toInt() == Qt::Checked);
    return false;
}

} // namespace opbench::ui
