// SPDX-License-Identifier: Apache-2.0
#include "ui/models/queueitemsmodel.h"

#include "ui/widgets/palette.h"

#include <algorithm>

namespace opbench::ui {

QueueItemsModel::QueueItemsModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void QueueItemsModel::apply(const QList<QueueRow> &rows)
{
    QList<QueueRow> next = rows;
    std::sort(next.begin(), next.end(), [](const QueueRow &a, const QueueRow &b) { return a.key < b.key; });
    int i = 0;
    for (const QueueRow &row : std::as_const(next)) {
        while (i < m_rows.size() && m_rows.at(i).key < row.key) {
            beginRemoveRows({}, i, i);
            m_rows.removeAt(i);
            endRemoveRows();
        }
        if (i < m_rows.size() && m_rows.at(i).key == row.key) {
            if (!(m_rows.at(i) == row)) {
                m_rows[i] = row;
                Q_EMIT dataChanged(index(i, 0), index(i, ColumnCount - 1));
            }
        } else {
            beginInsertRows({}, i, i);
            m_rows.insert(i, row);
            endInsertRows();
        }
        ++i;
    }
    if (i < m_rows.size()) {
        beginRemoveRows({}, i, int(m_rows.size()) - 1);
        m_rows.resize(i);
        endRemoveRows();
    }
}

int QueueItemsModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }

int QueueItemsModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant QueueItemsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case KeyColumn:
        return tr("Key");
    case StateColumn:
        return tr("State");
    case PriorityColumn:
        return tr("Prio");
    case RetriesColumn:
        return tr("Tries");
    case CausesColumn:
        return tr("Causes");
    default:
        return {};
    }
}

QString QueueItemsModel::stateText(const QueueRow &row)
{
    // The backoff as a countdown while it lasts, and what it was once the key is tried again.
    if (row.state == u"waiting" && row.readyInMs >= 0)
        return row.readyInMs < 1000 ? tr("backoff: ready in %1 ms").arg(row.readyInMs)
                                    : tr("backoff: ready in %1 s").arg(double(row.readyInMs) / 1000.0, 0, 'f', 1);
    if (row.retries > 0 && row.backoffMs >= 0 && row.state != u"idle")
        return tr("%1 · retry %2 after %3 ms backoff").arg(row.state).arg(row.retries).arg(row.backoffMs);
    return row.retries > 0 && row.state == u"queued" ? tr("retry %1").arg(row.retries) : row.state;
}

QVariant QueueItemsModel::display(const QueueRow &row, int column) const
{
    switch (column) {
    case KeyColumn:
        return row.key;
    case StateColumn:
        return stateText(row);
    case PriorityColumn:
        return row.priority;
    case RetriesColumn:
        return row.retries;
    case CausesColumn:
        return row.causes.isEmpty() ? QString() : row.causes.join(QStringLiteral(" · "));
    default:
        return {};
    }
}

QVariant QueueItemsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QueueRow &row = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return display(row, index.column());
    case Qt::ToolTipRole:
        return row.causes.join(u'\n');
    case Qt::ForegroundRole:
        if (index.column() == StateColumn)
            return row.retries > 0 ? resultColour(ResultColour::RateLimited) : QVariant();
        return {};
    case KeyRole:
        return row.key;
    case CausesRole:
        return row.causes;
    default:
        return {};
    }
}

} // namespace opbench::ui
